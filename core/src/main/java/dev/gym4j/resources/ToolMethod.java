package dev.gym4j.resources;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@link Tool} method, bound: its name, its argument record, and how to call it with a JSON body.
 * Arguments that do not fit the record, checked as strict JSON Schema would check them (no coercion), fail
 * with a {@link FieldError} naming the field, which the agent gives back to the model as the tool's output.
 */
public record ToolMethod(String name, String description, Method method, Class<? extends Record> argumentType,
    boolean wantsSession) {
  /** What agents accept as a tool name (OpenAI's rule for function names). */
  static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,64}");
  /** An environment's protocol routes, which agents never call as tools. */
  static final java.util.Set<String> PROTOCOL_ROUTES = java.util.Set.of("seed_session", "verify", "aggregate_metrics",
      "reset", "step", "close");

  static List<ToolMethod> of(Class<?> serverClass) {
    List<ToolMethod> tools = new ArrayList<>();
    for (Method method : serverClass.getMethods()) {
      Tool tool = method.getAnnotation(Tool.class);
      if (tool != null) {
        tools.add(bind(method, tool));
      }
    }
    return tools;
  }

  @SuppressWarnings("unchecked")
  private static ToolMethod bind(Method method, Tool tool) {
    Class<?>[] parameters = method.getParameterTypes();
    String where = method.getDeclaringClass().getSimpleName() + "." + method.getName();
    if (Modifier.isStatic(method.getModifiers()) || parameters.length < 1 || parameters.length > 2
        || !parameters[0].isRecord() || (parameters.length == 2 && parameters[1] != Session.class)) {
      throw new IllegalStateException("@Tool " + where + " must be an instance method taking (ArgumentsRecord) or "
          + "(ArgumentsRecord, Session)");
    }
    String name = tool.name().isEmpty() ? snakeCase(method.getName()) : tool.name();
    if (!NAME.matcher(name).matches() || PROTOCOL_ROUTES.contains(name)) {
      throw new IllegalStateException("@Tool " + where + " is named '" + name + "': a tool name is 1 to 64 letters, "
          + "digits, '_' or '-', and not one of the environment's own routes " + PROTOCOL_ROUTES);
    }
    return new ToolMethod(name, tool.description(), method, (Class<? extends Record>) parameters[0],
        parameters.length == 2);
  }

  /** Calls the tool with bound arguments; {@code session} is ignored unless the tool takes one. */
  Object invoke(Object server, Record arguments, Session session) throws Exception {
    try {
      return wantsSession ? method.invoke(server, arguments, session) : method.invoke(server, arguments);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** The arguments bound to the record, checked first so that nothing is coerced ({@link ToolArguments}). */
  Record bindArguments(JsonNode body) {
    if (!(body instanceof ObjectNode object)) {
      throw new FieldError(List.of(), "the arguments of " + name + " must be a JSON object", "object_type");
    }
    ToolArguments.check(object, argumentType, List.of());
    try {
      return Json.convert(object, argumentType);
    } catch (JacksonException e) {
      List<Object> location = new ArrayList<>();
      for (JacksonException.Reference reference : e.getPath()) {
        location.add(reference.getPropertyName() != null ? reference.getPropertyName() : reference.getIndex());
      }
      throw new FieldError(location, "invalid value: " + e.getOriginalMessage(), "type_error");
    }
  }

  /** {@code getWeather} → {@code get_weather}, as the JSON mapper names record components. */
  static String snakeCase(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0 && !Character.isUpperCase(name.charAt(i - 1))) {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
