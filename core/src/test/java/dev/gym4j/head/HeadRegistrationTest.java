package dev.gym4j.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.run.ServedInstance;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, item 1: registering on the head server needs the deployment's secret, a JSON body and no
 * {@code Origin}. The reproduction was an unauthenticated {@code text/plain} POST that any web page or a
 * model's tool call could send, which moved {@code counter} to a host of the attacker's choosing.
 */
class HeadRegistrationTest {
  private static final String CONFIG = """
      counter:
        resources_servers:
          test_counter: {domain: other}
      remote:
        resources_servers:
          test_counter: {domain: other}
      """;

  @TempDir
  Path dir;
  Deployment deployment;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    deployment = Deployment.start(TestConfigs.load(dir, CONFIG), Implementations.load(), Set.of("remote"));
  }

  @AfterEach
  void stop() {
    deployment.close();
    http.close();
  }

  private HttpResponse<String> register(String name, Map<String, String> headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(deployment.head().url().resolve("/server_instances"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"process_name\": \"" + name + "\", \"url\": \"http://127.0.0.1:9\"}"));
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String bearer() {
    return "Bearer " + deployment.secret().value();
  }

  @Test
  void a_registration_without_the_secret_is_401_and_changes_nothing_issue_14() throws Exception {
    String before = deployment.head().registry().get("counter").orElseThrow().url();
    HttpResponse<String> plain = register("counter", Map.of("Content-Type", "text/plain"));
    HttpResponse<String> none = register("remote", Map.of("Content-Type", "application/json"));
    HttpResponse<String> wrong = register("remote", Map.of("Content-Type", "application/json",
        "Authorization", "Bearer " + HeadSecret.generate().value()));

    assertThat(plain.statusCode()).isIn(401, 415);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).doesNotContain(deployment.secret().value());
    assertThat(deployment.head().registry().get("counter").orElseThrow().url()).isEqualTo(before);
    assertThat(deployment.head().registry().get("remote")).isEmpty();
  }

  @Test
  void a_browser_cannot_register_even_with_the_secret_issue_14() throws Exception {
    HttpResponse<String> text = register("remote", Map.of("Content-Type", "text/plain", "Authorization", bearer()));
    HttpResponse<String> form = register("remote", Map.of("Content-Type", "application/x-www-form-urlencoded",
        "Authorization", bearer()));
    HttpResponse<String> fromPage = register("remote", Map.of("Content-Type", "application/json",
        "Authorization", bearer(), "Origin", "http://localhost:8000"));

    assertThat(text.statusCode()).isEqualTo(415);
    assertThat(form.statusCode()).isEqualTo(415);
    assertThat(fromPage.statusCode()).isEqualTo(403);
    assertThat(deployment.head().registry().get("remote")).isEmpty();
  }

  @Test
  void with_the_secret_an_instance_left_to_others_is_registered_but_a_local_one_cannot_be_moved() throws Exception {
    HttpResponse<String> local = register("counter", Map.of("Content-Type", "application/json", "Authorization", bearer()));
    HttpResponse<String> remote = register("remote", Map.of("Content-Type", "application/json; charset=utf-8",
        "Authorization", bearer()));

    assertThat(local.statusCode()).isEqualTo(409);
    assertThat(deployment.head().registry().get("counter").orElseThrow().port()).isNotEqualTo(9);
    assertThat(remote.statusCode()).as(remote.body()).isEqualTo(200);
    assertThat(deployment.head().registry().get("remote").orElseThrow().url()).isEqualTo("http://127.0.0.1:9");
  }

  @Test
  void gym4j_serve_announces_with_the_secret_and_is_refused_without_it() {
    ConfigLoader loader = new ConfigLoader(List.of(dir), Map.of());
    URI head = deployment.head().url();
    assertThatThrownBy(() -> ServedInstance.start(head, "remote", List.of(), loader, Implementations.load(),
        HeadSecret.generate())).isInstanceOf(ConfigException.class).hasMessageContaining("refused to register remote: 401");
    assertThat(deployment.head().registry().get("remote")).isEmpty();

    try (ServedInstance served = ServedInstance.start(head, "remote", List.of(), loader, Implementations.load(),
        deployment.secret())) {
      assertThat(deployment.head().registry().get("remote").orElseThrow().port()).isEqualTo(served.server().port());
      assertThat(deployment.client().get("remote", "/").status()).isEqualTo(200);
    }
  }

  @Test
  void the_secret_is_long_random_shown_only_as_a_fingerprint_and_written_owner_only() throws IOException {
    HeadSecret secret = HeadSecret.generate();
    assertThat(secret.value()).hasSizeGreaterThanOrEqualTo(43).isNotEqualTo(HeadSecret.generate().value());
    assertThat(secret.toString()).doesNotContain(secret.value()).contains(secret.fingerprint());
    assertThat(secret.matches(secret.value())).isTrue();
    assertThat(secret.matches(secret.value() + "x")).isFalse();
    assertThat(secret.matches(null)).isFalse();
    assertThatThrownBy(() -> HeadSecret.of("short", "$GYM4J_HEAD_SECRET")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("at least 32").hasMessageNotContaining("short");

    Path file = dir.resolve(".gym4j/head-secret");
    secret.writeTo(file);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(HeadSecret.read(file).matches(secret.value())).isTrue();
    assertThat(Json.write(Map.of("k", secret.toString()))).doesNotContain(secret.value());
  }
}
