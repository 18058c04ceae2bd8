package dev.gym4j.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A bounded fuzz run in the normal test command (issues 14 and 31, "Done when"): requests built from each route's
 * valid body with fields replaced by hostile values (wrong types, huge and non-finite numbers, deep nesting,
 * malformed JSON, other methods, unknown paths), every integer field of every body set past a long's range, raw
 * request heads no client library sends (method tokens that are not tokens, bad {@code HTTP2-Settings}, malformed
 * chunk framing with a request smuggled after it), and upstream answers a model server must refuse (tool calls
 * whose {@code name} or {@code arguments} is an object, …), against every route kind of one deployment: the head
 * server, a resources server, a Gymnasium server, both agents and every model server kind (vLLM, OpenAI, Azure
 * OpenAI, Anthropic) with a planted API key. No answer to a request may be a 5xx (an upstream's malformed answer is
 * a 502 or 504, never a 500), name a Java type or carry the key, and nothing the run causes writes a stack trace to
 * the log; the figures are printed at the end. Property-based (jqwik), not coverage-guided: see
 * security/README.md.
 */
class RouteFuzzTest {
  private static final String PLANTED_KEY = "sk-fuzz-planted-0d9c8b7a";
  private static final Pattern CLASS_NAME = Pattern.compile(
      "\\b[A-Za-z]+(Exception|Error)\\b|\\b(java|javax|jdk|tools\\.jackson|io\\.helidon|dev\\.gym4j)\\.[a-z]");
  private static final AtomicInteger TRIED = new AtomicInteger();
  private static final AtomicInteger SERVER_ERRORS = new AtomicInteger();
  private static final AtomicInteger CLASS_NAMES = new AtomicInteger();
  private static final AtomicInteger SECRETS = new AtomicInteger();
  private static final AtomicInteger STACK_TRACES = new AtomicInteger();
  private static final AtomicInteger UPSTREAM_REFUSALS = new AtomicInteger();
  /** The first log event with a stack trace, shown when one is found. */
  private static volatile String firstStackTrace;
  /** 2**70, the integer of issue 31. */
  private static final String HUGE = "1180591620717411303424";
  /** The least number of requests a run must try (issue 31). */
  private static final int AT_LEAST = 5000;
  /** What the scripted upstream answers while a hostile answer is being tried; null: a valid one. */
  private static volatile Answer hostile;
  private static ch.qos.logback.core.Appender<ch.qos.logback.classic.spi.ILoggingEvent> stackTraces;

  private static ScriptedUpstream upstream;
  /** Anthropic's Messages API for anthropic_model: a valid message, or a stream of one, unless a test says else. */
  private static dev.gym4j.testkit.EventUpstream anthropic;
  private static Deployment deployment;
  private static HttpClient http;
  private static List<Target> targets;
  /** The head server's registry before the run: no fuzzed request may change it. */
  private static String registry;

  /** One route of one server, with a body it accepts and the headers sent with it. */
  record Target(String server, URI base, String method, String path, String validBody, Map<String, String> headers) {
    Target(String server, URI base, String method, String path, String validBody) {
      this(server, base, method, path, validBody, Map.of());
    }
  }

