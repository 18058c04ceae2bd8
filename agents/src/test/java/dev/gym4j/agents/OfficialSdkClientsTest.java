package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The official OpenAI SDKs for Java, Node and Python as real clients of our model server (vllm_model) and agent
 * (simple_agent): Responses streamed and not, with reasoning and tool calls, Chat Completions streamed and
 * not, the model list and an error. Each script (test resources {@code sdk/}) reads the SDK's typed objects
 * back field by field and prints them; this test checks every field, and that each streamed answer is the
 * non-streamed one. The SDKs are installed at test time under {@code target/} (npm from its registry, pip from
 * the configured index); a client that cannot be installed is skipped, and fails the test under
 * {@code GYM4J_CI=1}. The Java SDK (openai-java, a test dependency) reads the same fields here. Shapes as NeMo Gym's
 * servers give them: responses_api_models/vllm_model/app.py, responses_api_agents/simple_agent/app.py.
 */
class OfficialSdkClientsTest {
  private static final String NODE_SDK = "openai@6.30.1";
  private static final String PYTHON_SDK = "openai==3.22.1";
  private static final Path TARGET = Path.of("target").toAbsolutePath();
  private static final long INSTALL_MINUTES = 5;
  private static final long RUN_MINUTES = 2;

  @TempDir
  static Path dir;
  static ScriptedUpstream upstream;
  static Deployment deployment;
  static final List<String> ran = new ArrayList<>();

  @BeforeAll
  static void start() {
    upstream = ScriptedUpstream.start();
    upstream.otherwise(OfficialSdkClientsTest::answer);
    deployment = Deployment.start(TestConfigs.load(dir, TestConfigs.counterAgentYaml(upstream.baseUrl())),
        Implementations.load(), Set.of());
  }

  @AfterAll
  static void stop() {
    System.out.println("OpenAI SDK clients that ran: " + ran);
    deployment.close();
    upstream.close();
  }

  /** The scripted model: a tool call for the weather, the answer after a tool result, else a greeting. */
  private static Answer answer(ObjectNode chatRequest) {
    String messages = chatRequest.path("messages").toString();
    if (messages.contains("\"role\":\"tool\"")) {
      return Answer.text("Done: 4.");
    }
    if (messages.contains("weather")) {
      return Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("count first");
    }
    return Answer.text("Hello there.").withReasoning("Greet back.");
  }

  private static URI url(String instance) {
    return deployment.directory().find(instance).orElseThrow();
  }

  @Test
  void theNodeSdk() throws Exception {
    Path home = TARGET.resolve("sdk-node");
    if (!Files.isDirectory(home.resolve("node_modules/openai"))) {
      Files.createDirectories(home);
      install("node", List.of("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", home.toString(),
          NODE_SDK), home);
    }
    Path script = home.resolve("openai_client.mjs");
    copy("sdk/openai_client.mjs", script);
    check("node " + NODE_SDK, run(List.of("node", script.toString(), url("policy_model").toString(),
        url("agent").toString()), home));
  }

  @Test
  void thePythonSdk() throws Exception {
    Path venv = TARGET.resolve("sdk-python");
    Path python = venv.resolve("bin/python");
    if (!Files.isExecutable(python) || !Files.isDirectory(venv.resolve("installed"))) {
      install("python", List.of("python3", "-m", "venv", "--clear", venv.toString()), TARGET);
      install("python", List.of(python.toString(), "-m", "pip", "install", "-q", "--retries", "1", PYTHON_SDK), TARGET);
      Files.createDirectories(venv.resolve("installed"));
    }
    Path script = venv.resolve("openai_client.py");
    copy("sdk/openai_client.py", script);
    check("python " + PYTHON_SDK, run(List.of(python.toString(), script.toString(), url("policy_model").toString(),
        url("agent").toString()), venv));
  }

  @Test
  void theJavaSdk() throws Exception {
    ObjectNode out = Json.object();
    var model = com.openai.client.okhttp.OpenAIOkHttpClient.builder().baseUrl(url("policy_model") + "/v1")
        .apiKey("unused").maxRetries(0).build();
    var agent = com.openai.client.okhttp.OpenAIOkHttpClient.builder().baseUrl(url("agent") + "/v1")
        .apiKey("unused").maxRetries(0).build();
    try {
      out.set("model", JavaSdk.summary(model.responses().create(JavaSdk.params("hi", false))));
      out.set("model_stream", JavaSdk.streamed(model, JavaSdk.params("hi", false)));
      out.set("model_tool", JavaSdk.summary(model.responses().create(JavaSdk.params("weather?", true))));
      out.set("model_tool_stream", JavaSdk.streamed(model, JavaSdk.params("weather?", true)));
      JavaSdk.chat(model, out);
      out.set("models", Json.toTree(model.models().list().data().stream().map(entry -> entry.id()).toList()));
      try {
        model.responses().create(JavaSdk.params("hi", false).toBuilder()
            .putAdditionalBodyProperty("temperature", com.openai.core.JsonValue.from("hot")).build());
      } catch (com.openai.errors.OpenAIServiceException error) {
        ObjectNode summary = out.putObject("error");
        summary.put("status", error.statusCode());
        summary.put("message", error.getMessage());
        summary.put("param", error.param().orElse(null));
        summary.put("type", error.type().orElse(null));
      }
      out.set("agent", JavaSdk.summary(agent.responses().create(JavaSdk.params("weather?", true))));
      out.set("agent_stream", JavaSdk.streamed(agent, JavaSdk.params("weather?", true)));
    } finally {
      model.close();
      agent.close();
    }
    check("java openai-java 4.101.0", out);
  }

