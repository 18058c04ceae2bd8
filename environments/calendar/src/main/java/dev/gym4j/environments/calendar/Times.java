package dev.gym4j.environments.calendar;

/** Clock times as the calendar data writes them: {@code 14:30}, {@code 2pm}, {@code 2:15pm}, {@code 12am}. */
final class Times {
  private Times() {}

  /** Minutes since midnight. */
  static int minutes(String time) {
    String t = time.strip();
    boolean am = t.contains("am");
    boolean pm = t.contains("pm");
    if (am || pm) {
      String clock = t.replace(am ? "am" : "pm", "").strip();
      int hour;
      int minute = 0;
      int colon = clock.indexOf(':');
      if (colon < 0) {
        hour = Integer.parseInt(clock);
      } else {
        hour = Integer.parseInt(clock.substring(0, colon).strip());
        minute = Integer.parseInt(clock.substring(colon + 1).strip());
      }
      return (hour == 12 ? 0 : hour * 60) + (pm ? 12 * 60 : 0) + minute;
    }
    String[] parts = t.split(":", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("not a time: " + time);
    }
    return Integer.parseInt(parts[0].strip()) * 60 + Integer.parseInt(parts[1].strip());
  }
}