  @BeforeContainer
  static void start() throws IOException {
    upstream = ScriptedUpstream.start();
    upstream.otherwise(request -> hostile != null ? hostile : Answer.text("OK"));
    anthropic = dev.gym4j.testkit.EventUpstream.start("/v1/messages");
    anthropicAnswers(ANTHROPIC_MESSAGE);
    countStackTraces();
    Path dir = Files.createTempDirectory("gym4j-fuzz");
    deployment = Deployment.start(TestConfigs.load(dir, """
        client_max_attempts: 1
        policy_model:
          responses_api_models:
            vllm_model: {base_url: %1$s, api_key: %2$s, model: m, return_token_id_information: false,
                         uses_reasoning_parser: true}
        openai:
          responses_api_models:
            openai_model: {openai_base_url: %1$s, openai_api_key: %2$s, openai_model: m}
        azure:
          responses_api_models:
            azure_openai_model: {openai_base_url: %3$s, openai_api_key: %2$s, openai_model: m,
                                 default_query: {api-version: "2024-10-21"}}
        claude:
          responses_api_models:
            anthropic_model: {anthropic_base_url: "http://127.0.0.1:%4$d", anthropic_api_key: %2$s, anthropic_model: m,
                              max_tokens: 64, anthropic_version: "2023-06-01"}
        counter:
          resources_servers:
            example_session_state_mgmt: {domain: agent}
        remote:
          resources_servers:
            example_session_state_mgmt: {domain: agent}
        game:
          resources_servers:
            example_multi_turn_gymnasium: {domain: other}
        agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: counter}
              model_server: {type: responses_api_models, name: policy_model}
              max_steps: 3
        game_agent:
          responses_api_agents:
            gymnasium_agent:
              resources_server: {type: resources_servers, name: game}
              model_server: {type: responses_api_models, name: policy_model}
              max_steps: 3
        """.formatted(upstream.baseUrl(), PLANTED_KEY, upstream.root().toString().replaceAll("/$", ""),
        anthropic.port())), Implementations.load(), Set.of("remote"));
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    targets = targets();
    registry = deployment.head().registry().all().toString();
  }

  /** A whole Anthropic message: text and a tool call. */
  private static final String ANTHROPIC_MESSAGE = "{\"id\": \"msg_1\", \"type\": \"message\", \"role\": \"assistant\", "
      + "\"model\": \"m\", \"content\": [{\"type\": \"text\", \"text\": \"OK\"}, {\"type\": \"tool_use\", \"id\": \"toolu_1\", "
      + "\"name\": \"get_counter_value\", \"input\": {}}], \"stop_reason\": \"tool_use\", \"stop_sequence\": null, "
      + "\"usage\": {\"input_tokens\": 3, \"output_tokens\": 2}}";

  /** The Anthropic upstream answers {@code message} whole, and as a stream whose message_start carries it. */
  private static void anthropicAnswers(String message) {
    anthropic.answer(message);
    JsonNode parsed;
    try {
      parsed = Json.parse(message);
    } catch (RuntimeException e) {
      anthropic.events(List.of("event: message_start\ndata: " + message + "\n\n"));
      return;
    }
    ObjectNode start = Json.object().put("type", "message_start");
    start.set("message", parsed);
    anthropic.events(List.of(dev.gym4j.testkit.EventUpstream.event("message_start", start),
        dev.gym4j.testkit.EventUpstream.event("content_block_start", Json.parse(
            "{\"type\": \"content_block_start\", \"index\": 0, \"content_block\": {\"type\": \"text\", \"text\": \"\"}}")),
        dev.gym4j.testkit.EventUpstream.event("content_block_delta", Json.parse(
            "{\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\": \"text_delta\", \"text\": \"OK\"}}")),
        dev.gym4j.testkit.EventUpstream.event("content_block_stop", Json.parse(
            "{\"type\": \"content_block_stop\", \"index\": 0}")),
        dev.gym4j.testkit.EventUpstream.event("message_delta", Json.parse(
            "{\"type\": \"message_delta\", \"delta\": {\"stop_reason\": \"end_turn\", \"stop_sequence\": null}, "
                + "\"usage\": {\"output_tokens\": 1}}")),
        dev.gym4j.testkit.EventUpstream.event("message_stop", Json.parse("{\"type\": \"message_stop\"}"))));
  }

  /** Counts every log event with a stack trace, from any logger, while the deployment runs. */
  private static void countStackTraces() {
    var root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    stackTraces = new ch.qos.logback.core.AppenderBase<>() {
      @Override
      protected void append(ch.qos.logback.classic.spi.ILoggingEvent event) {
        if (event.getThrowableProxy() != null && STACK_TRACES.getAndIncrement() == 0) {
          firstStackTrace = event.getLoggerName() + ": " + event.getFormattedMessage() + " "
              + event.getThrowableProxy().getClassName();
        }
      }
    };
    stackTraces.setContext(root.getLoggerContext());
    stackTraces.start();
    root.addAppender(stackTraces);
  }

