package dev.gym4j.environments.citation_if;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntPredicate;

import dev.gym4j.json.FieldError;

/**
 * A row's {@code verifier.id_regex}, for matching whole citation IDs in linear time. Rows are untrusted,
 * so only the shape citation ID schemes use is accepted: a concatenation of atoms (a literal letter, digit,
 * {@code _ : -}; {@code \d}; {@code \w}; a class of such characters and ranges), each optionally
 * quantified by {@code ? * +} or {@code {n}}, {@code {n,}}, {@code {n,m}} (at most 64). None of these
 * characters is a citation delimiter or a comma, which is what lets a grammar find an ID without
 * backtracking. Matching simulates the automaton: time linear in the text, whatever the pattern.
 */
final class IdPattern {
  private static final int MAX_REPEAT = 64;
  private final List<Atom> atoms;

  private record Atom(IntPredicate accepts, int min, int max) {}   // max -1: unbounded

  private IdPattern(List<Atom> atoms) {
    this.atoms = atoms;
  }

  /** Parses the pattern, or fails with a 422 naming the field. */
  static IdPattern parse(String regex) {
    List<Atom> atoms = new ArrayList<>();
    int i = 0;
    while (i < regex.length()) {
      IntPredicate accepts;
      char c = regex.charAt(i);
      if (c == '\\' && i + 1 < regex.length() && (regex.charAt(i + 1) == 'd' || regex.charAt(i + 1) == 'w')) {
        accepts = regex.charAt(i + 1) == 'd' ? Character::isDigit : IdPattern::isWord;
        i += 2;
      } else if (c == '[') {
        int close = regex.indexOf(']', i + 1);
        if (close < 0) {
          throw invalid("an unclosed character class");
        }
        accepts = characterClass(regex.substring(i + 1, close));
        i = close + 1;
      } else if (isIdChar(c)) {
        accepts = x -> x == c;
        i++;
      } else {
        throw invalid("'" + c + "' at " + i);
      }
      int min = 1;
      int max = 1;
      if (i < regex.length()) {
        switch (regex.charAt(i)) {
          case '?' -> { min = 0; i++; }
          case '*' -> { min = 0; max = -1; i++; }
          case '+' -> { max = -1; i++; }
          case '{' -> {
            int close = regex.indexOf('}', i);
            if (close < 0) {
              throw invalid("an unclosed repetition");
            }
            String[] bounds = regex.substring(i + 1, close).split(",", -1);
            try {
              min = Integer.parseInt(bounds[0]);
              max = bounds.length == 1 ? min : bounds[1].isEmpty() ? -1 : Integer.parseInt(bounds[1]);
            } catch (NumberFormatException e) {
              throw invalid("a repetition that is not {n}, {n,} or {n,m}");
            }
            if (bounds.length > 2 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min)) {
              throw invalid("a repetition over " + MAX_REPEAT + " or out of order");
            }
            i = close + 1;
          }
          default -> { }
        }
      }
      atoms.add(new Atom(accepts, min, max));
    }
    if (atoms.isEmpty()) {
      throw invalid("an empty pattern");
    }
    return new IdPattern(atoms);
  }

  private static IntPredicate characterClass(String body) {
    if (body.isEmpty()) {
      throw invalid("an empty character class");
    }
    BitSet chars = new BitSet();
    List<IntPredicate> classes = new ArrayList<>();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\\' && i + 1 < body.length() && (body.charAt(i + 1) == 'd' || body.charAt(i + 1) == 'w')) {
        classes.add(body.charAt(i + 1) == 'd' ? Character::isDigit : IdPattern::isWord);
        i++;
      } else if (isIdChar(c) && i + 2 < body.length() && body.charAt(i + 1) == '-' && isIdChar(body.charAt(i + 2))) {
        if (body.charAt(i + 2) < c) {
          throw invalid("a range out of order");
        }
        chars.set(c, body.charAt(i + 2) + 1);
        i += 2;
      } else if (isIdChar(c)) {
        chars.set(c);
      } else {
        throw invalid("'" + c + "' in a character class");
      }
    }
    return x -> (x < 128 && chars.get(x)) || classes.stream().anyMatch(p -> p.test(x));
  }

  private static boolean isIdChar(char c) {
    return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '-');
  }

  /** Python's {@code \w}: letters, numbers of every kind, underscore. */
  static boolean isWord(int c) {
    int type = Character.getType(c);
    return Character.isLetterOrDigit(c) || c == '_' || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER;
  }

  /** Whether an ID character may occur in a match (so a grammar knows where an ID run ends). */
  boolean mayContain(int c) {
    return atoms.stream().anyMatch(atom -> atom.accepts().test(c));
  }

  /** Whether the whole of {@code text} matches. */
  boolean matches(CharSequence text) {
    // positions in the expanded atom list: atom a, having matched k of it
    int states = atoms.stream().mapToInt(a -> a.max() < 0 ? a.min() + 1 : a.max() + 1).sum();
    int[] base = new int[atoms.size()];
    for (int a = 1; a < atoms.size(); a++) {
      Atom previous = atoms.get(a - 1);
      base[a] = base[a - 1] + (previous.max() < 0 ? previous.min() + 1 : previous.max() + 1);
    }
    BitSet current = closure(bit(0), base, states);
    for (int i = 0; i < text.length() && !current.isEmpty(); i++) {
      int c = text.charAt(i);
      BitSet next = new BitSet(states + 1);
      for (int s = current.nextSetBit(0); s >= 0; s = current.nextSetBit(s + 1)) {
        if (s == states) {
          continue;
        }
        int a = atomOf(s, base);
        Atom atom = atoms.get(a);
        int k = s - base[a];
        if ((atom.max() < 0 || k < atom.max()) && atom.accepts().test(c)) {
          next.set(atom.max() < 0 ? base[a] + Math.min(k + 1, atom.min()) : base[a] + k + 1);
        }
      }
      current = closure(next, base, states);
    }
    return current.get(states);
  }

  /** Adds the states reachable without reading: an atom done (k ≥ min) moves on to the next one. */
  private BitSet closure(BitSet set, int[] base, int states) {
    BitSet out = (BitSet) set.clone();
    for (int a = 0; a < atoms.size(); a++) {
      Atom atom = atoms.get(a);
      int done = atom.max() < 0 ? atom.min() : atom.max();
      for (int k = atom.min(); k <= done; k++) {
        if (out.get(base[a] + k)) {
          out.set(a + 1 < atoms.size() ? base[a + 1] : states);
        }
      }
    }
    return out;
  }

  private int atomOf(int state, int[] base) {
    int a = 0;
    while (a + 1 < atoms.size() && base[a + 1] <= state) {
      a++;
    }
    return a;
  }

  private static BitSet bit(int index) {
    BitSet set = new BitSet();
    set.set(index);
    return set;
  }

  private static FieldError invalid(String what) {
    return new FieldError(List.of("verifier", "id_regex"), "is limited to citation ID patterns (letters, digits, "
        + "_ : -, \\d, \\w, classes of these, ? * + {n,m}); found " + what, "value_error");
  }
}
