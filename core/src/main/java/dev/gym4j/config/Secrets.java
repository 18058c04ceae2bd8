package dev.gym4j.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

/**
 * The one redactor of this process: every text that leaves it (error bodies, log lines, failure rows, metric
 * labels, config dumps) goes through {@link #redact(String)} first.
 *
 * <p>It masks, with {@value #MASK}:
 * <ul>
 *   <li>every configured secret value of at least {@value #MIN_LENGTH} characters: a string under a key that
 *       names a secret ({@link GlobalConfig#isSecretKey}), every value of a header map (a key containing
 *       {@code header}), and the user info of any URL in the config. Every config loaded in this process adds
 *       its values ({@link #register}); shorter values are placeholders such as {@code EMPTY} or
 *       {@code dummy}, and masking them would mangle ordinary words;
 *   <li>whatever it has not been told: the user info of any URL ({@code http://user:pass@host} becomes
 *       {@code http://****@host}), the token after {@code Bearer}, and the value after a header or field
 *       named like a credential ({@code api-key: …}, {@code "authorization": "…"}).
 * </ul>
 * Matching is linear in the text's length. Thread-safe: the set of values only grows, and is replaced whole.
 */
public final class Secrets {
  public static final String MASK = "****";
  static final int MIN_LENGTH = 8;
  private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer)\\s+[A-Za-z0-9._~+/=-]+");
  private static final Pattern NAMED = Pattern.compile(
      "(?i)\\b(x-api-key|api[-_]?key|authorization|password|secret)(\"?\\s*[:=]\\s*\"?)(?!\\*\\*\\*\\*|(?i:bearer|basic)\\s)[^\\s\",;}]+");
  private static volatile List<String> values = List.of();

  private Secrets() {}

  /** Adds a value to mask from now on; for secrets that are not in the config (a generated token, say). */
  public static void add(String value) {
    addAll(List.of(value));
  }

  /** Adds every secret value of a config tree (see the class comment). */
  public static void register(JsonNode tree) {
    List<String> found = new ArrayList<>();
    collect(tree, false, found);
    addAll(found);
  }

  private static synchronized void addAll(List<String> more) {
    Set<String> all = new LinkedHashSet<>(values);
    for (String value : more) {
      String stripped = value.strip();
      if (stripped.length() >= MIN_LENGTH) {
        all.add(stripped);
        // how the value reads inside a JSON string, when that differs
        String quoted = tools.jackson.databind.node.StringNode.valueOf(stripped).toString();
        all.add(quoted.substring(1, quoted.length() - 1));
      }
    }
    List<String> sorted = new ArrayList<>(all);
    // longest first, so that a value containing another is masked whole
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    values = List.copyOf(sorted);
  }

  private static void collect(JsonNode node, boolean underHeaders, List<String> found) {
    if (node.isObject()) {
      for (var entry : node.properties()) {
        String key = entry.getKey();
        JsonNode value = entry.getValue();
        if (value.isString() && (underHeaders || GlobalConfig.isSecretKey(key))) {
          found.add(value.stringValue());
          String credential = afterScheme(value.stringValue());
          if (credential != null) {
            found.add(credential);
          }
        } else if (value.isString()) {
          userInfo(value.stringValue(), found);
        } else {
          collect(value, isHeaderKey(key), found);
        }
      }
    } else if (node.isArray()) {
      node.forEach(item -> collect(item, underHeaders, found));
    } else if (node.isString()) {
      userInfo(node.stringValue(), found);
    }
  }

  /**
   * Whether a config string is, or holds, something this redactor masks: a value under a key that names a
   * secret or in a header map, or text it would change (a URL's user info, a bearer token, a named credential, a
   * value it knows). Whatever stores a config where others can read it keeps such values apart (the Kubernetes
   * Secret of {@code gym4j k8s render}).
   */
  public static boolean isSecret(String key, boolean underHeaders, String value) {
    return underHeaders || GlobalConfig.isSecretKey(key) || !redact(value).equals(value);
  }

  /** Whether the values of the map under {@code key} are header values, every one of them a secret. */
  public static boolean isHeaderKey(String key) {
    return key.toLowerCase(java.util.Locale.ROOT).contains("header");
  }

  /** {@code Bearer sk-…} → {@code sk-…}: the credential of an Authorization value. */
  private static String afterScheme(String value) {
    int space = value.indexOf(' ');
    return space > 0 ? value.substring(space + 1) : null;
  }

  private static void userInfo(String text, List<String> found) {
    int at = 0;
    while ((at = text.indexOf("://", at)) >= 0) {
      int end = userInfoEnd(text, at + 3);
      if (end > 0) {
        String info = text.substring(at + 3, end);
        found.add(info);
        int colon = info.indexOf(':');
        if (colon >= 0) {
          found.add(info.substring(colon + 1));
        }
      }
      at += 3;
    }
  }

  /** The index of the {@code @} ending the user info that starts at {@code from}, or -1 when there is none. */
  private static int userInfoEnd(String text, int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '@') {
        return i > from ? i : -1;
      }
      if (c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\'
          || Character.isWhitespace(c)) {
        return -1;
      }
    }
    return -1;
  }

  /** The text with every secret masked. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String result = text;
    for (String value : values) {
      if (result.contains(value)) {
        result = result.replace(value, MASK);
      }
    }
    result = stripUserInfo(result);
    result = replace(BEARER, result, "$1 " + MASK);
    return replace(NAMED, result, "$1$2" + MASK);
  }

  /** UTF-8 text with every secret masked; the same array when there was nothing to mask. */
  public static byte[] redact(byte[] utf8) {
    String text = new String(utf8, StandardCharsets.UTF_8);
    String redacted = redact(text);
    return redacted.equals(text) ? utf8 : redacted.getBytes(StandardCharsets.UTF_8);
  }

  private static String replace(Pattern pattern, String text, String replacement) {
    Matcher matcher = pattern.matcher(text);
    return matcher.find() ? matcher.replaceAll(replacement) : text;
  }

  private static String stripUserInfo(String text) {
    int at = text.indexOf("://");
    if (at < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    while (at >= 0) {
      int end = userInfoEnd(text, at + 3);
      if (end > 0 && !text.startsWith(MASK + "@", at + 3)) {
        out.append(text, copied, at + 3).append(MASK);
        copied = end;
      }
      at = text.indexOf("://", at + 3);
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }
}
