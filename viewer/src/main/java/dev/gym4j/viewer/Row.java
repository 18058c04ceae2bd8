package dev.gym4j.viewer;

import java.util.List;

import tools.jackson.databind.node.ObjectNode;

/**
 * What the viewer keeps of one line of a rollouts file (or of its failures file): where the line is, and the few
 * fields the overview, the table and the compare view read. The line itself stays on disk until a page asks for it.
 *
 * @param failures whether the line is in the failures file ({@code <stem>_failures.jsonl}) rather than the rollouts
 * @param reward NaN when the row has none (a failure)
 * @param task the key that groups the repeats of a task: {@code #<_ng_task_index>}, or a hash of the prompt in
 *     files without the index (NeMo Gym's older files)
 * @param rollout {@code _ng_rollout_index}, -1 when absent
 * @param failureClass {@code _ng_failure_class}, null for a rollout that finished
 * @param inputTokens -1 when the row reports no usage (also {@code outputTokens})
 * @param turns model turns: runs of output items between tool outputs
 * @param slim the row's numeric top-level fields, usage and indexes: enough for {@code AggregateMetrics}
 */
record Row(int index, boolean failures, long offset, int length, double reward, String task, String prompt,
    int rollout, String agent, String failureClass, List<String> tools, int inputTokens, int outputTokens, int turns,
    ObjectNode slim) {

  boolean scored() {
    return !Double.isNaN(reward);
  }
}
