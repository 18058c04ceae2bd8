package dev.gym4j.models;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import dev.gym4j.json.Json;
import dev.gym4j.model.ModelServer;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code test_many_deltas}: a model server whose live Responses stream is one message of {@code delta_count}
 * {@code response.output_text.delta} events of {@code delta_chars} characters each ({@link #delta}), as fast as
 * whoever takes them allows. It counts what it produced and says how its source ended, for one test at a time.
 */
@Implementation("test_many_deltas")
public final class ManyDeltasModel extends ModelServer {
  /** Deltas the source has handed on so far. */
  static final AtomicLong PRODUCED = new AtomicLong();
  /** How the source ended: null when it sent everything, else what stopped it. */
  static volatile CompletableFuture<Throwable> ended = new CompletableFuture<>();

  static void reset() {
    PRODUCED.set(0);
    ended = new CompletableFuture<>();
  }

  /** The {@code i}-th delta: its number, then padding, so that order and loss both show. */
  static String delta(int i, int chars) {
    String number = String.format("%08d|", i);
    return number + "x".repeat(Math.max(0, chars - number.length()));
  }

  private int count() {
    return context().config().path("delta_count").asInt(10);
  }

  private int chars() {
    return context().config().path("delta_chars").asInt(16);
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count(); i++) {
      text.append(delta(i, chars()));
    }
    return Response.of(response("completed", text.toString()));
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    throw new UnsupportedOperationException("test_many_deltas answers Responses only");
  }

  @Override
  protected Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    int count = count();
    int chars = chars();
    CompletableFuture<Throwable> end = ended;
    return Optional.of(ServerSentEvents.stream(sink -> {
      try {
        sink.send(null, Json.object().put("type", "response.created").set("response", response("in_progress", null)));
        ObjectNode added = Json.object().put("type", "response.output_item.added").put("output_index", 0);
        added.set("item", message("in_progress", ""));
        sink.send(null, added);
        ObjectNode part = Json.object().put("type", "response.content_part.added").put("item_id", "msg_1")
            .put("output_index", 0).put("content_index", 0);
        part.putObject("part").put("type", "output_text").put("text", "").putArray("annotations");
        sink.send(null, part);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
          String delta = delta(i, chars);
          text.append(delta);
          sink.send(null, Json.object().put("type", "response.output_text.delta").put("item_id", "msg_1")
              .put("output_index", 0).put("content_index", 0).put("delta", delta));
          PRODUCED.incrementAndGet();
        }
        ObjectNode done = Json.object().put("type", "response.output_item.done").put("output_index", 0);
        done.set("item", message("completed", text.toString()));
        sink.send(null, done);
        sink.send(null, Json.object().put("type", "response.completed")
            .set("response", response("completed", text.toString())));
        end.complete(null);
      } catch (IOException | RuntimeException e) {
        end.complete(e);
        throw e;
      }
    }));
  }

  private ObjectNode response(String status, String text) {
    ObjectNode response = Json.object().put("id", "resp_1").put("object", "response").put("created_at", 1)
        .put("model", "many").put("status", status);
    var output = response.putArray("output");
    if (text != null) {
      output.add(message("completed", text));
      response.putObject("usage").put("input_tokens", 3).put("output_tokens", count())
          .put("total_tokens", 3 + count());
    }
    return response;
  }

  private static ObjectNode message(String status, String text) {
    ObjectNode item = Json.object().put("id", "msg_1").put("type", "message").put("role", "assistant")
        .put("status", status);
    var content = item.putArray("content");
    if (!text.isEmpty()) {
      content.addObject().put("type", "output_text").put("text", text).putArray("annotations");
    }
    return item;
  }
}
