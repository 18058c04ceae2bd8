package dev.gym4j.model;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.Reply;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.AnthropicMessages;
import dev.gym4j.wire.AnthropicEvents;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/messages}, the Anthropic Messages API, on a server that answers Responses: the request is
 * mapped to Responses params, answered by the server's own {@code responses}, and mapped back (NeMo Gym's
 * {@code SimpleResponsesAPIModel.messages}). Failures get Anthropic's error body
 * {@code {"type": "error", "error": {"type", "message"}}}: bad input a 400 naming the field, an upstream's
 * failure 502 or 504.
 *
 * <p>With {@code "stream": true} the answer is Anthropic's server-sent events. A server that streams live (a model
 * server whose upstream streams, an agent that streams its episode) has its Responses events turned into
 * Anthropic's as they come ({@link AnthropicEvents}). Otherwise {@code message_start} goes out at once and a
 * {@code ping} every {@link #PING_EVERY} while the answer is made (an agent's episode can take minutes), then the
 * content blocks, {@code message_delta} and {@code message_stop}. Either way a failure after the first event is
 * an {@code error} event, and a reader that leaves cancels the work.
 */
public final class MessagesRoute {
  private static final Logger LOG = LoggerFactory.getLogger(MessagesRoute.class);
  static final Duration PING_EVERY = Duration.ofSeconds(5);
  /** The longest a streamed answer is waited for; the work's own deadlines normally end it first. */
  static final Duration LONGEST = Duration.ofHours(2);
  private static final ExecutorService WORKERS = Executors.newVirtualThreadPerTaskExecutor();

  private MessagesRoute() {}

  /** The route's answer; {@code responses} answers Responses params with a Response, a Reply or a JSON object. */
  public static Object handle(Call call, Function<ResponseCreateParams, Object> responses) {
    return handle(call, responses, params -> null, Live.DELTAS);
  }

  /** How a live Responses stream becomes Anthropic's events ({@link AnthropicEvents}). */
  public enum Live {
    /** Text and thinking delta by delta: a model server whose answers carry no token ids. */
    DELTAS,
    /** Each item's blocks whole when it is done, token ids included: a model server whose answers carry them. */
    ITEMS,
    /** As {@link #ITEMS}, for an agent's episode: an error event keeps the failure class. */
    EPISODE
  }

  /**
   * As {@link #handle(Call, Function)}; a streamed answer comes from {@code live} when it gives a Responses event
   * stream (null when the server cannot stream live; a failed Reply keeps its status), turned into Anthropic's
   * events as it goes, as {@code how} says.
   */
  public static Object handle(Call call, Function<ResponseCreateParams, Object> responses,
      Function<ResponseCreateParams, Object> live, Live how) {
    ObjectNode body;
    ResponseCreateParams params;
    try {
      body = call.bodyObject();
      params = AnthropicMessages.toResponses(body);
    } catch (FieldError e) {
      return Reply.of(400, AnthropicMessages.errorBody("invalid_request_error", e.toString()));
    }
    String model = body.get("model").asString();
    String id = "msg_" + UUID.randomUUID().toString().replace("-", "");
    if (body.path("stream").asBoolean(false)) {
      Object events;
      try {
        events = live.apply(params);
      } catch (FieldError | UpstreamException | RolloutFailure e) {
        return failure(e);
      }
      if (events instanceof Reply reply && reply.status() >= 400) {
        return failed(reply);
      }
      if (events instanceof ServerSentEvents.Stream upstream) {
        return ServerSentEvents.stream(sink -> relay(sink, upstream, queue -> switch (how) {
          case DELTAS -> AnthropicEvents.live(queue, id, model);
          case ITEMS -> AnthropicEvents.itemByItem(queue, id, model, null);
          case EPISODE -> AnthropicEvents.itemByItem(queue, id, model, AgentServer.FAILURE_CLASS);
        }));
      }
      Object answer = events;
      return ServerSentEvents.stream(sink -> stream(sink, id, model, answer != null ? () -> answer
          : () -> responses.apply(params)));
    }
    Outcome outcome = outcome(() -> responses.apply(params));
    if (outcome.failure() != null) {
      return outcome.failure();
    }
    return AnthropicMessages.fromResponse(outcome.response(), id, model);
  }

  /** A Response, or the Anthropic error answer that takes its place. */
  private record Outcome(Response response, Reply failure) {}

  private static Outcome outcome(java.util.function.Supplier<Object> work) {
    try {
      Object result = work.get();
      if (result instanceof Reply reply && reply.status() >= 400) {
        return new Outcome(null, failed(reply));
      }
      Object json = result instanceof Reply reply ? reply.body() : result;
      if (json instanceof Response response) {
        return new Outcome(response, null);
      }
      return new Outcome(Response.of(Json.toTree(json instanceof dev.gym4j.json.JsonView view ? view.json() : json)),
          null);
    } catch (FieldError | UpstreamException | RolloutFailure e) {
      return new Outcome(null, failure(e));
    }
  }

  /** The Anthropic error answer of bad input (400), an upstream's failure (502, 504) or a failed episode. */
  private static Reply failure(RuntimeException e) {
    return switch (e) {
      case UpstreamException upstream -> {
        int status = upstream.kind() == UpstreamException.Kind.TIMEOUT ? 504 : 502;
        yield Reply.of(status, AnthropicMessages.errorBody(AnthropicMessages.errorType(status),
            Secrets.redact(upstream.getMessage()))).withHeader(ServerClient.UPSTREAM_FAILURE_HEADER,
            upstream.kind().name().toLowerCase(java.util.Locale.ROOT));
      }
      case RolloutFailure rollout -> {
        ObjectNode error = AnthropicMessages.errorBody(AnthropicMessages.errorType(rollout.status()),
            Secrets.redact(rollout.getMessage()));
        error.put(AgentServer.FAILURE_CLASS, rollout.failureClass());
        yield Reply.of(rollout.status(), error).withHeader(ServerClient.UPSTREAM_FAILURE_HEADER,
            rollout.failureClass());
      }
      default -> Reply.of(400, AnthropicMessages.errorBody("invalid_request_error", e.toString()));
    };
  }

  /** How many translated events wait for a slow reader before the stream's source waits too. */
  static final int RELAY_QUEUE = 64;
  private static final AnthropicMessages.Event END = new AnthropicMessages.Event("end", null);

  /**
   * Runs a Responses event stream through an {@link AnthropicEvents} to the client. The source runs on a worker
   * and hands its events over through a bounded queue, so that this thread can ping a reader while the source is
   * silent (an agent's model call, a reasoning upstream) and a slow reader stops the source after
   * {@link #RELAY_QUEUE} events. A failure of the source is an {@code error} event, as is a source that ends
   * before its answer did; a reader that leaves cancels the source.
   */
  private static void relay(ServerSentEvents.Sink sink, ServerSentEvents.Stream upstream,
      Function<ServerSentEvents.Sink, AnthropicEvents> translator) throws IOException {
    java.util.concurrent.BlockingQueue<AnthropicMessages.Event> queue =
        new java.util.concurrent.ArrayBlockingQueue<>(RELAY_QUEUE);
    AnthropicEvents anthropic = translator.apply(new QueueSink(queue));
    java.util.concurrent.atomic.AtomicBoolean readerGone = new java.util.concurrent.atomic.AtomicBoolean();
    Future<?> source = WORKERS.submit(() -> {
      try {
        upstream.source().writeTo(anthropic);
        anthropic.fail("api_error", "the answer's stream ended before the answer did", null);
      } catch (Exception e) {
        if (readerGone.get()) {
          return null;
        }
        String errorId = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
        LOG.warn("POST /v1/messages failed while streaming (error {})", errorId, e);
        anthropic.fail(e instanceof UpstreamException u && u.kind() == UpstreamException.Kind.TIMEOUT
            ? "timeout_error" : "api_error", "the answer failed while streaming (error " + errorId + ")", null);
      }
      queue.put(END);
      return null;
    });
    try {
      long end = System.nanoTime() + LONGEST.toNanos();
      AnthropicMessages.Event ping = AnthropicMessages.ping();
      while (true) {
        AnthropicMessages.Event event = queue.poll(PING_EVERY.toNanos(), TimeUnit.NANOSECONDS);
        if (event == END) {
          return;
        }
        if (event != null) {
          sink.send(event.name(), event.data());
          if (event.name().equals("message_stop") || event.name().equals("error")) {
            return; // the message is over: whatever the source still does is cancelled
          }
        } else if (System.nanoTime() - end > 0) {
          sink.send("error", AnthropicMessages.errorBody("timeout_error", "no answer within " + LONGEST.toMinutes()
              + " minutes"));
          return;
        } else {
          sink.send(ping.name(), ping.data());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while relaying the answer");
    } finally {
      // a worker waiting on the full queue is interrupted, and puts nothing after this
      readerGone.set(true);
      source.cancel(true);
    }
  }

  /** Where the worker's translated events wait for the reader; a full queue makes the worker wait. */
  private record QueueSink(java.util.concurrent.BlockingQueue<AnthropicMessages.Event> queue)
      implements ServerSentEvents.Sink {
    @Override
    public void send(String name, Object data) throws IOException {
      try {
        queue.put(new AnthropicMessages.Event(name, (ObjectNode) data));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("the reader left");
      }
    }

    @Override
    public void sendText(String name, String data) {
      throw new UnsupportedOperationException("an Anthropic stream sends JSON only");
    }
  }

  /** A failed answer of the server's own route, in Anthropic's shape, keeping its status and headers. */
  private static Reply failed(Reply reply) {
    JsonNode body = Json.toTree(reply.body());
    JsonNode detail = body.path("detail");
    String message = detail.isString() ? detail.asString() : Json.write(detail.isMissingNode() ? body : detail);
    // a streamed error goes out with the 200, where Routes' redaction of error bodies does not reach
    ObjectNode error = AnthropicMessages.errorBody(AnthropicMessages.errorType(reply.status()),
        Secrets.redact(message));
    if (body.get(AgentServer.FAILURE_CLASS) instanceof JsonNode failureClass) {
      error.set(AgentServer.FAILURE_CLASS, failureClass);
    }
    return new Reply(reply.status(), error, reply.headers());
  }

  private static void stream(ServerSentEvents.Sink sink, String id, String model, java.util.function.Supplier<Object> work)
      throws IOException {
    AnthropicMessages.Event start = AnthropicMessages.start(id, model);
    sink.send(start.name(), start.data());
    Future<Outcome> answer = WORKERS.submit(() -> outcome(work));
    try {
      Outcome outcome = await(answer, sink);
      if (outcome.failure() != null) {
        ObjectNode error = (ObjectNode) outcome.failure().body();
        sink.send("error", error);
        return;
      }
      for (AnthropicMessages.Event event : AnthropicMessages.rest(AnthropicMessages.fromResponse(outcome.response(),
          id, model))) {
        sink.send(event.name(), event.data());
      }
    } catch (TimeoutException e) {
      sink.send("error", AnthropicMessages.errorBody("timeout_error", "no answer within " + LONGEST.toMinutes()
          + " minutes"));
    } catch (RuntimeException | ExecutionException e) {
      String errorId = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
      LOG.warn("POST /v1/messages failed while streaming (error {})", errorId, e);
      sink.send("error", AnthropicMessages.errorBody("api_error", "Internal Server Error (error " + errorId + ")"));
    } finally {
      answer.cancel(true);
    }
  }

  /** Waits for the answer, pinging the reader meanwhile (a ping to a reader that left throws). */
  private static Outcome await(Future<Outcome> answer, ServerSentEvents.Sink sink) throws ExecutionException,
      TimeoutException, IOException {
    long end = System.nanoTime() + LONGEST.toNanos();
    AnthropicMessages.Event ping = AnthropicMessages.ping();
    sink.send(ping.name(), ping.data());
    while (true) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new TimeoutException();
      }
      try {
        return answer.get(Math.min(left, PING_EVERY.toNanos()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        sink.send(ping.name(), ping.data());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.util.concurrent.CancellationException("interrupted while waiting for the answer");
      }
    }
  }
}
