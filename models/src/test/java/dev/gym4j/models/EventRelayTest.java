package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.server.ServerSentEvents;
import org.junit.jupiter.api.Test;

/**
 * The answer-size bound of the streams that add an upstream's events up into one answer (vllm_model's and
 * azure_openai_model's chat chunks, anthropic_model's Messages events): the events' data in all, not only each
 * event, is bounded, so an upstream that never stops cannot grow the held answer without bound.
 */
class EventRelayTest {
  private static ByteArrayInputStream events(int count, String data) {
    return new ByteArrayInputStream(("data: " + data + "\n\n").repeat(count).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anAnswerWithinTheBoundIsReadWhole() throws IOException {
    List<String> seen = new ArrayList<>();
    EventRelay.readAnswer(events(10, "0123456789"), Duration.ofSeconds(5), 100, event -> seen.add(event.data()));
    assertThat(seen).hasSize(10).containsOnly("0123456789");
  }

  @Test
  void anAnswerPastTheBoundFailsAtTheEventThatPassesIt() {
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(() -> EventRelay.readAnswer(events(1000, "0123456789"), Duration.ofSeconds(5), 100,
        event -> seen.add(event.data())))
        .isInstanceOf(IOException.class).hasMessage("the answer is longer than 100 characters");
    assertThat(seen).as("events up to the bound were read, none after").hasSize(10);
  }

  @Test
  void aCallerSinkTellsTheCallersFailureApartFromTheUpstreams() {
    ServerSentEvents.Sink gone = new ServerSentEvents.Sink() {
      @Override
      public void send(String name, Object data) throws IOException {
        throw new IOException("broken pipe");
      }

      @Override
      public void sendText(String name, String data) throws IOException {
        throw new IOException("broken pipe");
      }
    };
    ServerSentEvents.Sink sink = EventRelay.callerSink(gone);
    assertThatThrownBy(() -> sink.sendText("x", "y")).isInstanceOf(EventRelay.CallerFailed.class)
        .hasRootCauseMessage("broken pipe");
    assertThatThrownBy(() -> sink.send("x", "y")).isInstanceOf(EventRelay.CallerFailed.class);
  }
}
