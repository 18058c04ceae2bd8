package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gym4j view}: serves the page over the files given, on loopback, until stopped. NeMo Gym has no viewer any
 * more (ng_viewer was removed); the files are NeMo Gym's rollouts format (nemo_gym/rollout_collection.py).
 */
class ViewCommandTest {
  @TempDir
  Path dir;

  @Test
  void servesThePageOverTheGivenFileUntilStopped() throws Exception {
    Path file = dir.resolve("run.jsonl");
    Files.writeString(file, "{\"reward\": 1.0, \"_ng_task_index\": 0, \"responses_create_params\": {\"input\": \"hi\"}}\n");
    CapturedCommand command = new CapturedCommand();
    AtomicInteger exit = new AtomicInteger(-1);
    Thread running = Thread.ofPlatform().start(() -> exit.set(command.run("view", file.toString(), "--port", "0")));
    Pattern address = Pattern.compile("open (http://127\\.0\\.0\\.1:\\d+/)");
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    Matcher found = address.matcher(command.out());
    while (!found.find()) {
      assertThat(System.nanoTime()).as("the address printed within 20 s").isLessThan(deadline);
      Thread.sleep(20);
      found = address.matcher(command.out());
    }
    URI base = URI.create(found.group(1));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(base).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("gym4j view");
    running.interrupt();
    running.join(Duration.ofSeconds(20));
    assertThat(exit.get()).isZero();
  }

  @Test
  void aMissingFileIsAUsageError() {
    CapturedCommand command = new CapturedCommand();
    assertThat(command.run("view", dir.resolve("none.jsonl").toString())).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).contains("not a readable file").contains("none.jsonl");
  }
}
