package dev.gym4j.environments.rolemrc;

import java.util.Map;
import java.util.function.Predicate;

/**
 * The Porter stemmer as NLTK runs it by default (its NLTK_EXTENSIONS mode), which rouge_score uses for
 * {@code use_stemmer=True}: Porter's five steps, with NLTK's irregular forms (dying → die, skies → sky), its
 * {@code -ies}/{@code -ied} handling of four-letter words, y → i only after a consonant, {@code -bli},
 * {@code -fulli} and {@code -logi} in step 2, and words of two letters left alone.
 */
final class PorterStemmer {
  private static final Map<String, String> IRREGULAR = Map.ofEntries(Map.entry("sky", "sky"),
      Map.entry("skies", "sky"), Map.entry("dying", "die"), Map.entry("lying", "lie"), Map.entry("tying", "tie"),
      Map.entry("news", "news"), Map.entry("innings", "inning"), Map.entry("inning", "inning"),
      Map.entry("outings", "outing"), Map.entry("outing", "outing"), Map.entry("cannings", "canning"),
      Map.entry("canning", "canning"), Map.entry("howe", "howe"), Map.entry("proceed", "proceed"),
      Map.entry("exceed", "exceed"), Map.entry("succeed", "succeed"));

  /** One suffix rule: the suffix ("*d" for a double consonant), its replacement, and when it applies. */
  private record Rule(String suffix, String replacement, Predicate<String> condition) {}

  private PorterStemmer() {}

  static String stem(String word) {
    String stem = word.toLowerCase(java.util.Locale.ROOT);
    String irregular = IRREGULAR.get(stem);
    if (irregular != null) {
      return irregular;
    }
    if (word.length() <= 2) {
      return stem;
    }
    stem = step1a(stem);
    stem = step1b(stem);
    stem = step1c(stem);
    stem = step2(stem);
    stem = step3(stem);
    stem = step4(stem);
    stem = step5a(stem);
    return step5b(stem);
  }

  private static boolean isVowel(char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
  }

