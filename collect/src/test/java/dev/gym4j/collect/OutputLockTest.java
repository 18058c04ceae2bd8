package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 31, defect 8: two collectors on one output file wrote 502 duplicate rows. The first collector holds the
 * output's lock for its whole run; a second one, in this JVM or in another process, stops at once with one line and
 * writes nothing.
 */
class OutputLockTest {
  @TempDir
  Path dir;

  private CollectOptions options() {
    return new CollectOptions(WeatherDeployment.AGENT, WeatherDeployment.EXAMPLE, dir.resolve("out/run.jsonl"), 2, 4,
        0, false, null, 3);
  }

  @Test
  void a_second_collector_on_the_same_output_stops_while_the_first_runs() throws Exception {
    CountDownLatch modelCalled = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (WeatherDeployment weather = new WeatherDeployment()) {
      weather.model.otherwise(request -> {
        modelCalled.countDown();
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return WeatherDeployment.weatherTurn(request);
      });
      CompletableFuture<RolloutCollector.Summary> first = CompletableFuture.supplyAsync(() -> weather.collect(options()));
      assertThat(modelCalled.await(60, TimeUnit.SECONDS)).isTrue();
      long outputBefore = Files.size(dir.resolve("out/run.jsonl"));

      assertThatThrownBy(() -> weather.collect(options())).isInstanceOf(ConfigException.class)
          .hasMessage("another collector is writing " + dir.resolve("out/run.jsonl")
              + " (it holds run.jsonl.lock); wait for it to finish, or give another --output");
      assertThat(Files.size(dir.resolve("out/run.jsonl"))).isEqualTo(outputBefore);

      release.countDown();
      assertThat(first.get(120, TimeUnit.SECONDS).succeeded()).isEqualTo(10);
      // the lock ends with the run: the next collector runs (and finds everything done)
      assertThat(weather.collect(options().withResume(true, true)).alreadyDone()).isEqualTo(10);
    }
    List<JsonNode> rows = Json.readLines(dir.resolve("out/run.jsonl"));
    assertThat(rows).hasSize(10);
    assertThat(rows.stream().map(TaskRows::key).distinct()).hasSize(10);
  }

  @Test
  void a_collector_in_another_process_holding_the_output_stops_this_one() throws Exception {
    Path output = dir.resolve("out/run.jsonl");
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), OutputLockHolder.class.getName(), output.toString())
        .redirectErrorStream(true).start();
    try (WeatherDeployment weather = new WeatherDeployment()) {
      BufferedReader said = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(said.readLine()).isEqualTo("locked");
      assertThatThrownBy(() -> weather.collect(options())).isInstanceOf(ConfigException.class)
          .hasMessageContaining("another collector is writing");
      assertThat(output).doesNotExist();

      holder.getOutputStream().close();
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(weather.collect(options()).succeeded()).isEqualTo(10);
    } finally {
      holder.destroyForcibly();
    }
  }
}
