package dev.gym4j.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command that starts a class of this distribution in a JVM of its own, as the launcher would. */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * This JVM's java and class path, the launcher's own options this JVM was given (an AOT cache is only
   * fully used with the options it was recorded with), then {@code options}, the class and its arguments.
   */
  static List<String> command(List<String> options, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(options);
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--enable-native-access") || arg.startsWith("--sun-misc-unsafe")
            || arg.startsWith("-Djdk.httpclient") || arg.startsWith("-XX:MaxRAMPercentage"))
        .forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return command;
  }
}
