package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic's error body made from ours, for every status a route can give: the type Anthropic's API uses for the
 * status (its HTTP errors page: 400 invalid_request_error, 404 not_found_error, 413 request_too_large, 500
 * api_error, 529 overloaded_error, other 4xx invalid_request_error), the message ours carried. NeMo Gym's
 * nemo_gym/base_responses_api_model.py answers FastAPI's {@code detail} here (see models/README.md).
 */
class ErrorBodiesTest {
  @Test
  void a_detail_becomes_the_message_under_the_type_of_the_status() {
    ObjectNode body = ErrorBodies.anthropic(500, ErrorBodies.detail("Internal Server Error in m (error 1f)"));
    assertThat(body.toString()).isEqualTo(
        "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal Server Error in m (error 1f)\"}}");
    assertThat(ErrorBodies.anthropic(413, ErrorBodies.detail("too big")).at("/error/type").asString())
        .isEqualTo("request_too_large");
    assertThat(ErrorBodies.anthropic(404, ErrorBodies.detail("Not Found")).at("/error/type").asString())
        .isEqualTo("not_found_error");
    assertThat(ErrorBodies.anthropic(421, ErrorBodies.detail("wrong host")).at("/error/type").asString())
        .isEqualTo("invalid_request_error");
    assertThat(ErrorBodies.anthropic(503, ErrorBodies.detail("at capacity")).at("/error/type").asString())
        .isEqualTo("overloaded_error");
    assertThat(ErrorBodies.anthropic(502, ErrorBodies.detail("upstream answered 500")).at("/error/type").asString())
        .isEqualTo("api_error");
  }

  @Test
  void a_validation_failure_names_the_field_as_anthropic_does() {
    ObjectNode body = ErrorBodies.anthropic(422, ErrorBodies.validation(new FieldError(List.of("messages", 0, "role"),
        "Input should be 'user' or 'assistant'", "literal_error")));
    assertThat(body.at("/error/type").asString()).isEqualTo("invalid_request_error");
    assertThat(body.at("/error/message").asString()).isEqualTo("messages.0.role: Input should be 'user' or 'assistant'");
  }

  @Test
  void a_body_already_in_anthropics_shape_is_kept_and_a_failure_class_travels() {
    ObjectNode anthropic = (ObjectNode) Json.parse("{\"type\": \"error\", \"error\": {\"type\": \"timeout_error\", "
        + "\"message\": \"late\"}}");
    assertThat(ErrorBodies.anthropic(504, anthropic)).isEqualTo(anthropic);
    ObjectNode failed = ErrorBodies.detail("judge failed");
    failed.put(AgentServer.FAILURE_CLASS, "judge_error");
    assertThat(ErrorBodies.anthropic(502, failed).get(AgentServer.FAILURE_CLASS).asString()).isEqualTo("judge_error");
  }
}
