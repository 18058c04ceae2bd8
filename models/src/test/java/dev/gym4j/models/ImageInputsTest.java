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
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * An image in the request reaches the upstream model, byte for byte, through every API a model server serves
 * (Responses, Chat Completions, Messages) and every upstream form (OpenAI Responses, Chat Completions, Anthropic
 * Messages), and replay_model answers a recorded conversation that holds an image (NeMo Gym's circle_count,
 * circle_click and gui_coordinate rows send {@code input_image} parts). Each upstream is a real server that records
 * what it was sent.
 */
class ImageInputsTest {
  /** A 1×1 PNG. */
  private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ"
      + "/pLvAAAAAElFTkSuQmCC";
  private static final String DATA_URL = "data:image/png;base64," + PNG;
  private static final String RESPONSES = """
      {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "%s", "detail": "auto"},
        {"type": "input_text", "text": "How many red circles?"}]}]}""".formatted(DATA_URL);
  private static final String CHAT = """
      {"model": "m", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "%s", "detail": "auto"}},
        {"type": "text", "text": "How many red circles?"}]}]}""".formatted(DATA_URL);
  private static final String MESSAGES = """
      {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "%s"}},
        {"type": "text", "text": "How many red circles?"}]}]}""".formatted(PNG);

  @TempDir
  Path dir;

  @Test
  void openaiModelSendsTheImageOnInEachApi() {
    try (ScriptedUpstream openai = ScriptedUpstream.start(); ModelHarness model = ModelHarness.openai(dir,
        openai.root().getPort())) {
      openai.otherwise(body -> Answer.text("\\boxed{2}"));
      assertOk(model.post("/v1/responses", RESPONSES));
      assertThat(openai.received().getLast().path()).isEqualTo("/v1/responses");
      assertResponsesImage(openai.received().getLast().body().get("input"));

      assertOk(model.post("/v1/chat/completions", CHAT));
      assertThat(openai.received().getLast().path()).isEqualTo("/v1/chat/completions");
      assertChatImage(openai.received().getLast().body().get("messages"));

      assertOk(model.post("/v1/messages", MESSAGES));
      assertResponsesImage(openai.received().getLast().body().get("input"));
    }
  }

