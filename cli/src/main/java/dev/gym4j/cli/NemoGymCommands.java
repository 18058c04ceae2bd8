package dev.gym4j.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.gym4j.config.ConfigException;

/**
 * NeMo Gym's {@code gym <group> <verb>} command line ({@code nemo_gym/cli/main.py}, {@code COMMANDS}) mapped onto
 * gym4j's commands: each NeMo Gym command names the gym4j command that does its job and turns NeMo Gym's flags
 * into that command's options or into the {@code +key=value} overrides NeMo Gym itself generates from them, so a
 * NeMo Gym command line works with {@code gym4j} in place of {@code gym}. A command or flag gym4j has no
 * equivalent for is refused with a line saying why and what to use instead.
 */
final class NemoGymCommands {
  private NemoGymCommands() {}

  /**
   * One NeMo Gym command: its flags (value flags take the next token; the others are switches), what it maps to
   * (for help), and how its parsed flags become a gym4j command line.
   */
  record Mapping(String name, String gym4j, List<String> valueFlags, List<String> switches,
      Function<Parsed, List<String>> translate) {}

  /** A NeMo Gym command line, parsed: flag values (repeatable ones keep every value), switches, overrides. */
  record Parsed(Map<String, List<String>> values, Set<String> switches, List<String> overrides, List<String> notes) {
    String value(String flag) {
      List<String> all = values.get(flag);
      return all == null ? null : all.getLast();
    }

    boolean has(String flag) {
      return values.containsKey(flag) || switches.contains(flag);
    }

    /** A flag's value, or else the value of the {@code +key=} override NeMo Gym turns that flag into. */
    String setting(String flag, String key) {
      if (value(flag) != null) {
        return value(flag);
      }
      String found = null;
      for (String override : overrides) {
        String bare = override.replaceFirst("^\\+{1,2}", "");
        if (bare.startsWith(key + "=")) {
          found = bare.substring(key.length() + 1);
        }
      }
      return found;
    }
  }

  static final String NOT_SUPPORTED = "not supported";
  private static final String NO_CATALOG = "gym4j has no manifest-backed workload catalog (NeMo Gym's environment "
      + "manifests): its environments are the folders under environments/";
  /** NeMo Gym flags that cannot apply in gym4j, each with the reason (flags of commands mapped above). */
  private static final Map<String, String> INAPPLICABLE = Map.ofEntries(
      Map.entry("--search-dir", "gym4j finds configs in the working directory and its installation only: give the "
          + "file with --config PATH"),
      Map.entry("--kind", NO_CATALOG), Map.entry("--update-expected", NO_CATALOG), Map.entry("--manifest", NO_CATALOG),
      Map.entry("--sync", NO_CATALOG), Map.entry("--profile", NO_CATALOG), Map.entry("--reuse-verifier", NO_CATALOG),
      Map.entry("--reward-range", NO_CATALOG), Map.entry("--higher-is-better", NO_CATALOG),
      Map.entry("--lower-is-better", NO_CATALOG),
      Map.entry("--json", "this gym4j command prints text only (`gym4j env status --json` and `gym4j list "
          + "environments --json` print JSON)"),
      Map.entry("--download", "gym4j downloads no datasets: prepare them with NeMo Gym and put each at its "
          + "jsonl_fpath"),
      Map.entry("--force", "gym4j's reverify has no reverify_mode guard to override: every environment re-verifies"),
      Map.entry("--append", "gym4j's reverify --judge-failed-only writes a fresh output (or continues one with "
          + "--resume)"));
  private static final Map<String, String> ALIASES = Map.of("-a", "--agent", "-i", "--input", "-o", "--output",
      "-m", "--model", "-v", "--verbose", "-c", "--config");
  private static final List<String> ASSETS = List.of("--config", "--benchmark", "--environment", "--resources-server",
      "--model-type");
  private static final List<String> MODEL = List.of("--model", "--model-url", "--model-api-key");
  private static final List<String> SAMPLING = List.of("--temperature", "--top-p", "--max-output-tokens");

  /** NeMo Gym's commands, in its order, with the gym4j command each maps to. */
  static final Map<String, Mapping> COMMANDS = table();

