package dev.gym4j.environments.bigcodebench;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The verdict of one BigCodeBench run, decided here from the runner's report and what only the server knows: the
 * run's nonce, its canary tests (which must fail) and the task's test names, read from the task's own test code.
 * The report shares an interpreter with the model's code, so anything short of exactly one line that passes all
 * of these checks is a failed run, never a pass.
 */
final class Report {
  static final int CANARIES = 5;
  private static final Pattern TEST_CASES = Pattern.compile("(?m)^class\\s+TestCases\\s*[(:]");
  private static final Pattern METHOD = Pattern.compile("(?m)^([ \\t]+)def\\s+(test\\w*)\\s*\\(");
  private static final Pattern TOP_LEVEL = Pattern.compile("(?m)^[^\\s#@)\\]}]");

  private Report() {}

  /** The test methods of the task's {@code TestCases} class, from its source (never from a run). */
  static Set<String> testNames(String testCode) {
    Set<String> names = new LinkedHashSet<>();
    Matcher start = TEST_CASES.matcher(testCode);
    if (!start.find()) {
      return names;
    }
    int from = testCode.indexOf('\n', start.end());
    if (from < 0) {
      return names;
    }
    Matcher next = TOP_LEVEL.matcher(testCode);
    int to = next.find(from + 1) ? next.start() : testCode.length();
    Matcher method = METHOD.matcher(testCode.substring(from, to));
    String indent = null;
    while (method.find()) {
      indent = indent == null ? method.group(1) : indent;
      if (method.group(1).equals(indent)) {
        names.add(method.group(2));
      }
    }
    return names;
  }

  /** {@code {"status", "details"}} from the runner's standard output. */
  static ObjectNode judge(String stdout, String nonce, String canary, Set<String> expected) {
    String[] lines = stdout.strip().split("\n", -1);
    if (lines.length != 1 || lines[0].isBlank()) {
      return refused(lines.length + " lines instead of one");
    }
    JsonNode report;
    try {
      report = Json.parse(lines[0]);
    } catch (RuntimeException e) {
      return refused("not JSON");
    }
    if (!report.isObject() || !nonce.equals(report.path("nonce").asString(""))) {
      return refused("not this run's");
    }
    if ("skipped".equals(report.path("status").asString(""))) {
      ObjectNode skipped = Json.object().put("status", "skipped");
      skipped.set("details", report.path("details").isObject() ? report.get("details") : Json.object());
      return skipped;
    }
    JsonNode tests = report.path("tests");
    if (!tests.isObject() || !report.path("tampered").isBoolean() || !report.path("details").isObject()) {
      return refused("malformed");
    }
    if (report.get("tampered").asBoolean()) {
      return refused("builtins or unittest were changed during the run");
    }
    for (int i = 0; i < CANARIES; i++) {
      String outcome = tests.path("test_" + canary + "_" + i).asString("");
      if (!outcome.equals("fail") && !outcome.equals("error")) {
        return refused("a test that must fail did not");
      }
    }
    boolean passed = report.get("details").isEmpty();
    for (Map.Entry<String, JsonNode> test : tests.properties()) {
      if (test.getKey().startsWith("test_" + canary + "_")) {
        continue;
      }
      String outcome = test.getValue().asString("");
      switch (outcome) {
        case "pass", "skipped" -> { }
        case "fail", "error" -> passed = false;
        default -> {
          return refused("an unknown outcome");
        }
      }
    }
    for (String name : expected) {
      if (!tests.has(name)) {
        return refused("test " + name + " did not run");
      }
    }
    ObjectNode verdict = Json.object().put("status", passed ? "pass" : "fail");
    verdict.set("details", report.get("details"));
    return verdict;
  }

  private static ObjectNode refused(String why) {
    ObjectNode verdict = Json.object().put("status", "fail");
    verdict.putObject("details").put("ALL", "the test process's report was refused: " + why);
    return verdict;
  }
}
