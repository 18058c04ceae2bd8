package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ./gym4j …} command in the top-level README's code blocks, run as written through {@link Main}, in
 * order, in a fresh copy of the project as the working directory (Maven runs this class in
 * {@code target/readme-tour}, see cli/pom.xml): a README command that fails fails this test.
 *
 * <p>What the tour needs from outside is set up as a user would: {@code env.yaml} names the model (a scripted
 * one) and the head server's port (a free one, so parallel builds never collide on 11000). Three spellings in the
 * README stand for things that cannot exist here and are replaced, and only these: see {@link #SUBSTITUTIONS}.
 * {@code run} and {@code serve} keep running until the end of their code block, then are stopped.
 */
class ReadmeCommandsTest {
  /**
   * Commands that need a feature not on this branch yet, by the exact command: skipped, and listed here so that
   * the entry is deleted when the feature lands (an entry that matches no README command is harmless).
   */
  static final Map<String, String> NOT_YET = Map.of(
      "./gym4j test mcqa",
      "a nested Maven build of the module inside this one; InitAndTestCommandTest runs `gym4j test` for real");

  private final List<Thread> background = new ArrayList<>();
  private ScriptedUpstream model;

  @AfterEach
  void stopBackground() throws InterruptedException {
    stopAll();
    if (model != null) {
      model.close();
    }
  }

  @Test
  void every_readme_command_runs_as_written() throws Exception {
    Path tour = Path.of("").toAbsolutePath();
    assumeTrue(tour.getFileName().toString().equals("readme-tour"), "runs only in its own working directory");
    copyProject(Fixtures.projectRoot(), tour);
    model = ScriptedUpstream.start();
    model.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}"),
        "It is cold in Paris."));
    int headPort = freePort();
    Files.writeString(tour.resolve("env.yaml"), "policy_base_url: " + model.baseUrl() + "\npolicy_api_key: EMPTY\n"
        + "policy_model_name: Qwen/Qwen3-8B\nhead_server:\n  port: " + headPort + "\n");
    String previousHome = System.getProperty("gym4j.home");
    System.setProperty("gym4j.home", tour.toString());
    java.util.Set<String> before = topLevel(tour);
    try {
      List<String> ran = new ArrayList<>();
      for (List<String> block : commandBlocks(Files.readString(Fixtures.projectRoot().resolve("README.md")))) {
        for (String command : block) {
          if (NOT_YET.containsKey(command)) {
            continue;
          }
          run(substitute(command, headPort));
          ran.add(command);
        }
        stopAll();
      }
      assertThat(ran).as("the README's commands").hasSizeGreaterThanOrEqualTo(15)
          .anyMatch(c -> c.startsWith("./gym4j collect")).anyMatch(c -> c.startsWith("./gym4j data collate"));
      assertThat(tour.resolve("results/run.jsonl")).exists();
      // issue 39: what the README's commands write lands where git ignores it (results/, .gym4j/), never as
      // untracked files in the clone's root
      java.util.Set<String> added = topLevel(tour);
      added.removeAll(before);
      assertThat(added).as("new entries in the project root").isSubsetOf("results", ".gym4j");
      assertThat(Files.readAllLines(Fixtures.projectRoot().resolve(".gitignore")))
          .contains("results/", ".gym4j/");
    } finally {
      if (previousHome == null) {
        System.clearProperty("gym4j.home");
      } else {
        System.setProperty("gym4j.home", previousHome);
      }
    }
  }

  private static java.util.Set<String> topLevel(Path dir) throws IOException {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(
          java.util.TreeSet::new));
    }
  }

  /** What the README writes for things that cannot exist on this machine, and what stands in for them here. */
  static final Map<String, String> SUBSTITUTIONS = new LinkedHashMap<>();

  static {
    SUBSTITUTIONS.put("http://localhost:8000/v1", "<the scripted model>");   // a model server the reader runs
    SUBSTITUTIONS.put("10.0.0.5:11000", "<127.0.0.1:the head port>");        // another machine's head server
  }

  private String substitute(String command, int headPort) {
    return command.replace("http://localhost:8000/v1", model.baseUrl())
        .replace("10.0.0.5:11000", "127.0.0.1:" + headPort);
  }

  private void run(String command) throws Exception {
    List<String> args = ShellWords.split(command);
    assertThat(args.getFirst()).isEqualTo("./gym4j");
    String[] arguments = args.subList(1, args.size()).toArray(String[]::new);
    CapturedCommand captured = new CapturedCommand();
    boolean viewer = arguments[0].equals("view");
    boolean longRunning = (arguments[0].equals("run") && !args.contains("--check")) || arguments[0].equals("serve")
        || viewer;
    if (!longRunning) {
      int status = captured.run(arguments);
      assertThat(status).as("%s%n%s%s", command, captured.out(), captured.err()).isZero();
      return;
    }
    Thread thread = Thread.ofPlatform().name("readme " + arguments[0]).start(() -> captured.run(arguments));
    background.add(thread);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String ready = viewer ? "(Ctrl-C stops)" : "ready";
    while (!captured.out().contains(ready)) {
      assertThat(thread.isAlive()).as("%s stopped early:%n%s%s", command, captured.out(), captured.err()).isTrue();
      assertThat(System.nanoTime()).as("%s did not get ready", command).isLessThan(deadline);
      Thread.sleep(20);
    }
    if (viewer) {
      // the page it names answers, over the files it was given
      java.util.regex.Matcher url = java.util.regex.Pattern.compile("open (http://\\S+)").matcher(captured.out());
      assertThat(url.find()).as(captured.out()).isTrue();
      try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
        var page = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url.group(1)))
            .timeout(Duration.ofSeconds(30)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as(command).isEqualTo(200);
      }
    }
  }

  private void stopAll() throws InterruptedException {
    for (Thread thread : background.reversed()) {
      thread.interrupt();
      thread.join(Duration.ofSeconds(15));
    }
    background.clear();
  }

  /** The {@code ./gym4j} commands of each fenced code block, continuation lines joined, comments dropped. */
  static List<List<String>> commandBlocks(String markdown) {
    List<List<String>> blocks = new ArrayList<>();
    List<String> current = null;
    StringBuilder pending = new StringBuilder();
    for (String line : markdown.split("\n")) {
      if (line.startsWith("```")) {
        if (current != null) {
          blocks.add(current);
        }
        current = current == null ? new ArrayList<>() : null;
        continue;
      }
      if (current == null) {
        continue;
      }
      String text = pending.isEmpty() ? line.strip().replaceFirst("^\\$ ", "") : line.strip();
      if (pending.isEmpty() && !text.startsWith("./gym4j ")) {
        continue;
      }
      if (text.endsWith("\\")) {
        pending.append(text, 0, text.length() - 1).append(' ');
        continue;
      }
      pending.append(text);
      current.add(String.join(" ", ShellWords.split(ShellWords.dropComment(pending.toString()))));
      pending.setLength(0);
    }
    return blocks.stream().filter(block -> !block.isEmpty()).toList();
  }

  /** The project's files, without build output, git metadata or local settings. */
  private static void copyProject(Path from, Path to) throws IOException {
    try (Stream<Path> old = Files.list(to)) {
      for (Path path : old.toList()) {
        try (Stream<Path> tree = Files.walk(path)) {
          tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path relative = from.relativize(file);
        String first = relative.getNameCount() == 0 ? "" : relative.getName(0).toString();
        boolean skipped = first.startsWith(".") || first.equals("results") || first.equals("env.yaml")
            || relative.toString().contains("target");
        if (skipped || relative.toString().isEmpty()) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
          target.toFile().setExecutable(file.toFile().canExecute());
        }
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Just enough of the shell's word splitting for the README: quotes and trailing comments. */
  static final class ShellWords {
    private ShellWords() {}

    static List<String> split(String line) {
      List<String> words = new ArrayList<>();
      StringBuilder word = new StringBuilder();
      char quote = 0;
      boolean inWord = false;
      for (char c : line.toCharArray()) {
        if (quote != 0) {
          if (c == quote) {
            quote = 0;
          } else {
            word.append(c);
          }
        } else if (c == '"' || c == '\'') {
          quote = c;
          inWord = true;
        } else if (Character.isWhitespace(c)) {
          if (inWord) {
            words.add(word.toString());
            word.setLength(0);
            inWord = false;
          }
        } else {
          word.append(c);
          inWord = true;
        }
      }
      if (inWord) {
        words.add(word.toString());
      }
      return words;
    }

    /** The line without a {@code # comment} that starts outside quotes after a space. */
    static String dropComment(String line) {
      char quote = 0;
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (quote != 0) {
          quote = c == quote ? 0 : quote;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '#' && i > 0 && Character.isWhitespace(line.charAt(i - 1))) {
          return line.substring(0, i);
        }
      }
      return line;
    }
  }
}