  private static List<Target> targets() {
    String row = "{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": \"add 1\"}]}, "
        + "\"initial_count\": 1, \"expected_count\": 2, \"expected_answer\": \"Eiffel\", \"follow_ups\": [\"and?\"]}";
    String response = "{\"id\": \"r\", \"object\": \"response\", \"status\": \"completed\", \"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": \"Eiffel\"}]}]}";
    String verify = row.substring(0, row.length() - 1) + ", \"response\": " + response + "}";
    String metrics = "{\"verify_responses\": [{\"reward\": 1, \"_ng_task_index\": 0}]}";
    List<Target> all = new ArrayList<>();
    URI head = deployment.head().url();
    all.add(new Target("head", head, "GET", "/global_config_dict_yaml", ""));
    all.add(new Target("head", head, "GET", "/server_instances", ""));
    // a stranger's registrations: no secret, a wrong one, and the right one sent from a web page or as text;
    // each body names the instance this deployment leaves to another process (so the right secret, shown
    // properly, would register it), so only the guards stand in the way
    String registration = "{\"process_name\": \"remote\", \"url\": \"http://127.0.0.1:9\", \"pid\": 1, "
        + "\"start_time\": 1.5}";
    String right = "Bearer " + deployment.secret().value();
    all.add(new Target("head", head, "POST", "/server_instances", registration));
    all.add(new Target("head", head, "POST", "/server_instances", registration,
        Map.of("Authorization", "Bearer " + dev.gym4j.head.HeadSecret.generate().value())));
    all.add(new Target("head", head, "POST", "/server_instances", registration,
        Map.of("Authorization", right, "Origin", "http://evil.example")));
    all.add(new Target("head", head, "POST", "/server_instances", registration,
        Map.of("Authorization", right, "Content-Type", "text/plain")));
    URI counter = uri("counter");
    all.add(new Target("resources", counter, "POST", "/seed_session", row));
    all.add(new Target("resources", counter, "POST", "/increment_counter", "{\"count\": 1}"));
    all.add(new Target("resources", counter, "POST", "/get_counter_value", "{}"));
    all.add(new Target("resources", counter, "POST", "/verify", verify));
    all.add(new Target("resources", counter, "POST", "/aggregate_metrics", metrics));
    URI game = uri("game");
    all.add(new Target("gymnasium", game, "POST", "/reset", row));
    all.add(new Target("gymnasium", game, "POST", "/step", verify));
    all.add(new Target("gymnasium", game, "POST", "/aggregate_metrics", metrics));
    for (String agent : List.of("agent", "game_agent")) {
      all.add(new Target("agent", uri(agent), "POST", "/run", row));
      all.add(new Target("agent", uri(agent), "POST", "/v1/responses", "{\"input\": \"hi\"}"));
      all.add(new Target("agent", uri(agent), "POST", "/v1/messages", MESSAGES));
      all.add(new Target("agent", uri(agent), "POST", "/aggregate_metrics", metrics));
    }
    for (String model : MODELS) {
      all.addAll(modelTargets(model));
    }
    for (Target target : List.copyOf(all)) {
      all.add(new Target(target.server(), target.base(), "GET", "/", ""));
      all.add(new Target(target.server(), target.base(), "GET", "/metrics", ""));
    }
    return all;
  }

  /** One instance of each model server kind; each answers the same three APIs. */
  private static final List<String> MODELS = List.of("policy_model", "openai", "azure", "claude");

