package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.client.HttpReply;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model server given a broken upstream answer or a bad request field (issue 14, item 7): a 502 for the
 * upstream's fault, a 4xx naming the field for the caller's, and never a body naming a Java class.
 */
class MalformedUpstreamTest {
  @TempDir
  Path dir;
  ScriptedUpstream upstream;
  ModelHarness model;

  @BeforeEach
  void start() {
    upstream = ScriptedUpstream.start();
  }

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
    upstream.close();
  }

  private void vllm() {
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: sk-test
        model: m
        return_token_id_information: false
        uses_reasoning_parser: true
        """.formatted(upstream.baseUrl()));
  }

  private static void assertNoClassName(HttpReply reply) {
    assertThat(reply.text()).doesNotContainPattern("[A-Z][A-Za-z]*(Exception|Error)\\b");
  }

  @Test
  void chat_usage_of_the_wrong_type_is_a_502() {
    vllm();
    // a 200 with a body of our choosing: usage counts that are not numbers
    upstream.enqueue(Answer.error(200, """
        {"id": "c", "object": "chat.completion", "created": 1, "model": "m",
         "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}],
         "usage": {"prompt_tokens": "many", "completion_tokens": {"a": 1}, "total_tokens": [1]}}"""));
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertNoClassName(reply);
  }

  @Test
  void responses_usage_of_the_wrong_type_is_a_502() {
    model = new ModelHarness(dir, "openai_model", """
        openai_base_url: %s
        openai_api_key: sk-test
        openai_model: gpt
        """.formatted(upstream.baseUrl()));
    upstream.enqueue(Answer.error(200, """
        {"id": "r", "object": "response", "created_at": 1, "status": "completed", "model": "gpt",
         "output": [], "usage": {"input_tokens": "x", "output_tokens": null, "total_tokens": {}}}"""));
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertNoClassName(reply);
  }

  @Test
  void bad_chat_template_kwargs_are_a_4xx_naming_the_field() {
    vllm();
    for (String body : new String[] {
        "{\"input\": \"hi\", \"metadata\": {\"chat_template_kwargs\": \"[1, 2]\"}}",
        "{\"input\": \"hi\", \"metadata\": {\"chat_template_kwargs\": \"{not json\"}}",
        "{\"input\": \"hi\", \"metadata\": {\"chat_template_kwargs\": {\"enable_thinking\": false}}}",
        "{\"input\": \"hi\", \"metadata\": {\"extra_body\": 5}}"}) {
      HttpReply reply = model.post("/v1/responses", body);
      assertThat(reply.status()).as(body).isBetween(400, 499);
      assertThat(reply.text()).as(body).contains("metadata");
      assertNoClassName(reply);
    }
  }

  /** Issue 31, defect 6: a chat tool call whose {@code name} or {@code arguments} is an object gave a 500. */
  @Test
  void a_tool_call_whose_name_or_arguments_is_an_object_is_a_502_naming_the_field_issue_31() {
    vllm();
    for (String field : new String[] {"name", "arguments"}) {
      String function = field.equals("name") ? "{\"name\": {\"a\": 1}, \"arguments\": \"{}\"}"
          : "{\"name\": \"f\", \"arguments\": {\"a\": 1}}";
      upstream.enqueue(Answer.error(200, """
          {"id": "c", "object": "chat.completion", "created": 1, "model": "m",
           "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
             "tool_calls": [{"id": "t1", "type": "function", "function": %s}]}}]}""".formatted(function)));
      HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
      assertThat(reply.status()).as(field).isEqualTo(502);
      assertThat(reply.text()).as(field).contains("tool_calls.0.function." + field)
          .contains("Input should be a valid string");
      assertNoClassName(reply);
    }
  }

  /** Issue 31, defect 6: {@code max_tokens: 2**70} on {@code /v1/messages} gave a 500. */
  @Test
  void max_tokens_past_a_long_on_messages_is_a_4xx_naming_it_issue_31() {
    vllm();
    HttpReply reply = model.post("/v1/messages", "{\"model\": \"m\", \"max_tokens\": 1180591620717411303424, "
        + "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.text()).contains("max_tokens").doesNotContain("long", "java", "Node");
    assertThat(upstream.calls()).isZero();
  }

  /** Issue 31, defect 6: an upstream answer past the bound fails the call (502) rather than fill the heap. */
  @Test
  void an_upstream_answer_past_the_bound_is_a_502_issue_31() {
    vllm();
    String padding = "x".repeat(1 << 20);
    StringBuilder content = new StringBuilder();
    for (int i = 0; i < 65; i++) {
      content.append(padding);
    }
    upstream.enqueue(Answer.text(content.toString()));
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.text()).contains("answered more than");
    assertNoClassName(reply);
  }
}
