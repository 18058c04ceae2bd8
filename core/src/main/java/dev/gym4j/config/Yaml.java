package dev.gym4j.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.gym4j.json.Json;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * YAML in and out. Reading uses SnakeYAML's YAML 1.1 safe loader, which types scalars as PyYAML (and so
 * OmegaConf) does: {@code yes} is true, {@code ~} is null, {@code 1_000} is 1000.
 */
public final class Yaml {
  private Yaml() {}

  private static org.yaml.snakeyaml.Yaml loader() {
    return new org.yaml.snakeyaml.Yaml(new TextDates());
  }

  /**
   * YAML 1.1 reads {@code 2024-10-21} as a date; configs mean the text (an Azure {@code api-version}), and
   * OmegaConf has no date type, so dates stay strings as written.
   */
  private static final class TextDates extends SafeConstructor {
    TextDates() {
      super(new LoaderOptions());
      yamlConstructors.put(org.yaml.snakeyaml.nodes.Tag.TIMESTAMP, new ConstructYamlStr());
    }
  }

  public static JsonNode read(Path file) {
    try (Reader reader = Files.newBufferedReader(file)) {
      return toTree(loader().load(reader));
    } catch (MarkedYAMLException e) {
      throw new ConfigException("invalid YAML in " + file + " at line " + (e.getProblemMark().getLine() + 1)
          + ": " + e.getProblem());
    } catch (YAMLException e) {
      throw new ConfigException("invalid YAML in " + file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses YAML text (a document, or one flow value such as {@code [a,b]} or {@code 0.7}). */
  public static JsonNode parse(String text) {
    try {
      return toTree(loader().load(text));
    } catch (YAMLException e) {
      throw new ConfigException("invalid YAML value '" + text + "': " + e.getMessage());
    }
  }

  public static String write(JsonNode tree) {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndicatorIndent(0);
    options.setWidth(120);
    org.yaml.snakeyaml.Yaml dumper = new org.yaml.snakeyaml.Yaml(new Representer(options), options);
    return dumper.dump(Json.convert(tree, Object.class));
  }

  private static JsonNode toTree(Object loaded) {
    return loaded == null ? NullNode.getInstance() : Json.toTree(loaded);
  }
}