  private static List<Target> modelTargets(String instance) {
    URI model = uri(instance);
    String server = "model " + instance;
    return List.of(new Target(server, model, "POST", "/v1/responses",
            "{\"input\": [{\"role\": \"user\", \"content\": \"hi\"}], \"max_output_tokens\": 5, \"temperature\": 0.5, "
                + "\"top_logprobs\": 2, \"max_tool_calls\": 3, \"metadata\": {\"chat_template_kwargs\": \"{}\"}, "
                + "\"tools\": [{\"type\": \"function\", \"name\": \"get_counter_value\", \"parameters\": {\"type\": "
                + "\"object\", \"properties\": {}}}]}"),
        new Target(server, model, "POST", "/v1/messages", MESSAGES),
        new Target(server, model, "POST", "/v1/chat/completions",
            "{\"messages\": [{\"role\": \"user\", \"content\": \"<think>a</think>hi\"}], \"max_tokens\": 5, "
                + "\"max_completion_tokens\": 5, \"n\": 1, \"seed\": 7, \"top_logprobs\": 1, \"tools\": [{\"type\": "
                + "\"function\", \"function\": {\"name\": \"get_counter_value\", \"parameters\": {\"type\": \"object\"}}}]}"));
  }

  /** An Anthropic Messages request with a tool, a tool round trip and a thinking block, streamed. */
  private static final String MESSAGES = "{\"model\": \"m\", \"max_tokens\": 5, \"stream\": true, \"system\": \"s\", "
      + "\"tools\": [{\"name\": \"get_counter_value\", \"input_schema\": {\"type\": \"object\"}}], "
      + "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"content\": ["
      + "{\"type\": \"thinking\", \"thinking\": \"t\", \"signature\": \"s\"}, {\"type\": \"tool_use\", \"id\": \"t1\", "
      + "\"name\": \"get_counter_value\", \"input\": {}}]}, {\"role\": \"user\", \"content\": [{\"type\": "
      + "\"tool_result\", \"tool_use_id\": \"t1\", \"content\": \"3\"}]}]}";

  private static URI uri(String instance) {
    return deployment.directory().find(instance).orElseThrow();
  }

  @AfterContainer
  static void stop() {
    System.out.printf("fuzz: %d requests tried, %d 5xx seen, %d Java class names in bodies, %d secrets found, "
        + "%d stack traces logged; %d hostile upstream answers refused with 502/504%n", TRIED.get(),
        SERVER_ERRORS.get(), CLASS_NAMES.get(), SECRETS.get(), STACK_TRACES.get(), UPSTREAM_REFUSALS.get());
    if (deployment != null) {
      deployment.close();
    }
    if (upstream != null) {
      upstream.close();
    }
    if (anthropic != null) {
      anthropic.close();
    }
    if (stackTraces != null) {
      ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
          .detachAppender(stackTraces);
    }
    assertThat(STACK_TRACES).as("stack traces logged, the first: %s", firstStackTrace).hasValue(0);
    assertThat(TRIED.get()).as("requests tried").isGreaterThanOrEqualTo(AT_LEAST);
  }

  @Property(tries = 4000)
  void no_request_gets_a_5xx_a_class_name_or_a_secret(@ForAll("requests") Request request) throws Exception {
    HttpResponse<String> response = send(request);
    check(request.toString(), response.statusCode(), response.body());
  }

