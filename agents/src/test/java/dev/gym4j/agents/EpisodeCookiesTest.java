package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The store of streamed episodes' cookies: a later request's own cookies win, entries expire after the time to
 * live since last use, and past the capacity the entry used the longest ago goes. Time is a clock the test moves
 * by hand. (NeMo Gym's simple_agent, responses_api_agents/simple_agent/app.py, needs no such store: it never
 * streams, so its answer's headers always carry the episode's cookies.)
 */
class EpisodeCookiesTest {
  private final AtomicLong now = new AtomicLong();

  private EpisodeCookies store(int capacity) {
    return new EpisodeCookies("Agent___a", capacity, Duration.ofMinutes(10), now::get);
  }

  @Test
  void a_request_s_own_cookies_win_over_the_kept_ones() {
    EpisodeCookies store = store(10);
    store.keep("s", Map.of("Env___e", "kept", "Model___m", "kept"));

    assertThat(store.under("s", Map.of("Env___e", "sent"))).containsExactlyInAnyOrderEntriesOf(
        Map.of("Env___e", "sent", "Model___m", "kept"));
    assertThat(store.under("unknown", Map.of("x", "1"))).containsExactlyEntriesOf(Map.of("x", "1"));
  }

  @Test
  void kept_cookies_expire_once_unused_for_the_time_to_live() {
    EpisodeCookies store = store(10);
    store.keep("s", Map.of("Env___e", "1"));
    now.addAndGet(Duration.ofMinutes(9).toNanos());
    // a use renews them
    assertThat(store.under("s", Map.of())).containsKey("Env___e");
    now.addAndGet(Duration.ofMinutes(9).toNanos());
    assertThat(store.under("s", Map.of())).containsKey("Env___e");

    now.addAndGet(Duration.ofMinutes(10).toNanos() + 1);
    assertThat(store.under("s", Map.of())).isEmpty();
    assertThat(store.size()).isZero();
  }

  @Test
  void past_the_capacity_the_entry_used_the_longest_ago_goes() {
    EpisodeCookies store = store(2);
    store.keep("a", Map.of("c", "a"));
    store.keep("b", Map.of("c", "b"));
    store.under("a", Map.of());
    store.keep("c", Map.of("c", "c"));

    assertThat(store.size()).isEqualTo(2);
    assertThat(store.under("b", Map.of())).isEmpty();
    assertThat(store.under("a", Map.of())).containsEntry("c", "a");
    assertThat(store.under("c", Map.of())).containsEntry("c", "c");
  }

  @Test
  void only_a_session_already_kept_is_replaced_by_an_unstreamed_episode() {
    EpisodeCookies store = store(10);
    store.replaceIfKept("s", Map.of("c", "1"));
    assertThat(store.size()).isZero();
    store.keep("s", Map.of("c", "1"));
    store.replaceIfKept("s", Map.of("c", "2"));
    assertThat(store.under("s", Map.of())).containsExactlyEntriesOf(Map.of("c", "2"));
  }

  @Test
  void a_store_without_room_or_time_is_refused() {
    assertThatThrownBy(() -> new EpisodeCookies("A", 0, Duration.ofSeconds(1), now::get))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EpisodeCookies("A", 1, Duration.ZERO, now::get))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
