package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AzureOpenAIModelTest {
  @TempDir
  Path dir;

  @Test
  void responsesGoToTheDeploymentAsChatAndComeBackWithUsageAndStatus() {
    try (ScriptedUpstream azure = ScriptedUpstream.start();
        ModelHarness model = new ModelHarness(dir, "azure_openai_model", """
            openai_base_url: %s
            openai_api_key: azure-key-1
            openai_model: gpt-4o-deploy
            default_query: {api-version: 2024-10-21}
            num_concurrent_requests: 2
            """.formatted(azure.root()))) {
      azure.otherwise(request -> Answer.text("short").withFinishReason("length"));
      Response response = model.responses("{\"input\": \"hello\", \"max_output_tokens\": 5}");
      var received = azure.received().getFirst();
      assertThat(received.path()).isEqualTo("/openai/deployments/gpt-4o-deploy/chat/completions");
      assertThat(received.headers().get("api-key")).isEqualTo("azure-key-1");
      assertThat(received.headers()).doesNotContainKey("Authorization");
      assertThat(received.body().get("max_tokens").asInt()).isEqualTo(5);
      assertThat(response.isIncomplete()).isTrue();
      assertThat(response.usage().orElseThrow().inputTokens()).isPositive();
      assertThat(response.outputText()).isEqualTo("short");
    }
  }
}
