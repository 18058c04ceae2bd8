package dev.gym4j.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The global client_* keys of a config, as the command line or a YAML file gives them. */
class ClientSettingsTest {
  @TempDir
  Path dir;

  private ClientSettings from(String... overrides) {
    return ClientSettings.from(new ConfigLoader(List.of(dir), Map.of()).load(List.of(overrides)));
  }

  @Test
  void withoutKeysTheDefaultsHold() {
    assertThat(from()).isEqualTo(ClientSettings.defaults());
    assertThat(ClientSettings.defaults().multiplex()).isFalse();
    assertThat(ClientSettings.defaults().maxStreamsPerUpstream()).isEqualTo(65_536);
  }

  @Test
  void everyKeyReachesItsSetting() {
    ClientSettings settings = from("+client_connect_timeout_seconds=2.5", "+client_request_timeout_seconds=90",
        "+client_max_attempts=2", "+client_initial_backoff_seconds=0.1", "+client_max_backoff_seconds=3",
        "+client_max_connections_per_upstream=64", "+client_max_streams_per_upstream=200000", "+client_http2=true");
    assertThat(settings).isEqualTo(new ClientSettings(Duration.ofMillis(2500), Duration.ofSeconds(90), 2,
        Duration.ofMillis(100), Duration.ofSeconds(3), 64, 200_000, true));
  }

  @Test
  void boundsBelowOneAreRefused() {
    assertThatThrownBy(() -> from("+client_max_streams_per_upstream=0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxStreamsPerUpstream");
  }
}
