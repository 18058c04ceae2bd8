package dev.gym4j.environments.asr_with_pc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * Spelled-out English numbers to Arabic digits, the number step of Whisper's English text normaliser (the
 * {@code whisper_normalizer} package NeMo Gym's asr_with_pc uses): "twenty one" becomes 21, "one oh one" 101,
 * "ten thousand dollars" $10000, "fifth" 5th, "two point five" 2.5, "fifty per cent" 50%. A number under
 * construction is either exact ({@link BigInteger}) or a digit string (successive digits read as a nominal
 * number), as in the original.
 */
final class EnglishNumbers {
  private static final Pattern NUMERIC = PythonRegex.compile("^\\d+(\\.\\d+)?$");
  private static final Pattern AND_A_HALF = PythonRegex.compile("\\band\\s+a\\s+half\\b");
  private static final Pattern LETTER_DIGIT = Pattern.compile("([a-z])([0-9])");
  private static final Pattern DIGIT_LETTER = Pattern.compile("([0-9])([a-z])");
  private static final Pattern SUFFIX = PythonRegex.compile("([0-9])\\s+(st|nd|rd|th|s)\\b");
  private static final Pattern CENTS = PythonRegex.compile("([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\\b");
  private static final Pattern ONLY_CENTS = PythonRegex.compile("[€£$]0.([0-9]{1,2})\\b");
  private static final Pattern ONE = PythonRegex.compile("\\b1(s?)\\b");
  private static final Pattern FRACTION = PythonRegex.compile("^(?=\\d|\\.\\d)\\d*(\\.\\d*)?$");

  private static final List<String> ONES_NAMES = List.of("one", "two", "three", "four", "five", "six", "seven",
      "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
      "eighteen", "nineteen");
  private static final Set<String> ZEROS = new HashSet<>(List.of("o", "oh", "zero"));
  private static final Map<String, Integer> ONES = new HashMap<>();
  private static final Map<String, Suffixed> ONES_SUFFIXED = new HashMap<>();
  private static final Map<String, Integer> TENS = new HashMap<>(Map.of("twenty", 20, "thirty", 30, "forty", 40,
      "fifty", 50, "sixty", 60, "seventy", 70, "eighty", 80, "ninety", 90));
  private static final Map<String, Suffixed> TENS_SUFFIXED = new HashMap<>();
  private static final Map<String, BigInteger> MULTIPLIERS = new HashMap<>();
  private static final Map<String, Suffixed> MULTIPLIERS_SUFFIXED = new HashMap<>();
  private static final Set<String> DECIMALS = new HashSet<>();
  private static final Map<String, String> PRECEDING_PREFIXERS = Map.of("minus", "-", "negative", "-", "plus", "+",
      "positive", "+");
  private static final Map<String, String> FOLLOWING_PREFIXERS = Map.of("pound", "£", "pounds", "£", "euro", "€",
      "euros", "€", "dollar", "$", "dollars", "$", "cent", "¢", "cents", "¢");
  private static final Set<Character> PREFIXES = Set.of('-', '+', '£', '€', '$', '¢');
  private static final Set<String> SPECIALS = Set.of("and", "double", "triple", "point");
  private static final Set<String> WORDS = new HashSet<>();

  /** A number word with a suffix: "fifths" → (5, "s"), "fifth" → (5, "th"). */
  private record Suffixed(BigInteger value, String suffix) {}

