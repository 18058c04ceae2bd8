package dev.gym4j.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the {@link ScriptedUpstream} answers to one model call: text, reasoning, tool calls and a finish
 * reason, or a failure (an HTTP error, a dropped connection, a context-length error), after an optional
 * delay.
 */
public final class Answer {
  /** A tool call the scripted model makes. */
  public record ToolCall(String name, String arguments) {}

  /** Where the token ids go in a training-mode chat answer. */
  public enum TokenIds {
    /** In the {@code token_id:N} log-prob tokens, with the prompt from {@code /tokenize} (vLLM's default). */
    LOGPROBS,
    /** Also as {@code prompt_token_ids} and {@code choices[0].token_ids} (vLLM's {@code return_token_ids}). */
    ON_RESPONSE,
    /** As a bundle on the message, as NeMo RL's vLLM server can return them. */
    ON_MESSAGE
  }

  final String text;
  final String reasoning;
  final List<ToolCall> toolCalls;
  final String finishReason;
  final Duration latency;
  final int errorStatus;
  final String errorBody;
  final boolean drop;
  final TokenIds tokenIds;
  final tools.jackson.databind.node.ArrayNode items;

  private Answer(String text, String reasoning, List<ToolCall> toolCalls, String finishReason, Duration latency,
      int errorStatus, String errorBody, boolean drop, TokenIds tokenIds) {
    this(text, reasoning, toolCalls, finishReason, latency, errorStatus, errorBody, drop, tokenIds, null);
  }

  private Answer(String text, String reasoning, List<ToolCall> toolCalls, String finishReason, Duration latency,
      int errorStatus, String errorBody, boolean drop, TokenIds tokenIds, tools.jackson.databind.node.ArrayNode items) {
    this.text = text;
    this.reasoning = reasoning;
    this.toolCalls = List.copyOf(toolCalls);
    this.finishReason = finishReason;
    this.latency = latency;
    this.errorStatus = errorStatus;
    this.errorBody = errorBody;
    this.drop = drop;
    this.tokenIds = tokenIds;
    this.items = items;
  }

  /**
   * Recorded Responses output items, answered verbatim on {@code /v1/responses} (to replay a recorded
   * rollout through the live agent loop).
   */
  public static Answer output(tools.jackson.databind.node.ArrayNode items) {
    return new Answer(null, null, List.of(), null, Duration.ZERO, 0, null, false, TokenIds.LOGPROBS, items);
  }

  public static Answer text(String text) {
    return new Answer(text, null, List.of(), null, Duration.ZERO, 0, null, false, TokenIds.LOGPROBS);
  }

  /** A turn that only calls a tool (no text). */
  public static Answer toolCall(String name, String arguments) {
    return new Answer(null, null, List.of(new ToolCall(name, arguments)), null, Duration.ZERO, 0, null, false,
        TokenIds.LOGPROBS);
  }

  /** An HTTP error with a body, as OpenAI or vLLM send them. */
  public static Answer error(int status, String body) {
    return new Answer(null, null, List.of(), null, Duration.ZERO, status, body, false, TokenIds.LOGPROBS);
  }

  /** The connection is closed without a response. */
  public static Answer drop() {
    return new Answer(null, null, List.of(), null, Duration.ZERO, 0, null, true, TokenIds.LOGPROBS);
  }

  /** vLLM's 400 for a prompt longer than the model's context. */
  public static Answer contextLengthExceeded() {
    return error(400, "{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens. "
        + "However, you requested 5000 tokens in the messages, Please reduce the length of the messages.\","
        + "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}");
  }

  public Answer withText(String newText) {
    return new Answer(newText, reasoning, toolCalls, finishReason, latency, errorStatus, errorBody, drop, tokenIds);
  }

  public Answer withReasoning(String newReasoning) {
    return new Answer(text, newReasoning, toolCalls, finishReason, latency, errorStatus, errorBody, drop, tokenIds);
  }

  public Answer withToolCall(String name, String arguments) {
    List<ToolCall> calls = new ArrayList<>(toolCalls);
    calls.add(new ToolCall(name, arguments));
    return new Answer(text, reasoning, calls, finishReason, latency, errorStatus, errorBody, drop, tokenIds);
  }

  public Answer withFinishReason(String reason) {
    return new Answer(text, reasoning, toolCalls, reason, latency, errorStatus, errorBody, drop, tokenIds);
  }

  public Answer after(Duration delay) {
    return new Answer(text, reasoning, toolCalls, finishReason, delay, errorStatus, errorBody, drop, tokenIds);
  }

  public Answer withTokenIds(TokenIds where) {
    return new Answer(text, reasoning, toolCalls, finishReason, latency, errorStatus, errorBody, drop, where);
  }

  String finishReasonOrDefault() {
    return finishReason != null ? finishReason : toolCalls.isEmpty() ? "stop" : "tool_calls";
  }
}