  private static Map<String, Mapping> table() {
    Map<String, Mapping> t = new LinkedHashMap<>();
    add(t, "env start", "run", concat(ASSETS, MODEL), List.of(), p -> concat(List.of("run"), configAndModel(p)));
    add(t, "env test", "test NAME", List.of("--resources-server"), List.of(), p -> List.of("test", target(p,
        "gym4j tests one environment at a time (all of them: ./mvnw -B -ntp verify)")));
    add(t, "env init", "init NAME", List.of("--resources-server", "--environment", "--benchmark"), List.of(), p -> {
      refuse(p, "--benchmark", "gym4j scaffolds environments; a benchmark is a config.yaml under benchmarks/ that "
          + "names one (see benchmarks/aime24/config.yaml)");
      return List.of("init", p.value("--environment") != null ? p.value("--environment") : target(p,
          "give the new environment's name with --environment NAME or --resources-server NAME"));
    });
    add(t, "env resolve", "config", List.of("--config"), List.of(), p -> concat(List.of("config"), configAndModel(p)));
    add(t, "env validate", "config --validate", concat(ASSETS, MODEL), List.of(),
        p -> concat(List.of("config", "--validate"), configAndModel(p)));
    add(t, "env status", "status", List.of(), List.of("--json"),
        p -> concat(List.of("status"), concat(pass(p, "--json"), p.overrides())));
    unsupported(t, "env prefetch", "gym4j has no per-server virtual environments to build: the first ./gym4j call "
        + "builds everything");
    unsupported(t, "env packages", "gym4j's dependencies are Maven's: ./mvnw -B -ntp dependency:tree -pl "
        + "environments/NAME");
    unsupported(t, "env publish", "gym4j has no workload catalog to publish to");
    add(t, "eval run", "eval (--no-serve: collect)", concat(concat(ASSETS, MODEL), concat(SAMPLING, List.of("--agent",
        "--input", "--output", "--limit", "--num-repeats", "--prompt-config", "--concurrency", "--split"))),
        List.of("--no-serve", "--resume", "--disable-aggregation"), NemoGymCommands::evalRun);
    add(t, "eval aggregate", "metrics FILE... --output", List.of("--config", "--input-glob", "--output"), List.of(),
        NemoGymCommands::aggregate);
    add(t, "eval reverify", "reverify", concat(ASSETS, List.of("--inputs", "--rollouts", "--output", "--concurrency",
        "--limit")), List.of("--resume", "--overwrite", "--judge-failed-only",
        "--disable-aggregation"), NemoGymCommands::reverify);
    add(t, "eval profile", "profile", List.of("--inputs", "--rollouts"), List.of(),
        p -> concat(List.of("profile"), concat(pass(p, "--inputs", "--rollouts"), p.overrides())));
    unsupported(t, "eval prepare", "gym4j downloads no datasets: prepare the file with NeMo Gym's `gym eval prepare "
        + "--benchmark NAME` (benchmarks/NAME/prepare.py) and put it at the benchmark's jsonl_fpath "
        + "(`gym4j list benchmarks` shows where)");
    unsupported(t, "eval submit", "gym4j generates no SLURM jobs: run `gym4j run` on each node and `gym4j serve` "
        + "for instances elsewhere");
    add(t, "dataset collate", "data collate", List.of("--config", "--resources-server", "--model-type", "--mode",
        "--output-dir"), List.of(), NemoGymCommands::collate);
    add(t, "dataset render", "data render", List.of("--input", "--prompt-config", "--output"), List.of(),
        p -> concat(List.of("data", "render"), concat(pass(p, "--input", "--prompt-config", "--output"),
            p.overrides())));
    add(t, "dataset validate", "data validate FILE...", List.of("--config"), List.of(), p -> {
      List<String> args = new ArrayList<>(List.of("data", "validate"));
      List<String> paths = configPaths(p);
      if (!paths.isEmpty()) {
        args.addAll(List.of("--config", "+config_paths=[" + String.join(",", paths) + "]"));
      }
      args.addAll(p.overrides());
      return args;
    });
    for (String verb : List.of("upload", "download", "rm", "migrate")) {
      unsupported(t, "dataset " + verb, "gym4j does not talk to dataset hubs (Hugging Face, GitLab): use NeMo Gym's "
          + "`gym dataset " + verb + "` or the hub's own client");
    }
    unsupported(t, "list agents", "gym4j's agents are simple_agent and gymnasium_agent; `gym4j list environments` "
        + "lists the environments");
    unsupported(t, "list models", "gym4j's model servers are openai_model, azure_openai_model, vllm_model, "
        + "anthropic_model, litellm_model, inference_provider, local_vllm_model_proxy and replay_model (configs in "
        + "models/configs/)");
    add(t, "list resources-servers", "list environments", List.of(), List.of("--json"),
        p -> concat(List.of("list", "environments"), pass(p, "--json")));
    unsupported(t, "search", "`gym4j list environments` and `gym4j list benchmarks` list everything there is; "
        + "filter them with grep");
    unsupported(t, "dev test", "gym4j's own tests run with ./mvnw -B -ntp verify");
    return t;
  }