  /** Consonant flags: a y is a consonant at the start or after a vowel. */
  private static boolean[] consonants(String word) {
    boolean[] flags = new boolean[word.length()];
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      flags[i] = !isVowel(c) && (c != 'y' || i == 0 || !flags[i - 1]);
    }
    return flags;
  }

  private static boolean isConsonant(String word, int i) {
    return consonants(word.substring(0, i + 1))[i];
  }

  /** The m of [C](VC){m}[V]. */
  static int measure(String stem) {
    boolean[] flags = consonants(stem);
    int m = 0;
    for (int i = 1; i < flags.length; i++) {
      if (!flags[i - 1] && flags[i]) {
        m++;
      }
    }
    return m;
  }

  private static boolean positive(String stem) {
    return measure(stem) > 0;
  }

  private static boolean containsVowel(String stem) {
    for (boolean consonant : consonants(stem)) {
      if (!consonant) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsDoubleConsonant(String word) {
    int n = word.length();
    return n >= 2 && word.charAt(n - 1) == word.charAt(n - 2) && isConsonant(word, n - 1);
  }

  private static boolean endsCvc(String word) {
    int n = word.length();
    if (n >= 3) {
      boolean[] flags = consonants(word);
      char last = word.charAt(n - 1);
      if (flags[n - 3] && !flags[n - 2] && flags[n - 1] && last != 'w' && last != 'x' && last != 'y') {
        return true;
      }
    }
    if (n == 2) {
      boolean[] flags = consonants(word);
      return !flags[0] && flags[1];
    }
    return false;
  }

  private static String applyRules(String word, Rule... rules) {
    for (Rule rule : rules) {
      if (rule.suffix().equals("*d") && endsDoubleConsonant(word)) {
        String stem = word.substring(0, word.length() - 2);
        return rule.condition() == null || rule.condition().test(stem) ? stem + rule.replacement() : word;
      }
      if (word.endsWith(rule.suffix())) {
        String stem = word.substring(0, word.length() - rule.suffix().length());
        return rule.condition() == null || rule.condition().test(stem) ? stem + rule.replacement() : word;
      }
    }
    return word;
  }

  private static String step1a(String word) {
    if (word.endsWith("ies") && word.length() == 4) {
      return word.substring(0, 1) + "ie";
    }
    return applyRules(word, new Rule("sses", "ss", null), new Rule("ies", "i", null), new Rule("ss", "ss", null),
        new Rule("s", "", null));
  }

  private static String step1b(String word) {
    if (word.endsWith("ied")) {
      return word.substring(0, word.length() - 3) + (word.length() == 4 ? "ie" : "i");
    }
    if (word.endsWith("eed")) {
      String stem = word.substring(0, word.length() - 3);
      return measure(stem) > 0 ? stem + "ee" : word;
    }
    String intermediate = null;
    for (String suffix : new String[] {"ed", "ing"}) {
      if (word.endsWith(suffix)) {
        String candidate = word.substring(0, word.length() - suffix.length());
        if (containsVowel(candidate)) {
          intermediate = candidate;
          break;
        }
      }
    }
    if (intermediate == null) {
      return word;
    }
    String last = intermediate.isEmpty() ? "" : intermediate.substring(intermediate.length() - 1);
    return applyRules(intermediate, new Rule("at", "ate", null), new Rule("bl", "ble", null),
        new Rule("iz", "ize", null),
        new Rule("*d", last, stem -> !last.equals("l") && !last.equals("s") && !last.equals("z")),
        new Rule("", "e", stem -> measure(stem) == 1 && endsCvc(stem)));
  }

  private static String step1c(String word) {
    return applyRules(word, new Rule("y", "i", stem -> stem.length() > 1 && isConsonant(stem, stem.length() - 1)));
  }

  private static String step2(String word) {
    if (word.endsWith("alli") && positive(word.substring(0, word.length() - 4))) {
      return step2(word.substring(0, word.length() - 4) + "al");
    }
    Predicate<String> m = PorterStemmer::positive;
    return applyRules(word, new Rule("ational", "ate", m), new Rule("tional", "tion", m),
        new Rule("enci", "ence", m), new Rule("anci", "ance", m), new Rule("izer", "ize", m),
        new Rule("bli", "ble", m), new Rule("alli", "al", m), new Rule("entli", "ent", m), new Rule("eli", "e", m),
        new Rule("ousli", "ous", m), new Rule("ization", "ize", m), new Rule("ation", "ate", m),
        new Rule("ator", "ate", m), new Rule("alism", "al", m), new Rule("iveness", "ive", m),
        new Rule("fulness", "ful", m), new Rule("ousness", "ous", m), new Rule("aliti", "al", m),
        new Rule("iviti", "ive", m), new Rule("biliti", "ble", m), new Rule("fulli", "ful", m),
        new Rule("logi", "log", stem -> positive(word.substring(0, word.length() - 3))));
  }

  private static String step3(String word) {
    Predicate<String> m = PorterStemmer::positive;
    return applyRules(word, new Rule("icate", "ic", m), new Rule("ative", "", m), new Rule("alize", "al", m),
        new Rule("iciti", "ic", m), new Rule("ical", "ic", m), new Rule("ful", "", m), new Rule("ness", "", m));
  }

  private static String step4(String word) {
    Predicate<String> m = stem -> measure(stem) > 1;
    return applyRules(word, new Rule("al", "", m), new Rule("ance", "", m), new Rule("ence", "", m),
        new Rule("er", "", m), new Rule("ic", "", m), new Rule("able", "", m), new Rule("ible", "", m),
        new Rule("ant", "", m), new Rule("ement", "", m), new Rule("ment", "", m), new Rule("ent", "", m),
        new Rule("ion", "", stem -> measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))),
        new Rule("ou", "", m), new Rule("ism", "", m), new Rule("ate", "", m), new Rule("iti", "", m),
        new Rule("ous", "", m), new Rule("ive", "", m), new Rule("ize", "", m));
  }

  private static String step5a(String word) {
    if (word.endsWith("e")) {
      String stem = word.substring(0, word.length() - 1);
      int m = measure(stem);
      if (m > 1 || m == 1 && !endsCvc(stem)) {
        return stem;
      }
    }
    return word;
  }

  private static String step5b(String word) {
    return applyRules(word, new Rule("ll", "l", stem -> measure(word.substring(0, word.length() - 1)) > 1));
  }
}
