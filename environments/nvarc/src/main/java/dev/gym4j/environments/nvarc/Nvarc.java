package dev.gym4j.environments.nvarc;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * NVARC's ARC-AGI environment (NeMo Gym's nvarc) in transductive mode: the model writes the output grid
 * (rows of digits, in a {@code \boxed{}} or not), read by {@link Boards}, which must equal
 * {@code expected_output}. Inductive mode, where the model writes a Python {@code transform} that NeMo Gym
 * runs, is refused: model-written code runs only in a sandbox, which this environment does not have.
 */
@Implementation("nvarc")
public final class Nvarc extends ResourcesServer {
  static final List<String> FIELDS = List.of("predicted_output", "extraction_successful", "exact_match", "agent_mode");

  private String agentMode;

  @Override
  protected void start() {
    agentMode = context().config().path("agent_mode").asString("transductive");
    if (agentMode.equals("inductive")) {
      throw new ConfigException(context().path("agent_mode") + " is inductive, which runs model-written Python; "
          + "gym4j's nvarc runs transductive mode only");
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode rowMode = request.field("agent_mode");
    String mode = rowMode.isString() && !rowMode.stringValue().isEmpty() ? rowMode.stringValue() : agentMode;
    if (mode.equals("inductive")) {
      throw new FieldError(List.of("agent_mode"), "inductive mode runs model-written Python in a sandbox, which this "
          + "environment does not do; only transductive rows are verified", "value_error");
    }
    JsonNode expected = request.field("expected_output");
    if (expected.isMissingNode()) {
      expected = Json.array();
    } else if (!expected.isArray()) {
      throw new FieldError(List.of("expected_output"), "Input should be a list of lists of integers", "list_type");
    }
    List<List<Integer>> predicted = Boards.parse(assistantText(request));
    boolean exact = predicted != null && PythonEquality.equal(Json.toTree(predicted), expected);
    return Verification.of(exact ? 1.0 : 0.0).with("expected_output", expected)
        .with("predicted_output", predicted == null ? NullNode.getInstance() : Json.toTree(predicted))
        .with("extraction_successful", predicted != null).with("exact_match", exact).with("agent_mode", mode);
  }

  private static String assistantText(VerifyRequest request) {
    List<String> texts = new ArrayList<>();
    for (var item : request.response().output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        }
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            texts.add(part.path("text").stringValue());
          }
        }
      }
    }
    return PythonText.strip(String.join("\n", texts));
  }
}
