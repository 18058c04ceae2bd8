package dev.gym4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.gym4j.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j init NAME}: a new environment module that builds and passes its tests at once. */
@Command(name = "init", mixinStandardHelpOptions = true,
    description = {"Create a new environment under environments/NAME, ready to build and test.",
        "It gets its class (a tool and a verifier), config.yaml, data/example.jsonl, a test and a README,",
        "and is registered in the build and the distribution."})
final class InitCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "NAME", description = "The environment name, e.g. letter_counting (snake_case).")
  String name;

  @Override
  public Integer call() throws IOException {
    if (!name.matches("[a-z][a-z0-9_]*")) {
      throw new ConfigException("an environment name is snake_case: lower-case letters, digits and _, starting with a letter");
    }
    Path root = Project.root();
    Path dir = root.resolve("environments").resolve(name);
    if (Files.exists(dir)) {
      throw new ConfigException(dir + " already exists");
    }
    String className = className(name);
    Path sources = dir.resolve("src/main/java/dev/gym4j/environments").resolve(name);
    Path tests = dir.resolve("src/test/java/dev/gym4j/environments").resolve(name);
    write(sources.resolve(className + ".java"), "Environment.java.template", className);
    write(tests.resolve(className + "Test.java"), "EnvironmentTest.java.template", className);
    write(dir.resolve("pom.xml"), "pom.xml.template", className);
    write(dir.resolve("config.yaml"), "config.yaml.template", className);
    write(dir.resolve("README.md"), "README.md.template", className);
    write(dir.resolve("data/example.jsonl"), "example.jsonl.template", className);
    Path service = dir.resolve("src/main/resources/META-INF/services/dev.gym4j.server.GymServer");
    Files.createDirectories(service.getParent());
    Files.writeString(service, "dev.gym4j.environments." + name + "." + className + "\n");
    register(root.resolve("environments/pom.xml"), "    <module>" + name + "</module>\n", "  </modules>");
    register(root.resolve("cli/pom.xml"), """
            <dependency>
              <groupId>dev.gym4j</groupId>
              <artifactId>gym4j-env-%s</artifactId>
              <version>${project.version}</version>
              <scope>runtime</scope>
            </dependency>
        """.formatted(artifact(name)).indent(-4), "    <!-- the built-in servers, found at run time through ServiceLoader -->\n");
    var out = spec.commandLine().getOut();
    out.println("Created " + root.relativize(dir) + " (" + className + "), registered in environments/pom.xml and "
        + "cli/pom.xml.");
    out.println("Next: ./gym4j test " + name);
    out.flush();
    return 0;
  }

  private void write(Path file, String template, String className) throws IOException {
    String text;
    try (InputStream in = InitCommand.class.getResourceAsStream("/scaffold/" + template)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, text.replace("{{name}}", name).replace("{{Class}}", className)
        .replace("{{artifact}}", artifact(name)));
  }

  /** Adds a line to a pom: before the closing tag, or after the marker comment. */
  private static void register(Path pom, String line, String anchor) throws IOException {
    String text = Files.readString(pom);
    int at = text.indexOf(anchor);
    if (at < 0) {
      throw new ConfigException(pom + " does not have the expected layout (" + anchor.strip() + ")");
    }
    int insert = anchor.startsWith("  </") ? at : at + anchor.length();
    Files.writeString(pom, text.substring(0, insert) + line + text.substring(insert));
  }

  static String className(String name) {
    StringBuilder out = new StringBuilder();
    for (String part : name.split("_")) {
      if (!part.isEmpty()) {
        out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
    }
    return out.toString();
  }

  private static String artifact(String name) {
    return name.replace('_', '-');
  }
}
