package dev.gym4j.models;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.wire.Response;

/** One model server instance named {@code policy_model} in a deployment, over real HTTP. */
final class ModelHarness implements AutoCloseable {
  /** Global keys that make retries quick in tests. */
  static final String FAST_RETRIES = """
      client_initial_backoff_seconds: 0.01
      client_max_backoff_seconds: 0.02
      client_max_attempts: 3
      """;

  final Deployment deployment;
  /** For streamed answers, made on first use; shut down on close, which ends the streams it still reads. */
  private java.net.http.HttpClient streaming;

  ModelHarness(Path dir, String implementation, String settings) {
    this(dir, implementation, settings, "");
  }

  /** With global keys of the test's own, after (and so over) the fast retries. */
  ModelHarness(Path dir, String implementation, String settings, String global) {
    String yaml = FAST_RETRIES + global + "policy_model:\n  responses_api_models:\n    " + implementation + ":\n"
        + settings.indent(6);
    deployment = Deployment.start(TestConfigs.load(dir, yaml), Implementations.load(), Set.of());
  }

  /** openai_model (key {@code sk-live-123}, model {@code gpt}) on an upstream at 127.0.0.1:{@code port}/v1. */
  static ModelHarness openai(Path dir, int port) {
    return new ModelHarness(dir, "openai_model", """
        openai_base_url: http://127.0.0.1:%d/v1
        openai_api_key: sk-live-123
        openai_model: gpt
        """.formatted(port));
  }

  /** anthropic_model (claude-sonnet-4-6, max_tokens 1024) on an upstream at 127.0.0.1:{@code port}. */
  static ModelHarness anthropic(Path dir, int port, String key, String global) {
    return new ModelHarness(dir, "anthropic_model", """
        anthropic_base_url: http://127.0.0.1:%d
        anthropic_api_key: %s
        anthropic_model: claude-sonnet-4-6
        max_tokens: 1024
        """.formatted(port, key), global);
  }

  HttpReply post(String path, String body) {
    return post(path, body, Map.of());
  }

  HttpReply post(String path, String body, Map<String, String> cookies) {
    return deployment.client().send(url().resolve(path), "POST", body.getBytes(), cookies, Map.of());
  }

  Response responses(String body) {
    HttpReply reply = post("/v1/responses", body);
    if (reply.status() != 200) {
      throw new AssertionError("status " + reply.status() + ": " + reply.text());
    }
    return Response.of(reply.json());
  }

  /** A POST whose answer is read as it arrives (a stream), over the JDK's client. */
  java.net.http.HttpResponse<java.io.InputStream> stream(String path, String body) throws Exception {
    synchronized (this) {
      if (streaming == null) {
        streaming = java.net.http.HttpClient.newHttpClient();
      }
    }
    return streaming.send(java.net.http.HttpRequest.newBuilder(url().resolve(path))
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofInputStream());
  }

  java.net.URI url() {
    return deployment.directory().find("policy_model").orElseThrow();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (streaming != null) {
        streaming.shutdownNow();
      }
    }
    deployment.close();
  }
}