  private static HttpResponse<String> send(Request request) throws Exception {
    HttpRequest.Builder builder = HttpRequest.newBuilder(url(request.target().base(), request.path()))
        .timeout(Duration.ofSeconds(30));
    Map<String, String> headers = new java.util.HashMap<>(Map.of("Content-Type", "application/json"));
    headers.putAll(request.target().headers());
    headers.forEach(builder::header);
    if (request.body() == null) {
      builder.method(request.method(), HttpRequest.BodyPublishers.noBody());
    } else {
      builder.method(request.method(), HttpRequest.BodyPublishers.ofString(request.body()));
    }
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Issue 31: every integer field of every route's valid body, set past a long's range (2**70, its negative,
   * 10**30 as a float) and to a negative count, is a 4xx naming the field, never a 500.
   */
  @Example
  void a_huge_integer_in_any_integer_field_is_a_4xx_issue_31() throws Exception {
    for (Target target : targets) {
      if (target.validBody().isEmpty()) {
        continue;
      }
      List<List<Object>> paths = new ArrayList<>();
      integerFields(Json.parse(target.validBody()), new ArrayList<>(), paths);
      for (List<Object> path : paths) {
        for (String value : List.of(HUGE, "-" + HUGE, "1e30", "-1")) {
          JsonNode tree = Json.parse(target.validBody());
          replace(tree, path, Json.parse(value));
          Request request = new Request(target, target.method(), target.path(), Json.write(tree));
          HttpResponse<String> response = send(request);
          check(path + " = " + value + " in " + request, response.statusCode(), response.body());
        }
      }
    }
  }

  private static void integerFields(JsonNode node, List<Object> at, List<List<Object>> into) {
    if (node.isIntegralNumber()) {
      into.add(List.copyOf(at));
    } else if (node instanceof ObjectNode object) {
      for (String name : object.propertyNames()) {
        at.add(name);
        integerFields(object.get(name), at, into);
        at.removeLast();
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        at.add(i);
        integerFields(array.get(i), at, into);
        at.removeLast();
      }
    }
  }

  private static void replace(JsonNode tree, List<Object> path, JsonNode value) {
    JsonNode parent = tree;
    for (Object step : path.subList(0, path.size() - 1)) {
      parent = step instanceof Integer i ? parent.get(i) : parent.get((String) step);
    }
    Object last = path.getLast();
    if (parent instanceof ObjectNode object) {
      object.set((String) last, value);
    } else {
      ((ArrayNode) parent).set((Integer) last, value);
    }
  }

  /**
   * Issue 31: an upstream's malformed answer (a tool call whose {@code name} or {@code arguments} is an object, a
   * list or a number; a count past a long's range; the wrong shape anywhere) reaching any route of a model server
   * or an agent is a 502 (or 504) that names what was wrong, never a 500, and names no Java type.
   */
  @Property(tries = 700)
  void a_malformed_upstream_answer_is_a_502_not_a_500_issue_31(@ForAll("upstreamTargets") Target target,
      @ForAll("hostileAnswers") String answer) throws Exception {
    hostile = Answer.error(200, answer);
    anthropicAnswers(answer);
    try {
      Request request = new Request(target, target.method(), target.path(), target.validBody());
      HttpResponse<String> response = send(request);
      if (response.statusCode() == 502 || response.statusCode() == 504) {
        UPSTREAM_REFUSALS.incrementAndGet();
        checkBody(request + " after the upstream answered " + answer, response.body());
      } else {
        check(request + " after the upstream answered " + answer, response.statusCode(), response.body());
      }
    } finally {
      hostile = null;
      anthropicAnswers(ANTHROPIC_MESSAGE);
    }
  }

  @Provide
  Arbitrary<Target> upstreamTargets() {
    return Arbitraries.of(targets.stream().filter(t -> t.server().startsWith("model ")
        || t.server().equals("agent") && t.path().equals("/run")).toList());
  }

  /** A chat completion and a Responses answer, each with one part replaced by a hostile value. */
  @Provide
  Arbitrary<String> hostileAnswers() {
    String chat = "{\"id\": \"c\", \"object\": \"chat.completion\", \"created\": 1, \"model\": \"m\", \"choices\": "
        + "[{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"ok\", \"tool_calls\": [{\"id\": "
        + "\"t1\", \"type\": \"function\", \"function\": {\"name\": \"get_counter_value\", \"arguments\": \"{}\"}}]}, "
        + "\"finish_reason\": \"tool_calls\"}], \"usage\": {\"prompt_tokens\": 1, \"completion_tokens\": 1, "
        + "\"total_tokens\": 2}}";
    String responses = "{\"id\": \"r\", \"object\": \"response\", \"created_at\": 1, \"model\": \"m\", \"status\": "
        + "\"completed\", \"output\": [{\"type\": \"function_call\", \"id\": \"f\", \"call_id\": \"c1\", \"name\": "
        + "\"get_counter_value\", \"arguments\": \"{}\", \"status\": \"completed\"}], \"usage\": {\"input_tokens\": 1, "
        + "\"output_tokens\": 1, \"total_tokens\": 2}}";
    List<String> pinned = new ArrayList<>();
    for (String value : List.of("{\"a\": 1}", "[1]", "7", HUGE, "true", "null")) {
      for (String answer : List.of(chat, responses, ANTHROPIC_MESSAGE)) {
        pinned.add(answer.replace("\"name\": \"get_counter_value\"", "\"name\": " + value));
        pinned.add(answer.replace("\"arguments\": \"{}\"", "\"arguments\": " + value)
            .replace("\"input\": {}", "\"input\": " + value));
      }
      pinned.add(chat.replace("\"prompt_tokens\": 1", "\"prompt_tokens\": " + value));
      pinned.add(ANTHROPIC_MESSAGE.replace("\"input_tokens\": 3", "\"input_tokens\": " + value));
    }
    return Arbitraries.oneOf(Arbitraries.of(pinned),
        Combinators.combine(Arbitraries.of(chat, responses, ANTHROPIC_MESSAGE), Arbitraries.integers().between(0, 1000),
            hostileValue(),
            Arbitraries.integers().between(0, 2)).as((body, where, value, how) ->
            mutate(Json.parse(body), where, value, how)));
  }

  /**
   * Issue 31, defect 5, on every server: chunk data not followed by CRLF is a 400 that closes the connection, and
   * the request smuggled after it is never answered.
   */
  @Example
  void a_request_smuggled_after_a_malformed_chunk_is_never_answered_issue_31() throws Exception {
    java.util.Set<URI> servers = new java.util.LinkedHashSet<>();
    targets.forEach(target -> servers.add(target.base()));
    String body = "{\"responses_create_\":1}";
    for (URI server : servers) {
      for (String framing : List.of("17\r\n" + body + "XX0\r\n\r\n", "17\r\n" + body + "\n0\r\n\r\n",
          "17\r\n" + body + "\r0\r\n\r\n")) {
        String answer = exchange(server, "POST /aggregate_metrics HTTP/1.1\r\nHost: localhost\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n" + framing + "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
        check("malformed chunk framing to " + server, status(answer), answer);
        assertThat(Pattern.compile("(?m)^HTTP/1\\.1 ").matcher(answer).results().count())
            .as("answers on %s to %s", server, framing).isEqualTo(1);
        assertThat(status(answer)).as("%s to %s", answer, server).isEqualTo(400);
      }
    }
  }

  private static int status(String answer) {
    Matcher status = Pattern.compile("^HTTP/1\\.[01] (\\d{3})").matcher(answer);
    return status.find() ? Integer.parseInt(status.group(1)) : 0;
  }

  @Property(tries = 300)
  void no_request_head_gets_a_5xx_or_goes_unanswered(@ForAll("heads") String head) throws Exception {
    Target target = targets.get(Math.floorMod(head.hashCode(), targets.size()));
    String answer = exchange(target.base(), head);
    check(head, status(answer), answer);
  }

  /** The path appended, never resolved: {@code //host/x} must stay a path on this server. */
  private static URI url(URI base, String path) throws java.net.URISyntaxException {
    try {
      return URI.create("http://" + base.getAuthority() + path);
    } catch (IllegalArgumentException e) {
      return new URI("http", null, base.getHost(), base.getPort(), path, null, null);
    }
  }

  private static void check(String what, int status, String body) {
    if (status >= 500) {
      SERVER_ERRORS.incrementAndGet();
    }
    checkBody(what, body);
    assertThat(status).as("status for %s: %s", what, body).isLessThan(500);
  }

  /** Counts a request, and checks its body, the registry and the log. */
  private static void checkBody(String what, String body) {
    TRIED.incrementAndGet();
    if (CLASS_NAME.matcher(body).find()) {
      CLASS_NAMES.incrementAndGet();
    }
    if (body.contains(PLANTED_KEY)) {
      SECRETS.incrementAndGet();
    }
    assertThat(deployment.head().registry().all()).as("registry after %s", what).hasToString(registry);
    assertThat(body).as("body for %s", what).doesNotContainPattern(CLASS_NAME).doesNotContain(PLANTED_KEY);
    assertThat(STACK_TRACES).as("stack traces logged by %s (or just before it): %s", what, firstStackTrace)
        .hasValue(0);
  }

  /** A request and what was done to it, printed when a try fails. */
  record Request(Target target, String method, String path, String body) {
    @Override
    public String toString() {
      String shown = body == null ? "" : body.length() > 300 ? body.substring(0, 300) + "…" : body;
      return method + " " + target.server() + path + " " + shown;
    }
  }

  @Provide
  Arbitrary<Request> requests() {
    Arbitrary<Target> target = Arbitraries.of(targets);
    return target.flatMap(t -> Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, mutated(t)),
        net.jqwik.api.Tuple.of(1, malformed(t)),
        net.jqwik.api.Tuple.of(1, otherMethod(t)),
        net.jqwik.api.Tuple.of(1, otherPath(t))));
  }

