package dev.gym4j.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * One NeMo Gym command ({@code gym4j env start …}) as a picocli command: its tokens go through
 * {@link NemoGymCommands#translate} and the gym4j command they map to runs with the same output streams.
 */
@Command(mixinStandardHelpOptions = true)
final class NemoGymCommand implements Callable<Integer> {
  private final NemoGymCommands.Mapping mapping;

  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "ARG", description = "NeMo Gym's flags and +key=value overrides.")
  List<String> arguments = new ArrayList<>();

  private NemoGymCommand(NemoGymCommands.Mapping mapping) {
    this.mapping = mapping;
  }

  @Override
  public Integer call() {
    List<String> notes = new ArrayList<>();
    List<String> translated = NemoGymCommands.translate(mapping.name(), arguments, notes);
    CommandLine current = spec.commandLine();
    notes.forEach(note -> current.getErr().println("note: " + note));
    if (arguments.contains("-v") || arguments.contains("--verbose")) {
      current.getErr().println("gym " + mapping.name() + " → gym4j " + String.join(" ", translated));
    }
    CommandLine gym4j = Main.commandLine();
    gym4j.setOut(current.getOut());
    gym4j.setErr(current.getErr());
    return gym4j.execute(translated.toArray(String[]::new));
  }

  /** Adds NeMo Gym's groups and verbs: new groups for env and dataset, NeMo Gym's verbs under eval and list. */
  static void register(CommandLine root) {
    Map<String, CommandLine> groups = new java.util.LinkedHashMap<>();
    groups.put("eval", root.getSubcommands().get("eval"));
    groups.put("list", root.getSubcommands().get("list"));
    for (NemoGymCommands.Mapping mapping : NemoGymCommands.COMMANDS.values()) {
      String[] words = mapping.name().split(" ");
      CommandLine leaf = new CommandLine(new NemoGymCommand(mapping));
      leaf.setUnmatchedOptionsArePositionalParams(true);
      leaf.getCommandSpec().usageMessage().description("NeMo Gym's `gym " + mapping.name() + "`: "
          + (mapping.gym4j().equals(NemoGymCommands.NOT_SUPPORTED) ? "not supported in gym4j."
          : "runs `gym4j " + mapping.gym4j() + "`."), flags(mapping));
      if (words.length == 1) {
        root.addSubcommand(words[0], leaf);
        continue;
      }
      CommandLine group = groups.computeIfAbsent(words[0], name -> {
        CommandLine created = new CommandLine(new Group());
        created.getCommandSpec().name(name);
        created.getCommandSpec().usageMessage().description("NeMo Gym's `gym " + name + "` commands, mapped onto "
            + "gym4j's.");
        root.addSubcommand(name, created);
        return created;
      });
      group.addSubcommand(words[1], leaf);
    }
  }

  private static String flags(NemoGymCommands.Mapping mapping) {
    List<String> all = new ArrayList<>(mapping.valueFlags().stream().map(f -> f + " VALUE").toList());
    all.addAll(mapping.switches());
    return all.isEmpty() ? "" : "Flags: " + String.join(", ", all) + "; and +key=value overrides.";
  }

  /** A group typed without a verb: its usage, and the usage-error status. */
  @Command(mixinStandardHelpOptions = true)
  static final class Group implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      return missing(spec);
    }

    static int missing(CommandSpec spec) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("error: `gym4j " + spec.name() + "` needs a command: "
          + String.join(", ", spec.subcommands().keySet()));
      spec.commandLine().usage(err);
      return Main.USAGE_ERROR;
    }
  }
}
