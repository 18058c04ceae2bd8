package dev.gym4j.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j config}: NeMo Gym's {@code ng_dump_config}. */
@Command(name = "config", mixinStandardHelpOptions = true,
    description = "Print the merged, resolved config with secrets masked (NeMo Gym's ng_dump_config).")
final class ConfigCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "OVERRIDE", description = "Config overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() {
    GlobalConfig config = ConfigLoader.standard().load(overrides);
    spec.commandLine().getOut().print(Yaml.write(GlobalConfig.masked(config.resolved())));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