  /** The valid body with one field (at any depth) replaced, added or removed. */
  private Arbitrary<Request> mutated(Target t) {
    return Combinators.combine(Arbitraries.integers().between(0, 1000), hostileValue(), Arbitraries.integers()
        .between(0, 2)).as((where, value, how) -> {
          String body = t.validBody().isEmpty() ? null : mutate(Json.parse(t.validBody()), where, value, how);
          return new Request(t, t.method(), t.path(), body);
        });
  }

  private static String mutate(JsonNode tree, int where, JsonNode value, int how) {
    List<JsonNode> containers = new ArrayList<>();
    collect(tree, containers);
    JsonNode container = containers.get(where % containers.size());
    if (container instanceof ObjectNode object) {
      List<String> names = new ArrayList<>(object.propertyNames());
      if (how == 0 || names.isEmpty()) {
        object.set("x" + where, value);
      } else if (how == 1) {
        object.set(names.get(where % names.size()), value);
      } else {
        object.remove(names.get(where % names.size()));
      }
    } else if (container instanceof ArrayNode array) {
      if (how == 2 && !array.isEmpty()) {
        array.remove(where % array.size());
      } else {
        array.add(value);
      }
    }
    return Json.write(tree);
  }

  private static void collect(JsonNode node, List<JsonNode> into) {
    if (node.isContainer()) {
      into.add(node);
      node.forEach(child -> collect(child, into));
    }
  }

