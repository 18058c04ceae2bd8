package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import dev.gym4j.wire.Reasoning;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class VLLMModelTest {
  private static final String TOOLS = """
      "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}, "strict": true}]""";

  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  ModelHarness model;

  @BeforeEach
  void startUpstream() {
    vllm = ScriptedUpstream.start();
  }

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
    vllm.close();
  }

  private void start(String extra) {
    start(vllm.baseUrl(), extra);
  }

  private void start(String baseUrl, String extra) {
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: sk-test
        model: Qwen/Qwen3-8B
        uses_reasoning_parser: true
        """.formatted(baseUrl) + extra);
  }

  @Test
  @org.junit.jupiter.api.Timeout(120) // a hang guard: the quadratic regex took about 12 minutes on this answer
  void a_megabyte_of_think_openers_is_answered_issue_14() {
    start("return_token_id_information: false\n");
    String flood = "<think>".repeat(150_000);
    vllm.enqueue(Answer.text(flood + "42"));
    Response response = model.responses("{\"input\": \"hi\"}");
    Message message = (Message) response.output().stream().filter(Message.class::isInstance).findFirst().orElseThrow();
    assertThat(message.text()).isEqualTo(flood + "42");
  }

  @Test
  void aResponsesCallBecomesAChatCallAndComesBackAsResponses() {
    start("return_token_id_information: false\n");
    vllm.enqueue(Answer.text("It is cold.").withReasoning("Look it up."));
    Response response = model.responses("""
        {"input": [{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "weather?"}],
         "instructions": "You help.", "max_output_tokens": 100, "temperature": 0.5, "model": "ignored", %s}"""
        .formatted(TOOLS));
    ObjectNode sent = vllm.received().getFirst().body();
    assertThat(sent.get("model").asString()).isEqualTo("Qwen/Qwen3-8B");
    assertThat(sent.get("max_tokens").asInt()).isEqualTo(100);
    assertThat(sent.at("/messages/0/content").asString()).isEqualTo("You help.\n\nBe brief.");
    assertThat(sent.at("/tools/0/function/name").asString()).isEqualTo("get_weather");
    assertThat(sent.has("logprobs")).isFalse();
    assertThat(vllm.received().getFirst().headers().get("Authorization")).isEqualTo("Bearer sk-test");

    assertThat(response.status()).isEqualTo("completed");
    assertThat(response.model()).isEqualTo("Qwen/Qwen3-8B");
    List<Item> output = response.output();
    assertThat(output).hasSize(2);
    assertThat(output.get(0)).isInstanceOfSatisfying(Reasoning.class,
        r -> assertThat(r.summaryText()).isEqualTo("Look it up."));
    assertThat(response.outputText()).isEqualTo("It is cold.");
    assertThat(response.usage().orElseThrow().outputTokens()).isEqualTo(7);
    assertThat(output.getLast().hasTokenInfo()).isFalse();
  }

  @Test
  void reasoningInHistoryGoesBackAsReasoningContent() {
    start("return_token_id_information: false\n");
    model.responses("""
        {"input": [{"role": "user", "content": "q"},
          {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thought"}]},
          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "answer"}]},
          {"role": "user", "content": "and?"}]}""");
    JsonNode assistant = vllm.received().getFirst().body().at("/messages/1");
    assertThat(assistant.get("content").asString()).isEqualTo("answer");
    assertThat(assistant.get("reasoning_content").asString()).isEqualTo("thought");
    assertThat(assistant.get("reasoning").asString()).isEqualTo("thought");
  }

  @Test
  void trainingModeReturnsTokenIdsAndKeepsMultiTurnPromptsAppendOnly() {
    start("return_token_id_information: true\n");
    vllm.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}").withReasoning("need weather"),
        Answer.text("Cold in Paris."));
    String first = """
        {"input": [{"role": "user", "content": "weather in Paris?"}], "temperature": 1.0, %s}""".formatted(TOOLS);
    Response turn1 = model.responses(first);
    ObjectNode sent1 = vllm.received().getFirst().body();
    assertThat(sent1.get("logprobs").asBoolean()).isTrue();
    assertThat(sent1.get("top_logprobs").asInt()).isZero();
    assertThat(sent1.get("return_tokens_as_token_ids").asBoolean()).isTrue();
    assertThat(vllm.received().get(1).path()).isEqualTo("/tokenize");

    List<Item> items = turn1.output();
    assertThat(items).extracting(Item::type).containsExactly("reasoning", "function_call");
    FunctionCall call = (FunctionCall) items.getLast();
    assertThat(call.hasTokenInfo()).isTrue();
    assertThat(items.getFirst().hasTokenInfo()).isFalse();
    JsonNode prompt1 = call.json().get("prompt_token_ids");
    JsonNode generation1 = call.json().get("generation_token_ids");
    assertThat(generation1.size()).isEqualTo(call.json().get("generation_log_probs").size());

    // the agent sends the items back verbatim, plus the tool output
    ArrayNode history = (ArrayNode) Json.parse("[{\"role\": \"user\", \"content\": \"weather in Paris?\"}]");
    items.forEach(item -> history.add(item.json()));
    history.add(Json.parse("{\"type\": \"function_call_output\", \"call_id\": \"" + call.callId()
        + "\", \"output\": \"{\\\"weather\\\": \\\"cold\\\"}\"}"));
    ObjectNode second = (ObjectNode) Json.parse(first);
    second.set("input", history);
    Response turn2 = model.responses(second.toString());

    ObjectNode sent2 = vllm.received().get(2).body();
    JsonNode assistant = sent2.at("/messages/1");
    assertThat(assistant.get("prompt_token_ids")).isEqualTo(prompt1);
    assertThat(assistant.get("generation_token_ids")).isEqualTo(generation1);
    assertThat(assistant.get("reasoning_content").asString()).isEqualTo("need weather");

    Item last = turn2.output().getLast();
    List<Integer> seen = new ArrayList<>();
    prompt1.forEach(id -> seen.add(id.asInt()));
    generation1.forEach(id -> seen.add(id.asInt()));
    List<Integer> prompt2 = new ArrayList<>();
    last.json().get("prompt_token_ids").forEach(id -> prompt2.add(id.asInt()));
    assertThat(prompt2.subList(0, seen.size())).as("turn 2's prompt extends turn 1's prompt and generation")
        .isEqualTo(seen);
    assertThat(prompt2.size()).isGreaterThan(seen.size());
  }

  @Test
  void aThreeTurnToolConversationHasAppendOnlyPrompts() {
    start("return_token_id_information: true\n");
    vllm.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}").withReasoning("first Paris"),
        Answer.toolCall("get_weather", "{\"city\": \"Oslo\"}").withText("Now Oslo."),
        Answer.text("Paris and Oslo are cold.").withReasoning("done"));
    ArrayNode history = (ArrayNode) Json.parse("[{\"role\": \"user\", \"content\": \"Paris and Oslo?\"}]");
    List<Integer> seen = new ArrayList<>();
    for (int turn = 0; turn < 3; turn++) {
      ObjectNode request = (ObjectNode) Json.parse("{%s}".formatted(TOOLS));
      request.set("input", history.deepCopy());
      Response response = model.responses(request.toString());
      List<Item> items = response.output();
      assertThat(items.stream().filter(Item::hasTokenInfo)).as("one token-bearing item per call").hasSize(1);
      JsonNode last = items.getLast().json();
      List<Integer> prompt = new ArrayList<>();
      last.get("prompt_token_ids").forEach(id -> prompt.add(id.asInt()));
      assertThat(prompt.subList(0, seen.size())).as("turn %d extends all earlier tokens", turn + 1).isEqualTo(seen);
      seen.clear();
      seen.addAll(prompt);
      last.get("generation_token_ids").forEach(id -> seen.add(id.asInt()));
      items.forEach(item -> history.add(item.json()));
      for (Item item : items) {
        if (item instanceof FunctionCall call) {
          history.add(Json.parse("{\"type\": \"function_call_output\", \"call_id\": \"" + call.callId()
              + "\", \"output\": \"cold\"}"));
        }
      }
    }
    assertThat(vllm.received().stream().filter(r -> r.path().equals("/tokenize"))).hasSize(3);
  }

  @Test
  void tokenIdsOnTheResponseOrOnTheMessageAreUsedWithoutTokenize() {
    start("return_token_id_information: true\nrequest_prompt_and_generation_token_ids: true\n");
    vllm.enqueue(Answer.text("a b").withTokenIds(Answer.TokenIds.ON_RESPONSE),
        Answer.text("c d").withTokenIds(Answer.TokenIds.ON_MESSAGE));
    Response fromResponse = model.responses("{\"input\": \"hi\"}");
    Response fromMessage = model.responses("{\"input\": \"hi\"}");
    assertThat(vllm.received()).extracting(ScriptedUpstream.Received::path).doesNotContain("/tokenize");
    assertThat(vllm.received().getFirst().body().get("return_token_ids").asBoolean()).isTrue();
    for (Response response : List.of(fromResponse, fromMessage)) {
      JsonNode item = response.output().getLast().json();
      assertThat(item.get("generation_token_ids").size()).isEqualTo(3);
      assertThat(item.get("prompt_token_ids").size()).isEqualTo(3);
      assertThat(item.has("token_ids")).isFalse();
    }
  }

  @Test
  void aPromptOverTheContextLengthGivesAnIncompleteResponse() {
    start("return_token_id_information: true\n");
    vllm.enqueue(Answer.contextLengthExceeded());
    Response response = model.responses("{\"input\": \"a very long prompt\"}");
    assertThat(response.isIncomplete()).isTrue();
    assertThat(response.json().at("/incomplete_details/reason").asString()).isEqualTo("max_output_tokens");
    assertThat(response.output()).singleElement().isInstanceOfSatisfying(Message.class, m -> {
      assertThat(m.text()).isEmpty();
      assertThat(m.hasTokenInfo()).isFalse();
    });
  }

  @Test
  void only_vllms_context_length_error_is_an_incomplete_answer_issue_14() {
    start("return_token_id_information: false\n");
    // vLLM's engine-side wording, and the serving layer's with max_tokens, in the newer error shape
    vllm.enqueue(Answer.error(400, "{\"error\": {\"message\": \"The decoder prompt (length 5000) is longer than the "
        + "maximum model length of 4096. Make sure that `max_model_len` is no smaller\", \"code\": 400}}"));
    assertThat(model.responses("{\"input\": \"long\"}").isIncomplete()).isTrue();
    vllm.enqueue(Answer.error(400, "{\"object\":\"error\",\"message\":\"'max_tokens' or 'max_completion_tokens' is too "
        + "large: 900. This model's maximum context length is 4096 tokens and your request has 3500 input tokens\"}"));
    assertThat(model.responses("{\"input\": \"long\"}").isIncomplete()).isTrue();

    // NeMo Gym scores these as empty answers; they are failures of the call
    for (String body : List.of("{\"object\":\"error\",\"message\":\"max_tokens must be at least 1, got -5.\"}",
        "{\"object\":\"error\",\"message\":\"chat_template_kwargs: the context length option is unknown\"}",
        "<html>proxy: max_tokens exceeds maximum context length is 10 tokens</html>")) {
      vllm.enqueue(Answer.error(400, body));
      HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
      assertThat(reply.status()).as(body).isEqualTo(502);
      assertThat(reply.json().get("detail").asString()).contains("answered 400");
    }
  }

  @Test
  void upstreamFailuresAreGatewayErrorsAfterBoundedRetries() {
    start("return_token_id_information: false\n");
    vllm.enqueue(Answer.error(503, "{\"error\": \"busy\"}"), Answer.text("fine"));
    assertThat(model.responses("{\"input\": \"hi\"}").outputText()).isEqualTo("fine");

    vllm.enqueue(Answer.error(500, "{\"error\": \"engine dead\"}"));
    HttpReply broken = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(broken.status()).isEqualTo(502);
    assertThat(broken.json().get("detail").asString()).contains("answered 500", "engine dead").doesNotContain("sk-test");

    // the JDK client may retry a dropped keep-alive connection once by itself, so up to 2 calls per attempt
    int before = vllm.calls();
    for (int i = 0; i < 6; i++) {
      vllm.enqueue(Answer.drop());
    }
    HttpReply dropped = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(dropped.status()).as("after %d calls: %s", vllm.calls() - before, dropped.text()).isEqualTo(502);
    assertThat(dropped.json().get("detail").asString()).contains("failed after 3 attempts");
    assertThat(vllm.calls() - before).isBetween(3, 6);
  }

  @Test
  void badRequestsAre422s() {
    start("return_token_id_information: false\n");
    HttpReply reply = model.post("/v1/responses", "{\"input\": [{\"role\": \"user\", \"content\": 5}]}");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"input\",0,\"content\"]");
    assertThat(vllm.calls()).isZero();
  }

  @Test
  void serverDefaultsRequestValuesAndForcedOverridesApplyInThatOrder() {
    start("""
        return_token_id_information: false
        replace_developer_role_with_system: true
        extra_body: {top_k: 20, temperature: 0.1}
        chat_template_kwargs: {enable_thinking: false, other: 1}
        sampling_overrides: {top_p: 1.0}
        """);
    model.post("/v1/chat/completions", """
        {"messages": [{"role": "developer", "content": "d"}, {"role": "user", "content": "u"}],
         "temperature": 0.9, "top_p": 0.5,
         "metadata": {"chat_template_kwargs": "{\\"enable_thinking\\": true}", "extra_body": "{\\"min_p\\": 0.05}"}}""");
    ObjectNode sent = vllm.received().getFirst().body();
    assertThat(sent.at("/messages/0/role").asString()).isEqualTo("system");
    assertThat(sent.get("top_k").asInt()).isEqualTo(20);
    assertThat(sent.get("min_p").asDouble()).isEqualTo(0.05);
    assertThat(sent.get("temperature").asDouble()).isEqualTo(0.9);
    assertThat(sent.get("top_p").asDouble()).isEqualTo(1.0);
    assertThat(sent.get("chat_template_kwargs")).isEqualTo(Json.parse("{\"enable_thinking\": true, \"other\": 1}"));
  }

  @Test
  void eachRolloutSticksToOneReplicaAndRolloutsSpreadOverAll() {
    try (ScriptedUpstream second = ScriptedUpstream.start()) {
      start("[" + vllm.baseUrl() + ", " + second.baseUrl() + "]", "return_token_id_information: false\n");
      Set<Integer> replicasUsed = new HashSet<>();
      for (int rollout = 0; rollout < 12; rollout++) {
        Map<String, String> cookies = new HashMap<>(model.post("/v1/responses", "{\"input\": \"1\"}").cookies());
        int firstCount = vllm.calls();
        for (int turn = 0; turn < 3; turn++) {
          cookies.putAll(model.post("/v1/responses", "{\"input\": \"more\"}", cookies).cookies());
        }
        boolean stayedOnFirst = vllm.calls() - firstCount == 3;
        boolean stayedOnSecond = vllm.calls() == firstCount;
        assertThat(stayedOnFirst || stayedOnSecond).as("rollout %d stayed on one replica", rollout).isTrue();
        replicasUsed.add(stayedOnFirst ? 0 : 1);
      }
      assertThat(replicasUsed).containsExactlyInAnyOrder(0, 1);
      assertThat(second.calls()).isPositive();
    }
  }
}
