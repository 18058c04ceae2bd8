package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code replay_model} through its shipped config, in a real deployment. */
class ReplayModelTest {
  private static final String USER = "{\"role\": \"user\", \"content\": \"weather in SF?\"}";
  private static final String CALL = "{\"type\": \"function_call\", \"call_id\": \"c1\", \"name\": \"get_weather\", "
      + "\"arguments\": \"{\\\"city\\\": \\\"SF\\\"}\", \"id\": \"fc_1\", \"status\": \"completed\"}";
  private static final String ANSWER = "{\"type\": \"message\", \"role\": \"assistant\", \"id\": \"msg_1\", "
      + "\"content\": [{\"type\": \"output_text\", \"text\": \"It is cold.\"}], \"prompt_token_ids\": [1, 2], "
      + "\"generation_token_ids\": [7, 8], \"generation_log_probs\": [-0.5, -0.25]}";

  @TempDir
  Path dir;

  /** A rollout as NeMo Gym writes it: Python's JSON spacing in the tool output. */
  private static String rollout(String model, String... output) {
    return "{\"responses_create_params\": {\"input\": [" + USER + "]}, \"reward\": 1.0, \"response\": {\"id\": "
        + "\"resp_1\", \"model\": \"" + model + "\", \"output\": [" + String.join(", ", output) + "]}}";
  }

  private static String toolOutput(String text) {
    return "{\"type\": \"function_call_output\", \"call_id\": \"c1\", \"output\": " + Json.write(Json.toTree(text)) + "}";
  }

  private Deployment replaying(String... rollouts) throws Exception {
    Path file = dir.resolve("rollouts.jsonl");
    Files.write(file, List.of(rollouts));
    var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[models/configs/replay_model.yaml]", "++head_server.port=0", "+policy_recordings=[" + file + "]"));
    return Deployment.start(config, Implementations.load(), Set.of());
  }

  private static HttpReply ask(Deployment deployment, Map<String, String> cookies, String... input) {
    return deployment.client().post("policy_model", "/v1/responses",
        Json.parse("{\"input\": [" + String.join(", ", input) + "]}"), cookies);
  }

  @Test
  void eachRecordedTurnAnswersTheConversationThatLedToIt() throws Exception {
    try (Deployment deployment = replaying(rollout("Qwen/Qwen3-8B", CALL,
        toolOutput("{\"city\": \"SF\", \"weather_description\": \"cold\"}"), ANSWER))) {
      HttpReply first = ask(deployment, Map.of(), USER);
      assertThat(first.status()).as(first.text()).isEqualTo(200);
      assertThat(first.json().get("output")).hasSize(1);
      assertThat(first.json().at("/output/0/name").asString()).isEqualTo("get_weather");
      assertThat(first.json().get("model").asString()).isEqualTo("Qwen/Qwen3-8B");
      assertThat(first.json().get("status").asString()).isEqualTo("completed");

      // our tool writes compact JSON where Python wrote spaces: the same values match
      HttpReply second = ask(deployment, first.cookies(), USER, Json.write(first.json().at("/output/0")),
          toolOutput("{\"city\":\"SF\",\"weather_description\":\"cold\"}"));
      assertThat(second.status()).as(second.text()).isEqualTo(200);
      assertThat(second.json().at("/output/0/content/0/text").asString()).isEqualTo("It is cold.");
      assertThat(second.json().at("/output/0/generation_token_ids")).isEqualTo(Json.parse("[7, 8]"));
      assertThat(second.json().at("/output/0/generation_log_probs")).isEqualTo(Json.parse("[-0.5, -0.25]"));
    }
  }

  @Test
  void aConversationNoRecordingContinuesIsA422NamingTheItemThatDiffers() throws Exception {
    try (Deployment deployment = replaying(rollout("m", CALL, toolOutput("{\"weather\": \"cold\"}"), ANSWER))) {
      HttpReply reply = ask(deployment, Map.of(), USER, CALL, toolOutput("{\"weather\": \"warm\"}"));
      assertThat(reply.status()).isEqualTo(422);
      JsonNode detail = reply.json().at("/detail/0");
      assertThat(detail.get("loc")).isEqualTo(Json.parse("[\"body\", \"input\", 2]"));
      assertThat(detail.get("msg").asString()).contains("rollouts.jsonl line 1", "warm", "cold");

      HttpReply finished = ask(deployment, Map.of(), USER, CALL, toolOutput("{\"weather\": \"cold\"}"), ANSWER);
      assertThat(finished.status()).isEqualTo(422);
      assertThat(finished.text()).contains("the recording is finished");
    }
  }

  @Test
  void repeatsOfOneTaskAreAnsweredInTurnAndACookieKeepsARolloutOnItsRecording() throws Exception {
    String a = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": \"A\"}";
    String b = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": \"B\"}";
    try (Deployment deployment = replaying(rollout("m", a), rollout("m", b))) {
      HttpReply first = ask(deployment, Map.of(), USER);
      HttpReply second = ask(deployment, Map.of(), USER);
      assertThat(List.of(first.json().at("/output/0/content").asString(), second.json().at("/output/0/content")
          .asString())).containsExactly("A", "B");
      assertThat(ask(deployment, second.cookies(), USER).json().at("/output/0/content").asString()).isEqualTo("B");
    }
  }

  @Test
  void aRecordingThatStoppedWhileReasoningEndsIncompleteSoTheAgentStopsToo() throws Exception {
    String reasoning = "{\"type\": \"reasoning\", \"summary\": [{\"type\": \"summary_text\", \"text\": \"hmm\"}]}";
    try (Deployment deployment = replaying(rollout("m", reasoning))) {
      JsonNode answer = ask(deployment, Map.of(), USER).json();
      assertThat(answer.get("status").asString()).isEqualTo("incomplete");
      assertThat(answer.at("/incomplete_details/reason").asString()).isEqualTo("max_output_tokens");
    }
  }

  @Test
  void chatCompletionsAreRefusedWithAPointerToTheResponsesApi() throws Exception {
    try (Deployment deployment = replaying(rollout("m", ANSWER))) {
      HttpReply reply = deployment.client().post("policy_model", "/v1/chat/completions",
          Json.parse("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"), Map.of());
      assertThat(reply.status()).isEqualTo(422);
      assertThat(reply.text()).contains("/v1/responses").doesNotContain("Exception");
    }
  }
}
