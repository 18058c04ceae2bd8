package dev.gym4j.environments.indirect_prompt_injection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One of NeMo Gym's tool handlers: a Python function {@code name(env, ...)} called with the request's keyword
 * arguments. The signature is written as Python's ({@code "search_orders(customer_id=None, status=None,
 * **kwargs)"}), so that binding fails as Python's call would (unexpected or missing arguments).
 */
record Tool(String name, List<String> parameters, Map<String, JsonNode> defaults, boolean varKeywords, Body body) {

  @FunctionalInterface
  interface Body {
    /** The handler's return value: a String as it is, anything else as JSON. */
    Object run(ObjectNode env, Args args);
  }

  /** The bound arguments: each parameter's value (or its default), and every keyword the call gave. */
  record Args(Map<String, JsonNode> bound, ObjectNode given) {
    JsonNode get(String name) {
      JsonNode value = bound.get(name);
      if (value == null) {
        throw new IllegalStateException("no parameter " + name);
      }
      return value;
    }

    /** {@code kwargs.get(name)} of a {@code **kwargs} handler: Python's None when not given. */
    JsonNode kwarg(String name) {
      JsonNode value = given.get(name);
      return value == null ? Py.NONE : value;
    }
  }

  static Tool of(String signature, Body body) {
    int open = signature.indexOf('(');
    String name = signature.substring(0, open);
    List<String> parameters = new ArrayList<>();
    Map<String, JsonNode> defaults = new LinkedHashMap<>();
    boolean varKeywords = false;
    String inside = signature.substring(open + 1, signature.length() - 1).strip();
    for (String parameter : inside.isEmpty() ? new String[0] : inside.split(",")) {
      parameter = parameter.strip();
      if (parameter.startsWith("**")) {
        varKeywords = true;
        continue;
      }
      int equals = parameter.indexOf('=');
      String parameterName = equals < 0 ? parameter : parameter.substring(0, equals).strip();
      parameters.add(parameterName);
      if (equals >= 0) {
        defaults.put(parameterName, literal(parameter.substring(equals + 1).strip()));
      }
    }
    return new Tool(name, List.copyOf(parameters), defaults, varKeywords, body);
  }

  private static JsonNode literal(String text) {
    return switch (text) {
      case "None" -> Py.NONE;
      case "True" -> Json.toTree(true);
      case "False" -> Json.toTree(false);
      default -> Json.toTree(text.substring(1, text.length() - 1));
    };
  }

  /**
   * Calls the handler on the world with the keyword arguments (None values already dropped) and answers what
   * NeMo Gym's route answers: the string, the JSON dump of another value, or the error text of an exception.
   */
  String call(ObjectNode env, ObjectNode kwargs) {
    try {
      Object result = body.run(env, bind(kwargs));
      return result instanceof String text ? text : PythonValues.dumps(result instanceof JsonNode node ? node
          : Json.toTree(result));
    } catch (Py.Error e) {
      return "Error executing tool '" + name + "' (" + e.type() + "): " + e.getMessage();
    }
  }

  private Args bind(ObjectNode kwargs) {
    Map<String, JsonNode> bound = new LinkedHashMap<>();
    for (String key : kwargs.propertyNames()) {
      if (key.equals("env")) {
        throw new Py.Error("TypeError", name + "() got multiple values for argument 'env'");
      }
      if (!parameters.contains(key) && !varKeywords) {
        throw new Py.Error("TypeError", name + "() got an unexpected keyword argument '" + key + "'");
      }
    }
    List<String> missing = new ArrayList<>();
    for (String parameter : parameters) {
      JsonNode value = kwargs.get(parameter);
      if (value == null) {
        value = defaults.get(parameter);
        if (value == null) {
          missing.add("'" + parameter + "'");
          continue;
        }
        value = value.deepCopy();
      }
      bound.put(parameter, value);
    }
    if (!missing.isEmpty()) {
      throw new Py.Error("TypeError", name + "() missing " + missing.size() + " required positional argument"
          + (missing.size() == 1 ? "" : "s") + ": " + listing(missing));
    }
    return new Args(bound, kwargs);
  }

  /** Python's listing of missing names: 'a', 'a' and 'b', 'a', 'b', and 'c'. */
  private static String listing(List<String> names) {
    if (names.size() == 1) {
      return names.getFirst();
    }
    if (names.size() == 2) {
      return names.get(0) + " and " + names.get(1);
    }
    return String.join(", ", names.subList(0, names.size() - 1)) + ", and " + names.getLast();
  }
}
