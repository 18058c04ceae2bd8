package dev.gym4j.config;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Resolves OmegaConf interpolations: {@code ${a.b}} (an absolute key path) and {@code ${oc.env:VAR}} or
 * {@code ${oc.env:VAR,default}}. A string that is one interpolation takes the referenced value's type; an
 * interpolation inside a longer string is spliced in as text. Cycles and unknown keys are errors naming
 * the key that holds the interpolation and its file.
 */
final class Interpolator {
  private final ObjectNode raw;
  private final Origins origins;
  private final Map<String, String> environment;

  Interpolator(ObjectNode raw, Origins origins, Map<String, String> environment) {
    this.raw = raw;
    this.origins = origins;
    this.environment = environment;
  }

  ObjectNode resolveAll() {
    return (ObjectNode) resolve(raw, "", new ArrayDeque<>());
  }

  private JsonNode resolve(JsonNode value, String path, Deque<String> stack) {
    if (value instanceof ObjectNode object) {
      ObjectNode out = object.objectNode();
      for (var entry : object.properties()) {
        out.set(entry.getKey(), resolve(entry.getValue(), ConfigPath.join(path, entry.getKey()), stack));
      }
      return out;
    }
    if (value instanceof ArrayNode array) {
      ArrayNode out = array.arrayNode();
      for (int i = 0; i < array.size(); i++) {
        out.add(resolve(array.get(i), ConfigPath.join(path, String.valueOf(i)), stack));
      }
      return out;
    }
    if (value.isString() && value.stringValue().contains("${")) {
      return resolveString(value.stringValue(), path, stack);
    }
    return value;
  }

  private JsonNode resolveString(String text, String path, Deque<String> stack) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      int start = text.indexOf("${", i);
      if (start < 0) {
        out.append(text, i, text.length());
        break;
      }
      if (start > 0 && text.charAt(start - 1) == '\\') {
        out.append(text, i, start - 1).append("${");
        i = start + 2;
        continue;
      }
      int end = closingBrace(text, start + 2);
      if (end < 0) {
        throw new ConfigException("unclosed interpolation in " + path + ": '" + text + "'" + origins.suffix(path));
      }
      JsonNode value = evaluate(text.substring(start + 2, end).strip(), path, stack);
      if (start == 0 && end == text.length() - 1) {
        return value;
      }
      out.append(text, i, start).append(value.isString() ? value.stringValue() : value.toString());
      i = end + 1;
    }
    return StringNode.valueOf(out.toString());
  }

  private static int closingBrace(String text, int from) {
    int depth = 1;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private JsonNode evaluate(String expression, String path, Deque<String> stack) {
    if (expression.startsWith("oc.env:")) {
      String spec = expression.substring("oc.env:".length());
      int comma = spec.indexOf(',');
      String name = (comma < 0 ? spec : spec.substring(0, comma)).strip();
      String value = environment.get(name);
      if (value != null) {
        return StringNode.valueOf(value);
      }
      if (comma >= 0) {
        return Yaml.parse(spec.substring(comma + 1).strip());
      }
      throw new ConfigException("environment variable " + name + " is not set, and " + path
          + " needs it (${oc.env:" + name + "})" + origins.suffix(path));
    }
    if (expression.contains(":")) {
      throw new ConfigException("unsupported resolver in " + path + ": ${" + expression + "}; gym4j resolves "
          + "${key.path} and ${oc.env:VAR[,default]}" + origins.suffix(path));
    }
    if (expression.startsWith(".")) {
      throw new ConfigException("relative interpolation ${" + expression + "} in " + path
          + " is not supported; write the absolute key path" + origins.suffix(path));
    }
    if (stack.contains(expression)) {
      throw new ConfigException("interpolation cycle: " + String.join(" -> ", stack) + " -> " + expression
          + origins.suffix(path));
    }
    JsonNode target = ConfigPath.get(raw, expression);
    if (target == null) {
      throw new ConfigException("cannot resolve ${" + expression + "} in " + path + ": no key " + expression
          + " in the config; give it with ++" + expression + "=<value> or in env.yaml" + origins.suffix(path));
    }
    stack.push(expression);
    try {
      return resolve(target, expression, stack);
    } finally {
      stack.pop();
    }
  }
}
