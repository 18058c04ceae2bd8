package dev.gym4j.sandbox;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One program to run: the command (its first word an absolute path inside the sandbox's read-only view, e.g.
 * {@code /usr/bin/python3}), files placed read-only in the working directory before it starts, bytes for its
 * standard input, and its limits.
 */
public record Execution(List<String> command, Map<String, byte[]> files, byte[] stdin, Limits limits) {
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");

  public Execution {
    command = List.copyOf(command);
    if (command.isEmpty() || !command.getFirst().startsWith("/")) {
      throw new IllegalArgumentException("the command must start with an absolute path, got " + command);
    }
    files = Map.copyOf(files);
    for (String name : files.keySet()) {
      if (!FILE_NAME.matcher(name).matches() || name.contains("..")) {
        throw new IllegalArgumentException("a sandbox file name must be a plain name, got " + name);
      }
    }
    stdin = stdin.clone();
  }

  /** {@code python3 main.py} with the given source. */
  public static Execution python(String interpreter, String source, String stdin, Limits limits) {
    return new Execution(List.of(interpreter, "main.py"), Map.of("main.py", source.getBytes(StandardCharsets.UTF_8)),
        stdin.getBytes(StandardCharsets.UTF_8), limits);
  }

  public Execution withFile(String name, String content) {
    Map<String, byte[]> more = new LinkedHashMap<>(files);
    more.put(name, content.getBytes(StandardCharsets.UTF_8));
    return new Execution(command, more, stdin, limits);
  }

  public Execution withLimits(Limits value) {
    return new Execution(command, files, stdin, value);
  }
}