  private static void add(Map<String, Mapping> table, String name, String gym4j, List<String> values,
      List<String> switches, Function<Parsed, List<String>> translate) {
    table.put(name, new Mapping(name, gym4j, values, concat(switches, List.of("--verbose")), translate));
  }

  private static void unsupported(Map<String, Mapping> table, String name, String why) {
    table.put(name, new Mapping(name, NOT_SUPPORTED, List.of(), List.of(), p -> {
      throw new ConfigException("`gym " + name + "` is not supported: " + why);
    }));
  }

  /** The gym4j command line for a NeMo Gym one ({@code verb} is e.g. {@code "env start"}). */
  static List<String> translate(String command, List<String> arguments) {
    return translate(command, arguments, new ArrayList<>());
  }

  /** The same, with what the user should know about the translation added to {@code notes}. */
  static List<String> translate(String command, List<String> arguments, List<String> notes) {
    Mapping mapping = COMMANDS.get(command);
    if (mapping == null) {
      throw new ConfigException("no NeMo Gym command `gym " + command + "`");
    }
    if (mapping.gym4j().equals(NOT_SUPPORTED)) {
      return mapping.translate().apply(new Parsed(Map.of(), Set.of(), List.of(), new ArrayList<>()));
    }
    Parsed parsed = parse(mapping, arguments);
    List<String> translated = mapping.translate().apply(parsed);
    notes.addAll(parsed.notes());
    return translated;
  }

