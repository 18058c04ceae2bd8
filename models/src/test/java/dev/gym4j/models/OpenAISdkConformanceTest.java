package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStatus;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official OpenAI Java SDK, pointed at our model server, parses and validates everything we return,
 * streamed and not. Event names and fields as NeMo Gym's model servers pass them on
 * (nemo_gym/openai_utils.py, responses_api_models/vllm_model/app.py).
 */
class OpenAISdkConformanceTest {
  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  ModelHarness model;
  OpenAIClient client;

  @BeforeEach
  void start() {
    vllm = ScriptedUpstream.start();
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: dummy
        model: policy
        return_token_id_information: true
        uses_reasoning_parser: true
        """.formatted(vllm.baseUrl()));
    client = OpenAIOkHttpClient.builder().baseUrl(model.url() + "/v1").apiKey("dummy").maxRetries(0).build();
  }

  @AfterEach
  void stop() {
    client.close();
    model.close();
    vllm.close();
  }

  private Response create(String input) {
    Response response = client.responses().create(ResponseCreateParams.builder().input(input).model("policy").build());
    response.validate();
    return response;
  }

  @Test
  void textAndReasoning() {
    vllm.enqueue(Answer.text("Hello there.").withReasoning("Greet back."));
    Response response = create("hi");
    assertThat(response.status()).contains(ResponseStatus.COMPLETED);
    List<ResponseOutputItem> output = response.output();
    assertThat(output.get(0).isReasoning()).isTrue();
    assertThat(output.get(0).asReasoning().summary().getFirst().text()).isEqualTo("Greet back.");
    assertThat(output.get(1).asMessage().content().getFirst().asOutputText().text()).isEqualTo("Hello there.");
    assertThat(output.get(1).asMessage()._additionalProperties()).containsKeys("prompt_token_ids", "generation_token_ids",
        "generation_log_probs");
    assertThat(response.usage().orElseThrow().outputTokens()).isPositive();
  }

  @Test
  void functionCalls() {
    vllm.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}").withToolCall("get_time", "{}"));
    Response response = create("weather and time in Paris?");
    List<ResponseOutputItem> output = response.output();
    assertThat(output).hasSize(2);
    assertThat(output.get(0).asFunctionCall().name()).isEqualTo("get_weather");
    assertThat(output.get(0).asFunctionCall().arguments()).isEqualTo("{\"city\": \"Paris\"}");
    assertThat(output.get(1).asFunctionCall().callId()).startsWith("chatcmpl-tool-");
  }

  @Test
  void incompleteResponses() {
    vllm.enqueue(Answer.text("cut sh").withFinishReason("length"));
    Response response = create("write a novel");
    assertThat(response.status()).contains(ResponseStatus.INCOMPLETE);
    assertThat(response.incompleteDetails().orElseThrow().reason().orElseThrow().asString())
        .isEqualTo("max_output_tokens");
  }

  @Test
  void chatCompletions() {
    vllm.enqueue(Answer.text("chat answer").withToolCall("f", "{\"a\":1}"));
    ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
        .addUserMessage("hi").model("policy").build());
    completion.validate();
    var message = completion.choices().getFirst().message();
    assertThat(message.content()).contains("chat answer");
    assertThat(message.toolCalls().orElseThrow().getFirst().asFunction().function().name()).isEqualTo("f");
    assertThat(message._additionalProperties()).containsKey("generation_token_ids");
  }

  private Response stream(String input) {
    var accumulator = com.openai.helpers.ResponseAccumulator.create();
    List<String> types = new java.util.ArrayList<>();
    List<Long> sequence = new java.util.ArrayList<>();
    try (var events = client.responses().createStreaming(ResponseCreateParams.builder().input(input).model("policy")
        .build())) {
      events.stream().forEach(event -> {
        accumulator.accumulate(event);
        String json = com.openai.core.ObjectMappers.jsonMapper().valueToTree(event).toString();
        types.add(dev.gym4j.json.Json.parse(json.getBytes()).path("type").asString());
        sequence.add(dev.gym4j.json.Json.parse(json.getBytes()).path("sequence_number").asLong());
      });
    }
    assertThat(types.getFirst()).isEqualTo("response.created");
    assertThat(types.getLast()).isIn("response.completed", "response.incomplete");
    assertThat(sequence).isSorted().doesNotHaveDuplicates().startsWith(0L);
    Response response = accumulator.response();
    response.validate();
    return response;
  }

  @Test
  void streamedTextAndReasoningMatchTheAnswerNotStreamed() {
    vllm.enqueue(Answer.text("Hello there.").withReasoning("Greet back."));
    Response streamed = stream("hi");
    List<ResponseOutputItem> output = streamed.output();
    assertThat(output.get(0).asReasoning().summary().getFirst().text()).isEqualTo("Greet back.");
    assertThat(output.get(1).asMessage().content().getFirst().asOutputText().text()).isEqualTo("Hello there.");
    assertThat(output.get(1).asMessage()._additionalProperties()).containsKeys("prompt_token_ids",
        "generation_token_ids", "generation_log_probs");
    assertThat(streamed.usage().orElseThrow().outputTokens()).isPositive();
  }

  @Test
  void streamedFunctionCalls() {
    vllm.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}").withToolCall("get_time", "{}"));
    List<ResponseOutputItem> output = stream("weather and time in Paris?").output();
    assertThat(output).hasSize(2);
    assertThat(output.get(0).asFunctionCall().name()).isEqualTo("get_weather");
    assertThat(output.get(0).asFunctionCall().arguments()).isEqualTo("{\"city\": \"Paris\"}");
    assertThat(output.get(1).asFunctionCall().name()).isEqualTo("get_time");
  }

  @Test
  void streamedChatCompletionsWithUsage() {
    vllm.enqueue(Answer.text("chat answer").withToolCall("f", "{\"a\":1}"));
    var accumulator = com.openai.helpers.ChatCompletionAccumulator.create();
    List<com.openai.models.chat.completions.ChatCompletionChunk> chunks = new java.util.ArrayList<>();
    try (var stream = client.chat().completions().createStreaming(ChatCompletionCreateParams.builder()
        .addUserMessage("hi").model("policy")
        .streamOptions(com.openai.models.chat.completions.ChatCompletionStreamOptions.builder().includeUsage(true)
            .build()).build())) {
      stream.stream().forEach(chunk -> {
        chunk.validate();
        chunks.add(chunk);
        accumulator.accumulate(chunk);
      });
    }
    assertThat(chunks.getLast().choices()).isEmpty();
    var finish = chunks.stream().filter(chunk -> !chunk.choices().isEmpty()
        && chunk.choices().getFirst().finishReason().isPresent()).findFirst().orElseThrow();
    assertThat(finish.choices().getFirst().delta()._additionalProperties()).containsKeys("prompt_token_ids",
        "generation_token_ids", "generation_log_probs");
    assertThat(chunks.getLast().usage().orElseThrow().completionTokens()).isPositive();
    ChatCompletion completion = accumulator.chatCompletion();
    var message = completion.choices().getFirst().message();
    assertThat(message.content()).contains("chat answer");
    assertThat(message.toolCalls().orElseThrow().getFirst().asFunction().function().name()).isEqualTo("f");
    assertThat(message.toolCalls().orElseThrow().getFirst().asFunction().function().arguments()).isEqualTo("{\"a\":1}");
  }

  @Test
  void modelsListsTheConfiguredModel() {
    var models = client.models().list().data();
    assertThat(models).hasSize(1);
    assertThat(models.getFirst().id()).isEqualTo("policy");
    assertThat(models.getFirst().ownedBy()).isEqualTo("gym4j");
  }

  @Test
  void aBadRequestShowsOpenAIsErrorWithTheFieldItNames() {
    var params = ResponseCreateParams.builder().input("hi").model("policy")
        .putAdditionalBodyProperty("temperature", com.openai.core.JsonValue.from("hot")).build();
    var thrown = org.assertj.core.api.Assertions.catchThrowableOfType(
        com.openai.errors.UnprocessableEntityException.class, () -> client.responses().create(params));
    assertThat(thrown.statusCode()).isEqualTo(422);
    assertThat(thrown.getMessage()).contains("temperature");
    assertThat(thrown.param()).contains("temperature");
    assertThat(thrown.type()).contains("invalid_request_error");
    assertThat(thrown.code()).contains("float_type");
  }
}
