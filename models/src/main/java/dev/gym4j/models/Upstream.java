package dev.gym4j.models;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Semaphore;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The inference endpoint behind a model server (OpenAI, Azure, vLLM): JSON POSTs with the server's
 * credentials, an optional cap on concurrent calls, and failures as typed {@link UpstreamException}s whose
 * message carries the upstream status and the start of its body, redacted: an upstream or a proxy that echoes
 * the request's headers (or its URL's user info) back in an error must not hand the key to our callers.
 */
final class Upstream {
  private static final int BODY_EXCERPT = 500;

  private final ServerClient client;
  private final Map<String, String> headers;
  private final Semaphore limit;

  Upstream(ServerClient client, Map<String, String> headers, Integer maxConcurrentRequests) {
    this.client = client;
    this.headers = Map.copyOf(headers);
    this.limit = maxConcurrentRequests == null ? null : new Semaphore(maxConcurrentRequests, true);
  }

  /** Joins a base URL such as {@code http://host:8000/v1} and a path such as {@code /chat/completions}. */
  static URI resolve(String base, String path) {
    String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    return URI.create(trimmed + path);
  }

  /** The server root of an OpenAI-style base URL: {@code http://host:8000/v1} → {@code http://host:8000}. */
  static String root(String base) {
    String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    return trimmed.endsWith("/v1") ? trimmed.substring(0, trimmed.length() - 3) : trimmed;
  }

  HttpReply post(URI url, ObjectNode body) {
    acquire();
    try {
      return client.send(url, "POST", Json.writeBytes(body), Map.of(), headers);
    } finally {
      release();
    }
  }

  /**
   * POSTs a streaming request and returns the upstream's event stream once it answered 2xx; anything else is an
   * {@link UpstreamException} with the start of its body. The call holds its concurrency slot until the
   * returned stream is closed.
   */
  java.io.InputStream openEvents(URI url, ObjectNode body) {
    Opened opened = open(url, body);
    if (opened.refusal() != null) {
      throw failure(url, opened.refusal());
    }
    return opened.events();
  }

  /**
   * A streaming call's outcome: the event stream of a 2xx answer (to be closed by the caller), or the answer
   * that refused, with the start of its body (for a caller that reads some refusals as answers).
   */
  record Opened(java.io.InputStream events, HttpReply refusal) {}

  /** As {@link #openEvents}, with a refusal returned rather than thrown. */
  Opened open(URI url, ObjectNode body) {
    acquire();
    java.net.http.HttpResponse<java.io.InputStream> response;
    try {
      response = client.stream(url, Json.writeBytes(body), headers);
    } catch (RuntimeException e) {
      release();
      throw e;
    }
    if (response.statusCode() / 100 != 2) {
      byte[] start;
      try (java.io.InputStream in = response.body()) {
        start = in.readNBytes(BODY_EXCERPT * 4);
      } catch (java.io.IOException e) {
        start = new byte[0];
      } finally {
        release();
      }
      return new Opened(null, new HttpReply(response.statusCode(), start, Map.of(), Map.of()));
    }
    String type = response.headers().firstValue("content-type").orElse("").strip();
    if (!WholeAnswer.isEventStream(type)) {
      // a server that ignores "stream": true; its answer is read here, so a failure keeps its HTTP status
      try {
        return new Opened(WholeAnswer.asEvents(url, type, response.body(), client.settings().requestTimeout(), body),
            null);
      } finally {
        release();
      }
    }
    return new Opened(new java.io.FilterInputStream(response.body()) {
      private boolean closed;

      @Override
      public void close() throws java.io.IOException {
        if (!closed) {
          closed = true;
          try {
            super.close();
          } finally {
            release();
          }
        }
      }
    }, null);
  }

  private void acquire() {
    if (limit != null) {
      try {
        limit.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.util.concurrent.CancellationException("interrupted while waiting for an upstream slot");
      }
    }
  }

  private void release() {
    if (limit != null) {
      limit.release();
    }
  }

  /** POSTs and returns the JSON object of a 2xx answer; anything else is an {@link UpstreamException}. */
  ObjectNode postForObject(URI url, ObjectNode body) {
    return object(url, post(url, body));
  }

  static ObjectNode object(URI url, HttpReply reply) {
    if (!reply.ok()) {
      throw failure(url, reply);
    }
    try {
      JsonNode json = reply.json();
      if (json instanceof ObjectNode object) {
        return object;
      }
    } catch (JacksonException e) {
      // fall through to the error below
    }
    throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + shown(url) + " answered " + reply.status()
        + " with a body that is not a JSON object: " + excerpt(reply), reply.status(), null);
  }

  /** Checks an upstream answer's shape: a wrong one is the upstream's failure (502), not our caller's (422). */
  static <T> T validated(URI url, java.util.function.Supplier<T> check) {
    try {
      return check.get();
    } catch (dev.gym4j.json.FieldError e) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + shown(url) + " gave an invalid answer: "
          + e, 200, e);
    } catch (tools.jackson.databind.exc.JsonNodeException e) {
      // a value a check above did not foresee, read as a type it is not (2**70 as a long): still the upstream's
      throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + shown(url) + " gave an invalid answer: "
          + "a value of the wrong type or out of range", 200, e);
    }
  }

  static UpstreamException failure(URI url, HttpReply reply) {
    return new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + shown(url) + " answered "
        + reply.status() + ": " + excerpt(reply), reply.status(), null);
  }

  /** The start of the body, redacted whole before it is cut, so that no cut hides a secret from the redactor. */
  static String excerpt(HttpReply reply) {
    String text = Secrets.redact(new String(reply.body(), StandardCharsets.UTF_8));
    return text.length() <= BODY_EXCERPT ? text : text.substring(0, BODY_EXCERPT) + "…";
  }

  static String shown(URI url) {
    return Secrets.redact(url.toString());
  }
}