  static {
    for (int i = 0; i < ONES_NAMES.size(); i++) {
      String name = ONES_NAMES.get(i);
      int value = i + 1;
      ONES.put(name, value);
      ONES_SUFFIXED.put(name.equals("six") ? "sixes" : name + "s", new Suffixed(BigInteger.valueOf(value), "s"));
    }
    Map<String, Integer> ordinals = Map.of("zeroth", 0, "first", 1, "second", 2, "third", 3, "fifth", 5,
        "twelfth", 12);
    ordinals.forEach((name, value) -> ONES_SUFFIXED.put(name, new Suffixed(BigInteger.valueOf(value),
        switch (value) { case 1 -> "st"; case 2 -> "nd"; case 3 -> "rd"; default -> "th"; })));
    ONES.forEach((name, value) -> {
      if (value > 3 && value != 5 && value != 12) {
        ONES_SUFFIXED.put(name + (name.endsWith("t") ? "h" : "th"), new Suffixed(BigInteger.valueOf(value), "th"));
      }
    });
    TENS.forEach((name, value) -> {
      TENS_SUFFIXED.put(name.replace("y", "ies"), new Suffixed(BigInteger.valueOf(value), "s"));
      TENS_SUFFIXED.put(name.replace("y", "ieth"), new Suffixed(BigInteger.valueOf(value), "th"));
    });
    String[] names = {"hundred", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion",
        "sextillion", "septillion", "octillion", "nonillion", "decillion"};
    for (int i = 0; i < names.length; i++) {
      BigInteger value = i == 0 ? BigInteger.valueOf(100) : BigInteger.TEN.pow(3 * i);
      MULTIPLIERS.put(names[i], value);
      MULTIPLIERS_SUFFIXED.put(names[i] + "s", new Suffixed(value, "s"));
      MULTIPLIERS_SUFFIXED.put(names[i] + "th", new Suffixed(value, "th"));
    }
    DECIMALS.addAll(ONES.keySet());
    DECIMALS.addAll(TENS.keySet());
    DECIMALS.addAll(ZEROS);
    for (var keys : List.of(ZEROS, ONES.keySet(), ONES_SUFFIXED.keySet(), TENS.keySet(), TENS_SUFFIXED.keySet(),
        MULTIPLIERS.keySet(), MULTIPLIERS_SUFFIXED.keySet(), PRECEDING_PREFIXERS.keySet(),
        FOLLOWING_PREFIXERS.keySet(), Set.of("per", "percent"), SPECIALS)) {
      WORDS.addAll(keys);
    }
  }

  private EnglishNumbers() {}

  static String normalize(String text) {
    List<String> words = new Reader().read(PythonText.split(preprocess(text)));
    return postprocess(String.join(" ", words));
  }

