package dev.gym4j.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import org.junit.jupiter.api.Test;

/** Issue 14, item 1: a route of an instance is appended to its base URL, never resolved against it. */
class RoutePathTest {
  private static final URI BASE = URI.create("http://127.0.0.1:5000");

  @Test
  void plain_routes_are_appended_to_the_base() {
    assertThat(ServerClient.route(BASE, "/v1/responses")).hasToString("http://127.0.0.1:5000/v1/responses");
    assertThat(ServerClient.route(URI.create("http://127.0.0.1:5000/"), "/seed_session"))
        .hasToString("http://127.0.0.1:5000/seed_session");
    assertThat(ServerClient.route(BASE, "/")).hasToString("http://127.0.0.1:5000/");
  }

  @Test
  void a_path_that_would_resolve_elsewhere_is_refused_issue_14() {
    // URI.resolve made the first of these http://127.0.0.1:11000/server_instances
    for (String path : new String[] {"//127.0.0.1:11000/server_instances", "/../verify", "/a/./b", "verify",
        "/a b", "/a?x=1", "/a#b", "/%2e%2e/verify", "http://other/", "", "/a//b"}) {
      assertThatThrownBy(() -> ServerClient.route(BASE, path)).as(path).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
