package dev.gym4j.config;

import tools.jackson.databind.JsonNode;

/**
 * One Hydra-style command-line override: {@code key=value}, {@code +key=value}, {@code ++key=value} or
 * {@code ~key}. Keys are dotted paths; values are YAML, so {@code [a,b]}, {@code 0.7}, {@code true} and
 * {@code null} are typed as Hydra types them.
 *
 * <p>NeMo Gym runs Hydra without a primary config, so its users write {@code +key=value} even for keys their
 * YAML files set; gym4j therefore treats all three set forms alike: the override wins.
 */
public record ConfigOverride(String key, JsonNode value, boolean delete) {

  public static boolean looksLikeOverride(String argument) {
    return argument.startsWith("~") || (argument.contains("=") && !argument.startsWith("-"));
  }

  public static ConfigOverride parse(String argument) {
    if (argument.startsWith("~")) {
      String key = argument.substring(1);
      int eq = key.indexOf('=');
      return new ConfigOverride(checkKey(eq < 0 ? key : key.substring(0, eq), argument), null, true);
    }
    int eq = argument.indexOf('=');
    if (eq < 0) {
      throw new ConfigException("bad override '" + argument + "': expected key=value, +key=value, ++key=value or ~key");
    }
    String key = argument.substring(0, eq);
    if (key.startsWith("++")) {
      key = key.substring(2);
    } else if (key.startsWith("+")) {
      key = key.substring(1);
    }
    String text = argument.substring(eq + 1);
    JsonNode value = text.isEmpty() ? tools.jackson.databind.node.StringNode.valueOf("") : Yaml.parse(text);
    return new ConfigOverride(checkKey(key, argument), value, false);
  }

  private static String checkKey(String key, String argument) {
    if (key.isEmpty() || key.startsWith(".") || key.endsWith(".") || key.contains("..")) {
      throw new ConfigException("bad override '" + argument + "': '" + key + "' is not a dotted key path");
    }
    return key;
  }
}
