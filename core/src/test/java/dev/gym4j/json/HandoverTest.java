package dev.gym4j.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tree handed over in process is exactly what a parse of its bytes gives, node type for node type, and writes
 * the same bytes; or it is refused and goes as bytes. Checked on every recorded rollout in the repository (as
 * read, and as code would build it: doubles and longs) and on random trees.
 */
class HandoverTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** What the bytes path gives the other side, or empty when the tree cannot even be written and read. */
  private static Optional<JsonNode> overTheWire(JsonNode tree) {
    try {
      return Optional.of(Json.parse(Json.writeBytes(tree)));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Asserts the handover of {@code tree} is faithful; true when it was accepted (not refused). */
  private static boolean checkFaithful(JsonNode tree, String what) {
    Optional<JsonNode> copy = Handover.copy(tree, Long.MAX_VALUE);
    Optional<JsonNode> expected = overTheWire(tree);
    if (copy.isEmpty()) {
      return false;
    }
    assertThat(expected).as(what + ": accepted a tree the bytes path cannot carry").isPresent();
    assertSameTree(copy.get(), expected.get(), what);
    assertThat(Arrays.equals(Json.writeBytes(copy.get()), Json.writeBytes(tree)))
        .as(what + ": the copy writes the original's bytes").isTrue();
    return true;
  }

  /** Equal values and the same node class at every place, field order included. */
  private static void assertSameTree(JsonNode actual, JsonNode expected, String where) {
    assertThat(actual.getClass()).as(where).isEqualTo(expected.getClass());
    if (actual.isContainer()) {
      assertThat(actual.size()).as(where + " size").isEqualTo(expected.size());
      if (actual.isObject()) {
        Iterator<String> names = expected.propertyNames().iterator();
        for (String name : actual.propertyNames()) {
          assertThat(name).as(where + " field order").isEqualTo(names.next());
          assertSameTree(actual.get(name), expected.get(name), where + "." + name);
        }
      } else {
        for (int i = 0; i < actual.size(); i++) {
          assertSameTree(actual.get(i), expected.get(i), where + "[" + i + "]");
        }
      }
    } else {
      assertThat(actual).as(where).isEqualTo(expected);
    }
  }

  @Test
  void everyRecordedRolloutIsHandedOverAsParsingGivesItAsReadAndAsCodeWouldBuildIt() throws Exception {
    int rows = 0;
    int codeMadeAccepted = 0;
    for (Path file : Fixtures.rolloutFiles()) {
      for (String line : Files.readAllLines(file)) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode row = Json.parse(line);
        assertThat(checkFaithful(row, file.getFileName() + " as read")).as("a parsed row is never refused").isTrue();
        if (checkFaithful(codeMade(row), file.getFileName() + " as code builds it")) {
          codeMadeAccepted++;
        }
        rows++;
      }
    }
    assertThat(rows).isGreaterThan(100);
    // longs and most doubles write the same text again: the copy takes them, as what a parse would give
    assertThat(codeMadeAccepted).isGreaterThan(0);
  }

  /** The tree as code would build it: whole numbers as longs, fractions as doubles. */
  private static JsonNode codeMade(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = NODES.objectNode();
      node.properties().forEach(field -> copy.set(field.getKey(), codeMade(field.getValue())));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      node.forEach(element -> copy.add(codeMade(element)));
      return copy;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return NODES.numberNode(node.longValue());
    }
    if (node.isNumber()) {
      return NODES.numberNode(node.doubleValue());
    }
    return node;
  }

  @Test
  void randomTreesAreHandedOverAsParsingGivesThemOrRefused() {
    Random random = new Random(24);
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
      JsonNode tree = randomTree(random, 0);
      if (checkFaithful(tree, "random tree " + i + ": " + Json.write(tree))) {
        accepted++;
      }
    }
    assertThat(accepted).as("most random trees go as trees").isGreaterThan(1500);
  }

  private static JsonNode randomTree(Random random, int depth) {
    int kind = random.nextInt(depth > 3 ? 12 : 15);
    return switch (kind) {
      case 0 -> NODES.numberNode(random.nextInt());
      case 1 -> NODES.numberNode(random.nextBoolean() ? (long) random.nextInt(1000) : random.nextLong());
      case 2 -> NODES.numberNode((short) random.nextInt(100));
      case 3 -> NODES.numberNode(random.nextBoolean() ? BigInteger.valueOf(random.nextInt(1000))
          : new BigInteger(100, random));
      case 4 -> NODES.numberNode(new BigDecimal(BigInteger.valueOf(random.nextInt(100_000) - 50_000),
          random.nextInt(14) - 4));
      case 5 -> NODES.numberNode(switch (random.nextInt(6)) {
        case 0 -> random.nextDouble();
        case 1 -> Math.round(random.nextDouble() * 100) / 4.0;
        case 2 -> random.nextDouble() * 1e12;
        case 3 -> random.nextDouble() * 1e-9;
        case 4 -> Double.NaN;
        default -> (double) random.nextInt(10);
      });
      case 6 -> NODES.numberNode(random.nextFloat() * (random.nextBoolean() ? 1 : 1e10f));
      case 7 -> NODES.stringNode(randomText(random));
      case 8 -> NODES.booleanNode(random.nextBoolean());
      case 9 -> NODES.nullNode();
      case 10 -> random.nextInt(20) == 0 ? NODES.binaryNode(new byte[] {1, 2, 3})
          : NODES.numberNode(-random.nextInt(1000));
      case 11 -> random.nextInt(20) == 0 ? NODES.pojoNode(Map.of("a", 1)) : NODES.stringNode("");
      case 12, 13 -> {
        ObjectNode object = NODES.objectNode();
        for (int i = random.nextInt(5); i > 0; i--) {
          object.set(randomText(random), randomTree(random, depth + 1));
        }
        yield object;
      }
      default -> {
        ArrayNode array = NODES.arrayNode();
        for (int i = random.nextInt(5); i > 0; i--) {
          array.add(randomTree(random, depth + 1));
        }
        yield array;
      }
    };
  }

  private static String randomText(Random random) {
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(8); i > 0; i--) {
      text.append(switch (random.nextInt(6)) {
        case 0 -> (char) random.nextInt(32);
        case 1 -> "\"\\/";
        case 2 -> "é中";
        case 3 -> "\uD83D\uDE00";
        default -> (char) ('a' + random.nextInt(26));
      });
    }
    return text.toString();
  }

  @Test
  void neitherSideSeesWhatTheOtherChangesLater() {
    ObjectNode original = (ObjectNode) Json.parse("{\"a\": {\"b\": [1, 2.5, \"x\"]}, \"c\": 3}");
    JsonNode copy = Handover.copy(original, Long.MAX_VALUE).orElseThrow();
    ((ArrayNode) original.get("a").get("b")).add(4);
    original.put("c", 9);
    assertThat(Json.write(copy)).isEqualTo("{\"a\":{\"b\":[1,2.5,\"x\"]},\"c\":3}");
    ((ObjectNode) copy.get("a")).put("d", true);
    assertThat(original.get("a").has("d")).isFalse();
  }

  @Test
  void aTreeThatMayWriteMoreThanTheLimitIsRefusedAndOneWellUnderItTaken() {
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      JsonNode tree = randomTree(random, 0);
      long size = overTheWire(tree).isPresent() ? Json.writeBytes(tree).length : 0;
      long limit = random.nextInt(400);
      Optional<JsonNode> copy = Handover.copy(tree, limit);
      if (copy.isPresent()) {
        assertThat(size).as("taken under a limit of " + limit + ": " + Json.write(tree)).isLessThanOrEqualTo(limit);
      }
    }
    ObjectNode small = Json.object().put("text", "plain words");
    assertThat(Handover.copy(small, 200)).isPresent();
    assertThat(Handover.copy(small, Json.writeBytes(small).length - 1L)).isEmpty();
  }

  @Test
  void nestingPastTheParsersLimitGoesAsBytes() {
    ArrayNode deep = NODES.arrayNode();
    ArrayNode inner = deep;
    for (int i = 0; i < 5000; i++) {
      inner = inner.addArray();
    }
    assertThat(Handover.copy(deep, Long.MAX_VALUE)).isEmpty();
  }
}
