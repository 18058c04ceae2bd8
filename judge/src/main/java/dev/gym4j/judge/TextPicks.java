package dev.gym4j.judge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.text.BoundedText;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * The pieces of a rollout a judge is shown, picked as NeMo Gym's judge servers pick them
 * ({@code resources_servers/equivalence_llm_judge/app.py}): the last user message of the prompt, the last
 * assistant message of the answer, and the last match of a configured or per-row regex in either. Regexes
 * are written for Python's {@code re} (named groups {@code (?P<name>…)} are translated) and may come from
 * dataset rows, so matching runs on a time budget; a regex that does not compile matches nothing, as there.
 */
public final class TextPicks {
  /** How long one regex may take on one text before the verification fails (never a silent no-match). */
  public static final Duration REGEX_BUDGET = Duration.ofSeconds(1);

  private TextPicks() {}

  /** The text of the last user message in {@code responses_create_params}, stripped; "" when there is none. */
  public static String lastUserText(JsonNode params) {
    String last = null;
    for (JsonNode message : params.path("input")) {
      if ("user".equals(message.path("role").asString(""))) {
        String text = contentText(message.path("content"));
        if (text != null) {
          last = text;
        }
      }
    }
    return last == null ? "" : PythonText.strip(last);
  }

  /**
   * The text of the last assistant message of a response's {@code output}, its text parts joined by
   * newlines and stripped, narrowed by {@code regex} when one is given and matches ({@link #lastMatch});
   * {@code failure} when there is no assistant message or its text is empty.
   */
  public static String lastAssistantText(JsonNode output, String regex, String failure) {
    for (int i = output.size() - 1; i >= 0; i--) {
      JsonNode item = output.get(i);
      if ("message".equals(item.path("type").asString("")) && "assistant".equals(item.path("role").asString(""))) {
        String text = contentText(item.path("content"));
        if (text == null) {
          return failure;
        }
        text = PythonText.strip(text);
        return text.isEmpty() ? failure : lastMatch(text, regex);
      }
    }
    return failure;
  }

  /**
   * The last assistant message that has text, its parts joined by newlines and stripped; "" when none has
   * any (the simpleqa and omniscience servers' {@code extract_text_from_response}).
   */
  public static String lastAssistantMessage(JsonNode output) {
    for (int i = output.size() - 1; i >= 0; i--) {
      JsonNode item = output.get(i);
      if (!"message".equals(item.path("type").asString("")) || !"assistant".equals(item.path("role").asString(""))) {
        continue;
      }
      JsonNode content = item.path("content");
      StringBuilder texts = new StringBuilder();
      int count = 0;
      if (content.isString()) {
        texts.append(content.stringValue());
        count = 1;
      }
      for (JsonNode part : content.isArray() ? content : dev.gym4j.json.Json.array()) {
        if (part.path("text").isString()) {
          texts.append(count++ == 0 ? "" : "\n").append(part.get("text").stringValue());
        }
      }
      if (count > 0) {
        return PythonText.strip(texts.toString());
      }
    }
    return "";
  }

  /**
   * The last match of {@code regex} in the text (multi-line, dot matches newlines): its first non-blank
   * group, else the whole match, stripped; the text itself when the regex is null, invalid or finds nothing.
   */
  public static String lastMatch(String text, String regex) {
    if (regex == null || regex.isEmpty() || text.isEmpty()) {
      return text;
    }
    Pattern pattern;
    try {
      pattern = Pattern.compile(python(regex), Pattern.MULTILINE | Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      return text;
    }
    try {
      Matcher matcher = pattern.matcher(BoundedText.of(text, REGEX_BUDGET));
      String picked = null;
      while (matcher.find()) {
        picked = null;
        for (int g = 1; g <= matcher.groupCount() && picked == null; g++) {
          String group = matcher.group(g);
          if (group != null && !PythonText.strip(group).isEmpty()) {
            picked = PythonText.strip(group);
          }
        }
        if (picked == null) {
          picked = PythonText.strip(matcher.group());
        }
      }
      return picked == null ? text : picked;
    } catch (BoundedText.TimeBudgetExceeded e) {
      throw new RolloutFailure("verify_error", 500, "the extraction regex ran past its time budget of "
          + REGEX_BUDGET.toSeconds() + " s on a text of " + text.length() + " characters", null);
    }
  }

  /** Text content: a string, or the {@code text} of each part joined by newlines; null when there is no text. */
  private static String contentText(JsonNode content) {
    if (content.isString()) {
      return content.stringValue();
    }
    if (!content.isArray()) {
      return null;
    }
    List<String> texts = new ArrayList<>();
    for (JsonNode part : content) {
      if (part.path("text").isString()) {
        texts.add(part.get("text").stringValue());
      }
    }
    return texts.isEmpty() ? null : String.join("\n", texts);
  }

  /** Python's named-group syntax in Java's. */
  static String python(String regex) {
    return regex.replace("(?P<", "(?<").replaceAll("\\(\\?P=([A-Za-z_][A-Za-z0-9_]*)\\)", "\\\\k<$1>");
  }

  private static final java.util.regex.Pattern[] THINKING = {
      java.util.regex.Pattern.compile("<think>.*?</think>", java.util.regex.Pattern.DOTALL),
      java.util.regex.Pattern.compile("<thinking>.*?</thinking>", java.util.regex.Pattern.DOTALL)};
  private static final java.util.regex.Pattern[] UNOPENED = {
      java.util.regex.Pattern.compile("^.*?</think>", java.util.regex.Pattern.DOTALL),
      java.util.regex.Pattern.compile("^.*?</thinking>", java.util.regex.Pattern.DOTALL)};

  /**
   * The text without reasoning, as NeMo Gym's judged servers remove it ({@code _strip_thinking_traces}):
   * every {@code <think>…</think>} and {@code <thinking>…</thinking>} block, then anything up to a closing tag
   * whose opening tag was in the prompt, stripped.
   */
  public static String withoutThinking(String text) {
    for (java.util.regex.Pattern block : THINKING) {
      text = block.matcher(text).replaceAll("");
    }
    for (java.util.regex.Pattern unopened : UNOPENED) {
      text = unopened.matcher(text).replaceFirst("");
    }
    return PythonText.strip(text);
  }

  /**
   * The last assistant message's text: its text parts joined by newlines (none is ""), or its string content,
   * stripped; "" when there is no assistant message (NeMo Gym's rubric judges, inverse_if and multichallenge,
   * which do not look past the last assistant message as {@link #lastAssistantMessage} does).
   */
  public static String lastAssistantTurn(JsonNode output) {
    for (int i = output.size() - 1; i >= 0; i--) {
      JsonNode item = output.get(i);
      if (!"message".equals(item.path("type").asString("")) || !"assistant".equals(item.path("role").asString(""))) {
        continue;
      }
      JsonNode content = item.path("content");
      if (content.isString()) {
        return PythonText.strip(content.stringValue());
      }
      if (content.isArray()) {
        java.util.List<String> texts = new java.util.ArrayList<>();
        content.forEach(part -> {
          if (part.path("text").isString()) {
            texts.add(part.get("text").stringValue());
          }
        });
        return PythonText.strip(String.join("\n", texts));
      }
    }
    return "";
  }
}
