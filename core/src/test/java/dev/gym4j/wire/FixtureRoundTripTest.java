package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every {@code response} NeMo Gym recorded reads into our wire types and writes back to an equal JSON tree,
 * and every typed accessor works on it.
 */
class FixtureRoundTripTest {

  @Test
  void everyRecordedResponseSurvivesReadAndWrite() throws Exception {
    List<Path> files = Fixtures.rolloutFiles();
    assertThat(files).hasSizeGreaterThan(100);
    int responses = 0;
    List<String> typesSeen = new ArrayList<>();
    for (Path file : files) {
      int line = 0;
      for (String text : Files.readAllLines(file)) {
        line++;
        if (text.isBlank()) {
          continue;
        }
        JsonNode row = Json.parse(text);
        JsonNode recorded = row.get("response");
        if (recorded == null || recorded.isNull()) {
          continue;
        }
        Response response = Response.of(recorded, List.of(Fixtures.projectRoot().relativize(file) + ":" + line, "response"));
        String written = Json.write(response);
        assertThat(Json.parse(written)).as("%s line %d", file, line).isEqualTo(Json.parse(Json.write(recorded)));
        assertThat(Json.parse(written)).as("%s line %d", file, line).isEqualTo(Json.parse(text).get("response"));
        for (Item item : response.output()) {
          if (!typesSeen.contains(item.type())) {
            typesSeen.add(item.type());
          }
          readTypedFields(item);
        }
        response.usage().ifPresent(usage -> assertThat(usage.totalTokens()).isGreaterThanOrEqualTo(0));
        responses++;
      }
    }
    assertThat(responses).isGreaterThan(500);
    assertThat(typesSeen).contains("message", "function_call", "function_call_output", "reasoning");
  }

  @Test
  void everyRecordedRequestIsAValidResponsesRequest() throws Exception {
    int requests = 0;
    for (Path file : Fixtures.rolloutFiles()) {
      for (JsonNode row : Json.readLines(file)) {
        JsonNode params = row.get("responses_create_params");
        if (params == null) {
          continue;
        }
        ResponseCreateParams request = ResponseCreateParams.of(params);
        assertThat(Json.parse(Json.write(request))).isEqualTo(params);
        assertThat(request.input()).allSatisfy(item -> assertThat(item.json()).isNotNull());
        requests++;
      }
    }
    assertThat(requests).isGreaterThan(500);
  }

  @Test
  void floatsKeepTheirWrittenForm() {
    String text = "{\"created_at\":1756074069.0,\"reward\":1.0,\"generation_log_probs\":[-0.000123,-1e-05,0.0]}";
    assertThat(Json.write(Json.parse(text))).isEqualTo(
        "{\"created_at\":1756074069.0,\"reward\":1.0,\"generation_log_probs\":[-0.000123,-0.00001,0.0]}");
  }

  private static void readTypedFields(Item item) {
    switch (item) {
      case Message message -> assertThat(message.role()).isNotNull();
      case FunctionCall call -> assertThat(call.name()).isNotBlank();
      case FunctionCallOutput output -> assertThat(output.output()).isNotNull();
      case Reasoning reasoning -> assertThat(reasoning.summaryText()).isNotNull();
      case OtherItem other -> assertThat(other.json().has("type")).isTrue();
    }
  }
}
