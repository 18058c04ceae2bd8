package dev.gym4j.environments.mcqa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.BoundedText;
import tools.jackson.databind.JsonNode;

/**
 * Reading a multiple-choice answer out of a model's text, as NeMo Gym's mcqa verifier does: the options
 * of a row, the last brace-balanced {@code \boxed{…}}, {@code \text{…}} wrappers, the strict and lenient
 * letter rules, and a dataset's own {@code output_regex}.
 */
public final class Choices {
  private static final Pattern TEXT_WRAPPER = Pattern.compile("\\\\text\\{\\s*(.*)\\s*\\}", Pattern.DOTALL);
  private static final Pattern LONE_LETTER = Pattern.compile("[^A-Za-z]*([A-Z])[^A-Za-z]*");
  private static final Pattern LABELLED = Pattern.compile("([A-Z])\\s*[:).\\-].*", Pattern.DOTALL);
  private static final Pattern ANSWER_COLON = Pattern.compile("(?i)answer\\s*:\\s*(.+)");
  private static final Pattern ANSWER_COLON_MD = Pattern.compile("(?i)[*_#\\s]*answer[*_]*\\s*:[*_\\s]*(.+)");
  private static final java.time.Duration BUDGET = java.time.Duration.ofSeconds(1);

  /** Option letter → option text, for the options that have a text. */
  private final Map<String, String> options = new LinkedHashMap<>();

  public Choices(JsonNode optionList) {
    for (JsonNode option : optionList) {
      for (var entry : option.properties()) {
        String key = entry.getKey();
        if (key.length() == 1 && Character.isLetter(key.charAt(0)) && entry.getValue().isString()) {
          options.put(key.toUpperCase(Locale.ROOT), entry.getValue().stringValue());
        }
        break;
      }
    }
  }

  public boolean hasOptions() {
    return !options.isEmpty();
  }

  public boolean allowed(String letter) {
    return options.containsKey(letter);
  }

  /** The content of the last {@code \boxed{…}} with its braces balanced, or null. */
  public static String lastBoxed(String text) {
    return dev.gym4j.text.Boxed.last(text);
  }


  /** Removes {@code \text{…}} wrappers around the whole string, repeatedly. */
  public static String peelText(String text) {
    String current = text.strip();
    while (true) {
      Matcher matcher = TEXT_WRAPPER.matcher(current);
      if (!matcher.matches()) {
        return current;
      }
      current = matcher.group(1).strip();
    }
  }

  /** {@code strict_single_letter_boxed}: a lone capital in the last box, or a labelled one ({@code E: …}). */
  public String strictBoxed(String text) {
    String boxed = lastBoxed(text);
    if (boxed == null) {
      return null;
    }
    String inner = peelText(boxed);
    Matcher lone = LONE_LETTER.matcher(inner);
    String letter = null;
    if (lone.matches()) {
      letter = lone.group(1);
    } else {
      Matcher labelled = LABELLED.matcher(inner);
      if (labelled.matches()) {
        letter = labelled.group(1);
      }
    }
    return letter != null && allowed(letter) ? letter : null;
  }

  /** {@code lenient_boxed}: strict, else the one option whose text the box holds. */
  public String lenientBoxed(String text) {
    String strict = strictBoxed(text);
    if (strict != null) {
      return strict;
    }
    String boxed = lastBoxed(text);
    if (boxed == null) {
      return null;
    }
    List<String> candidates = List.of(normalize(boxed), normalize(peelText(boxed)));
    String found = null;
    for (var option : options.entrySet()) {
      String optionText = normalize(option.getValue());
      if (!optionText.isEmpty() && candidates.stream().anyMatch(candidate -> candidate.contains(optionText))) {
        if (found != null && !found.equals(option.getKey())) {
          return null;
        }
        found = option.getKey();
      }
    }
    return found;
  }

