package dev.gym4j.environments.instruction_following;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.ifeval.Instruction;
import dev.gym4j.ifeval.Instructions;
import dev.gym4j.ifeval.InvalidInstruction;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Item;
import tools.jackson.databind.JsonNode;

/**
 * IFEval-style instructions checked on the final answer (NeMo Gym's instruction_following). A row gives
 * {@code instruction_id_list} and {@code kwargs} (one per id), at its top level or under
 * {@code verifier_metadata}; the text checked is the first content part of the last output item. Each
 * instruction is checked strictly; an unknown id is not followed. {@code grading_mode} {@code binary}
 * (the default) scores 1 only when all are followed, {@code fraction} scores the share followed.
 */
@Implementation("instruction_following")
public final class InstructionFollowing extends ResourcesServer {
  private static final List<String> MODES = List.of("binary", "fraction");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode metadata = request.field("verifier_metadata");
    String prefix = metadata.isObject() && metadata.has("instruction_id_list") ? "verifier_metadata." : "";
    JsonNode source = prefix.isEmpty() ? request.json() : metadata;
    JsonNode ids = source.path("instruction_id_list");
    if (!ids.isArray()) {
      throw new FieldError(List.of(prefix + "instruction_id_list"), "Field required: a list of instruction ids",
          "missing");
    }
    JsonNode kwargs = source.path("kwargs");
    if (!kwargs.isArray()) {
      throw new FieldError(List.of(prefix + "kwargs"), "Field required: a list of kwargs, one per instruction",
          "missing");
    }
    String mode = source.path("grading_mode").asString(context().config().path("grading_mode").asString("binary"));
    if (!MODES.contains(mode)) {
      throw new FieldError(List.of(prefix + "grading_mode"), "must be one of " + MODES, "literal_error");
    }
    String text = finalText(request.response().output());
    List<Boolean> strict = new ArrayList<>();
    List<Boolean> loose = new ArrayList<>();
    // as NeMo Gym's zip: a shorter list of kwargs checks only that many instructions
    for (int i = 0; i < Math.min(ids.size(), kwargs.size()); i++) {
      Instruction instruction = instruction(ids.get(i).asString(""), kwargs.get(i), prefix, i);
      strict.add(instruction != null && Instructions.strict(instruction, text));
      loose.add(instruction != null && Instructions.loose(instruction, text));
    }
    boolean all = !strict.isEmpty() && !strict.contains(false);
    double reward = mode.equals("binary") ? (all ? 1.0 : 0.0)
        : strict.isEmpty() ? 0.0 : strict.stream().filter(b -> b).count() / (double) strict.size();
    return Verification.of(reward).with("follow_all_instructions", all).with("follow_instruction_list", strict)
        .with("follow_instruction_list_loose", loose);
  }

  /** The instruction, or null for an id nobody registered; bad kwargs are the row's error (422). */
  private static Instruction instruction(String id, JsonNode kwargs, String prefix, int index) {
    if (!kwargs.isNull() && !kwargs.isObject()) {
      throw new FieldError(List.of(prefix + "kwargs", index), "must be an object or null", "dict_type");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> values = kwargs.isObject() ? Json.convert(kwargs, Map.class) : Map.of();
    try {
      return Instructions.build(id, values);
    } catch (InvalidInstruction e) {
      if (e.field() == null) {
        return null;
      }
      throw new FieldError(List.of(prefix + "kwargs", index, e.field()), e.getMessage(), "value_error");
    }
  }

  /** {@code output[-1].content[0].text}, or "" when the last item has no content. */
  private static String finalText(List<Item> output) {
    if (output.isEmpty()) {
      return "";
    }
    JsonNode content = output.getLast().json().path("content");
    if (content.isArray() && !content.isEmpty()) {
      return content.get(0).path("text").asString("");
    }
    return content.isString() ? content.stringValue() : "";
  }
}
