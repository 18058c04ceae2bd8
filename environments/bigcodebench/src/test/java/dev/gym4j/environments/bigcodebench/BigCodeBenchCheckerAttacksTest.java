package dev.gym4j.environments.bigcodebench;

import java.nio.file.Path;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.CheckerAttacksTest;
import tools.jackson.databind.node.ObjectNode;

/**
 * Model code that attacks bigcodebench's runner (the corpus in src/test/resources/checker-attacks, on
 * BigCodeBench/19, which needs only the standard library) scores 0. BigCodeBench's own untrusted_check, which
 * NeMo Gym uses (resources_servers/bigcodebench/bcb_runner.py), runs the tests in the solution's process and
 * keeps the status in shared memory that process can write.
 */
class BigCodeBenchCheckerAttacksTest extends CheckerAttacksTest {
  @Override
  protected String environment() {
    return "bigcodebench";
  }

  @Override
  protected String[] overrides() {
    return new String[] {"++bigcodebench.resources_servers.bigcodebench.gt_time_limit=3"};
  }

  @Override
  protected ObjectNode row(String kind) {
    ObjectNode row = Json.readLines(Path.of("data/example.jsonl")).stream()
        .filter(r -> r.at("/verifier_metadata/task_id").asString().equals("BigCodeBench/19"))
        .map(r -> (ObjectNode) r.deepCopy()).findFirst().orElseThrow();
    row.remove("response");
    return row;
  }
}
