package dev.gym4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code gym4j} command. */
@Command(name = "gym4j",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "NeMo Gym for the JVM: RL environments for LLMs, scored rollouts, training data.",
    subcommands = {EvalCommand.class, RunCommand.class, ServeCommand.class, CollectCommand.class, MetricsCommand.class,
        DataCommand.class, ReverifyCommand.class, InitCommand.class, TestCommand.class, BenchCommand.class,
        ConfigCommand.class, ListCommand.class, StatusCommand.class, ProfileCommand.class, ViewCommand.class,
        KubernetesCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "NeMo Gym's command line works too, with gym4j in place of gym: env start|test|init|resolve|validate|status,",
        "eval run [--no-serve]|aggregate|reverify|profile, dataset collate|render|validate, list environments|benchmarks,",
        "with NeMo Gym's flags and +key=value overrides (`gym4j env --help`, `gym4j eval run --help`).",
        "eval prepare|submit, dataset upload|download and env prefetch|packages say what to use instead."})
public final class Main {
  /** Exit status for a configuration or input error the user can fix. */
  static final int USAGE_ERROR = 2;

  @Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean debug;

  /** Exit status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
  static final int INTERRUPTED = 130;

  public static void main(String[] args) {
    // SLF4J set up on this thread before any other starts: logging from several threads while it initializes
    // made SLF4J replay those calls with three SLF4J(W) lines on stderr
    org.slf4j.LoggerFactory.getILoggerFactory();
    int status = run(args);
    if (!shuttingDown()) {
      System.exit(status);
    }
    // Ctrl-C came first: the JVM is already exiting (with 130), and System.exit would wait for it forever
  }

  /** Whether the JVM has begun to exit (Ctrl-C, SIGTERM), when a command's failure is only a consequence. */
  static boolean shuttingDown() {
    Thread probe = new Thread(() -> { });
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  static int run(String... args) {
    return commandLine().execute(args);
  }

  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new Main());
    // before the settings below: picocli applies them to the subcommands there are when they are set
    NemoGymCommand.register(commandLine);
    // NeMo Gym's +key=value, ++key=value and ~key overrides reach commands as positional arguments; what
    // starts with - and is no option of the command is an unknown option (handled below), never an override
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(Main::handleError);
    commandLine.setParameterExceptionHandler(Main::handleBadArguments);
    // a description is wrapped at spaces only, so a URL stays whole
    commandLine.setUsageHelpWidth(120);
    commandLine.setUsageHelpLongOptionsMaxWidth(30);
    return commandLine;
  }

  /** Unknown or malformed options: one line naming the problem, the command's valid options, exit 2. */
  private static int handleBadArguments(CommandLine.ParameterException error, String[] args) {
    CommandLine command = error.getCommandLine();
    PrintWriter err = command.getErr();
    String name = command.getCommandSpec().qualifiedName();
    if (error instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String first = unmatched.getUnmatched().getFirst();
      boolean option = first.startsWith("-");
      err.println("error: " + (option ? "unknown option '" + first + "'" : "unexpected argument '" + first + "'")
          + " for " + name + suggestion(unmatched));
    } else {
      err.println("error: " + error.getMessage());
    }
    java.util.List<String> options = command.getCommandSpec().options().stream().filter(o -> !o.hidden())
        .map(o -> o.longestName()).sorted().toList();
    if (!options.isEmpty()) {
      err.println("valid options: " + String.join(", ", options) + " (" + name + " --help says what each does)");
    }
    err.flush();
    return USAGE_ERROR;
  }

  private static String suggestion(CommandLine.UnmatchedArgumentException unmatched) {
    java.util.List<String> close = unmatched.getSuggestions();
    return close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close.subList(0, Math.min(2, close.size())))
        + "?";
  }

  private static int handleError(Exception error, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    if (shuttingDown()) {
      // stopped by Ctrl-C, perhaps before the command could register its own shutdown hook
      // ("Shutdown in progress"): what failed then failed because of it, and says nothing new
      return INTERRUPTED;
    }
    PrintWriter err = commandLine.getErr();
    boolean debug = ((Main) commandLine.getCommandSpec().root().userObject()).debug;
    boolean userError = error instanceof ConfigException || error instanceof FieldError;
    // the message alone: a Java class name tells a user nothing (--debug shows the stack trace)
    String message = describe(error);
    err.println("error: " + (message == null || message.isBlank() ? "an unexpected internal error" : message));
    if (debug) {
      error.printStackTrace(err);
    } else if (!userError) {
      err.println("(run with --debug for the stack trace)");
    }
    err.flush();
    return userError ? USAGE_ERROR : 1;
  }

  /** What went wrong, in words: file errors say which file, never which exception class. */
  static String describe(Throwable error) {
    Throwable cause = error instanceof java.io.UncheckedIOException && error.getCause() != null ? error.getCause()
        : error;
    if (cause instanceof java.nio.file.NoSuchFileException e) {
      return "no such file: " + e.getFile();
    }
    if (cause instanceof java.nio.file.AccessDeniedException e) {
      return "permission denied: " + e.getFile();
    }
    if (cause instanceof java.nio.file.FileSystemException e) {
      return e.getFile() + ": " + (e.getReason() == null ? "cannot be read or written" : e.getReason());
    }
    String message = cause.getMessage();
    return message == null || message.isBlank() ? "an unexpected internal error" : message;
  }

  /** The version the build wrote into the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("/gym4j-version.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {"gym4j " + properties.getProperty("version", "unknown"),
          "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }
  }
}
