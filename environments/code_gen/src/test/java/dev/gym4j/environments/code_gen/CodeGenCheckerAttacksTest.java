package dev.gym4j.environments.code_gen;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.CheckerAttacksTest;
import tools.jackson.databind.node.ObjectNode;

/**
 * Model code that attacks code_gen's checker (the corpus in src/test/resources/checker-attacks) scores 0. On
 * LiveCodeBench's runner, which NeMo Gym uses (resources_servers/code_gen/lcb_integration/testing_util.py and
 * compute_code_generation_metrics.py: the solution runs in the process that collects its results), attacks 01, 02,
 * 03, 04, 08, 09 and 10 pass.
 */
class CodeGenCheckerAttacksTest extends CheckerAttacksTest {
  @Override
  protected String environment() {
    return "code_gen";
  }

  @Override
  protected String[] overrides() {
    return new String[] {"++code_gen.resources_servers.code_gen.unit_test_timeout_secs=2"};
  }

  @Override
  protected ObjectNode row(String kind) {
    String tests = kind.equals("call")
        ? "{\"inputs\": [\"1\\n2\", \"3\\n4\"], \"outputs\": [\"3\", \"7\"], \"fn_name\": \"add\"}"
        : "{\"inputs\": [\"1 2\\n\", \"3 4\\n\"], \"outputs\": [\"3\\n\", \"7\\n\"], \"fn_name\": null}";
    return (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": "Add two numbers."}]},
         "verifier_metadata": {"unit_tests": %s}}""".formatted(tests));
  }
}
