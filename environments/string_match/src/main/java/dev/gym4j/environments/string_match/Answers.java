package dev.gym4j.environments.string_match;

import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * Extracting an answer and grading it against the expected one, with the rules of NeMo Gym's string_match
 * (NeMo RL's string-match verifier): after NFKC, outer quotes, case and trailing punctuation, the first of
 * these that holds wins: equal; equal as numbers; equal without thousands commas; equal without LaTeX
 * commands; equal as word lists; equal with US state names abbreviated; numerically within 1 % (0.98);
 * equal without units. Everything else is 0.
 */
final class Answers {
  private static final Pattern FINAL_ANSWER = Pattern.compile("(?i)(?:final\\s+answer|answer)\\s*[:：]\\s*(.+)");
  private static final Pattern TEXT_WRAPPER = Pattern.compile("\\\\text\\{\\s*(.*?)\\s*\\}", Pattern.DOTALL);
  private static final Pattern UNITS = Pattern.compile("\\^\\{?\\\\circ\\}?|\\\\circ|°|cm[²³]?|mm|km|m[²³]?|kg");
  private static final List<String> LATEX_COMMANDS = List.of("\\boxed", "\\text", "\\textbf", "\\textit", "\\texttt",
      "\\mathrm", "\\mathbf", "\\mathit", "\\mathsf", "\\mathbb", "\\mathcal", "\\emph", "\\url");
  private static final Map<String, String> STATES = new LinkedHashMap<>();

  static {
    String[] pairs = {"district of columbia", "DC", "new hampshire", "NH", "new jersey", "NJ", "new mexico", "NM",
        "new york", "NY", "north carolina", "NC", "north dakota", "ND", "rhode island", "RI", "south carolina", "SC",
        "south dakota", "SD", "west virginia", "WV", "alabama", "AL", "alaska", "AK", "arizona", "AZ", "arkansas", "AR",
        "california", "CA", "colorado", "CO", "connecticut", "CT", "delaware", "DE", "florida", "FL", "georgia", "GA",
        "hawaii", "HI", "idaho", "ID", "illinois", "IL", "indiana", "IN", "iowa", "IA", "kansas", "KS", "kentucky", "KY",
        "louisiana", "LA", "maine", "ME", "maryland", "MD", "massachusetts", "MA", "michigan", "MI", "minnesota", "MN",
        "mississippi", "MS", "missouri", "MO", "montana", "MT", "nebraska", "NE", "nevada", "NV", "ohio", "OH",
        "oklahoma", "OK", "oregon", "OR", "pennsylvania", "PA", "tennessee", "TN", "texas", "TX", "utah", "UT",
        "vermont", "VT", "virginia", "VA", "washington", "WA", "wisconsin", "WI", "wyoming", "WY"};
    for (int i = 0; i < pairs.length; i += 2) {
      STATES.put(pairs[i], pairs[i + 1]);
    }
  }

  private Answers() {}

  static String extract(String text, String mode) {
    return switch (mode) {
      case "boxed" -> boxed(text);
      case "final_answer" -> {
        String answer = finalAnswer(text);
        yield answer != null ? answer : boxed(text);
      }
      case "last_line" -> PythonText.splitLines(text).reversed().stream().map(PythonText::strip)
          .filter(line -> !line.isEmpty()).findFirst().orElse(null);
      case "full_response" -> PythonText.strip(text).isEmpty() ? null : PythonText.strip(text);
      default -> throw new IllegalArgumentException(mode);
    };
  }

  static String boxed(String text) {
    String inner = dev.gym4j.text.Boxed.last(text);
    return inner == null ? null : PythonText.strip(peelText(PythonText.strip(inner)));
  }


  private static String peelText(String value) {
    String current = value;
    while (true) {
      Matcher matcher = TEXT_WRAPPER.matcher(current);
      if (!matcher.matches()) {
        return current;
      }
      current = matcher.group(1);
    }
  }

  static String finalAnswer(String text) {
    Matcher matcher = FINAL_ANSWER.matcher(text);
    String last = null;
    while (matcher.find()) {
      last = matcher.group(1);
    }
    if (last == null) {
      return null;
    }
    String raw = PythonText.strip(last);
    raw = PythonText.strip(raw.split("\\.\\s*$", 2)[0]);
    int end = raw.length();
    while (end > 0 && raw.charAt(end - 1) == '.') {
      end--;
    }
    return raw.substring(0, end);
  }

  static double grade(String expected, String predicted) {
    String pred = stripTrailingPunctuation(stripOuterQuotes(Normalizer.normalize(predicted, Normalizer.Form.NFKC))
        .toLowerCase(Locale.ROOT));
    String gold = stripTrailingPunctuation(stripOuterQuotes(Normalizer.normalize(expected, Normalizer.Form.NFKC))
        .toLowerCase(Locale.ROOT));
    if (pred.equals(gold) || sameFloat(pred, gold) || numbers(pred).equals(numbers(gold))
        || latex(pred).equals(latex(gold)) || lists(pred).equals(lists(gold)) || states(pred).equals(states(gold))) {
      return 1.0;
    }
    if (softNumeric(gold, pred) > 0.98) {
      return 0.98;
    }
    String predBare = PythonText.strip(UNITS.matcher(unicodeMath(latex(pred))).replaceAll(""));
    String goldBare = PythonText.strip(UNITS.matcher(unicodeMath(latex(gold))).replaceAll(""));
    if (predBare.equals(goldBare)) {
      return 1.0;
    }
    return softNumeric(goldBare, predBare) > 0.98 ? 0.98 : 0.0;
  }

  private static String stripOuterQuotes(String text) {
    if (text.length() >= 2 && text.charAt(0) == text.charAt(text.length() - 1) && "\"'".indexOf(text.charAt(0)) >= 0) {
      return text.substring(1, text.length() - 1);
    }
    return text;
  }

  private static String stripTrailingPunctuation(String text) {
    int end = text.length();
    while (end > 0 && ".!?".indexOf(text.charAt(end - 1)) >= 0) {
      end--;
    }
    return end == 0 ? text : text.substring(0, end);
  }

  /** {@code str(float(x))} on both sides compared: as numbers when both parse, as text when neither does. */
  private static boolean sameFloat(String a, String b) {
    Optional<Double> x = PythonText.parseFloat(a.replace("\\%", "").replace("\\$", "").replace("$", ""));
    Optional<Double> y = PythonText.parseFloat(b.replace("\\%", "").replace("\\$", "").replace("$", ""));
    if (x.isPresent() && y.isPresent()) {
      return x.get().equals(y.get());
    }
    return x.isEmpty() && y.isEmpty() && a.equals(b);
  }

  private static String numbers(String text) {
    return removeThousandsCommas(text).replace("\\%", "%");
  }

  /**
   * Python's {@code re.sub(r"(\d+),(\d+)", r"\1\2", text)} as a linear scan: the regex backtracks
   * quadratically over a long run of digits with no comma.
   */
  static String removeThousandsCommas(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      if (!Character.isDigit(text.charAt(i))) {
        out.append(text.charAt(i++));
        continue;
      }
      int run = i;
      while (run < text.length() && Character.isDigit(text.charAt(run))) {
        run++;
      }
      if (run + 1 < text.length() && text.charAt(run) == ',' && Character.isDigit(text.charAt(run + 1))) {
        int next = run + 1;
        while (next < text.length() && Character.isDigit(text.charAt(next))) {
          next++;
        }
        out.append(text, i, run).append(text, run + 1, next);
        i = next;
      } else {
        out.append(text, i, run);
        i = run;
      }
    }
    return out.toString();
  }

  static String lists(String text) {
    String replaced = text.replace(",", " ").replace(";", " ").replace("and", " ").replace("or", " ");
    if (replaced.length() < 0.9 * text.length()) {
      return text;
    }
    return String.join(" ", PythonText.split(replaced));
  }

  static String latex(String text) {
    String current = text;
    for (String command : LATEX_COMMANDS) {
      current = removeCommand(command, current);
    }
    for (String token : List.of("\\(", "\\)", "\\[", "\\]")) {
      current = current.replace(token, "");
    }
    return String.join(" ", PythonText.split(current.replace("$", "")));
  }

  private static String removeCommand(String command, String text) {
    String opener = command + "{";
    String current = text;
    int at;
    while ((at = current.indexOf(opener)) >= 0) {
      String prefix = current.substring(0, at);
      String suffix = current.substring(at + opener.length());
      int depth = 1;
      int close = -1;
      for (int i = 0; i < suffix.length(); i++) {
        char c = suffix.charAt(i);
        if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth--;
        }
        if (depth == 0) {
          close = i;
          break;
        }
      }
      current = close >= 0 ? prefix + suffix.substring(0, close) + suffix.substring(close + 1) : prefix + suffix;
    }
    return current;
  }

  private static String states(String text) {
    String current = text;
    for (var state : STATES.entrySet()) {
      current = current.replace(state.getKey(), state.getValue());
    }
    return lists(current).toLowerCase(Locale.ROOT);
  }

  private static String unicodeMath(String text) {
    return text.replace("°", "^\\circ").replace("²", "^2").replace("³", "^3").replace("⁴", "^4").replace("⁵", "^5")
        .replace("⁶", "^6").replace("⁷", "^7").replace("⁸", "^8").replace("⁹", "^9").replace("√", "\\sqrt")
        .replace("﹣", "-").replace("﹢", "+").replace("﹦", "=").replace("﹤", "<").replace("﹥", ">")
        .replace("：", ":").replace("π", "\\pi");
  }

  private static String stripNumeric(String text) {
    String current = text;
    for (String c : List.of("$", "£", "€", "%", ",")) {
      current = current.replace(c, "");
    }
    current = UNITS.matcher(unicodeMath(current)).replaceAll("");
    return PythonText.strip(current.replace("\\%", "").replace("\\$", ""));
  }

  static double softNumeric(String expected, String predicted) {
    Optional<Double> pred = PythonText.parseFloat(stripNumeric(predicted));
    Optional<Double> gold = PythonText.parseFloat(stripNumeric(expected));
    if (pred.isEmpty() || gold.isEmpty()) {
      return 0.0;
    }
    double relative = Math.abs(pred.get() - gold.get()) / Math.max(Math.abs(gold.get()), 1e-9);
    double score = Math.max(0.0, 1.0 - relative);
    return Double.isNaN(score) ? 0.0 : score * score;
  }
}
