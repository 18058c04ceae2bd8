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
  void aRolloutWhoseRecordingStopsMatchingIsAnsweredByTheRecordingThatContinuesIt() throws Exception {
    // two seeded games that open alike (same first board, same first move) and part at the second board: the
    // recording the cookie picked at the first turn may be the other game's, so the cookie is only a preference
    String board2a = "{\"role\": \"user\", \"content\": \"board A2\"}";
    String board2b = "{\"role\": \"user\", \"content\": \"board B2\"}";
    String move = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": \"Down\"}";
    String endA = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": \"A done\"}";
    String endB = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": \"B done\"}";
    try (Deployment deployment = replaying(rollout("m", move, board2a, endA), rollout("m", move, board2b, endB))) {
      HttpReply first = ask(deployment, Map.of(), USER);
      assertThat(first.json().at("/output/0/content").asString()).isEqualTo("Down");
      // whichever recording the cookie names, each second board gets its own game's next turn
      assertThat(ask(deployment, first.cookies(), USER, move, board2a).json().at("/output/0/content").asString())
          .isEqualTo("A done");
      assertThat(ask(deployment, first.cookies(), USER, move, board2b).json().at("/output/0/content").asString())
          .isEqualTo("B done");
      HttpReply nowhere = ask(deployment, first.cookies(), USER, move,
          "{\"role\": \"user\", \"content\": \"board C2\"}");
      assertThat(nowhere.status()).isEqualTo(422);
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

  private static HttpReply chat(Deployment deployment, Map<String, String> cookies, String... messages) {
    return deployment.client().post("policy_model", "/v1/chat/completions",
        Json.parse("{\"messages\": [" + String.join(", ", messages) + "]}"), cookies);
  }

  /**
   * A chat client (NeMo Gym's vllm_model-style callers, mini_swe_agent: responses_api_models/vllm_model/app.py
   * chat_completions) gets the recorded turns as chat messages and sends them back as it got them.
   */
  @Test
  void chatCompletionsReplayTheRecordedTurnsAsChatMessages() throws Exception {
    try (Deployment deployment = replaying(rollout("Qwen/Qwen3-8B", CALL,
        toolOutput("{\"city\": \"SF\", \"weather_description\": \"cold\"}"), ANSWER))) {
      HttpReply first = chat(deployment, Map.of(), USER);
      assertThat(first.status()).as(first.text()).isEqualTo(200);
      JsonNode choice = first.json().at("/choices/0");
      assertThat(choice.get("finish_reason").asString()).isEqualTo("tool_calls");
      JsonNode assistant = choice.get("message");
      assertThat(assistant.at("/tool_calls/0/id").asString()).isEqualTo("c1");
      assertThat(assistant.at("/tool_calls/0/function/name").asString()).isEqualTo("get_weather");
      assertThat(first.json().get("object").asString()).isEqualTo("chat.completion");

      String tool = "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": "
          + "\"{\\\"city\\\":\\\"SF\\\",\\\"weather_description\\\":\\\"cold\\\"}\"}";
      HttpReply second = chat(deployment, first.cookies(), USER, Json.write(assistant), tool);
      assertThat(second.status()).as(second.text()).isEqualTo(200);
      assertThat(second.json().at("/choices/0/message/content").asString()).isEqualTo("It is cold.");
      assertThat(second.json().at("/choices/0/finish_reason").asString()).isEqualTo("stop");

      HttpReply other = chat(deployment, Map.of(), "{\"role\": \"user\", \"content\": \"weather in LA?\"}");
      assertThat(other.status()).isEqualTo(422);
      assertThat(other.json().at("/detail/0/loc")).isEqualTo(Json.parse("[\"body\", \"messages\"]"));
      assertThat(other.text()).contains("no recording continues").doesNotContain("Exception");
    }
  }

  /** A judge call about a rollout replay_model answered (what JudgedRollout's cookie says it is). */
  private static HttpReply judge(Deployment deployment, String marker) {
    return deployment.client().post("policy_model", "/v1/responses",
        Json.parse("{\"input\": [{\"role\": \"user\", \"content\": \"our own judge prompt\"}]}"),
        Map.of(dev.gym4j.model.JudgedRollout.COOKIE, marker));
  }

  /**
   * Judges that record only their texts: inverse_if's rubric_evaluations[].judge_response, one per criterion in
   * order (resources_servers/inverse_if/app.py), and longmemeval's judge_raw (resources_servers/longmemeval/app.py).
   */
  @Test
  void judgeTextsRecordedPerCriterionOrAsJudgeRawAreGivenBackInOrder() throws Exception {
    String rubric = "{\"responses_create_params\": {\"input\": [" + USER + "]}, \"reward\": 0.5, \"response\": "
        + "{\"id\": \"r\", \"output\": [" + ANSWER + "]}, \"rubric_evaluations\": [{\"judge_response\": \"PASS\"}, "
        + "{\"judge_response\": \"FAIL\"}]}";
    String memory = "{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": \"q2\"}]}, "
        + "\"reward\": 1.0, \"response\": {\"id\": \"r\", \"output\": [" + ANSWER + "]}, \"judge_raw\": \"yes\"}";
    try (Deployment deployment = replaying(rubric, memory, rollout("m", ANSWER))) {
      String first = ask(deployment, Map.of(), USER).json().get("id").asString();
      assertThat(judge(deployment, first + ".0").json().at("/output/0/content/0/text").asString()).isEqualTo("PASS");
      assertThat(judge(deployment, first + ".1").json().at("/output/0/content/0/text").asString()).isEqualTo("FAIL");
      assertThat(judge(deployment, first + ".2").status()).isEqualTo(422);
      String second = ask(deployment, Map.of(), "{\"role\": \"user\", \"content\": \"q2\"}").json().get("id")
          .asString();
      assertThat(judge(deployment, second + ".0").json().at("/output/0/content/0/text").asString()).isEqualTo("yes");
    }
  }

  /** arena_judge's two judgements (resources_servers/arena_judge/app.py): gen-base answers the first call. */
  @Test
  void arenaJudgementsAreGivenBackGenBaseFirst() throws Exception {
    String arena = "{\"responses_create_params\": {\"input\": [" + USER + "]}, \"reward\": 1.0, \"response\": "
        + "{\"id\": \"r\", \"output\": [" + ANSWER + "]}, \"judgement_gen_base\": \"[[A>B]]\", "
        + "\"judgement_base_gen\": \"[[B>>A]]\"}";
    try (Deployment deployment = replaying(arena, rollout("m", ANSWER))) {
      String id = ask(deployment, Map.of(), USER).json().get("id").asString();
      assertThat(judge(deployment, id + ".0").json().at("/output/0/content/0/text").asString()).isEqualTo("[[A>B]]");
      assertThat(judge(deployment, id + ".1").json().at("/output/0/content/0/text").asString()).isEqualTo("[[B>>A]]");
      assertThat(judge(deployment, id + ".2").status()).isEqualTo(422);
    }
  }

  /**
   * NeMo Gym keeps the judge's exchange with the rollout (judge_evaluations[].response, e.g.
   * resources_servers/equivalence_llm_judge/app.py; judge_output in simpleqa): a judge call made while verifying
   * a replayed rollout gets that recorded answer, the n-th for the n-th call, and nothing when none was recorded.
   */
  @Test
  void judgeCallsAboutAReplayedRolloutGetItsRecordedVerdicts() throws Exception {
    String verdict = "{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"[[A=B]]\"}]}]}";
    String judged = "{\"responses_create_params\": {\"input\": [" + USER + "]}, \"reward\": 1.0, \"response\": "
        + "{\"id\": \"r\", \"output\": [" + ANSWER + "]}, \"judge_evaluations\": [{\"responses_create_params\": "
        + "{\"input\": []}, \"response\": " + verdict + "}]}";
    String graded = "{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": \"q2\"}]}, "
        + "\"reward\": 1.0, \"response\": {\"id\": \"r\", \"output\": [" + ANSWER + "]}, \"judge_output\": \"A\"}";
    try (Deployment deployment = replaying(judged, graded, rollout("m", ANSWER))) {
      String first = ask(deployment, Map.of(), USER).json().get("id").asString();
      HttpReply verdictReply = judge(deployment, first + ".0");
      assertThat(verdictReply.status()).as(verdictReply.text()).isEqualTo(200);
      assertThat(verdictReply.json().at("/output/0/content/0/text").asString()).isEqualTo("[[A=B]]");
      HttpReply second = judge(deployment, first + ".1");
      assertThat(second.status()).isEqualTo(422);
      assertThat(second.text()).contains("1 judge exchange(s)", "judge call 2");

      String gradedId = ask(deployment, Map.of(), "{\"role\": \"user\", \"content\": \"q2\"}").json().get("id")
          .asString();
      assertThat(judge(deployment, gradedId + ".0").json().at("/output/0/content/0/text").asString()).isEqualTo("A");
      HttpReply chatVerdict = deployment.client().post("policy_model", "/v1/chat/completions",
          Json.parse("{\"messages\": [{\"role\": \"user\", \"content\": \"grade it\"}]}"),
          Map.of(dev.gym4j.model.JudgedRollout.COOKIE, gradedId + ".0"));
      assertThat(chatVerdict.json().at("/choices/0/message/content").asString()).isEqualTo("A");

      HttpReply notOurs = judge(deployment, "resp_from_elsewhere.0");
      assertThat(notOurs.status()).isEqualTo(422);
      assertThat(notOurs.text()).contains("replay_model did not give");
    }
  }

  @Test
  void theUpstreamHealthOfReplayModelIsItsRecordings() throws Exception {
    try (Deployment deployment = replaying(rollout("m", ANSWER))) {
      HttpReply health = deployment.client().get("policy_model", "/upstream_health");
      assertThat(health.status()).isEqualTo(200);
      assertThat(health.json().get("status").asString()).isEqualTo("ok");
      assertThat(health.json().get("upstream").asString()).isEqualTo("1 recorded rollouts");
    }
  }
}