  /** {@code lenient_answer_colon}: the first {@code Answer:} payload, a letter or an option's text. */
  public String answerColon(String text) {
    Matcher matcher = ANSWER_COLON.matcher(text);
    return matcher.find() ? letterOrOption(peelText(matcher.group(1))) : null;
  }

  /**
   * {@code lenient_answer_colon_md}: {@code Answer:} lines with markdown emphasis around them, last to
   * first; a payload naming more than one option ("A or B") is not an answer.
   */
  public String answerColonMarkdown(String text) {
    List<String> payloads = new ArrayList<>();
    Matcher matcher = ANSWER_COLON_MD.matcher(text);
    while (matcher.find()) {
      payloads.add(matcher.group(1));
    }
    for (String payload : payloads.reversed()) {
      String cleaned = payload.replaceAll("[*_`]", "").strip();
      if (cleaned.matches("(?i).*\\b[A-Z]\\b.*\\b(or|and)\\b.*\\b[A-Z]\\b.*")) {
        continue;
      }
      String letter = letterOrOption(peelText(cleaned.replaceAll("[.\\s]+$", "")));
      if (letter != null) {
        return letter;
      }
    }
    return null;
  }

  /**
   * A dataset's own {@code output_regex} (one or several): matched ignoring case, the last match wins; a
   * captured letter (Latin, Arabic, Bengali or full-width) is taken as is, other text must be an option's.
   */
  public String customRegex(String text, JsonNode regexes) {
    List<String> patterns = new ArrayList<>();
    if (regexes.isString()) {
      patterns.add(regexes.stringValue());
    } else {
      regexes.forEach(regex -> patterns.add(regex.asString()));
    }
    String captured = null;
    int lastStart = -1;
    BoundedText bounded = BoundedText.of(text, BUDGET);
    for (String regex : patterns) {
      Matcher matcher = Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(bounded);
      while (matcher.find()) {
        if (matcher.start() >= lastStart) {
          lastStart = matcher.start();
          captured = matcher.groupCount() >= 1 && matcher.group(1) != null ? matcher.group(1) : matcher.group();
        }
      }
    }
    if (captured == null) {
      return null;
    }
    String value = peelText(captured);
    String letter = foreignLetter(value);
    if (letter != null) {
      return letter;
    }
    return optionWithText(value);
  }

  private String letterOrOption(String candidate) {
    if (candidate.length() == 1 && Character.isLetter(candidate.charAt(0))) {
      String letter = candidate.toUpperCase(Locale.ROOT);
      return allowed(letter) ? letter : null;
    }
    return optionWithText(candidate);
  }

  private String optionWithText(String candidate) {
    String wanted = normalize(candidate);
    for (var option : options.entrySet()) {
      if (normalize(option.getValue()).equals(wanted)) {
        return option.getKey();
      }
    }
    return null;
  }

  /** A single letter, mapping Arabic, Bengali and full-width option letters to A–D / A–Z. */
  static String foreignLetter(String value) {
    String trimmed = value.strip();
    if (trimmed.codePointCount(0, trimmed.length()) != 1) {
      return null;
    }
    int c = trimmed.codePointAt(0);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      return String.valueOf((char) Character.toUpperCase(c));
    }
    if (c >= 0xFF21 && c <= 0xFF3A) {
      return String.valueOf((char) ('A' + c - 0xFF21));
    }
    if (c >= 0xFF41 && c <= 0xFF5A) {
      return String.valueOf((char) ('A' + c - 0xFF41));
    }
    int arabic = "أبجد".indexOf(c);
    if (arabic >= 0) {
      return String.valueOf((char) ('A' + arabic));
    }
    int bengali = "কখগঘ".indexOf(c);
    return bengali >= 0 ? String.valueOf((char) ('A' + bengali)) : null;
  }

  static String normalize(String text) {
    return String.join(" ", text.toLowerCase(Locale.ROOT).strip().split("\\s+"));
  }
}