  private Arbitrary<JsonNode> hostileValue() {
    Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40).map(s -> (JsonNode) Json.toTree(s)),
        Arbitraries.of("1e999999999", "-1e999999999", "99999999999999999999999", HUGE, "-" + HUGE, "1.5", "-1", "0", "NaN", "true",
            "null", "\"\"", "\"<think>\"", "\"/127.0.0.1:11000/server_instances\"", "\"increment counter\"",
            "{\"a\": 1}", "[[[[[[[[[[]]]]]]]]]]", "\"" + "a".repeat(5000) + "\"")
            .map(text -> text.equals("NaN") ? Json.toTree("NaN") : Json.parse(text)),
        Arbitraries.integers().map(i -> (JsonNode) Json.toTree(i)),
        Arbitraries.doubles().map(d -> (JsonNode) Json.toTree(d)));
    return Arbitraries.oneOf(scalars, scalars.list().ofMaxSize(4).map(list -> {
      ArrayNode array = Json.array();
      list.forEach(array::add);
      return (JsonNode) array;
    }), Arbitraries.integers().between(1, 400).map(RouteFuzzTest::deep));
  }

  /** Nested arrays, within the parser's depth limit (500); deeper documents are among the malformed bodies. */
  private static JsonNode deep(int depth) {
    return Json.parse("[".repeat(depth) + "]".repeat(depth));
  }

  private Arbitrary<Request> malformed(Target t) {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(200),
        Arbitraries.of("{", "{\"a\":", "[1,", "\"unterminated", "{\"count\": 1}}", "\u0000", "{\"a\": 1e999999999}",
            "[".repeat(5000) + "]".repeat(5000), "{\"a\":" + "[".repeat(100_000)))
        .map(body -> new Request(t, "POST", t.path(), body));
  }

  private Arbitrary<Request> otherMethod(Target t) {
    return Arbitraries.of("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "POST")
        .map(method -> new Request(t, method, t.path(), method.equals("GET") ? null : t.validBody()));
  }

  private Arbitrary<Request> otherPath(Target t) {
    return Arbitraries.oneOf(Arbitraries.strings().alpha().numeric().withChars("/._-%").ofMaxLength(60)
            .map(path -> "/" + path),
        Arbitraries.of("//127.0.0.1:11000/server_instances", "/../../etc/passwd", "/seed_session/", "/%2e%2e/",
            "/tools?" + "q".repeat(9000), "/v1/responses%00"))
        .map(path -> new Request(t, "POST", path.replace(" ", "%20"), t.validBody()));
  }

  @Provide
  Arbitrary<String> heads() {
    Arbitrary<String> line = Arbitraries.oneOf(
        Arbitraries.of("GET / HTTP/1.1", "GET / HTTP/1.0", "POST /run HTTP/1.1", "GET /" + "a".repeat(70_000)
            + " HTTP/1.1", "BREW / HTTP/1.1", "GET / HTTP/9.9", "GET  / HTTP/1.1", "\u0000\u0001", "",
            "G@T / HTTP/1.1", "GET\u0001 / HTTP/1.1", "(POST) /run HTTP/1.1", "G{T / HTTP/1.1", "GE\"T / HTTP/1.1"),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(100));
    Arbitrary<String> header = Arbitraries.oneOf(
        Arbitraries.of("Host: x", "Content-Length: 5", "Content-Length: -1", "Content-Length: 99999999999999999999",
            "Transfer-Encoding: chunked", "Transfer-Encoding: gzip, chunked", "Connection: close", "Expect: 100-continue",
            "Content-Length: 2\r\nContent-Length: 3", "Host: a\r\nHost: b", "X: " + "y".repeat(20_000), "bad header",
            "Host: localhost", "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: !!not*base64!!",
            "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQ",
            "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: " + "A".repeat(5000),
            "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c"),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60));
    Arbitrary<String> body = Arbitraries.of("", "{}", "zz\r\n{}\r\n0\r\n\r\n", "5\r\n{\"a\":\r\n", "0\r\n\r\n",
        "2\r\n{}XX0\r\n\r\nGET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", "2\r\n{}\n0\r\n\r\n", "2;x=y\r\n{}\r\n0\r\n\r\n",
        "2\r\n{}\r\n0\r\nTrailer: x\r\n\r\n", "-2\r\n{}\r\n0\r\n\r\n", "ffffffffffffffff\r\n{}\r\n0\r\n\r\n");
    return Combinators.combine(line, header.list().ofMaxSize(4), body)
        .as((l, headers, b) -> l + "\r\n" + String.join("\r\n", headers) + (headers.isEmpty() ? "" : "\r\n") + "\r\n" + b);
  }

  /** Sends raw bytes and reads what comes back until the server closes or is quiet for a second. */
  private static String exchange(URI base, String request) throws IOException {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(600);
      try {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
      } catch (IOException e) {
        // the server may close before reading everything: what it answered is read below
      }
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          answer.write(buffer, 0, n);
        }
      } catch (SocketTimeoutException | java.net.SocketException e) {
        // quiet, or reset after the answer
      }
      return answer.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
