package dev.gym4j.environments.graphwalks;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI's GraphWalks (NeMo Gym's graphwalks): the parents of a node, or the nodes at a BFS depth, given
 * on the last line as {@code Final Answer: [n1, n2, …]}. The reward is the F1 of that node set against
 * {@code expected_answer} (a JSON list): 1 when both are empty, 0 when the line is missing.
 */
@Implementation("graphwalks")
public final class Graphwalks extends ResourcesServer {
  static final List<String> FIELDS = List.of("f1", "parse_failed", "predicted_nodes");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Field required: the expected nodes as JSON text",
          "string_type");
    }
    if (!request.field("problem_type").isString()) {
      throw new FieldError(List.of("problem_type"), "Field required: parents or bfs", "string_type");
    }
    NodeList answer = NodeList.parse(request.response().outputTextParts(), false);
    double f1 = answer.f1(NodeList.expected(expected.stringValue()));
    Verification verification = Verification.of(f1).with("f1", f1).with("parse_failed", answer.parseFailed())
        .with("predicted_nodes", answer.nodes());
    // NeMo Gym's response model writes these optional task fields even when the row has none
    for (String optional : List.of("n_tokens", "prompt_chars")) {
      if (request.field(optional).isMissingNode()) {
        verification = verification.with(optional, tools.jackson.databind.node.NullNode.getInstance());
      }
    }
    return verification;
  }
}
