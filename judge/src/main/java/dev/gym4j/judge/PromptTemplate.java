package dev.gym4j.judge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.server.ServerContext;
import tools.jackson.databind.JsonNode;

/**
 * A judge prompt with named fields, read as NeMo Gym reads its templates (Python's {@code str.format}):
 * {@code {question}} is replaced by the field's value, {@code {{} and {@code }}} stand for literal braces.
 * Values are inserted once and never read as template text, so a model's answer that contains
 * {@code {expected_answer}} stays that text. Immutable and thread-safe.
 */
public final class PromptTemplate {
  private final String text;
  /** Literal text and field names, alternating, starting with literal text. */
  private final List<String> parts;

  private PromptTemplate(String text, List<String> parts) {
    this.text = text;
    this.parts = parts;
  }

  /**
   * Parses a template; a stray brace, or a conversion or format spec ({@code {x!r}}, {@code {x:>5}}),
   * is a config error that quotes the template's start.
   */
  public static PromptTemplate of(String text) {
    List<String> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if ((c == '{' || c == '}') && i + 1 < text.length() && text.charAt(i + 1) == c) {
        literal.append(c);
        i += 2;
      } else if (c == '{') {
        int end = text.indexOf('}', i);
        if (end < 0) {
          throw new ConfigException("judge prompt template: an unclosed '{' at character " + i
              + "; write {{ for a literal brace, in: " + start(text));
        }
        String name = text.substring(i + 1, end);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
          throw new ConfigException("judge prompt template: '{" + name + "}' is not a field; write {name} for a "
              + "field and {{ }} for literal braces, in: " + start(text));
        }
        parts.add(literal.toString());
        parts.add(name);
        literal.setLength(0);
        i = end + 1;
      } else if (c == '}') {
        throw new ConfigException("judge prompt template: a single '}' at character " + i
            + "; write }} for a literal brace, in: " + start(text));
      } else {
        literal.append(c);
        i++;
      }
    }
    parts.add(literal.toString());
    return new PromptTemplate(text, List.copyOf(parts));
  }

  /**
   * The template a server's config gives: {@code judge_prompt_template} (the text), else
   * {@code judge_prompt_template_fpath} (a file, read as UTF-8 and stripped, as NeMo Gym reads it), else
   * {@code judge_prompt_path} (NeMo Gym's YAML file with the prompt under {@code user}), else
   * {@code fallback}, the environment's own. A relative path is looked up in the server's folder first, as
   * NeMo Gym runs each server from its folder ({@link dev.gym4j.config.GlobalConfig#serverFile}).
   */
  public static PromptTemplate configured(ServerContext context, String fallback) {
    JsonNode inline = context.config().path("judge_prompt_template");
    if (inline.isString()) {
      return of(inline.stringValue());
    }
    JsonNode yaml = context.config().path("judge_prompt_path");
    if (yaml.isString() && !yaml.stringValue().isBlank()) {
      return of(yamlUser(context, yaml.stringValue()));
    }
    JsonNode file = context.config().path("judge_prompt_template_fpath");
    if (file.isString() && !file.stringValue().isBlank()) {
      return of(read(context, "judge_prompt_template_fpath", file.stringValue()).strip());
    }
    return of(fallback);
  }

  /**
   * As {@link #configured(ServerContext, String)}, but with NeMo Gym's default prompt file (its config class's
   * default for {@code setting}, {@code judge_prompt_template_fpath} or {@code judge_prompt_path}, shipped in the
   * environment's folder and read in that setting's format) instead of text.
   */
  public static PromptTemplate configuredOr(ServerContext context, String setting, String defaultFile) {
    for (String key : List.of("judge_prompt_template", "judge_prompt_path", "judge_prompt_template_fpath")) {
      if (context.config().path(key).isString() && !context.config().path(key).stringValue().isBlank()) {
        return configured(context, "");
      }
    }
    if (setting.equals("judge_prompt_path")) {
      return of(yamlUser(context, defaultFile));
    }
    return of(read(context, setting, defaultFile).strip());
  }

  private static String yamlUser(ServerContext context, String file) {
    JsonNode user = dev.gym4j.config.Yaml.read(file(context, "judge_prompt_path", file)).path("user");
    if (!user.isString()) {
      throw new ConfigException(context.path("judge_prompt_path") + ": " + file + " has no 'user' prompt");
    }
    return user.stringValue();
  }

  /** A prompt file in the server's folder (or the config root), as UTF-8; a missing file is a config error. */
  public static String read(ServerContext context, String setting, String file) {
    try {
      return Files.readString(file(context, setting, file));
    } catch (IOException e) {
      throw new ConfigException(context.path(setting) + ": cannot read " + file + " (" + e.getClass().getSimpleName()
          + ")");
    }
  }

  private static Path file(ServerContext context, String setting, String file) {
    return context.global().serverFile(context.instance(), file, context.path(setting));
  }

  /** The names of the fields the template uses, in order of first use. */
  public Set<String> fields() {
    Set<String> names = new LinkedHashSet<>();
    for (int i = 1; i < parts.size(); i += 2) {
      names.add(parts.get(i));
    }
    return names;
  }

  /** The prompt with every field replaced; a field without a value is an error naming it. */
  public String render(Map<String, String> values) {
    StringBuilder prompt = new StringBuilder();
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      if (i % 2 == 0) {
        prompt.append(part);
      } else {
        String value = values.get(part);
        if (value == null) {
          throw new IllegalArgumentException("the judge prompt template uses {" + part + "}, which has no value");
        }
        prompt.append(value);
      }
    }
    return prompt.toString();
  }

  /** The template as written. */
  public String text() {
    return text;
  }

  private static String start(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "…";
  }
}
