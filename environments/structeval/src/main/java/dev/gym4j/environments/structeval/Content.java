package dev.gym4j.environments.structeval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.text.PythonText;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * A StructEval answer's code parsed by its output type, as NeMo Gym's structeval does with Python's
 * json, PyYAML (safe_load), toml, xmltodict and csv.DictReader: the structure, or an error with a Python
 * exception name. An empty or false result is an error too ("Parsed result is empty").
 */
final class Content {
  private static final JsonMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final TomlMapper TOML = new TomlMapper();

  private Content() {}

  /** The parsed structure, or the error type and message. */
  record Parsed(Object value, String errorType, String errorMessage) {
    boolean ok() {
      return errorType == null;
    }
  }

  static Parsed parse(String code, String outputType) {
    Object result;
    try {
      result = switch (outputType) {
        case "json" -> JSON.readValue(code, Object.class);
        case "yaml" -> new Yaml(new SafeConstructor(new LoaderOptions())).load(code);
        case "toml" -> TOML.readValue(code, Object.class);
        case "xml" -> XmlToDict.parse(code);
        case "csv" -> Csv.dictReader(code);
        default -> null;
      };
    } catch (JacksonException e) {
      return error(outputType.equals("json") ? "JSONDecodeError" : "TomlDecodeError", e.getOriginalMessage());
    } catch (org.yaml.snakeyaml.error.YAMLException e) {
      return error(e.getClass().getSimpleName().replace("Exception", "Error"), e.getMessage());
    } catch (XmlToDict.ExpatError e) {
      return error("ExpatError", e.getMessage());
    } catch (Csv.CsvError e) {
      return error("Error", e.getMessage());
    }
    if (!List.of("json", "yaml", "toml", "xml", "csv").contains(outputType)) {
      return new Parsed(null, "unsupported_type", "Unsupported output type: " + outputType);
    }
    if (!truthy(result)) {
      return new Parsed(null, "parse_error", "Parsed result is empty");
    }
    return new Parsed(result, null, null);
  }

  private static Parsed error(String name, String message) {
    String text = message == null ? "" : message;
    text = text.substring(0, text.offsetByCodePoints(0, Math.min(200, text.codePointCount(0, text.length()))));
    return new Parsed(null, "parse_error", name + ": " + text);
  }

  /** Python's truth value of a parsed document. */
  static boolean truthy(Object value) {
    return switch (value) {
      case null -> false;
      case Boolean b -> b;
      case Number n -> n.doubleValue() != 0;
      case String s -> !s.isEmpty();
      case Collection<?> c -> !c.isEmpty();
      case Map<?, ?> m -> !m.isEmpty();
      default -> true;
    };
  }

  /** Python's {@code csv.DictReader} over the text, materialised: {@code csv_headers} and {@code csv_rows}. */
  static final class Csv {
    private Csv() {}

    static final class CsvError extends RuntimeException {
      CsvError(String message) {
        super(message, null, false, false);
      }
    }

    static Map<String, Object> dictReader(String text) {
      List<List<String>> records = records(text);
      Map<String, Object> result = new LinkedHashMap<>();
      if (records.isEmpty()) {
        result.put("csv_headers", null);
        result.put("csv_rows", List.of());
        return result;
      }
      List<String> headers = records.getFirst();
      List<Object> rows = new ArrayList<>();
      for (List<String> record : records.subList(1, records.size())) {
        if (record.isEmpty()) {
          continue;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < headers.size(); i++) {
          row.put(headers.get(i), i < record.size() ? record.get(i) : null);
        }
        if (record.size() > headers.size()) {
          row.put(null, List.copyOf(record.subList(headers.size(), record.size())));
        }
        rows.add(row);
      }
      result.put("csv_headers", headers);
      result.put("csv_rows", rows);
      return result;
    }

    /** The excel dialect: comma, double quote (doubled inside), any line ending; a blank line is an empty record. */
    static List<List<String>> records(String text) {
      List<List<String>> records = new ArrayList<>();
      int i = 0;
      int n = text.length();
      while (i < n) {
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean inQuotes = false;
        boolean any = false;
        while (i < n) {
          char c = text.charAt(i);
          if (c == '\0') {
            throw new CsvError("line contains NUL");
          }
          if (inQuotes) {
            if (c == '"') {
              if (i + 1 < n && text.charAt(i + 1) == '"') {
                field.append('"');
                i += 2;
              } else {
                inQuotes = false;
                i++;
              }
            } else {
              field.append(c);
              i++;
            }
            continue;
          }
          if (c == ',') {
            record.add(field.toString());
            field.setLength(0);
            quoted = false;
            any = true;
            i++;
          } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < n && text.charAt(i + 1) != '\n') {
              // Python reads the text line by line (split at \n only), and a lone \r inside a line is an error
              throw new CsvError("new-line character seen in unquoted field - do you need to open the file in "
                  + "universal-newline mode?");
            }
            i += c == '\r' && i + 1 < n ? 2 : 1;
            break;
          } else if (c == '"' && field.isEmpty() && !quoted) {
            inQuotes = true;
            quoted = true;
            any = true;
            i++;
          } else {
            field.append(c);
            any = true;
            i++;
          }
        }
        if (any || !field.isEmpty()) {
          record.add(field.toString());
        }
        records.add(record);
      }
      return records;
    }
  }

  static String lower(String text) {
    return PythonText.strip(text).toLowerCase(java.util.Locale.ROOT);
  }
}
