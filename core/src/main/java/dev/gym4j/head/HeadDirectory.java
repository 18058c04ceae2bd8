package dev.gym4j.head;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.gym4j.client.ServerDirectory;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A directory kept by asking a head server ({@code GET /server_instances}). Addresses are cached and looked
 * up again when an instance is unknown or a connection to it failed, so an instance that moved (restarted
 * by {@code gym4j serve} elsewhere) is found again.
 */
public final class HeadDirectory implements ServerDirectory {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI head;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(TIMEOUT).build();
  private final Map<String, URI> cache = new ConcurrentHashMap<>();

  public HeadDirectory(URI head) {
    this.head = head;
  }

  @Override
  public Optional<URI> find(String instance) {
    URI known = cache.get(instance);
    if (known != null) {
      return Optional.of(known);
    }
    refresh();
    return Optional.ofNullable(cache.get(instance));
  }

  @Override
  public void invalidate(String instance) {
    cache.remove(instance);
  }

  /** Fetches the head server's list of instances. */
  public JsonNode instances() {
    HttpRequest request = HttpRequest.newBuilder(head.resolve("/server_instances")).timeout(TIMEOUT).GET().build();
    try {
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new UpstreamException(UpstreamException.Kind.STATUS, "head server " + head + " answered "
            + response.statusCode() + " to GET /server_instances", response.statusCode(), null);
      }
      return Json.parse(response.body());
    } catch (java.io.IOException e) {
      throw new UpstreamException(UpstreamException.Kind.CONNECTION, "could not reach the head server at " + head
          + ": " + dev.gym4j.client.ServerClient.describe(e), 0, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted while asking the head server");
    }
  }

  private void refresh() {
    for (JsonNode record : instances()) {
      String name = record.path("process_name").asString(null);
      String url = record.path("url").asString(null);
      if (name != null && url != null) {
        cache.put(name, URI.create(url));
      }
    }
  }
}