  @Test
  void vllmModelTurnsResponsesAndMessagesImagesIntoChatImageParts() {
    try (ScriptedUpstream vllm = ScriptedUpstream.start(); ModelHarness model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: sk-test
        model: Qwen/Qwen3-VL-8B-Instruct
        uses_reasoning_parser: false
        return_token_id_information: false
        """.formatted(vllm.baseUrl()))) {
      vllm.otherwise(body -> Answer.text("<point>(630, 610)</point>"));
      for (String[] call : List.of(new String[] {"/v1/responses", RESPONSES},
          new String[] {"/v1/chat/completions", CHAT}, new String[] {"/v1/messages", MESSAGES})) {
        assertOk(model.post(call[0], call[1]));
        assertThat(vllm.received().getLast().path()).as(call[0]).isEqualTo("/v1/chat/completions");
        assertChatImage(vllm.received().getLast().body().get("messages"));
      }
    }
  }

  @Test
  void anthropicModelSendsBase64ImageBlocksFromEachApi() {
    try (FakeAnthropic anthropic = new FakeAnthropic(AnthropicModelTest.KEY);
        ModelHarness model = new ModelHarness(dir, "anthropic_model", """
            anthropic_base_url: %s
            anthropic_api_key: %s
            anthropic_model: claude-sonnet-4-6
            max_tokens: 256
            """.formatted(anthropic.baseUrl(), AnthropicModelTest.KEY))) {
      for (String[] call : List.of(new String[] {"/v1/responses", RESPONSES},
          new String[] {"/v1/chat/completions", CHAT}, new String[] {"/v1/messages", MESSAGES})) {
        anthropic.answer("[{\"type\": \"text\", \"text\": \"\\\\boxed{2}\"}]", "end_turn", 10, 3);
        assertOk(model.post(call[0], call[1]));
        JsonNode content = anthropic.received.getLast().get("messages").get(0).get("content");
        assertThat(content.get(0).get("type").asString()).as(call[0]).isEqualTo("image");
        assertThat(content.get(0).get("source")).as(call[0]).isEqualTo(Json.parse(
            "{\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"" + PNG + "\"}"));
        assertThat(content.get(1).get("text").asString()).isEqualTo("How many red circles?");
      }
    }
  }

  @Test
  void anImageAnthropicCannotTakeIsA422NamingIt() {
    try (FakeAnthropic anthropic = new FakeAnthropic(AnthropicModelTest.KEY);
        ModelHarness model = new ModelHarness(dir, "anthropic_model", """
            anthropic_base_url: %s
            anthropic_api_key: %s
            anthropic_model: claude-sonnet-4-6
            max_tokens: 256
            """.formatted(anthropic.baseUrl(), AnthropicModelTest.KEY))) {
      HttpReply reply = model.post("/v1/responses", RESPONSES.replace(DATA_URL, "https://example.com/a.png"));
      assertThat(reply.status()).isEqualTo(422);
      assertThat(reply.text()).contains("image_url").doesNotContain("Exception");
      assertThat(anthropic.received).isEmpty();
    }
  }

  @Test
  void replayModelAnswersARecordedConversationWithAnImageAndOnlyThatImage() throws Exception {
    Path file = dir.resolve("rollouts.jsonl");
    Files.writeString(file, "{\"responses_create_params\": " + Json.write(Json.parse(RESPONSES))
        + ", \"reward\": 1.0, \"response\": {\"id\": \"resp_1\", \"model\": \"Qwen/Qwen3-VL-8B-Instruct\", "
        + "\"output\": [{\"type\": \"message\", "
        + "\"id\": \"msg_1\", \"role\": \"assistant\", \"status\": \"completed\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \"\\\\boxed{2}\", \"annotations\": []}]}]}}\n");
    var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[models/configs/replay_model.yaml]", "++head_server.port=0",
        "+policy_recordings=[" + file + "]"));
    try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
      HttpReply replayed = deployment.client().post("policy_model", "/v1/responses", Json.parse(RESPONSES), Map.of());
      assertThat(replayed.status()).as(replayed.text()).isEqualTo(200);
      assertThat(replayed.json().at("/output/0/content/0/text").asString()).isEqualTo("\\boxed{2}");

      HttpReply chat = deployment.client().post("policy_model", "/v1/chat/completions", Json.parse(CHAT), Map.of());
      assertThat(chat.status()).as(chat.text()).isEqualTo(200);
      assertThat(chat.json().at("/choices/0/message/content").asString()).isEqualTo("\\boxed{2}");

      String otherImage = RESPONSES.replace(PNG, PNG.replace("AAAADElEQVR4", "AAAADElEQVR5"));
      HttpReply other = deployment.client().post("policy_model", "/v1/responses", Json.parse(otherImage), Map.of());
      assertThat(other.status()).as("another picture with the same question is not the recording").isEqualTo(422);
      HttpReply otherChat = deployment.client().post("policy_model", "/v1/chat/completions",
          Json.parse(CHAT.replace(PNG, PNG.replace("AAAADElEQVR4", "AAAADElEQVR5"))), Map.of());
      assertThat(otherChat.status()).as("nor in its Chat form").isEqualTo(422);
    }
  }

  private static void assertOk(HttpReply reply) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
  }

  private static void assertResponsesImage(JsonNode input) {
    JsonNode content = input.get(0).get("content");
    assertThat(content.get(0).get("type").asString()).isEqualTo("input_image");
    assertThat(content.get(0).get("image_url").asString()).isEqualTo(DATA_URL);
    assertThat(content.get(1).get("text").asString()).isEqualTo("How many red circles?");
  }

  private static void assertChatImage(JsonNode messages) {
    JsonNode content = messages.get(0).get("content");
    assertThat(content.get(0).get("type").asString()).isEqualTo("image_url");
    assertThat(content.get(0).get("image_url").get("url").asString()).isEqualTo(DATA_URL);
    assertThat(content.get(1).get("text").asString()).isEqualTo("How many red circles?");
  }
}
