package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 31, defect 2, on the agents: an agent's {@code /aggregate_metrics} (computed by simple_agent, passed to the
 * environment by non_executing_simple_agent) is bounded as the environment's is, by the agent's own
 * {@code aggregate_metrics_max_rows}.
 */
class AgentAggregateMetricsTest {
  @TempDir
  Path dir;
  Deployment deployment;

  @BeforeEach
  void start() {
    // no model: these tests call only aggregate_metrics
    deployment = AgentDeployments.deploy(dir, AgentDeployments.resources("counter", "test_counter"),
        AgentDeployments.openAiModel("\"http://127.0.0.1:9/v1\""),
        AgentDeployments.agent("computing", "simple_agent", "counter", "aggregate_metrics_max_rows: 10"),
        AgentDeployments.agent("passing", "non_executing_simple_agent", "counter",
            "aggregate_metrics_max_rows: 10"));
  }

  @AfterEach
  void stop() {
    deployment.close();
  }

  private static ObjectNode rows(int n) {
    ObjectNode body = Json.object();
    ArrayNode rows = body.putArray("verify_responses");
    for (int i = 0; i < n; i++) {
      rows.addObject().put("_ng_task_index", 0).put("reward", i % 2);
    }
    return body;
  }

  @Test
  void both_kinds_of_agent_answer_within_the_limit_and_refuse_past_it() {
    for (String agent : new String[] {"computing", "passing"}) {
      HttpReply within = deployment.client().post(agent, "/aggregate_metrics", rows(10), Map.of());
      assertThat(within.status()).as(agent + ": " + within.text()).isEqualTo(200);
      assertThat(within.json().at("/agent_metrics/pass@10~1accuracy").asDouble()).isEqualTo(100.0);
      HttpReply past = deployment.client().post(agent, "/aggregate_metrics", rows(11), Map.of());
      assertThat(past.status()).as(agent).isEqualTo(413);
      assertThat(past.json().get("detail").asString()).contains("more than 10 rows", "aggregate_metrics_max_rows");
    }
  }
}
