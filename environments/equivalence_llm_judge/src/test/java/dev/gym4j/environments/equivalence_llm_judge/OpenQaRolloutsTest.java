package dev.gym4j.environments.equivalence_llm_judge;

import java.util.List;

import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.RecordedRolloutsTest;
import dev.gym4j.testkit.Replay;
import tools.jackson.databind.JsonNode;

/**
 * NeMo Gym's OpenQA rollouts (resources_servers/equivalence_llm_judge/data/example_rollouts_openqa.jsonl):
 * rows with a per-row answer regex, recorded with the swap check and the whole-answer second look on, so
 * every row made two judge calls; the recorded verdicts are replayed.
 */
class OpenQaRolloutsTest extends RecordedRolloutsTest {
  private static final String SERVER = "++equivalence_llm_judge.resources_servers.equivalence_llm_judge.";

  @Override
  protected String environment() {
    return "equivalence_llm_judge";
  }

  @Override
  protected List<String> rolloutFiles() {
    return List.of("example_rollouts_openqa.jsonl");
  }

  @Override
  protected String taskFile() {
    return "example_openqa.jsonl";
  }

  @Override
  protected String[] overrides() {
    return new String[] {SERVER + "check_twice_swap=true", SERVER + "check_full_generation_on_fail=true",
        SERVER + "extraction_length_threshold=120"};
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return Replay.judgeAnswers(recorded);
  }
}
