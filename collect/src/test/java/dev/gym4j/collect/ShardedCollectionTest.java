package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A collection split into shards by task index (one Kubernetes Job pod each), a shard resumed after its pod
 * was killed mid-write, and the shards merged. Task and rollout indexes are NeMo Gym's
 * ({@code nemo_gym/rollout_collection.py}: {@code _ng_task_index}, {@code _ng_rollout_index}); NeMo Gym has
 * no sharding, so the merged file is compared with an unsharded run of the same input.
 */
class ShardedCollectionTest {
  @TempDir
  Path dir;

  private CollectOptions shard(int index, int count, boolean resume) {
    return new CollectOptions(WeatherDeployment.AGENT, WeatherDeployment.EXAMPLE,
        dir.resolve("shards/run-" + index + ".jsonl"), 2, 4, 0, resume, null, 3)
        .withShard(new CollectOptions.Shard(index, count));
  }

  @Test
  void shardsTakeDisjointTasksAndMergeToExactlyOncePairs() throws IOException {
    List<Path> files = new ArrayList<>();
    try (WeatherDeployment weather = new WeatherDeployment()) {
      for (int index = 0; index < 3; index++) {
        RolloutCollector.Summary summary = weather.collect(shard(index, 3, false));
        assertThat(summary.missing()).isZero();
        files.add(shard(index, 3, false).output());
      }
      // shard 1 of 3 holds tasks 1 and 4; its pod dies after one and a half rollouts and is restarted
      Path restarted = files.get(1);
      List<String> lines = Files.readAllLines(restarted);
      assertThat(Json.readLines(restarted)).extracting(r -> r.get("_ng_task_index").asInt()).containsOnly(1, 4);
      Files.writeString(restarted, lines.getFirst() + "\n" + lines.get(1).substring(0, 30));
      int callsBefore = weather.model.calls();
      RolloutCollector.Summary resumed = weather.collect(shard(1, 3, true));
      assertThat(resumed.alreadyDone()).isEqualTo(1);
      assertThat(resumed.succeeded()).isEqualTo(3);
      assertThat(weather.model.calls() - callsBefore).isEqualTo(2 * 3);
    }
    // the same shard named twice, as a careless glob would: its pairs are kept once
    List<Path> named = new ArrayList<>(files);
    named.add(files.get(2));
    Path merged = dir.resolve("merged.jsonl");
    ShardMerge.Result result = ShardMerge.merge(named, merged);

    List<JsonNode> rows = Json.readLines(merged);
    assertThat(result.rows()).isEqualTo(10);
    assertThat(result.duplicates()).isEqualTo(Json.readLines(files.get(2)).size());
    assertThat(rows).extracting(TaskRows::key).containsExactly("0:0", "0:1", "1:0", "1:1", "2:0", "2:1", "3:0",
        "3:1", "4:0", "4:1");
    assertThat(rows).allSatisfy(row -> assertThat(row.get("reward").asDouble()).isEqualTo(1.0));
    JsonNode metrics = Json.parse(Files.readString(dir.resolve("merged_aggregate_metrics.json"))).get(0);
    assertThat(metrics.at("/agent_metrics/num_tasks").asInt()).isEqualTo(5);
  }

  @Test
  void aShardIsIndexOverCountWithinRange() {
    assertThat(CollectOptions.Shard.parse("2/8")).isEqualTo(new CollectOptions.Shard(2, 8));
    assertThat(new CollectOptions.Shard(2, 8).includes(10)).isTrue();
    assertThat(new CollectOptions.Shard(2, 8).includes(11)).isFalse();
    assertThatThrownBy(() -> CollectOptions.Shard.parse("8/8")).hasMessageContaining("0 <= INDEX < COUNT");
    assertThatThrownBy(() -> CollectOptions.Shard.parse("two")).hasMessageContaining("like 2/8");
  }

  @Test
  void mergeRefusesRowsThatAreNotRollouts() throws IOException {
    Path bogus = Files.writeString(dir.resolve("bogus.jsonl"), "{\"reward\": 1}\n");
    assertThatThrownBy(() -> ShardMerge.merge(List.of(bogus), dir.resolve("m.jsonl")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("_ng_task_index");
  }
}
