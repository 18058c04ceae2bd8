package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.json.Json;
import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON bodies between servers of one JVM go as trees, not bytes, and the endpoint and the caller cannot tell:
 * the same node types, bytes, Content-Length, 413 at the same size, raw and error bodies as over HTTP, and
 * neither side sees what the other changes later. Every check runs over HTTP and in process and compares.
 */
class InProcessTreesTest {
  private static final int LIMIT = 4096;
  private WebServer server;
  private URI base;
  /** An answer the endpoint keeps and changes after answering, as a cache or a session's state would. */
  private final ObjectNode kept = Json.object().put("turn", 0);

  @BeforeEach
  void start() {
    server = ServerHost.serve("trees", "127.0.0.1", 0, LIMIT, "Trees___test", routes -> {
      routes.post("/types", call -> {
        ObjectNode types = Json.object();
        call.bodyObject().properties().forEach(field -> types.put(field.getKey(),
            field.getValue().getClass().getSimpleName()));
        types.put("content_length", call.header("Content-Length").orElse("none"));
        // the endpoint owns what it was given: changing it is nobody else's business
        call.bodyObject().put("changed_by_endpoint", true);
        return types;
      });
      routes.post("/echo", call -> call.body());
      routes.post("/kept", call -> {
        kept.put("turn", kept.get("turn").asInt() + 1);
        return kept;
      });
      routes.post("/raw", call -> new RawBody("text/plain; version=0.0.4", "a 1\n".getBytes(StandardCharsets.UTF_8)));
      routes.post("/refused", call -> Reply.of(409, Map.of("detail", "refused with Bearer sk-abcdefghijklmnopqrstuvwx")));
    });
    base = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private ServerClient client(boolean inProcess) {
    return new ServerClient(name -> name.equals("trees") ? Optional.of(base) : Optional.empty(),
        ClientSettings.defaults().withRequestTimeout(Duration.ofSeconds(20)).withInProcess(inProcess));
  }

  private HttpReply post(boolean inProcess, String path, Object body) {
    try (ServerClient client = client(inProcess)) {
      return client.post("trees", path, body, Map.of());
    }
  }

  @Test
  void theEndpointSeesTheNodeTypesAndLengthAParseOfTheBytesGives() {
    ObjectNode body = Json.object();
    body.put("small_long", 5L).put("big_long", 1L << 40).put("double", 0.5).put("decimal", new java.math.BigDecimal("1.50"))
        .put("text", "é \"quoted\"").putNull("nothing").putArray("list").add(1).add(2.25f);
    String before = Json.write(body);
    HttpReply overHttp = post(false, "/types", body);
    HttpReply inProcess = post(true, "/types", body);
    assertThat(inProcess.status()).isEqualTo(200);
    assertThat(inProcess.json()).isEqualTo(overHttp.json());
    assertThat(inProcess.json().path("small_long").asString()).isEqualTo("IntNode");
    assertThat(inProcess.json().path("double").asString()).isEqualTo("DecimalNode");
    assertThat(inProcess.json().path("content_length").asString())
        .isEqualTo(String.valueOf(Json.writeBytes(body).length));
    assertThat(Json.write(body)).as("what the endpoint changed stays with it").isEqualTo(before);
  }

  @Test
  void theCallerGetsTheBytesHttpWouldCarryAndATreeOfItsOwnOnEveryRead() {
    JsonNode body = Json.parse("{\"a\": [1, 2.50, {\"b\": null}], \"c\": \"\\u0001x\"}");
    HttpReply overHttp = post(false, "/echo", body);
    HttpReply inProcess = post(true, "/echo", body);
    assertThat(inProcess.body()).isEqualTo(overHttp.body());
    assertThat(inProcess.headers()).isEqualTo(overHttp.headers());
    assertThat(inProcess.cookies().keySet()).isEqualTo(overHttp.cookies().keySet());
    ObjectNode first = (ObjectNode) inProcess.json();
    first.put("mine", 1);
    assertThat(inProcess.json().has("mine")).isFalse();
    assertThat(inProcess.text()).isEqualTo(overHttp.text());
  }

  @Test
  void whatTheEndpointChangesAfterAnsweringIsNotSeenByTheCaller() {
    for (boolean inProcess : new boolean[] {false, true}) {
      HttpReply first = post(inProcess, "/kept", Json.object());
      HttpReply second = post(inProcess, "/kept", Json.object());
      assertThat(first.json().path("turn").asInt()).as("in process: " + inProcess).isEqualTo(
          second.json().path("turn").asInt() - 1);
      assertThat(first.text()).isEqualTo("{\"turn\":" + first.json().path("turn").asInt() + "}");
    }
  }

  @Test
  void aBodyOverTheLimitIsThe413HttpGivesAndOneJustUnderItIsServed() {
    // control characters write as six bytes each: far over the copy's bound per character of text, so the
    // body near the limit is counted exactly
    for (int size : new int[] {LIMIT - 40, LIMIT, LIMIT + 1, LIMIT * 3}) {
      ObjectNode body = Json.object();
      StringBuilder text = new StringBuilder();
      while (Json.writeBytes(body.put("t", text.toString())).length < size) {
        text.append(text.length() % 7 == 0 ? 'a' : '\u0001');
      }
      body.put("t", text.substring(0, text.length()));
      int bytes = Json.writeBytes(body).length;
      HttpReply overHttp = post(false, "/echo", body);
      HttpReply inProcess = post(true, "/echo", body);
      assertThat(inProcess.status()).as(bytes + " bytes").isEqualTo(overHttp.status())
          .isEqualTo(bytes > LIMIT ? 413 : 200);
      assertThat(inProcess.json()).isEqualTo(overHttp.json());
    }
  }

  @Test
  void rawAndErrorBodiesAreTheBytesHttpCarries() {
    for (String path : new String[] {"/raw", "/refused"}) {
      HttpReply overHttp = post(false, path, Json.object());
      HttpReply inProcess = post(true, path, Json.object());
      assertThat(inProcess.status()).isEqualTo(overHttp.status());
      assertThat(inProcess.text()).as(path).isEqualTo(overHttp.text());
    }
    assertThat(post(true, "/refused", Json.object()).text()).doesNotContain("sk-abcdefghij");
  }
}
