package dev.gym4j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * Answer pairs to verify: the 42 with NeMo Gym's recorded verdicts, and generated ones in the forms math
 * datasets use (fractions and decimals, radicals, polynomials, sets, intervals), half of them wrong, after
 * a stretch of reasoning text as long as models write.
 */
final class MathPairs {
  /** An expected answer, model text, and whether they match (null where no verdict was recorded). */
  record Pair(String expected, String modelText, Boolean matches) {}

  private MathPairs() {}

  static List<Pair> recorded() {
    try (InputStream in = MathPairs.class.getResourceAsStream("/math_answer_pairs.json")) {
      List<Pair> pairs = new ArrayList<>();
      for (JsonNode pair : Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
        pairs.add(new Pair(pair.get("expected_answer").asString(), pair.get("model_text").asString(),
            pair.get("math_with_judge_library_reward").asDouble() == 1.0));
      }
      return pairs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Pair> generated(int count, long seed) {
    Random random = new Random(seed);
    List<Pair> pairs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int a = 1 + random.nextInt(40);
      int b = 2 + random.nextInt(30);
      int wrong = random.nextBoolean() ? 0 : 1;
      String[] pair = switch (i % 6) {
        case 0 -> new String[] {"\\frac{" + a + "}{8}", "\\boxed{" + (a + wrong) / 8.0 + "}"};
        case 1 -> new String[] {b + "\\sqrt{3}", "\\boxed{\\sqrt{" + (3 * b * b + wrong) + "}}"};
        case 2 -> new String[] {"(x+" + a + ")^2", "\\boxed{x^2 + " + 2 * a + "x + " + (a * a + wrong) + "}"};
        case 3 -> new String[] {"\\{" + a + ", " + b + ", " + (a + b) + "\\}",
            "\\boxed{\\{" + (a + b) + ", " + (b + wrong) + ", " + a + "\\}}"};
        case 4 -> new String[] {"[" + a + ", " + (a + b) + ")", "the final answer is $[" + a + ", " + (a + b)
            + (wrong == 1 ? "]" : ")") + "$"};
        default -> new String[] {String.valueOf(a * b), "So the total is " + (a * b + wrong) + " apples."};
      };
      pairs.add(new Pair(pair[0], reasoning(random) + pair[1], wrong == 0));
    }
    return pairs;
  }

  private static String reasoning(Random random) {
    StringBuilder text = new StringBuilder("Let me work through this step by step. ");
    int sentences = 5 + random.nextInt(60);
    for (int i = 0; i < sentences; i++) {
      text.append("We have $").append(random.nextInt(100)).append(" + ").append(random.nextInt(100))
          .append("$ so the next term follows from the previous one. ");
    }
    return text.toString();
  }
}
