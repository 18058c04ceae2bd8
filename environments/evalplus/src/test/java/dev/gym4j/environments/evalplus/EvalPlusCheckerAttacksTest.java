package dev.gym4j.environments.evalplus;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.CheckerAttacksTest;
import tools.jackson.databind.node.ObjectNode;

/**
 * Model code that attacks evalplus's checker (the corpus in src/test/resources/checker-attacks, on HumanEval/2)
 * scores 0. On EvalPlus's untrusted_check, which NeMo Gym uses (resources_servers/evalplus/evalplus_integration/
 * runner.py: the solution runs in the process that writes its status and per-input results to shared memory),
 * attacks 01, 02, 03, 04, 07, 09 and 11 pass.
 */
class EvalPlusCheckerAttacksTest extends CheckerAttacksTest {
  @Override
  protected String environment() {
    return "evalplus";
  }

  @Override
  protected ObjectNode row(String kind) {
    return (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": "Complete truncate_number."}]},
         "verifier_metadata": {"task_id": "HumanEval/2"}}""");
  }
}
