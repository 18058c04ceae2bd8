package dev.gym4j.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Conformance for an LLM-judged environment: {@link RecordedRolloutsTest}'s checks with the scripted judge
 * replaying the recorded judge answers (by default from the rollouts' {@code judge_evaluations}), the recorded
 * verdict fields reproduced ({@link #recordedFields}), and the judge's failures seen end to end through
 * {@code /verify}: a judge that is down, answers 5xx, answers past its deadline or off-format fails the rollout
 * with {@code judge_error} or {@code judge_unparseable} and no reward; a 429 followed by an answer is scored;
 * under {@code judge_unparseable: zero} an off-format answer scores 0 (NeMo Gym's rule) and a judge error still fails.
 *
 * <p>The judge is the scripted model behind {@code policy_model} (the environments' configs point
 * {@code judge_model_server} at it), so a judge call goes environment → model server → scripted upstream.
 */
public abstract class JudgedRolloutsTest extends RecordedRolloutsTest {
  /**
   * What the failure tests send: a verify request whose reward only the judge can decide (no rule or library
   * shortcut applies), a judge answer with a verdict for it, and one in which the environment finds none.
   */
  public record JudgedCase(ObjectNode request, Answer verdict, Answer offFormat) {}

  protected abstract JudgedCase judgedCase();

  private ObjectNode judgedRequest() {
    return judgedCase().request();
  }

  private Answer verdictAnswer() {
    return judgedCase().verdict();
  }

  /** Fields of each recorded rollout that our verify response must repeat exactly, beside the reward. */
  protected List<String> recordedFields() {
    return List.of();
  }

  /** Where the verify response keeps the judge exchange (NeMo Gym's name for it in this environment). */
  protected String exchangeField() {
    return "judge_evaluations";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return Replay.judgeAnswers(recorded);
  }

  /** Fast retries, so that the failure tests do not wait out production backoffs. */
  @Override
  protected String[] overrides() {
    List<String> all = new ArrayList<>(Arrays.asList(judgeOverrides()));
    String server = "++" + resourcesInstance() + ".resources_servers." + environment() + ".";
    all.addAll(List.of(server + "judge_initial_backoff_seconds=0.01", server + "judge_max_backoff_seconds=0.05",
        "++client_initial_backoff_seconds=0.01", "++client_max_backoff_seconds=0.05"));
    return all.toArray(String[]::new);
  }

  /** The environment's own overrides, e.g. to switch its judge on; none by default. */
  protected String[] judgeOverrides() {
    return new String[0];
  }

  /** The name of the environment's resources server instance in its {@code config.yaml}. */
  protected final String resourcesInstance() {
    JsonNode config = Yaml.read(Path.of("config.yaml"));
    for (String name : config.propertyNames()) {
      if (config.get(name).has("resources_servers")) {
        return name;
      }
    }
    throw new IllegalStateException("config.yaml names no resources server");
  }

  /**
   * A verify request: the task fields given, a one-line prompt when they have none, and a model response of
   * one assistant message with {@code modelText}.
   */
  protected static ObjectNode verifyRequest(String taskFieldsJson, String modelText) {
    ObjectNode request = (ObjectNode) Json.parse(taskFieldsJson);
    if (!request.has("responses_create_params")) {
      request.putObject("responses_create_params").putArray("input").addObject().put("role", "user")
          .put("content", "q");
    }
    ObjectNode message = request.putObject("response").putArray("output").addObject();
    message.put("type", "message").put("role", "assistant").putArray("content").addObject()
        .put("type", "output_text").put("text", modelText);
    return request;
  }

  /** Where a chat-completions judge's filled prompt sits in a judge evaluation of the verify response. */
  protected static final String CHAT_JUDGE_PROMPT = "/judge_evaluations/0/chat_completion_create_params/messages/0/content";
  /** Where a Responses API judge's filled prompt sits in a judge evaluation of the verify response. */
  protected static final String RESPONSES_JUDGE_PROMPT = "/judge_evaluations/0/responses_create_params/input/0/content";

  /**
   * Verifies each recorded rollout that {@code judged} accepts, with its recorded judge answers, and asserts that
   * the judge prompt at {@code promptPointer} is, byte for byte, the one NeMo Gym's code builds for that row:
   * the {@code judge_prompt} of the line of {@code data/example_judge_prompts.jsonl} with the row's
   * {@code _ng_task_index} (NeMo Gym records the judge's answer but not its prompt, so that file is made once
   * with NeMo Gym's Python). Returns the verify responses, in the rows' order, for further checks.
   */
  protected final List<JsonNode> verifyWithNemoGymsJudgePrompts(String promptPointer,
      java.util.function.Predicate<JsonNode> judged) {
    List<JsonNode> prompts = Json.readLines(Path.of("data", "example_judge_prompts.jsonl"));
    List<JsonNode> verdicts = new ArrayList<>();
    for (JsonNode row : recordedRollouts()) {
      if (!judged.test(row)) {
        continue;
      }
      judgeAnswers(row).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      JsonNode expected = prompts.stream().filter(p -> p.get("_ng_task_index").equals(row.get("_ng_task_index")))
          .findFirst().orElseThrow(() -> new AssertionError("no judge prompt for _ng_task_index "
              + row.get("_ng_task_index") + " in data/example_judge_prompts.jsonl"));
      assertThat(verdict.at(promptPointer).asString()).as("judge prompt of row %s", row.get("_ng_task_index"))
          .isEqualTo(expected.get("judge_prompt").asString());
      verdicts.add(verdict);
    }
    assertThat(verdicts).as("recorded rows that reached the judge").isNotEmpty();
    return verdicts;
  }

  /**
   * True where {@code replay_model} answers this environment's judge calls from the exchanges recorded with
   * each rollout ({@code judge_evaluations}, …), as {@code gym4j eval --env <name>} with no model does it; then
   * {@link #replayModelAnswersTheJudgeFromTheRecordingsAsEvalWithoutAModelDoes} checks the recorded rewards
   * come out. False by default.
   */
  protected boolean judgeReplayedFromRecordings() {
    return false;
  }

  @org.junit.jupiter.api.TestFactory
  java.util.stream.Stream<org.junit.jupiter.api.DynamicTest>
      replayModelAnswersTheJudgeFromTheRecordingsAsEvalWithoutAModelDoes() {
    if (!judgeReplayedFromRecordings()) {
      return java.util.stream.Stream.empty();
    }
    return recordedRollouts().stream().filter(this::replayable).map(row -> org.junit.jupiter.api.DynamicTest
        .dynamicTest("line " + (row.path("_ng_task_index").asInt() + 1), () -> {
          JsonNode verdict = replaying().replay(row);
          assertThat(verdict.get("reward").asDouble()).as(verdict.toString())
              .isEqualTo(expectedReward("example_rollouts.jsonl", row.path("_ng_task_index").asInt() + 1, row));
        }));
  }

  @Test
  void theRecordedVerdictFieldsAreReproduced() {
    for (JsonNode row : recordedRollouts()) {
      judgeAnswers(row).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      for (String field : recordedFields()) {
        assertThat(verdict.get(field)).as("%s of %s", field, row.path("_ng_task_index")).isEqualTo(row.get(field));
      }
    }
  }

  @Test
  void aJudgeVerdictIsScoredWithTheExchangeKept() {
    try {
      harness().model().otherwise(body -> verdictAnswer());
      HttpReply reply = harness().post("/verify", judgedRequest(), Map.of());
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      assertThat(reply.json().get("reward").isNumber()).isTrue();
      assertThat(reply.json().path(exchangeField()).isMissingNode() || reply.json().get(exchangeField()).isNull())
          .as("the judge exchange is kept in %s", exchangeField()).isFalse();
    } finally {
      harness().model().otherwise(body -> Answer.text("OK"));
    }
  }

  @Test
  void aJudgeAnsweringOffFormatFailsTheRolloutAsJudgeUnparseable() {
    harness().model().enqueue(judgedCase().offFormat());
    assertFailure(harness().post("/verify", judgedRequest(), Map.of()), 502, "judge_unparseable");
  }

  @Test
  void withJudgeUnparseableZeroAnOffFormatVerdictScoresZeroAsNemoGymScoresIt() {
    List<String> zero = new ArrayList<>(Arrays.asList(overrides()));
    zero.add("++" + resourcesInstance() + ".resources_servers." + environment() + ".judge_unparseable=zero");
    try (EnvironmentHarness lenient = EnvironmentHarness.start(environment(), zero.toArray(String[]::new))) {
      lenient.model().otherwise(body -> judgedCase().offFormat());
      HttpReply reply = lenient.post("/verify", judgedRequest(), Map.of());
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      assertThat(reply.json().get("reward").asDouble()).isEqualTo(0.0);
      // one judge call for the rollout: marked judge_unparseable; one of several: that call's verdict scores 0
      assertThat(reply.json().path("judge_unparseable").asBoolean(true)).isTrue();
      // a judge that is down is still a failure, never a reward
      lenient.model().otherwise(body -> Answer.drop());
      assertFailure(lenient.post("/verify", judgedRequest(), Map.of()), 502, "judge_error");
    }
  }

  @Test
  void aJudgeThatIsDownOrAnswers5xxFailsTheRolloutAsJudgeError() {
    try {
      harness().model().otherwise(body -> Answer.drop());
      assertFailure(harness().post("/verify", judgedRequest(), Map.of()), 502, "judge_error");
      harness().model().otherwise(body -> Answer.error(500, "{\"error\": {\"message\": \"overloaded\"}}"));
      assertFailure(harness().post("/verify", judgedRequest(), Map.of()), 502, "judge_error");
    } finally {
      harness().model().otherwise(body -> Answer.text("OK"));
    }
  }

  @Test
  void aJudgeAnswering429ThenAVerdictIsScored() {
    int before = harness().model().calls();
    try {
      harness().model().enqueue(Answer.error(429, "{\"error\": {\"message\": \"rate limited\"}}"));
      harness().model().otherwise(body -> verdictAnswer());
      HttpReply reply = harness().post("/verify", judgedRequest(), Map.of());
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      assertThat(reply.json().get("reward").isNumber()).isTrue();
      assertThat(harness().model().calls() - before).isGreaterThanOrEqualTo(2);
    } finally {
      harness().model().otherwise(body -> Answer.text("OK"));
    }
  }

  @Test
  void aJudgeSlowerThanItsDeadlineFailsTheRolloutAsJudgeError() {
    List<String> hurried = new ArrayList<>(Arrays.asList(overrides()));
    hurried.add("++" + resourcesInstance() + ".resources_servers." + environment() + ".judge_timeout_seconds=0.3");
    try (EnvironmentHarness slow = EnvironmentHarness.start(environment(), hurried.toArray(String[]::new))) {
      slow.model().otherwise(body -> verdictAnswer().after(Duration.ofSeconds(2)));
      assertFailure(slow.post("/verify", judgedRequest(), Map.of()), 504, "judge_error");
    }
  }

  private static void assertFailure(HttpReply reply, int status, String failureClass) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo(failureClass);
    assertThat(reply.json().has("reward")).as("a failed judge is never a reward").isFalse();
  }
}
