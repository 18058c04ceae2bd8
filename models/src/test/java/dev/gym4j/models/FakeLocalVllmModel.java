package dev.gym4j.models;

import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.RawBody;
import dev.gym4j.server.Reply;
import dev.gym4j.server.Routes;

/**
 * {@code test_local_vllm_model}: stands in for NeMo Gym's local_vllm_model (which needs GPUs) as the proxy sees it:
 * {@code GET /get_inner_vllm_config} answers {@code inner} from its config, as JSON, after failing
 * {@code fail_first} times with a 503 (a server still spinning up); {@code garbage: true} answers HTML instead.
 */
@Implementation("test_local_vllm_model")
public final class FakeLocalVllmModel extends GymServer {
  private final AtomicInteger asked = new AtomicInteger();

  @Override
  public ServerKind kind() {
    return ServerKind.MODEL;
  }

  @Override
  protected void routes(Routes routes) {
    routes.get("/get_inner_vllm_config", call -> {
      var config = context().config();
      if (asked.incrementAndGet() <= config.path("fail_first").asInt(0)) {
        return Reply.of(503, Json.parse("{\"detail\": \"spinning up\"}"));
      }
      if (config.path("garbage").asBoolean(false)) {
        return new RawBody("text/html", "<html>not json</html>".getBytes());
      }
      return config.get("inner");
    });
  }
}
