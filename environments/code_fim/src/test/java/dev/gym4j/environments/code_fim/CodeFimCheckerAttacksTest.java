package dev.gym4j.environments.code_fim;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.CheckerAttacksTest;
import tools.jackson.databind.node.ObjectNode;

/**
 * Model code that attacks code_fim's checker (the corpus in src/test/resources/checker-attacks, on
 * RandomSpanInfilling/HumanEval/2/1, whose prefix ends with "return num" and suffix is "% 1.0") scores 0. On
 * HumanEval-Infilling's check_correctness, which NeMo Gym uses (resources_servers/code_fim/
 * human_eval_infilling_integration/runner.py: the program runs in the process that appends its result to a shared
 * list), attacks like 01, 02 and 09 pass.
 */
class CodeFimCheckerAttacksTest extends CheckerAttacksTest {
  @Override
  protected String environment() {
    return "code_fim";
  }

  @Override
  protected ObjectNode row(String kind) {
    return (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": "Fill in the middle."}]},
         "verifier_metadata": {"task_id": "RandomSpanInfilling/HumanEval/2/1"}}""");
  }
}