  private static void copy(String resource, Path to) throws IOException {
    try (var in = OfficialSdkClientsTest.class.getResourceAsStream("/" + resource)) {
      Files.write(to, in.readAllBytes());
    }
  }

  /** Runs an installation step; when it cannot run here, the client is skipped (a failure under GYM4J_CI=1). */
  private static void install(String client, List<String> command, Path workDir) throws Exception {
    String failure;
    try {
      Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(INSTALL_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        failure = "timed out";
      } else if (process.exitValue() == 0) {
        return;
      } else {
        failure = "exit " + process.exitValue() + ": " + new String(output, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      failure = e.getMessage();
    }
    String message = "the " + client + " SDK could not be installed (" + String.join(" ", command) + "): " + failure;
    if ("1".equals(System.getenv("GYM4J_CI"))) {
      throw new AssertionError(message);
    }
    Assumptions.abort(message);
  }

  private static JsonNode run(List<String> command, Path workDir) throws Exception {
    Path log = Files.createTempFile(dir, "client", ".err");
    Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectError(log.toFile()).start();
    process.getOutputStream().close();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(RUN_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish in " + RUN_MINUTES + " minutes");
    }
    assertThat(process.exitValue()).as("%s failed: %s", command, Files.readString(log)).isZero();
    return Json.parse(output);
  }

  private static void check(String client, JsonNode out) {
    assertThat(out.path("model").path("types")).as(client).containsExactly(text("reasoning"), text("message"));
    assertThat(out.path("model").path("text").asString()).isEqualTo("Hello there.");
    assertThat(out.path("model").path("reasoning")).containsExactly(text("Greet back."));
    assertThat(out.path("model").path("token_ids")).hasSize(1);
    assertThat(out.path("model").path("token_ids").get(0)).isNotEmpty();
    assertThat(out.path("model").path("output_tokens").asInt()).isPositive();
    assertStreamedIsSame(client, out, "model", "Hello there.");

    JsonNode tool = out.path("model_tool");
    assertThat(tool.path("types")).as(client).containsExactly(text("reasoning"), text("function_call"));
    assertThat(tool.path("calls").get(0).path("name").asString()).isEqualTo("increment_counter");
    assertThat(tool.path("calls").get(0).path("arguments").asString()).isEqualTo("{\"count\": 1}");
    assertStreamedIsSame(client, out, "model_tool", "");

    // Chat Completions pass vLLM's message on as it is, thinking included (as NeMo Gym's vllm_model does)
    assertThat(out.path("chat").path("content").asString()).as(client).isEqualTo("<think>Greet back.</think>Hello there.");
    assertThat(out.path("chat").path("finish").asString()).isEqualTo("stop");
    assertThat(out.path("chat_stream").path("content").asString()).isEqualTo(out.path("chat").path("content").asString());
    assertThat(out.path("chat_stream").path("usage").asInt()).isPositive();
    assertThat(out.path("models")).containsExactly(text("m"));

    assertThat(out.path("error").path("status").asInt()).as(client).isEqualTo(422);
    assertThat(out.path("error").path("message").asString()).contains("temperature");
    assertThat(out.path("error").path("param").asString()).isEqualTo("temperature");
    assertThat(out.path("error").path("type").asString()).isEqualTo("invalid_request_error");

    JsonNode agent = out.path("agent");
    assertThat(agent.path("types")).as(client).containsExactly(text("reasoning"), text("function_call"),
        text("function_call_output"), text("message"));
    // the counter environment answers a call without a seeded session with its error: still a tool output
    assertThat(agent.path("outputs").get(0).asString()).contains("seed_session");
    assertThat(agent.path("text").asString()).isEqualTo("Done: 4.");
    assertThat(agent.path("token_ids")).hasSize(2);
    assertStreamedIsSame(client, out, "agent", "Done: 4.");
    ran.add(client);
  }

  /** The streamed answer's final response reads the same as the non-streamed one, token ids included. */
  private static void assertStreamedIsSame(String client, JsonNode out, String call, String deltas) {
    ObjectNode streamed = (ObjectNode) out.path(call + "_stream").deepCopy();
    assertThat(streamed.remove("first").asString()).as(client + " " + call).isEqualTo("response.created");
    assertThat(streamed.remove("last").asString()).isEqualTo("response.completed");
    assertThat(streamed.remove("deltas").asString()).isEqualTo(deltas);
    assertThat(streamed).as(client + " " + call + " streamed").isEqualTo(out.path(call));
  }

  private static JsonNode text(String value) {
    return tools.jackson.databind.node.StringNode.valueOf(value);
  }
}
