package dev.gym4j.environments.structured_outputs;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Structured output against a JSON Schema ({@code schema_str}): the answer, in the payload format
 * {@code schema_type} names (json, yaml, xml, toml, csv), must parse and validate against the strictified
 * schema. In {@code response_mode: tool_call} the payload is the arguments of the one tool call (named
 * {@code tool_name} if given; {@code tool_payload_key} picks a field of them). NeMo Gym's
 * structured_outputs environment.
 */
@Implementation("structured_outputs")
public final class StructuredOutputs extends ResourcesServer {

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode schemaText = request.field("schema_str");
    if (!schemaText.isString()) {
      throw new FieldError(List.of("schema_str"), "Field required: the JSON Schema, as a string", "missing");
    }
    JsonNode schema;
    try {
      schema = Schemas.strictify(Json.parse(schemaText.stringValue()));
    } catch (JacksonException e) {
      throw new FieldError(List.of("schema_str"), "not JSON: " + e.getOriginalMessage(), "value_error");
    }
    String type = request.field("schema_type").asString("json");
    if (!List.of("json", "yaml", "xml", "toml", "csv").contains(type)) {
      throw new FieldError(List.of("schema_type"), "must be json, yaml, xml, toml or csv", "literal_error");
    }
    boolean toolMode = "tool_call".equals(request.field("response_mode").asString("text"));
    JsonNode payload;
    if (toolMode) {
      List<FunctionCall> calls = new ArrayList<>();
      request.response().output().forEach(item -> {
        if (item instanceof FunctionCall call) {
          calls.add(call);
        }
      });
      if (calls.size() != 1) {
        return failed(calls.isEmpty() ? "no_tool_call" : "multiple_tool_calls", null);
      }
      String wanted = request.field("tool_name").asString(null);
      if (wanted != null && !wanted.equals(calls.getFirst().name())) {
        return failed("wrong_tool", calls.getFirst().name());
      }
      try {
        payload = Json.parse(calls.getFirst().arguments());
      } catch (JacksonException e) {
        return failed("parse_error", e.getOriginalMessage());
      }
      String key = request.field("tool_payload_key").asString(null);
      if (key != null) {
        if (!payload.has(key)) {
          return failed("missing_payload_key", key);
        }
        payload = payload.get(key);
      }
    } else {
      String text = request.response().outputTextParts();
      if (text.isEmpty()) {
        return failed("empty_response", null);
      }
      try {
        payload = Payloads.parse(text, type);
      } catch (Exception e) {
        return failed("parse_error", e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      if (type.equals("xml") || type.equals("csv")) {
        payload = unwrapXmlRoot(payload, schema, type);
        payload = Schemas.coerce(payload, schema);
      }
    }
    List<String> errors = Schemas.errors(schema, payload);
    return Verification.of(errors.isEmpty() ? 1.0 : 0.0)
        .with("validation_result", errors.isEmpty() ? "valid" : "schema_error")
        .with("validation_errors", Json.toTree(errors.subList(0, Math.min(errors.size(), 20))));
  }

  /** An XML document is {root: {...}}; the schema usually describes what is inside the root. */
  private static JsonNode unwrapXmlRoot(JsonNode payload, JsonNode schema, String type) {
    if (type.equals("xml") && payload.size() == 1 && !schema.path("properties").has(payload.propertyNames().iterator()
        .next())) {
      return payload.properties().iterator().next().getValue();
    }
    return payload;
  }

  private static Verification failed(String reason, String detail) {
    Verification verification = Verification.of(0.0).with("validation_result", reason);
    return detail == null ? verification : verification.with("validation_errors", Json.toTree(List.of(detail)));
  }
}
