package dev.gym4j.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import dev.gym4j.text.PythonText;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The image-tool calls written in a model's text (the verifier of environments/image_tools and the
 * {@code image_tools_agent} read them with this one class, as NeMo Gym's two share one parser), read as NeMo Gym's {@code parse_image_tool_calls}
 * (resources_servers/image_tools/base.py) reads them: first every {@code <tool_call><function=NAME>
 * <parameter=KEY>VALUE</parameter>…</function></tool_call>}, then every {@code <tool_call>{JSON}</tool_call>}
 * naming a tool. A parameter value is JSON when it parses, else the text itself.
 *
 * <p>NeMo Gym does this with lazy regular expressions, which retry from every opening tag and so take time
 * quadratic in the text on many unclosed tags. Here each opening finds its closing tag by a forward search,
 * and once a search for a closing tag fails no later opening can succeed, so a text is read in linear time
 * with the same matches.
 */
public final class ImageToolCalls {
  private static final String OPEN = "<tool_call>";
  private static final String CLOSE = "</tool_call>";
  private static final Pattern FUNCTION = Pattern.compile("<function=([^>\\s]+)>", Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern PARAMETER = Pattern.compile("<parameter=([^>\\s]+)>", Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern NUMBER = Pattern.compile("[-+]?\\d*\\.?\\d+(?:[eE][-+]?\\d+)?");

  private ImageToolCalls() {}

  /** One call: its name as written (any JSON value for the JSON form), its arguments as given. */
  public record Call(JsonNode name, JsonNode arguments) {}

  public static List<Call> parse(String text) {
    List<Call> calls = new ArrayList<>(xmlCalls(text));
    calls.addAll(jsonCalls(text));
    return calls;
  }

  private static List<Call> xmlCalls(String text) {
    List<Call> calls = new ArrayList<>();
    int from = 0;
    for (int open = text.indexOf(OPEN, from); open >= 0; open = text.indexOf(OPEN, from)) {
      int at = skipSpace(text, open + OPEN.length());
      Matcher function = FUNCTION.matcher(text).region(at, text.length());
      if (!function.lookingAt()) {
        from = open + 1;
        continue;
      }
      int bodyStart = function.end();
      int[] close = closing(text, bodyStart, "</function>");
      if (close == null) {
        break;
      }
      ObjectNode arguments = Json.object();
      readParameters(text.substring(bodyStart, close[0]), arguments);
      calls.add(new Call(Json.toTree(function.group(1)), arguments));
      from = close[1];
    }
    return calls;
  }

  private static void readParameters(String body, ObjectNode arguments) {
    int from = 0;
    for (int open = body.indexOf("<parameter=", from); open >= 0; open = body.indexOf("<parameter=", from)) {
      Matcher parameter = PARAMETER.matcher(body).region(open, body.length());
      if (!parameter.lookingAt()) {
        from = open + 1;
        continue;
      }
      int close = body.indexOf("</parameter>", parameter.end());
      if (close < 0) {
        break;
      }
      arguments.set(parameter.group(1), valueOf(PythonText.strip(body.substring(parameter.end(), close))));
      from = close + "</parameter>".length();
    }
  }

  private static List<Call> jsonCalls(String text) {
    List<Call> calls = new ArrayList<>();
    int from = 0;
    for (int open = text.indexOf(OPEN, from); open >= 0; open = text.indexOf(OPEN, from)) {
      int brace = skipSpace(text, open + OPEN.length());
      if (brace >= text.length() || text.charAt(brace) != '{') {
        from = open + 1;
        continue;
      }
      int[] close = closing(text, brace + 1, "}");
      if (close == null) {
        break;
      }
      from = close[1];
      JsonNode payload;
      try {
        payload = loads(text.substring(brace, close[0] + 1));
      } catch (JacksonException e) {
        continue;
      }
      JsonNode name = payload.path("name");
      if (!PythonValues.truthy(name)) {
        name = payload.path("tool_name");
      }
      if (PythonValues.truthy(name)) {
        JsonNode arguments = payload.path("arguments");
        calls.add(new Call(name, PythonValues.truthy(arguments) ? arguments : Json.object()));
      }
    }
    return calls;
  }

  /**
   * The first {@code marker} at or after {@code from} followed by optional space and {@code </tool_call>}:
   * {@code [where the marker starts, where the call ends]}, or null when there is none. For
   * {@code </function>}, the start is moved back over the space before it, which the lazy body leaves out.
   */
  private static int[] closing(String text, int from, String marker) {
    for (int at = text.indexOf(marker, from); at >= 0; at = text.indexOf(marker, at + 1)) {
      int after = skipSpace(text, at + marker.length());
      if (text.startsWith(CLOSE, after)) {
        int start = at;
        if (!marker.equals("}")) {
          while (start > from && PythonText.isSpace(text.charAt(start - 1))) {
            start--;
          }
        }
        return new int[] {start, after + CLOSE.length()};
      }
    }
    return null;
  }

  private static int skipSpace(String text, int at) {
    while (at < text.length() && PythonText.isSpace(text.charAt(at))) {
      at++;
    }
    return at;
  }

  /** {@code json.loads} of a parameter value, or the text when it is not one JSON value. */
  public static JsonNode valueOf(String value) {
    try {
      return loads(value);
    } catch (JacksonException e) {
      return Json.toTree(value);
    }
  }

  /** {@code json.loads}: one JSON value; throws {@link JacksonException} otherwise. */
  public static JsonNode loads(String text) {
    JsonNode node = Json.parse(text);
    if (node == null || node.isMissingNode()) {
      throw new TrailingText();
    }
    return node;
  }

  /** Empty text is not JSON, as for {@code json.loads}. */
  static final class TrailingText extends JacksonException {
    TrailingText() {
      super("no JSON value");
    }
  }

  /**
   * NeMo Gym's {@code coerce_bbox}: four numbers (a list, or a string holding a JSON list, or the first four
   * numbers in any other string) as {@code [min x, min y, max x, max y]}; null when there are not four.
   */
  public static double[] bbox(JsonNode value) {
    JsonNode box = value;
    if (value.isString()) {
      try {
        box = loads(value.stringValue());
      } catch (JacksonException e) {
        List<Double> numbers = new ArrayList<>();
        Matcher number = NUMBER.matcher(value.stringValue());
        while (numbers.size() < 4 && number.find()) {
          numbers.add(Double.parseDouble(number.group()));
        }
        if (numbers.size() != 4) {
          return null;
        }
        return ordered(numbers.get(0), numbers.get(1), numbers.get(2), numbers.get(3));
      }
    }
    if (!box.isArray() || box.size() != 4) {
      return null;
    }
    double[] v = new double[4];
    for (int i = 0; i < 4; i++) {
      Double d = asFloat(box.get(i));
      if (d == null) {
        return null;
      }
      v[i] = d;
    }
    return ordered(v[0], v[1], v[2], v[3]);
  }

  /** Python's {@code float(v)}: a number, a bool, or a string Python reads as a float; else null. */
  private static Double asFloat(JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? 1.0 : 0.0;
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    return value.isString() ? PythonText.parseFloat(value.stringValue()).orElse(null) : null;
  }

  /**
   * NeMo Gym's {@code has_malformed_image_tool_markup}: tool-call markup that is not exactly the calls parsed (an
   * opening or closing tag more or less than calls, or a leftover {@code <think>}/{@code </think>}).
   */
  public static boolean hasMalformedMarkup(String text) {
    if (!(text.contains(OPEN) || text.contains(CLOSE) || text.contains("<function=") || text.contains("</function>"))) {
      return false;
    }
    List<Call> calls = parse(text);
    if (calls.isEmpty()) {
      return true;
    }
    long xml = xmlCalls(text).size();
    return count(text, OPEN) != calls.size() || count(text, CLOSE) != calls.size()
        || count(text, "<function=") != xml || count(text, "</function>") != xml
        || text.contains("</think>") || text.contains("<think>");
  }

  /** Python's {@code str.count}: occurrences that do not overlap. */
  private static long count(String text, String part) {
    long n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      n++;
    }
    return n;
  }

  private static double[] ordered(double x1, double y1, double x2, double y2) {
    return new double[] {Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)};
  }

  /** NeMo Gym's {@code bbox_iou}: 0 when the boxes do not overlap or the union has no area. */
  public static double iou(double[] a, double[] b) {
    double interW = Math.max(0.0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
    double interH = Math.max(0.0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    double inter = interW * interH;
    if (!(inter > 0.0)) {
      return 0.0;
    }
    double areaA = Math.max(0.0, a[2] - a[0]) * Math.max(0.0, a[3] - a[1]);
    double areaB = Math.max(0.0, b[2] - b[0]) * Math.max(0.0, b[3] - b[1]);
    double union = areaA + areaB - inter;
    return union > 0.0 ? inter / union : 0.0;
  }
}
