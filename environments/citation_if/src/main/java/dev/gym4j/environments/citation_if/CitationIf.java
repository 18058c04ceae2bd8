package dev.gym4j.environments.citation_if;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Citation instruction following (NeMo Gym's citation_if): each row's {@code verifier} names a citation
 * grammar and the valid IDs, and {@link Scorer} runs the gate sequence over the assistant's text. Only the
 * citations are graded, never what the answer says. {@code match_details} explains the verdict.
 */
@Implementation("citation_if")
public final class CitationIf extends ResourcesServer {
  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode verifier = request.field("verifier");
    if (!verifier.isObject()) {
      throw new FieldError(List.of("verifier"), "Field required: the row's citation verifier object", "dict_type");
    }
    List<String> texts = new ArrayList<>();
    int functionCalls = 0;
    JsonNode response = request.json().get("response");
    JsonNode output = response.path("contains_transitions").asBoolean(false) && !response.path("output").isEmpty()
        ? response.path("output").get(response.path("output").size() - 1) : response.path("output");
    for (JsonNode item : output) {
      String type = item.path("type").asString("");
      if (type.equals("function_call")) {
        functionCalls++;
      }
      if (type.equals("message") && item.path("role").asString("").equals("assistant")) {
        for (JsonNode block : item.path("content")) {
          String kind = block.path("type").asString("");
          if ((kind.equals("output_text") || kind.equals("text")) && block.path("text").isString()
              && !block.path("text").stringValue().isEmpty()) {
            texts.add(block.path("text").stringValue());
          }
        }
      }
    }
    Scorer.Result result = Scorer.score(PythonText.strip(String.join("\n", texts)), functionCalls, verifier);
    return Verification.of(result.reward()).with("match_details", result.details());
  }
}
