package dev.gym4j.collect.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Dataset profiles as NeMo Gym computes them ({@code nemo_gym/train_data_utils.py}): every environment's
 * {@code data/example_metrics.json} is the file NeMo Gym committed for the same {@code example.jsonl}
 * ({@code resources_servers/<env>/data/example_metrics.json}), and ours must agree with it.
 */
class DatasetProfileTest {
  @TempDir
  Path dir;

  @Test
  void every_committed_nemo_gym_profile_is_reproduced() throws IOException {
    List<Path> profiles;
    try (Stream<Path> envs = Files.list(Fixtures.projectRoot().resolve("environments"))) {
      profiles = envs.map(env -> env.resolve("data/example_metrics.json")).filter(Files::exists).toList();
    }
    assertThat(profiles).hasSizeGreaterThanOrEqualTo(15);
    java.util.Map<String, List<String>> differing = new java.util.TreeMap<>();
    for (Path profile : profiles) {
      DatasetValidator.Report report = DatasetValidator.validate(profile.resolveSibling("example.jsonl"), null, false,
          DatasetValidator.MetricsFile.CHECK_ONLY, null);
      if (!report.differences().isEmpty()) {
        differing.put(profile.getParent().getParent().getFileName().toString(), report.differences());
      }
    }
    assertThat(differing).isEqualTo(STALE);
  }

  /**
   * Profiles NeMo Gym committed that its own code does not give for the rows beside them. example_mcp_weather's
   * (NeMo Gym 713359724) says 27 words per row, but {@code json.dumps} of each row's responses_create_params, which
   * train_data_utils.py counts, has 24 words (every row is one user message and {@code "tools": []}); the other
   * figures agree.
   */
  private static final java.util.Map<String, List<String>> STALE = java.util.Map.of("example_mcp_weather", List.of(
      "Json-dumped number of words (proxy for token count).Average: 27.0 in the file, 24.0 now",
      "Json-dumped number of words (proxy for token count).Min: 27.0 in the file, 24.0 now",
      "Json-dumped number of words (proxy for token count).Max: 27.0 in the file, 24.0 now"));

  @Test
  void the_word_count_is_that_of_pythons_json_dumps() {
    // json.dumps({"input": "What is the weather?", "tools": []}) == '{"input": "What is the weather?", "tools": []}'
    assertThat(DatasetStats.pythonWords(Json.parse("{\"input\": \"What is the weather?\", \"tools\": []}"))).isEqualTo(7);
    assertThat(DatasetStats.pythonWords(Json.parse("{\"a\": \"x\\ny\"}"))).isEqualTo(2);
  }

  @Test
  void a_profile_is_written_when_missing_and_never_changed_when_it_differs() throws IOException {
    Path data = dir.resolve("example.jsonl");
    Files.writeString(data, "{\"responses_create_params\": {\"input\": \"one two\", \"temperature\": 0.5}, \"k\": 3}\n");
    DatasetValidator.Report first = DatasetValidator.validate(data, null);
    assertThat(first.metricsStatus()).isEqualTo("written");
    JsonNode written = Json.parse(Files.readString(first.metrics()));
    assertThat(written.at("/Number of examples").asInt()).isEqualTo(1);
    assertThat(written.at("/Temperature/Average").asDouble()).isEqualTo(0.5);
    assertThat(written.at("/k/Max").asDouble()).isEqualTo(3.0);

    Files.writeString(data, "{\"responses_create_params\": {\"input\": \"one two three\"}}\n");
    String before = Files.readString(first.metrics());
    DatasetValidator.Report second = DatasetValidator.validate(data, null);
    assertThat(second.metricsStatus()).isEqualTo("differs");
    assertThat(second.differences()).anySatisfy(d -> assertThat(d).startsWith("Temperature.Total # non-null values: 1 in "
        + "the file, 0 now"));
    assertThat(Files.readString(first.metrics())).isEqualTo(before);

    DatasetValidator.Report replaced = DatasetValidator.validate(data, null, true,
        DatasetValidator.MetricsFile.OVERWRITE, null);
    assertThat(replaced.metricsStatus()).isEqualTo("overwritten");
    assertThat(Files.readString(first.metrics())).isNotEqualTo(before);
  }
}