  /** "<number> and a half" as "<number> point five"; spaces at digit/letter boundaries, except before a suffix. */
  static String preprocess(String text) {
    List<String> results = new ArrayList<>();
    String[] segments = AND_A_HALF.split(text, -1);
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (PythonText.strip(segment).isEmpty()) {
        continue;
      }
      results.add(segment);
      if (i < segments.length - 1) {
        List<String> parts = PythonText.split(segment);
        String last = parts.getLast();
        results.add(DECIMALS.contains(last) || MULTIPLIERS.containsKey(last) ? "point five" : "and a half");
      }
    }
    String s = String.join(" ", results);
    s = PythonRegex.sub(LETTER_DIGIT, s, "\\1 \\2");
    s = PythonRegex.sub(DIGIT_LETTER, s, "\\1 \\2");
    return PythonRegex.sub(SUFFIX, s, "\\1\\2");
  }

  /** "$2 and ¢7" as "$2.07", "$0.07" as "¢7", and "1(s)" written "one(s)". */
  static String postprocess(String text) {
    String s = PythonRegex.sub(CENTS, text, match -> match.group(1) + match.group(2) + "."
        + String.format("%02d", Integer.parseInt(match.group(3))));
    s = PythonRegex.sub(ONLY_CENTS, s, match -> "¢" + Integer.parseInt(match.group(1)));
    return PythonRegex.sub(ONE, s, "one\\1");
  }

  /** Python's {@code Fraction(text)} for the digit strings built here; null where it would raise. */
  static BigDecimal fraction(String text) {
    if (!FRACTION.matcher(text).matches()) {
      return null;
    }
    StringBuilder ascii = new StringBuilder();
    text.codePoints().forEach(c -> ascii.append(c == '.' ? '.' : (char) ('0' + Character.digit(c, 10))));
    String digits = ascii.toString();
    if (digits.startsWith(".")) {
      digits = "0" + digits;
    }
    if (digits.endsWith(".")) {
      digits = digits.substring(0, digits.length() - 1);
    }
    return new BigDecimal(digits);
  }

  private static boolean isInteger(BigDecimal value) {
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  /** The word-by-word state machine: a prefix ("$", "-") and the number being read, if any. */
  private static final class Reader {
    private String prefix;
    /** null, a {@link BigInteger}, or a String of digits (possibly with a "."). */
    private Object value;
    private final List<String> out = new ArrayList<>();

    private void output(Object result) {
      String text = result instanceof BigInteger number ? number.toString() : (String) result;
      if (prefix != null) {
        text = prefix + text;
      }
      value = null;
      prefix = null;
      out.add(text);
    }

    private void flush() {
      if (value != null) {
        output(value);
      }
    }

    /** Python's {@code str(value or "")}: None, 0 and "" are all falsy. */
    private String valueOrEmpty() {
      if (value == null || value instanceof BigInteger n && n.signum() == 0 || "".equals(value)) {
        return "";
      }
      return String.valueOf(value);
    }

    private static String str(Object value) {
      return String.valueOf(value);
    }

    List<String> read(List<String> words) {
      if (words.isEmpty()) {
        return out;
      }
      boolean skip = false;
      for (int i = 0; i < words.size(); i++) {
        String prev = i > 0 ? words.get(i - 1) : null;
        String current = words.get(i);
        String next = i + 1 < words.size() ? words.get(i + 1) : null;
        if (skip) {
          skip = false;
          continue;
        }
        boolean nextIsNumeric = next != null && NUMERIC.matcher(next).find();
        boolean hasPrefix = PREFIXES.contains(current.charAt(0));
        String withoutPrefix = hasPrefix ? current.substring(1) : current;
        if (NUMERIC.matcher(withoutPrefix).find()) {
          BigDecimal f = fraction(withoutPrefix);
          if (value != null) {
            if (value instanceof String s && s.endsWith(".")) {
              value = s + current; // decimals and IP address parts
              continue;
            }
            output(value);
          }
          prefix = hasPrefix ? String.valueOf(current.charAt(0)) : prefix;
          value = isInteger(f) ? f.toBigIntegerExact() : withoutPrefix;
        } else if (!WORDS.contains(current)) {
          flush();
          output(current);
        } else if (ZEROS.contains(current)) {
          value = valueOrEmpty() + "0";
        } else if (ONES.containsKey(current)) {
          int ones = ONES.get(current);
          if (value == null) {
            value = BigInteger.valueOf(ones);
          } else if (value instanceof String || ONES.containsKey(prev)) {
            String s = str(value);
            if (TENS.containsKey(prev) && ones < 10) {
              requireTrailingZero(s);
              value = s.substring(0, s.length() - 1) + ones;
            } else {
              value = s + ones;
            }
          } else {
            BigInteger n = (BigInteger) value;
            BigInteger unit = BigInteger.valueOf(ones < 10 ? 10 : 100);
            value = n.mod(unit).signum() == 0 ? n.add(BigInteger.valueOf(ones)) : n + String.valueOf(ones);
          }
        } else if (ONES_SUFFIXED.containsKey(current)) {
          Suffixed word = ONES_SUFFIXED.get(current);
          int ones = word.value().intValue();
          if (value == null) {
            output(ones + word.suffix());
          } else if (value instanceof String || ONES.containsKey(prev)) {
            String s = str(value);
            if (TENS.containsKey(prev) && ones < 10) {
              requireTrailingZero(s);
              output(s.substring(0, s.length() - 1) + ones + word.suffix());
            } else {
              output(s + ones + word.suffix());
            }
          } else {
            BigInteger n = (BigInteger) value;
            BigInteger unit = BigInteger.valueOf(ones < 10 ? 10 : 100);
            output((n.mod(unit).signum() == 0 ? n.add(word.value()).toString() : n.toString() + ones) + word.suffix());
          }
          value = null;
        } else if (TENS.containsKey(current)) {
          BigInteger tens = BigInteger.valueOf(TENS.get(current));
          if (value == null) {
            value = tens;
          } else if (value instanceof String s) {
            value = s + tens;
          } else {
            BigInteger n = (BigInteger) value;
            value = n.mod(BigInteger.valueOf(100)).signum() == 0 ? n.add(tens) : n.toString() + tens;
          }
        } else if (TENS_SUFFIXED.containsKey(current)) {
          Suffixed word = TENS_SUFFIXED.get(current);
          if (value == null) {
            output(word.value() + word.suffix());
          } else if (value instanceof String s) {
            output(s + word.value() + word.suffix());
          } else {
            BigInteger n = (BigInteger) value;
            output((n.mod(BigInteger.valueOf(100)).signum() == 0 ? n.add(word.value()).toString()
                : n.toString() + word.value()) + word.suffix());
          }
        } else if (MULTIPLIERS.containsKey(current)) {
          BigInteger multiplier = MULTIPLIERS.get(current);
          if (value == null) {
            value = multiplier;
          } else if (value instanceof String || ((BigInteger) value).signum() == 0) {
            BigDecimal f = value instanceof String s ? fraction(s) : BigDecimal.ZERO;
            BigDecimal product = f == null ? null : f.multiply(new BigDecimal(multiplier));
            if (product != null && isInteger(product)) {
              value = product.toBigIntegerExact();
            } else {
              output(value);
              value = multiplier;
            }
          } else {
            value = scaled((BigInteger) value, multiplier);
          }
        } else if (MULTIPLIERS_SUFFIXED.containsKey(current)) {
          Suffixed word = MULTIPLIERS_SUFFIXED.get(current);
          if (value == null) {
            output(word.value() + word.suffix());
          } else if (value instanceof String s) {
            BigDecimal f = fraction(s);
            BigDecimal product = f == null ? null : f.multiply(new BigDecimal(word.value()));
            if (product != null && isInteger(product)) {
              output(product.toBigIntegerExact() + word.suffix());
            } else {
              output(value);
              output(word.value() + word.suffix());
            }
          } else {
            value = scaled((BigInteger) value, word.value());
            output(value + word.suffix());
          }
          value = null;
        } else if (PRECEDING_PREFIXERS.containsKey(current)) {
          flush();
          if (next != null && WORDS.contains(next) || nextIsNumeric) {
            prefix = PRECEDING_PREFIXERS.get(current);
          } else {
            output(current);
          }
        } else if (FOLLOWING_PREFIXERS.containsKey(current)) {
          if (value != null) {
            prefix = FOLLOWING_PREFIXERS.get(current);
            output(value);
          } else {
            output(current);
          }
        } else if (current.equals("per") || current.equals("percent")) {
          if (value != null) {
            if (current.equals("per")) {
              if ("cent".equals(next)) {
                output(str(value) + "%");
                skip = true;
              } else {
                output(value);
                output(current);
              }
            } else {
              output(str(value) + "%");
            }
          } else {
            output(current);
          }
        } else {
          special(prev, current, next, nextIsNumeric);
          skip = skipNext;
          skipNext = false;
        }
      }
      flush();
      return out;
    }

    private boolean skipNext;

    /** "and", "double", "triple" and "point". */
    private void special(String prev, String current, String next, boolean nextIsNumeric) {
      if (!(next != null && WORDS.contains(next)) && !nextIsNumeric) {
        flush();
        output(current);
      } else if (current.equals("and")) {
        if (!(prev != null && MULTIPLIERS.containsKey(prev))) {
          flush();
          output(current);
        }
      } else if (current.equals("double") || current.equals("triple")) {
        if (next != null && (ONES.containsKey(next) || ZEROS.contains(next))) {
          int repeats = current.equals("double") ? 2 : 3;
          value = valueOrEmpty() + String.valueOf(ONES.getOrDefault(next, 0)).repeat(repeats);
          skipNext = true;
        } else {
          flush();
          output(current);
        }
      } else if (current.equals("point")) {
        if (DECIMALS.contains(next) || nextIsNumeric) {
          value = valueOrEmpty() + ".";
        }
      }
    }

    private static BigInteger scaled(BigInteger value, BigInteger multiplier) {
      BigInteger thousand = BigInteger.valueOf(1000);
      BigInteger before = value.divide(thousand).multiply(thousand);
      return before.add(value.mod(thousand).multiply(multiplier));
    }

    private static void requireTrailingZero(String value) {
      if (!value.endsWith("0")) {
        // Whisper's normaliser asserts this; it cannot fail for words read through this state machine
        throw new IllegalStateException("number under construction does not end in 0: " + value);
      }
    }
  }
}
