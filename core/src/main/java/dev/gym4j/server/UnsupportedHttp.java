package dev.gym4j.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Answers the connections Helidon would close without a word: a request line that is not HTTP/1.1 (a 400
 * saying which versions are spoken; a 4xx rather than 505, since the client chose the version), and one
 * longer than {@link #MAX_REQUEST_LINE} (414). It is asked first and declines everything
 * Helidon serves (HTTP/1.1 request lines, the HTTP/2 preface), so it costs one look at the first line.
 * Either answer closes the connection.
 */
final class UnsupportedHttp implements ServerConnectionSelector {
  /** The longest request line Helidon is let read (its {@code max-prologue-length}). */
  static final int MAX_REQUEST_LINE = 64 * 1024;

  @Override
  public int bytesToIdentifyConnection() {
    return 0;
  }

  @Override
  public Support supports(BufferData data) {
    int newline = data.indexOf((byte) '\n');
    if (newline < 0) {
      return data.available() > MAX_REQUEST_LINE ? Support.SUPPORTED : Support.UNKNOWN;
    }
    String line = data.readString(newline);
    if (line.endsWith(" HTTP/1.1\r") || line.startsWith("PRI * HTTP/2.0")) {
      return Support.UNSUPPORTED;
    }
    return Support.SUPPORTED;
  }

  @Override
  public Set<String> supportedApplicationProtocols() {
    return Set.of();
  }

  @Override
  public ServerConnection connection(ConnectionContext context) {
    return new Refusal(context);
  }

  /** Writes one answer and ends; the server closes the socket when {@link #handle} returns. */
  private static final class Refusal implements ServerConnection {
    private final ConnectionContext context;

    Refusal(ConnectionContext context) {
      this.context = context;
    }

    @Override
    public void handle(Limit limit) {
      var reader = context.dataReader();
      BufferData start = reader.getBuffer(Math.min(reader.available(), MAX_REQUEST_LINE + 1));
      int newline = start.indexOf((byte) '\n');
      String line = newline < 0 ? null : start.readString(newline).strip();
      String answer;
      if (line == null) {
        answer = reply("414 URI Too Long", "the request line is longer than " + MAX_REQUEST_LINE + " bytes");
      } else if (line.matches("[A-Z]{1,20} \\S+ HTTP/\\d\\.\\d")) {
        answer = reply("400 Bad Request", "this server speaks HTTP/1.1 and HTTP/2 (h2c) only");
      } else {
        answer = reply("400 Bad Request", "malformed request line");
      }
      context.dataWriter().writeNow(BufferData.create(answer.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String reply(String status, String detail) {
      String body = "{\"detail\":\"" + detail + "\"}";
      return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
          + "\r\nConnection: close\r\n\r\n" + body;
    }

    @Override
    public Duration idleTime() {
      return Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
      // handle() ends by itself after one write
    }
  }
}
