package dev.gym4j.environments.blackjack;

import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.GymnasiumServer;
import dev.gym4j.resources.Session;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Blackjack against a dealer, one decision per turn: the model answers {@code <action>hit</action>} or
 * {@code <action>stand</action>} (no tag means stand). Going over 21 loses (−1); standing lets the dealer
 * draw to 17, then the higher hand wins (+1), a tie is 0. Cards are drawn with replacement from the
 * thirteen ranks, as in NeMo Gym's environment of this name.
 *
 * <p>A row may carry {@code seed} (a reproducible game) or {@code deck} (the cards in the order they are
 * dealt: player, player, dealer, dealer, then every draw), gym4j additions that make episodes replayable.
 */
@Implementation("blackjack")
public final class Blackjack extends GymnasiumServer {
  private static final List<String> RANKS = List.of("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A");
  private static final Pattern ACTION = Pattern.compile("<action>\\s*(hit|stand)\\s*</action>", Pattern.CASE_INSENSITIVE);
  private static final String GAME = "game";

  /** One game: the hands and where the next card comes from. */
  private static final class Game {
    final List<String> player = new ArrayList<>();
    final List<String> dealer = new ArrayList<>();
    final Deque<String> stacked;
    final Random random;

    Game(Deque<String> stacked, Random random) {
      this.stacked = stacked;
      this.random = random;
    }

    String draw() {
      return stacked.isEmpty() ? RANKS.get(random.nextInt(RANKS.size())) : stacked.poll();
    }
  }

  @Override
  protected Reset reset(ObjectNode row, Session session) {
    Deque<String> stacked = new ArrayDeque<>();
    JsonNode deck = row.path("deck");
    for (int i = 0; i < deck.size(); i++) {
      String card = deck.get(i).asString("");
      if (!RANKS.contains(card)) {
        throw new FieldError(List.of("deck", i), "a card is one of " + RANKS, "value_error");
      }
      stacked.add(card);
    }
    Random random = row.path("seed").isIntegralNumber() ? new Random(row.get("seed").asLong()) : new SecureRandom();
    Game game = new Game(stacked, random);
    game.player.add(game.draw());
    game.player.add(game.draw());
    game.dealer.add(game.draw());
    game.dealer.add(game.draw());
    session.put(GAME, game);
    return Reset.of(observation(game.player, game.dealer));
  }

  @Override
  protected Step step(ObjectNode row, Response response, Session session) {
    Game game = session.get(GAME, Game.class).orElseThrow(() -> new FieldError(List.of(),
        "no game in this session: call /reset first", "value_error"));
    Matcher action = ACTION.matcher(text(response));
    boolean hit = action.find() && action.group(1).equalsIgnoreCase("hit");
    if (hit) {
      game.player.add(game.draw());
      int value = value(game.player);
      if (value > 21) {
        ObjectNode info = Json.object();
        info.put("result", "bust");
        info.put("player", format(game.player));
        info.put("value", value);
        return Step.end(-1.0, info);
      }
      return Step.next(observation(game.player, game.dealer));
    }
    while (value(game.dealer) < 17) {
      game.dealer.add(game.draw());
    }
    int player = value(game.player);
    int dealer = value(game.dealer);
    double reward = dealer > 21 || player > dealer ? 1.0 : player == dealer ? 0.0 : -1.0;
    ObjectNode info = Json.object();
    info.put("result", reward > 0 ? "win" : reward == 0 ? "draw" : "loss");
    info.put("player", format(game.player));
    info.put("player_value", player);
    info.put("dealer", format(game.dealer));
    info.put("dealer_value", dealer);
    return Step.end(reward, info);
  }

  /** Aces count 11, then 1 while the hand is over 21. */
  static int value(List<String> hand) {
    int total = 0;
    int aces = 0;
    for (String card : hand) {
      switch (card) {
        case "J", "Q", "K" -> total += 10;
        case "A" -> {
          total += 11;
          aces++;
        }
        default -> total += Integer.parseInt(card);
      }
    }
    while (total > 21 && aces > 0) {
      total -= 10;
      aces--;
    }
    return total;
  }

  static String format(List<String> hand) {
    return "[" + String.join(", ", hand) + "]";
  }

  private static String observation(List<String> player, List<String> dealer) {
    return "Your hand: " + format(player) + " = " + value(player) + "\nDealer shows: " + dealer.getFirst()
        + "\nRespond with <action>hit</action> or <action>stand</action>.";
  }
}
