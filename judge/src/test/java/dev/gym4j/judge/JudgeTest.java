package dev.gym4j.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The judge client against a scripted OpenAI-compatible judge on a real socket. The client's own retries
 * are switched off, so every retry seen here is the judge's.
 */
class JudgeTest {
  private static final VerdictParser<String> EQUIVALENCE = VerdictParser.labels("[[A=B]]", "[[A!=B]]");
  private final ScriptedUpstream upstream = ScriptedUpstream.start();
  private final ServerClient client = client(upstream.root());

  @AfterEach
  void stop() {
    client.close();
    upstream.close();
  }

  private static ServerClient client(URI judge) {
    ClientSettings settings = ClientSettings.defaults().withRetries(1, Duration.ofMillis(1), Duration.ofMillis(1));
    return new ServerClient(name -> name.equals("judge_model") ? Optional.of(judge) : Optional.empty(), settings);
  }

  private Judge judge(JudgeSettings settings) {
    return new Judge(client, settings);
  }

  private static JudgeSettings fast() {
    return JudgeSettings.of("judge_model").withRetries(3, Duration.ofMillis(5), Duration.ofMillis(20))
        .withTimeout(Duration.ofSeconds(20));
  }

  @Test
  void aLabelledAnswerIsAVerdictAndTheWholeExchangeIsKept() {
    upstream.enqueue(Answer.text("Both say four. [[A=B]]"));
    JudgeOutcome<String> outcome = judge(fast()).ask("Be strict.", "Is 4 the same as four?", EQUIVALENCE);

    assertThat(outcome).isInstanceOf(JudgeOutcome.Verdict.class);
    assertThat(outcome.orThrow()).isEqualTo("[[A=B]]");
    JsonNode exchange = outcome.evaluation().orElseThrow();
    assertThat(exchange.at("/responses_create_params/input/0/role").asString()).isEqualTo("system");
    assertThat(exchange.at("/responses_create_params/input/1/content").asString()).isEqualTo("Is 4 the same as four?");
    assertThat(AnswerText.lastMessageText(exchange.get("response"))).contains("Both say four. [[A=B]]");
    assertThat(upstream.received().getFirst().path()).isEqualTo("/v1/responses");
  }

  @Test
  void aChatCompletionsJudgeGetsNemoGymsParametersAndIsReadFromItsFirstChoice() {
    JudgeSettings settings = fast().withChatCompletions(true);
    settings.createParams().put("temperature", 0.5);
    upstream.enqueue(Answer.text("  [[A=B]]\n"));
    JudgeOutcome<String> outcome = judge(settings).ask("system", "prompt", EQUIVALENCE);
    assertThat(outcome.orThrow()).isEqualTo("[[A=B]]");
    ScriptedUpstream.Received sent = upstream.received().getFirst();
    assertThat(sent.path()).isEqualTo("/v1/chat/completions");
    assertThat(sent.body().get("messages")).hasSize(2);
    assertThat(sent.body().get("max_tokens").asInt()).isEqualTo(64);
    assertThat(sent.body().get("temperature").asDouble()).isEqualTo(0.5);
    assertThat(((JudgeOutcome.Verdict<String>) outcome).text()).isEqualTo("[[A=B]]");
    assertThat(outcome.evaluation().orElseThrow().has("chat_completion_create_params")).isTrue();
  }

  @Test
  void aBlankSystemMessageIsLeftOut() {
    upstream.enqueue(Answer.text("[[A!=B]]"));
    judge(fast()).ask("", "prompt", EQUIVALENCE);
    assertThat(upstream.received().getFirst().body().get("input")).hasSize(1);
  }

  @Test
  void theCreateParamsAreTheBaseOfEveryCall() {
    JudgeSettings settings = fast();
    settings.createParams().put("max_output_tokens", 64).put("temperature", 0.0);
    upstream.enqueue(Answer.text("[[A=B]]"));
    judge(settings).ask("prompt", EQUIVALENCE);
    JsonNode sent = upstream.received().getFirst().body();
    assertThat(sent.get("max_output_tokens").asInt()).isEqualTo(64);
    assertThat(sent.get("temperature").asDouble()).isZero();
  }

