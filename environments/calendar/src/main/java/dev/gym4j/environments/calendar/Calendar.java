package dev.gym4j.environments.calendar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Calendar scheduling over a conversation: the model keeps a calendar as a JSON list of events, and its
 * last answer must hold every event of {@code exp_cal_state} with the right duration, inside its window,
 * meeting its constraint ({@code before T}, {@code after T}, {@code between A and B}, {@code at T}), and
 * with no two events overlapping. NeMo Gym's calendar environment; its rule is kept, including that an
 * answer with {@code <think>} in it gets 0.
 */
@Implementation("calendar")
public final class Calendar extends ResourcesServer {

  /** Why a verdict is what it is, reported as {@code reason}. */
  enum Reason { PASS, THINK_FOUND, NO_JSON_LIST, DIFFERENT_NUMBER_OF_EVENTS, CONFLICTING_EVENTS, CONSTRAINT_VIOLATED,
    ERROR_IN_GRADING, EMPTY_RESPONSE }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("exp_cal_state");
    if (!expected.isObject()) {
      throw new FieldError(List.of("exp_cal_state"), "Field required: the expected calendar {event_id: {...}}",
          "missing");
    }
    List<Item> output = request.response().output();
    String answer = output.isEmpty() || !(output.getLast() instanceof Message message) ? "" : firstPart(message);
    Reason reason = answer.isEmpty() ? Reason.EMPTY_RESPONSE : grade(answer, expected);
    return Verification.of(reason == Reason.PASS ? 1.0 : 0.0).with("reason", reason.name().toLowerCase());
  }

  /** The text of the message's first content part, as NeMo Gym reads it. */
  private static String firstPart(Message message) {
    JsonNode content = message.json().get("content");
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isString()) {
      return content.stringValue();
    }
    return content.isEmpty() ? "" : content.get(0).path("text").asString("");
  }

  static Reason grade(String answer, JsonNode expected) {
    if (answer.contains("<think>")) {
      return Reason.THINK_FOUND;
    }
    if (expected.isEmpty()) {
      return Reason.PASS;
    }
    try {
      JsonNode events = firstListOfObjects(answer);
      if (events == null || !events.isArray() || events.isEmpty()) {
        return Reason.NO_JSON_LIST;
      }
      Map<String, JsonNode> byId = new LinkedHashMap<>();
      for (JsonNode event : events) {
        byId.put(pythonStr(event.get("event_id")), event);
      }
      if (byId.size() != expected.size()) {
        return Reason.DIFFERENT_NUMBER_OF_EVENTS;
      }
      for (JsonNode event : events) {
        if (conflicts(events, event)) {
          return Reason.CONFLICTING_EVENTS;
        }
      }
      for (var entry : expected.properties()) {
        JsonNode event = byId.get(entry.getKey());
        if (event == null) {
          return Reason.ERROR_IN_GRADING;
        }
        if (!satisfies(event, entry.getValue())) {
          return Reason.CONSTRAINT_VIOLATED;
        }
      }
      return Reason.PASS;
    } catch (RuntimeException e) {
      return Reason.ERROR_IN_GRADING;
    }
  }

  private static boolean conflicts(JsonNode events, JsonNode event) {
    int start = Times.minutes(event.get("start_time").asString());
    int end = start + event.get("duration").asInt();
    for (JsonNode other : events) {
      if (other.equals(event)) {
        continue;
      }
      int otherStart = Times.minutes(other.get("start_time").asString());
      int otherEnd = otherStart + other.get("duration").asInt();
      if (!(end <= otherStart || start >= otherEnd)) {
        return true;
      }
    }
    return false;
  }

  private static boolean satisfies(JsonNode event, JsonNode expected) {
    if (!event.get("duration").equals(expected.get("duration"))
        && event.get("duration").asDouble() != expected.get("duration").asDouble()) {
      return false;
    }
    int start = Times.minutes(event.get("start_time").asString());
    int end = start + event.get("duration").asInt();
    if (start < Times.minutes(expected.get("min_time").asString()) || end > Times.minutes(expected.get("max_time").asString())) {
      return false;
    }
    JsonNode constraint = expected.get("constraint");
    if (constraint == null || constraint.isNull()) {
      return true;
    }
    String rule = constraint.asString();
    if (rule.startsWith("before ")) {
      return end <= Times.minutes(rule.substring(7));
    }
    if (rule.startsWith("after ")) {
      return start >= Times.minutes(rule.substring(6));
    }
    if (rule.startsWith("between ")) {
      String[] parts = rule.substring(8).split(" and ", -1);
      if (parts.length != 2) {
        throw new IllegalArgumentException("bad between constraint: " + rule);
      }
      return start >= Times.minutes(parts[0]) && end <= Times.minutes(parts[1]);
    }
    if (rule.startsWith("at ")) {
      return start == Times.minutes(rule.substring(3));
    }
    return true;
  }

  /** Python's str() of an event id: 0 → "0", "a" → "a". */
  private static String pythonStr(JsonNode id) {
    if (id == null) {
      throw new IllegalArgumentException("an event without event_id");
    }
    return id.isString() ? id.stringValue() : id.toString();
  }

  /**
   * The first {@code [...]} in the text that holds at least one {@code {...}} and no other brackets outside
   * braces, parsed as JSON; null when there is none or it does not parse. A linear scan with the meaning of
   * NeMo Gym's regex, which would overflow Java's regex stack on long answers.
   */
  static JsonNode firstListOfObjects(String text) {
    for (int start = text.indexOf('['); start >= 0; start = text.indexOf('[', start + 1)) {
      int end = listEnd(text, start);
      if (end >= 0) {
        try {
          return Json.parse(text.substring(start, end + 1));
        } catch (JacksonException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static int listEnd(String text, int start) {
    boolean sawOpen = false;
    boolean sawPair = false;
    for (int i = start + 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        return -1;
      }
      if (c == ']') {
        return sawPair ? i : -1;
      }
      if (c == '{') {
        int close = text.indexOf('}', i + 1);
        if (close >= 0 && text.substring(i, close).indexOf('[') >= 0 || close >= 0 && text.substring(i, close)
            .indexOf(']') >= 0) {
          // brackets inside braces are allowed: the group is taken whole
          i = close;
          sawPair = true;
          continue;
        }
        sawOpen = true;
      } else if (c == '}' && sawOpen) {
        sawPair = true;
      }
    }
    return -1;
  }

}
