package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** NeMo Gym's row expansion settings ({@code nemo_gym/rollout_collection.py}, {@code nemo_gym/prompt.py}). */
class TaskRowsTest {
  @TempDir
  Path dir;

  private CollectOptions options(Path input, Map<String, Integer> byAgent, boolean seed, Path prompt) {
    return new CollectOptions(null, input, dir.resolve("o.jsonl"), 1, 1, 0, false, null, 3, byAgent, seed, prompt,
        true, null);
  }

  @Test
  void num_repeats_per_agent_with_a_default() throws Exception {
    Path input = write("{\"responses_create_params\": {\"input\": \"a\"}, \"agent_ref\": {\"name\": \"big\"}}",
        "{\"responses_create_params\": {\"input\": \"b\"}, \"agent_ref\": {\"name\": \"small\"}}");
    List<ObjectNode> rows = TaskRows.expand(options(input, Map.of("big", 3, "_default", 1), false, null));
    assertThat(rows).extracting(TaskRows::key).containsExactly("0:0", "0:1", "0:2", "1:0");
    assertThatThrownBy(() -> TaskRows.expand(options(input, Map.of("big", 3), false, null)))
        .isInstanceOf(ConfigException.class).hasMessageContaining("num_repeats has no entry for agent small");
  }

  @Test
  void num_repeats_add_seed_puts_the_rollout_index_in_metadata_extra_body() throws Exception {
    Path input = write("{\"responses_create_params\": {\"input\": \"a\", \"metadata\": {\"extra_body\": "
        + "\"{\\\"top_k\\\": 5}\"}}, \"agent_ref\": {\"name\": \"x\"}}");
    List<ObjectNode> rows = TaskRows.expand(options(input, Map.of("x", 2), true, null));
    assertThat(rows).extracting(row -> Json.parse(row.at("/responses_create_params/metadata/extra_body").asString()))
        .containsExactly(Json.parse("{\"top_k\": 5, \"seed\": 0}"), Json.parse("{\"top_k\": 5, \"seed\": 1}"));
  }

  @Test
  void prompt_config_builds_the_input_from_row_fields() throws Exception {
    Path prompt = dir.resolve("prompt.yaml");
    Files.writeString(prompt, "system: Answer in {language}.\nuser: \"What is {a} + {b}? Use {{braces}}.\"\n");
    Path input = write("{\"a\": 2, \"b\": 3, \"language\": \"French\", \"agent_ref\": {\"name\": \"x\"}}");
    ObjectNode row = TaskRows.expand(options(input, Map.of(), false, prompt)).getFirst();
    assertThat(row.at("/responses_create_params/input")).isEqualTo(Json.parse("[{\"role\": \"system\", \"content\": "
        + "\"Answer in French.\"}, {\"role\": \"user\", \"content\": \"What is 2 + 3? Use {braces}.\"}]"));

    Path withInput = write("{\"responses_create_params\": {\"input\": \"q\"}, \"a\": 1, \"b\": 2, \"language\": \"x\", "
        + "\"agent_ref\": {\"name\": \"x\"}}");
    assertThatThrownBy(() -> TaskRows.expand(options(withInput, Map.of(), false, prompt)))
        .hasMessageContaining("line 1 has responses_create_params.input, and prompt_config builds it");
    Path missingField = write("{\"a\": 1, \"agent_ref\": {\"name\": \"x\"}}");
    assertThatThrownBy(() -> TaskRows.expand(options(missingField, Map.of(), false, prompt)))
        .hasMessageContaining("prompt_config refers to {language}");
  }

  private Path write(String... lines) throws Exception {
    Path file = Files.createTempFile(dir, "rows", ".jsonl");
    Files.write(file, List.of(lines));
    return file;
  }
}
