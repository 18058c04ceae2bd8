package dev.gym4j.environments.calendar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CalendarTest extends RecordedRolloutsTest {
  private static final JsonNode EXPECTED = Json.parse("""
      {"0": {"event_id": 0, "duration": 60, "constraint": "between 10am and 11:45am", "min_time": "10:00",
             "max_time": "16:00"},
       "1": {"event_id": 1, "duration": 30, "constraint": "before 1:45pm", "min_time": "10:00", "max_time": "16:00"}}""");

  @Override
  protected String environment() {
    return "calendar";
  }

  private static Calendar.Reason grade(String answer) {
    return Calendar.grade(answer, EXPECTED);
  }

  @Test
  void aCalendarMeetingEveryConstraintPasses() {
    assertThat(grade("Done: [{\"event_id\": 0, \"start_time\": \"10:30\", \"duration\": 60}, "
        + "{\"event_id\": 1, \"start_time\": \"1pm\", \"duration\": 30}]")).isEqualTo(Calendar.Reason.PASS);
  }

  @Test
  void eachRuleFailsOnItsOwn() {
    assertThat(grade("[{\"event_id\": 0, \"start_time\": \"10:50\", \"duration\": 60}, "
        + "{\"event_id\": 1, \"start_time\": \"1pm\", \"duration\": 30}]")).isEqualTo(Calendar.Reason.CONSTRAINT_VIOLATED);
    assertThat(grade("[{\"event_id\": 0, \"start_time\": \"10:30\", \"duration\": 60}, "
        + "{\"event_id\": 1, \"start_time\": \"11:00\", \"duration\": 30}]")).isEqualTo(Calendar.Reason.CONFLICTING_EVENTS);
    assertThat(grade("[{\"event_id\": 0, \"start_time\": \"10:30\", \"duration\": 60}]"))
        .isEqualTo(Calendar.Reason.DIFFERENT_NUMBER_OF_EVENTS);
    assertThat(grade("no calendar here")).isEqualTo(Calendar.Reason.NO_JSON_LIST);
    assertThat(grade("<think>hmm</think>[]")).isEqualTo(Calendar.Reason.THINK_FOUND);
    assertThat(grade("[{\"event_id\": 0, \"start_time\": \"noon\", \"duration\": 60}, {\"event_id\": 1, "
        + "\"start_time\": \"1pm\", \"duration\": 30}]")).isEqualTo(Calendar.Reason.ERROR_IN_GRADING);
  }

  @Test
  void timesParseInBothClocks() {
    assertThat(Times.minutes("12am")).isZero();
    assertThat(Times.minutes("12pm")).isEqualTo(720);
    assertThat(Times.minutes("2:15pm")).isEqualTo(855);
    assertThat(Times.minutes(" 09:05 ")).isEqualTo(545);
  }

  @Test
  void theFirstListOfObjectsIsFoundInLinearTime() {
    assertThat(Calendar.firstListOfObjects("see [1, 2] and [{\"a\": [1]}, {\"b\": 2}] then [{\"c\": 3}]"))
        .isEqualTo(Json.parse("[{\"a\": [1]}, {\"b\": 2}]"));
    String hostile = "[" + "{".repeat(500_000) + "x";
    assertThat(Calendar.firstListOfObjects(hostile)).isNull();
  }
}
