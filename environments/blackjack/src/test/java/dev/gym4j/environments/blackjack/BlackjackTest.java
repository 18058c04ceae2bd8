package dev.gym4j.environments.blackjack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym deals from an unseeded generator, so each recorded game is replayed from a stacked deck
 * rebuilt from the recorded hands. When the player went bust the dealer's hand was never recorded and does
 * not change the outcome: the card the dealer showed is read from the recorded first observation (the
 * replay model checks that conversation), and the hidden one is dealt as a two.
 */
class BlackjackTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "blackjack";
  }

  @Override
  protected boolean gymnasium() {
    return true;
  }

  @Override
  protected String taskFile() {
    return "example_rollouts_materialized_inputs.jsonl";
  }

  @Override
  protected JsonNode prepare(JsonNode recorded) {
    ObjectNode row = ((ObjectNode) recorded).deepCopy();
    List<String> player = cards(recorded.at("/info/player").asString());
    List<String> dealer = recorded.at("/info/dealer").isString() ? cards(recorded.at("/info/dealer").asString())
        : List.of(dealerShown(recorded.at("/response/id").asString()), "2");
    List<String> deck = new ArrayList<>(player.subList(0, 2));
    deck.addAll(dealer.subList(0, 2));
    deck.addAll(player.subList(2, player.size()));
    deck.addAll(dealer.subList(2, dealer.size()));
    row.set("deck", Json.toTree(deck));
    return row;
  }

  /** The dealer's face-up card in the recorded first observation of the rollout whose response has this id. */
  private static String dealerShown(String responseId) {
    for (JsonNode rollout : Json.readLines(fixture("example_rollouts.jsonl"))) {
      if (rollout.at("/response/id").asString("").equals(responseId)) {
        JsonNode input = rollout.at("/responses_create_params/input");
        Matcher shown = DEALER_SHOWS.matcher(input.get(input.size() - 1).get("content").asString());
        if (shown.find()) {
          return shown.group(1);
        }
      }
    }
    throw new AssertionError("no recorded observation for response " + responseId);
  }

  private static final Pattern DEALER_SHOWS = Pattern.compile("Dealer shows: (\\w+)");

  private static List<String> cards(String hand) {
    return List.of(hand.substring(1, hand.length() - 1).split(", "));
  }

  @Test
  void handValuesCountAcesAsElevenOrOne() {
    assertThat(Blackjack.value(List.of("A", "K"))).isEqualTo(21);
    assertThat(Blackjack.value(List.of("A", "A", "9"))).isEqualTo(21);
    assertThat(Blackjack.value(List.of("A", "A", "A", "K", "9"))).isEqualTo(22);
    assertThat(Blackjack.value(List.of("10", "Q"))).isEqualTo(20);
  }

  @Test
  void noActionTagMeansStandAndASeedMakesTheGameRepeatable() {
    var first = play("{\"seed\": 11, \"responses_create_params\": {\"input\": \"deal\"}}", "I think I will stand");
    var second = play("{\"seed\": 11, \"responses_create_params\": {\"input\": \"deal\"}}", "whatever");
    assertThat(first).isEqualTo(second);
    assertThat(first.get("terminated").asBoolean()).isTrue();
    assertThat(first.at("/info/result").asString()).isIn("win", "loss", "draw");
  }

  @Test
  void aBadDeckIsA422() {
    var reply = harness().post("/reset", Json.parse("{\"deck\": [\"2\", \"eleven\"], \"responses_create_params\": "
        + "{\"input\": \"x\"}}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"deck\",1]");
  }

  private JsonNode play(String row, String answer) {
    var cookies = harness().post("/reset", Json.parse(row), Map.of()).cookies();
    ObjectNode step = (ObjectNode) Json.parse(row);
    step.set("response", Json.parse("{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"" + answer + "\"}]}]}"));
    return harness().post("/step", step, cookies).json();
  }
}