  static Parsed parse(Mapping mapping, List<String> arguments) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    Set<String> switches = new LinkedHashSet<>();
    List<String> overrides = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      String token = arguments.get(i);
      String value = null;
      if (token.startsWith("--") && token.contains("=")) {
        value = token.substring(token.indexOf('=') + 1);
        token = token.substring(0, token.indexOf('='));
      }
      String flag = token.equals("-i") && mapping.valueFlags().contains("--input-glob") ? "--input-glob"
          : ALIASES.getOrDefault(token, token);
      if (!flag.startsWith("-")) {
        overrides.add(token);
      } else if (mapping.switches().contains(flag)) {
        switches.add(flag);
      } else if (mapping.valueFlags().contains(flag)) {
        if (value == null) {
          if (i + 1 >= arguments.size()) {
            throw new ConfigException("`gym " + mapping.name() + "`: " + flag + " needs a value");
          }
          value = arguments.get(++i);
        }
        values.computeIfAbsent(flag, f -> new ArrayList<>()).add(value);
      } else if (INAPPLICABLE.containsKey(flag)) {
        throw new ConfigException("`gym " + mapping.name() + "` " + flag + " is not supported: "
            + INAPPLICABLE.get(flag));
      } else {
        List<String> known = new ArrayList<>(mapping.valueFlags());
        known.addAll(mapping.switches());
        throw new ConfigException("`gym " + mapping.name() + "` (gym4j " + mapping.gym4j() + ") has no flag " + flag
            + (known.isEmpty() ? "" : "; its flags: " + String.join(", ", known)));
      }
    }
    if (switches.contains("--verbose")) {
      overrides.add("+verbose=true");
    }
    return new Parsed(values, switches, overrides, new ArrayList<>());
  }

  private static List<String> evalRun(Parsed p) {
    List<String> args = new ArrayList<>();
    if (p.has("--no-serve")) {
      args.add("collect");
      args.addAll(pass(p, "--agent", "--input", "--output", "--limit", "--resume", "--disable-aggregation"));
      rename(p, args, "--num-repeats", "--repeats");
      rename(p, args, "--concurrency", "--parallel");
      hydra(p, args, "--prompt-config", "prompt_config");
      refuse(p, "--split", "the split chooses which prepared data file an end-to-end run collects; with --no-serve "
          + "give the file with --input");
    } else {
      args.add("eval");
      String environment = p.value("--environment") != null ? p.value("--environment") : p.value("--resources-server");
      List<String> configs = new ArrayList<>(p.values().getOrDefault("--config", List.of()));
      p.overrides().stream().filter(NemoGymCommands::isConfigPaths).forEach(o -> configs.addAll(listed(o)));
      if (p.value("--benchmark") != null) {
        args.addAll(List.of("--benchmark", p.value("--benchmark")));
      } else if (environment != null) {
        args.addAll(List.of("--env", environment));
      } else if (configs.isEmpty()) {
        throw new ConfigException("`gym eval run` without --no-serve needs servers to start: give --config FILE, "
            + "--environment NAME or --benchmark NAME (or start servers with `gym4j run` and collect with "
            + "`gym4j eval run --no-serve`)");
      }
      configs.forEach(c -> args.addAll(List.of("--config", c)));
      args.addAll(pass(p, "--agent", "--input", "--split", "--prompt-config", "--output", "--limit", "--resume",
          "--disable-aggregation", "--model", "--model-url", "--model-type"));
      rename(p, args, "--model-api-key", "--api-key");
      rename(p, args, "--num-repeats", "--repeats");
      rename(p, args, "--concurrency", "--parallel");
    }
    hydra(p, args, "--temperature", "responses_create_params.temperature");
    hydra(p, args, "--top-p", "responses_create_params.top_p");
    hydra(p, args, "--max-output-tokens", "responses_create_params.max_output_tokens");
    if (p.has("--no-serve")) {
      args.addAll(configAndModel(p));
    } else {
      p.overrides().stream().filter(o -> !isConfigPaths(o)).forEach(args::add);
    }
    return args;
  }

  private static List<String> aggregate(Parsed p) {
    String globs = p.value("--input-glob");
    if (globs == null) {
      throw new ConfigException("`gym eval aggregate`: give --input-glob 'a*.jsonl,b*.jsonl'");
    }
    List<String> args = new ArrayList<>(List.of("metrics"));
    for (String glob : globs.split(",")) {
      args.addAll(expand(glob.strip()));
    }
    args.addAll(pass(p, "--output"));
    if (p.has("--config")) {
      p.notes().add("--config is not needed: gym4j computes the aggregate metrics itself, with NeMo Gym's formulas, "
          + "without asking the agents' servers");
    }
    return args;
  }

  private static List<String> reverify(Parsed p) {
    List<String> args = new ArrayList<>(List.of("reverify"));
    String environment = p.value("--environment") != null ? p.value("--environment") : p.value("--resources-server");
    if (p.value("--benchmark") != null) {
      environment = Benchmark.resolve(p.value("--benchmark")).environment().orElse(null);
    }
    if (environment == null) {
      throw new ConfigException("`gym eval reverify` in gym4j re-verifies with one environment: give --environment "
          + "NAME or --benchmark NAME");
    }
    args.addAll(List.of("--env", environment));
    args.addAll(pass(p, "--inputs", "--rollouts", "--output", "--concurrency", "--limit", "--resume", "--overwrite",
        "--judge-failed-only", "--disable-aggregation"));
    for (String flag : List.of("--config", "--model-type")) {
      refuse(p, flag, "gym4j's reverify starts the environment's own config (--environment or --benchmark) and "
          + "needs no model: the rollouts are verified again, not generated");
    }
    args.addAll(p.overrides());
    return args;
  }

  private static List<String> collate(Parsed p) {
    List<String> args = new ArrayList<>(List.of("data", "collate"));
    String mode = p.setting("--mode", "mode");
    String types = switch (mode == null ? "" : mode) {
      case "example_validation" -> "example";
      case "train_preparation" -> "train,validation,benchmark";
      default -> throw new ConfigException("`gym dataset collate`: --mode is train_preparation or "
          + "example_validation" + (mode == null ? " (NeMo Gym has no default)" : ", not " + mode));
    };
    args.addAll(List.of("--types", types));
    String dir = p.setting("--output-dir", "output_dirpath");
    if (dir == null) {
      throw new ConfigException("`gym dataset collate`: give --output-dir DIR (or +output_dirpath=DIR), where NeMo "
          + "Gym writes one <type>.jsonl per dataset type");
    }
    args.addAll(List.of("--output-dir", dir));
    configAndModel(p).stream().filter(a -> !a.matches("\\+{1,2}(mode|output_dirpath)=.*")).forEach(args::add);
    return args;
  }

  /** NeMo Gym's asset flags and {@code +config_paths} tokens as one {@code +config_paths=[...]}, then the rest. */
  private static List<String> configAndModel(Parsed p) {
    List<String> args = new ArrayList<>();
    List<String> paths = configPaths(p);
    if (!paths.isEmpty()) {
      args.add("+config_paths=[" + String.join(",", paths) + "]");
    }
    hydra(p, args, "--model", "policy_model_name");
    hydra(p, args, "--model-url", "policy_base_url");
    hydra(p, args, "--model-api-key", "policy_api_key");
    p.overrides().stream().filter(o -> !isConfigPaths(o)).forEach(args::add);
    return args;
  }

  /** NeMo Gym's {@code _asset_config_path}, for gym4j's layout. */
  private static List<String> configPaths(Parsed p) {
    List<String> paths = new ArrayList<>();
    p.values().getOrDefault("--config", List.of()).forEach(paths::add);
    if (p.value("--benchmark") != null) {
      paths.add(Benchmark.resolve(p.value("--benchmark")).config().toString());
    }
    for (String flag : List.of("--environment", "--resources-server")) {
      if (p.value(flag) != null) {
        paths.add("environments/" + p.value(flag) + "/config.yaml");
      }
    }
    if (p.value("--model-type") != null) {
      paths.add("models/configs/" + p.value("--model-type") + ".yaml");
    }
    p.overrides().stream().filter(NemoGymCommands::isConfigPaths).forEach(o -> paths.addAll(listed(o)));
    return paths;
  }

  /** The paths of one {@code +config_paths=[a,b]} override. */
  private static List<String> listed(String override) {
    List<String> paths = new ArrayList<>();
    String list = override.substring(override.indexOf('=') + 1).strip();
    for (String path : list.replaceAll("^\\[|]$", "").split(",")) {
      if (!path.isBlank()) {
        paths.add(path.strip());
      }
    }
    return paths;
  }

  private static boolean isConfigPaths(String override) {
    return override.replaceFirst("^\\+{1,2}", "").startsWith("config_paths=");
  }

  /** The environment a NeMo Gym {@code --resources-server X} or {@code +entrypoint=resources_servers/X} names. */
  private static String target(Parsed p, String otherwise) {
    if (p.value("--resources-server") != null) {
      return p.value("--resources-server");
    }
    for (String override : p.overrides()) {
      // NeMo Gym's positional workload NAME (`gym env test NAME`)
      if (!override.contains("=") && !override.startsWith("+") && !override.startsWith("~")) {
        return override;
      }
    }
    for (String override : p.overrides()) {
      String bare = override.replaceFirst("^\\+{1,2}", "");
      if (bare.startsWith("entrypoint=")) {
        String path = bare.substring("entrypoint=".length()).replaceAll("/+$", "");
        return path.substring(path.lastIndexOf('/') + 1);
      }
    }
    throw new ConfigException(otherwise);
  }

  private static List<String> pass(Parsed p, String... flags) {
    List<String> args = new ArrayList<>();
    for (String flag : flags) {
      if (p.switches().contains(flag)) {
        args.add(flag);
      } else if (p.value(flag) != null) {
        args.addAll(List.of(flag, p.value(flag)));
      }
    }
    return args;
  }

  private static void rename(Parsed p, List<String> args, String flag, String gym4j) {
    if (p.value(flag) != null) {
      args.addAll(List.of(gym4j, p.value(flag)));
    }
  }

  private static void hydra(Parsed p, List<String> args, String flag, String key) {
    if (p.value(flag) != null) {
      args.add("+" + key + "=" + p.value(flag));
    }
  }

  private static void refuse(Parsed p, String flag, String why) {
    if (p.has(flag)) {
      throw new ConfigException(flag + " is not supported here: " + why);
    }
  }

  /** A glob such as {@code results/shard_*.jsonl}, expanded in its folder, sorted. */
  private static List<String> expand(String glob) {
    Path pattern = Path.of(glob);
    Path dir = pattern.getParent() == null ? Path.of(".") : pattern.getParent();
    List<String> files = new ArrayList<>();
    try (DirectoryStream<Path> matches = Files.newDirectoryStream(dir, pattern.getFileName().toString())) {
      matches.forEach(m -> files.add((pattern.getParent() == null ? m.getFileName() : m).toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (files.isEmpty()) {
      throw new ConfigException("`gym eval aggregate`: no file matches " + glob);
    }
    files.sort(null);
    return files;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
