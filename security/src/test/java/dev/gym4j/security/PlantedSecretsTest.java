package dev.gym4j.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import dev.gym4j.client.HttpReply;
import dev.gym4j.collect.CollectOptions;
import dev.gym4j.collect.RolloutCollector;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 3: four distinctive secrets planted where users put them (env.yaml, the command line, a base
 * URL's user info, a default header), an upstream that echoes every request header back in its errors, and
 * every output of a deployment grepped for them: error bodies, the head server's config, {@code gym4j config},
 * {@code /metrics}, the failures file and the log.
 */
class PlantedSecretsTest {
  private static final String ENV_YAML_KEY = "sk-planted-envyaml-7c1d2e3f";
  private static final String COMMAND_LINE_KEY = "planted-cmdline-4b5a6c7d";
  private static final String USER_INFO = "planted-userinfo-9f8e7d6c";
  private static final String HEADER = "planted-header-1a2b3c4d";
  private static final List<String> PLANTED = List.of(ENV_YAML_KEY, COMMAND_LINE_KEY, USER_INFO, HEADER);

  @TempDir
  Path dir;

  @Test
  void no_planted_secret_leaves_the_process() throws Exception {
    Map<String, String> outputs = new LinkedHashMap<>();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    try (EchoingProxy proxy = new EchoingProxy()) {
      String base = "http://127.0.0.1:" + proxy.port();
      Files.writeString(dir.resolve("env.yaml"), "policy_api_key: " + ENV_YAML_KEY + "\n");
      String yaml = config(base);
      List<String> overrides = List.of("++judge_api_key=" + COMMAND_LINE_KEY,
          "++policy_base_url=http://gymuser:" + USER_INFO + "@127.0.0.1:" + proxy.port() + "/v1");
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      useShippedLogging();
      GlobalConfig config = TestConfigs.load(dir, yaml, overrides.toArray(String[]::new));
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
        var client = deployment.client();
        outputs.put("policy /v1/responses", client.post("policy_model", "/v1/responses",
            dev.gym4j.json.Json.parse("{\"input\": \"hi\"}"), Map.of()).text());
        outputs.put("judge /v1/chat/completions", client.post("judge_model", "/v1/chat/completions",
            dev.gym4j.json.Json.parse("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"), Map.of()).text());
        outputs.put("agent /run", client.post("agent", "/run", dev.gym4j.json.Json.parse(ROW), Map.of()).text());
        outputs.put("failures file", collectOneRow(deployment));
        HttpReply served = client.send(deployment.head().url().resolve("/global_config_dict_yaml"), "GET", null,
            Map.of(), Map.of());
        outputs.put("/global_config_dict_yaml", served.text());
        outputs.put("/metrics", client.get("policy_model", "/metrics").text());
        LoggerFactory.getLogger("dev.gym4j.security").warn("a log line quoting {} and {}", ENV_YAML_KEY, HEADER);
      }
      outputs.put("gym4j config", gym4jConfig(overrides));
      // the secrets did go out to the upstream, which echoed them into its errors
      assertThat(proxy.authorizations()).contains("Bearer " + ENV_YAML_KEY, "Bearer " + COMMAND_LINE_KEY);
    } finally {
      System.setErr(stderr);
    }
    outputs.put("log", log.toString(StandardCharsets.UTF_8));

    assertThat(outputs.get("policy /v1/responses")).contains("502", "upstream unavailable");
    assertThat(outputs.get("failures file")).contains("_ng_failure_class");
    assertThat(outputs.get("/metrics")).contains("gym4j_client_retries");
    assertThat(outputs.get("gym4j config")).contains("policy_model");
    assertThat(outputs.get("log")).contains("a log line quoting");
    List<String> leaks = new ArrayList<>();
    outputs.forEach((where, text) -> PLANTED.stream().filter(text::contains)
        .forEach(secret -> leaks.add(secret + " in " + where)));
    System.out.printf("planted secrets: %d outputs checked, %d secrets found%n", outputs.size(), leaks.size());
    assertThat(leaks).isEmpty();
  }

  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "count"}]},
       "agent_ref": {"type": "responses_api_agents", "name": "agent"}}""";

  private static String config(String base) {
    return """
        client_initial_backoff_seconds: 0.01
        client_max_backoff_seconds: 0.02
        client_max_attempts: 2
        policy_model:
          responses_api_models:
            openai_model:
              openai_base_url: ${policy_base_url}
              openai_api_key: ${policy_api_key}
              openai_model: gpt-test
              openai_default_headers: {X-Team-Token: %s}
        judge_model:
          responses_api_models:
            vllm_model:
              base_url: %s/v1
              api_key: ${judge_api_key}
              model: judge
              return_token_id_information: false
              uses_reasoning_parser: false
        example_session_state_mgmt:
          resources_servers:
            example_session_state_mgmt: {domain: agent}
        agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: example_session_state_mgmt}
              model_server: {type: responses_api_models, name: policy_model}
        """.formatted(HEADER, base);
  }

  private String collectOneRow(Deployment deployment) throws IOException {
    Path input = dir.resolve("rows.jsonl");
    Files.writeString(input, ROW.replace("\n", " ") + "\n");
    CollectOptions options = new CollectOptions("agent", input, dir.resolve("out.jsonl"), 1, 1, 0, false, null, 1);
    new RolloutCollector(options, deployment.client(), new PrintStream(new ByteArrayOutputStream()), false).collect();
    return Files.readString(options.failures());
  }

  /** {@code gym4j config} in a process of its own, run where the env.yaml is. */
  private String gym4jConfig(List<String> overrides) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.gym4j.cli.Main", "config", "+config_paths=[test.yaml]"));
    command.addAll(overrides);
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new String(output, StandardCharsets.UTF_8);
  }

  /** Logback as the gym4j command sets it up (its logback.xml), at DEBUG so that upstream failures are logged. */
  private static void useShippedLogging() throws Exception {
    System.setProperty("GYM4J_LOG_LEVEL", "DEBUG");
    var factory = LoggerFactory.getILoggerFactory();
    for (int wait = 0; !(factory instanceof LoggerContext) && wait < 100; wait++) {
      // SLF4J hands out a stand-in while another thread is still initializing it
      Thread.sleep(50);
      factory = LoggerFactory.getILoggerFactory();
    }
    LoggerContext context = (LoggerContext) factory;
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    var shipped = Thread.currentThread().getContextClassLoader().getResources("logback.xml");
    configurator.doConfigure(shipped.nextElement());
  }
}
