package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.gym4j.wire.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The model configs in models/configs/ start and answer, given the three policy_* values. */
class ShippedConfigsTest {

  @ParameterizedTest
  @ValueSource(strings = {"openai_model", "azure_openai_model", "vllm_model", "vllm_model_for_training",
      "inference_provider"})
  void eachShippedModelConfigServesResponses(String name) {
    try (ScriptedUpstream upstream = ScriptedUpstream.start()) {
      upstream.otherwise(request -> Answer.text("served by " + name));
      String base = name.startsWith("azure") ? upstream.root().toString() : upstream.baseUrl();
      var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
          "+config_paths=[models/configs/" + name + ".yaml]", "++head_server.port=0", "+policy_base_url=" + base,
          "+policy_api_key=sk-x", "+policy_model_name=test-model"));
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
        HttpReply reply = deployment.client().post("policy_model", "/v1/responses", Json.parse("{\"input\": \"hi\"}"),
            Map.of());
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        assertThat(Response.of(reply.json()).outputText()).isEqualTo("served by " + name);
      }
    }
  }

  /**
   * NeMo Gym's provider presets (responses_api_models/inference_provider/configs/*.yaml, unchanged) start as they are;
   * with the base URL pointed at a scripted provider (the real ones are on the internet) each serves.
   */
  @ParameterizedTest
  @ValueSource(strings = {"baseten", "deepinfra", "fireworks", "friendli", "gemini", "hf_inference", "nebius",
      "openrouter", "together"})
  void eachProviderPresetStartsAndServes(String provider) {
    try (ScriptedUpstream upstream = ScriptedUpstream.start()) {
      upstream.otherwise(request -> Answer.text("served by " + provider));
      List<String> arguments = List.of("+config_paths=[models/configs/inference_provider/" + provider + ".yaml]",
          "++head_server.port=0", "+policy_api_key=sk-x", "+policy_model_name=some/model");
      var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(arguments);
      String preset = config.instances().getFirst().config().get("base_url").asString();
      assertThat(preset).startsWith("https://");
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
        assertThat(deployment.client().directory().find("policy_model")).isPresent();
      }
      List<String> pointed = new java.util.ArrayList<>(arguments);
      pointed.add("++policy_model.responses_api_models.inference_provider.base_url=" + upstream.baseUrl());
      config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(pointed);
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
        HttpReply reply = deployment.client().post("policy_model", "/v1/responses", Json.parse("{\"input\": \"hi\"}"),
            Map.of());
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        assertThat(Response.of(reply.json()).outputText()).isEqualTo("served by " + provider);
        assertThat(upstream.received().getFirst().body().get("model").asString()).isEqualTo("some/model");
      }
    }
  }
}
