package dev.gym4j.server;

/** A handler's answer with a status other than 200, or with a body to send as it is. */
public record Reply(int status, Object body) {
  public static Reply of(int status, Object body) {
    return new Reply(status, body);
  }
}