  @Test
  void aJudgeThatCannotBeReachedIsAJudgeErrorAfterItsAttempts() throws Exception {
    URI closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }
    try (ServerClient down = client(closed)) {
      JudgeOutcome<String> outcome = new Judge(down, fast()).ask("prompt", EQUIVALENCE);
      JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) outcome;
      assertThat(failed.failureClass()).isEqualTo("judge_error");
      assertThat(failed.message()).contains("judge judge_model").contains("attempt 3 of at most 3");
      assertThat(failed.evaluation()).isEmpty();
      assertThatThrownBy(outcome::orThrow).isInstanceOfSatisfying(RolloutFailure.class, e -> {
        assertThat(e.failureClass()).isEqualTo("judge_error");
        assertThat(e.status()).isEqualTo(502);
      });
    }
  }

  @Test
  void aJudgeSlowerThanItsDeadlineIsAJudgeErrorWithAGatewayTimeout() {
    upstream.enqueue(Answer.text("[[A=B]]").after(Duration.ofSeconds(3)));
    JudgeOutcome<String> outcome = judge(fast().withTimeout(Duration.ofMillis(300))).ask("prompt", EQUIVALENCE);
    JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) outcome;
    assertThat(failed.failureClass()).isEqualTo("judge_error");
    assertThat(failed.timedOut()).isTrue();
    assertThat(failed.message()).contains("no judge verdict within 0.3 s");
    assertThat(failed.failure().status()).isEqualTo(504);
  }

  @Test
  void underJudgeUnparseableZeroAnAnswerWithoutAVerdictScoresZeroButAJudgeErrorStillFails() {
    JudgeSettings zero = fast().withUnparseableScoresZero(true);
    upstream.enqueue(Answer.text("They look about the same to me."));
    JudgeOutcome<String> outcome = judge(zero).ask("prompt", EQUIVALENCE);
    assertThat(((JudgeOutcome.Failed<String>) outcome).scoresZero()).isTrue();
    assertThat(outcome.orThrow("[[A!=B]]")).as("one call among several reads as the verdict that scores 0")
        .isEqualTo("[[A!=B]]");
    assertThatThrownBy(outcome::orThrow).isInstanceOfSatisfying(dev.gym4j.resources.ZeroReward.class, z -> {
      assertThat(z.fields().get("judge_unparseable").asBoolean()).isTrue();
      assertThat(AnswerText.lastMessageText(z.fields().at("/judge_evaluations/0/response")))
          .contains("They look about the same to me.");
    });

    upstream.enqueue(Answer.error(400, "{\"error\": {\"message\": \"bad request\"}}"));
    JudgeOutcome<String> error = judge(zero).ask("prompt", EQUIVALENCE);
    assertThat(((JudgeOutcome.Failed<String>) error).scoresZero()).as("only an unparseable answer scores 0").isFalse();
    assertThatThrownBy(error::orThrow).isInstanceOfSatisfying(RolloutFailure.class,
        f -> assertThat(f.failureClass()).isEqualTo("judge_error"));
    assertThatThrownBy(() -> error.orThrow("[[A!=B]]")).isInstanceOf(RolloutFailure.class);
  }

  @Test
  void judgeUnparseableIsFailUnlessSetToZeroAndAnythingElseIsAConfigError() {
    assertThat(settings("{}").unparseableScoresZero()).isFalse();
    assertThat(settings("{\"judge_unparseable\": \"fail\"}").unparseableScoresZero()).isFalse();
    assertThat(settings("{\"judge_unparseable\": \"zero\"}").unparseableScoresZero()).isTrue();
    assertThatThrownBy(() -> settings("{\"judge_unparseable\": \"0\"}"))
        .isInstanceOf(dev.gym4j.config.ConfigException.class).hasMessageContaining("judge_unparseable");
  }

  private static JudgeSettings settings(String extra) {
    tools.jackson.databind.node.ObjectNode config = (tools.jackson.databind.node.ObjectNode)
        dev.gym4j.json.Json.parse(extra);
    config.putObject("judge_model_server").put("type", "responses_api_models").put("name", "judge_model");
    return JudgeSettings.from(new dev.gym4j.server.ServerContext(new dev.gym4j.config.ServerInstance("env",
        dev.gym4j.config.ServerKind.RESOURCES, "env", config), null, null));
  }

  @Test
  void anAnswerWithoutAVerdictIsUnparseableAndKeepsTheExchange() {
    upstream.enqueue(Answer.text("They look about the same to me."));
    JudgeOutcome<String> outcome = judge(fast()).ask("prompt", EQUIVALENCE);
    JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) outcome;
    assertThat(failed.failureClass()).isEqualTo("judge_unparseable");
    assertThat(failed.message()).contains("They look about the same to me.");
    assertThat(failed.evaluation()).isPresent();
    assertThat(upstream.calls()).isEqualTo(1);
  }

  @Test
  void anAnswerEndingInAToolCallIsUnparseable() {
    upstream.enqueue(Answer.text("[[A=B]]").withToolCall("lookup", "{}"));
    JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) judge(fast()).ask("prompt", EQUIVALENCE);
    assertThat(failed.failureClass()).isEqualTo("judge_unparseable");
  }

  @Test
  void aRateLimitThenAnAnswerIsAVerdict() {
    upstream.enqueue(Answer.error(429, "{\"error\": {\"message\": \"slow down\"}}"), Answer.text("[[A!=B]]"));
    JudgeOutcome<String> outcome = judge(fast()).ask("prompt", EQUIVALENCE);
    assertThat(outcome.orThrow()).isEqualTo("[[A!=B]]");
    assertThat(upstream.calls()).isEqualTo(2);
  }

  @Test
  void serverErrorsAreRetriedUpToTheAttemptsThenAJudgeError() {
    for (int i = 0; i < 3; i++) {
      upstream.enqueue(Answer.error(500, "{\"error\": {\"message\": \"boom\"}}"));
    }
    JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) judge(fast()).ask("prompt", EQUIVALENCE);
    assertThat(failed.failureClass()).isEqualTo("judge_error");
    assertThat(failed.message()).contains("answered 500");
    assertThat(upstream.calls()).isEqualTo(3);
  }

  @Test
  void aBadRequestIsNotRetried() {
    upstream.enqueue(Answer.error(400, "{\"error\": {\"message\": \"unknown parameter\"}}"));
    JudgeOutcome.Failed<String> failed = (JudgeOutcome.Failed<String>) judge(fast()).ask("prompt", EQUIVALENCE);
    assertThat(failed.failureClass()).isEqualTo("judge_error");
    assertThat(failed.message()).contains("answered 400").contains("unknown parameter");
    assertThat(upstream.calls()).isEqualTo(1);
  }

  @Test
  void aCallWaitsForOneOfTheJudgesSlotsOnlyUntilItsDeadline() throws Exception {
    upstream.enqueue(Answer.text("[[A=B]]").after(Duration.ofSeconds(2)));
    upstream.otherwise(request -> Answer.text("[[A=B]]"));
    Judge oneAtATime = judge(fast().withMaxConcurrency(1).withTimeout(Duration.ofSeconds(20)));
    CompletableFuture<JudgeOutcome<String>> first = CompletableFuture.supplyAsync(
        () -> oneAtATime.ask("first", EQUIVALENCE));
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (upstream.calls() == 0 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    JudgeOutcome.Failed<String> second = (JudgeOutcome.Failed<String>) oneAtATime.withTimeout(Duration.ofMillis(200))
        .ask("second", EQUIVALENCE);
    assertThat(second.failureClass()).isEqualTo("judge_error");
    assertThat(second.timedOut()).isTrue();
    assertThat(second.message()).contains("no free judge slot");
    assertThat(first.get().orThrow()).isEqualTo("[[A=B]]");
    assertThat(upstream.received()).extracting(r -> r.body().at("/input/0/content").asString())
        .containsExactly("first");

    // slots are per judge: another judge's calls do not wait for them
    JudgeOutcome<String> other = judge(fast().withMaxConcurrency(1)).ask("other", EQUIVALENCE);
    assertThat(other.orThrow()).isEqualTo("[[A=B]]");
  }

  @Test
  void swapOrderJudgingAsksAgainWithTheAnswersSwappedOnlyWhenSetAndTheFirstPasses() {
    upstream.enqueue(Answer.text("[[A=B]]"), Answer.text("[[A!=B]]"));
    Judge swapping = judge(fast().withCheckTwiceSwap(true));
    List<JudgeOutcome<String>> outcomes = swapping.askSwapped("", swapped -> swapped ? "B vs A" : "A vs B",
        EQUIVALENCE, "[[A=B]]"::equals);
    assertThat(outcomes).extracting(JudgeOutcome::orThrow).containsExactly("[[A=B]]", "[[A!=B]]");
    assertThat(upstream.received()).extracting(r -> r.body().at("/input/0/content").asString())
        .containsExactly("A vs B", "B vs A");

    upstream.enqueue(Answer.text("[[A!=B]]"));
    assertThat(swapping.askSwapped("", swapped -> "x", EQUIVALENCE, "[[A=B]]"::equals)).hasSize(1);
    upstream.enqueue(Answer.text("[[A=B]]"));
    assertThat(judge(fast()).askSwapped("", swapped -> "x", EQUIVALENCE, "[[A=B]]"::equals)).hasSize(1);
  }
}
