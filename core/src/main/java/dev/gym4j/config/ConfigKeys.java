package dev.gym4j.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The top-level keys of a config, and what gym4j does with each, so that a typo never passes silently. A
 * top-level key is fine when it is a server instance, a setting gym4j reads, or a value some {@code ${key}}
 * interpolation refers to (as {@code policy_base_url} is). NeMo Gym's own settings that gym4j accepts but does
 * not use get a warning saying so; anything else gets a warning naming it, its file and the closest known key.
 */
public final class ConfigKeys {
  /** The global settings gym4j reads, by any command. */
  static final Set<String> READ = Set.of(
      // deployment
      "config_paths", "head_server", "default_host", "policy_base_url", "policy_api_key", "policy_model_name",
      "max_body_bytes", "max_concurrent_requests", "client_connect_timeout_seconds", "client_request_timeout_seconds",
      "client_max_attempts", "client_initial_backoff_seconds", "client_max_backoff_seconds",
      "client_max_connections_per_upstream", "client_max_streams_per_upstream", "client_http2", "client_in_process",
      // collection (NeMo Gym's ng_collect_rollouts)
      "agent_name", "input_jsonl_fpath", "output_jsonl_fpath", "num_repeats", "num_samples_in_parallel", "limit",
      "resume_from_cache", "responses_create_params", "max_rollout_attempts", "num_repeats_add_seed", "prompt_config",
      // reward profile (NeMo Gym's gym eval profile) and its command line's -v
      "materialized_inputs_jsonl_fpath", "rollouts_jsonl_fpath", "allow_partial_rollouts", "verbose");

  /** NeMo Gym's global settings that gym4j accepts and does not use, with the reason. */
  static final Map<String, String> NEMO_GYM_UNUSED = Map.ofEntries(
      Map.entry("disallowed_ports", "ports are chosen by the system (port: 0)"),
      Map.entry("port_range_low", "ports are chosen by the system (port: 0)"),
      Map.entry("port_range_high", "ports are chosen by the system (port: 0)"),
      Map.entry("head_server_deps", "gym4j builds no Python environments"),
      Map.entry("python_version", "gym4j builds no Python environments"),
      Map.entry("pip_install_verbose", "gym4j builds no Python environments"),
      Map.entry("uv_pip_set_python", "gym4j builds no Python environments"),
      Map.entry("skip_venv_if_present", "gym4j builds no Python environments"),
      Map.entry("uv_cache_dir", "gym4j builds no Python environments"),
      Map.entry("uv_venv_dir", "gym4j builds no Python environments"),
      Map.entry("hf_token", "gym4j downloads no datasets"),
      Map.entry("ray_head_node_address", "gym4j does not use Ray"),
      Map.entry("dry_run", "gym4j has no dry run; gym4j run --check starts everything and stops"),
      Map.entry("model_endpoint_readiness_timeout_seconds", "gym4j does not wait for the model endpoint at start"),
      Map.entry("allow_openai_version_skew", "gym4j does not use the openai package"),
      Map.entry("results_dir", "gym4j writes where --output says"),
      Map.entry("cache_dir", "gym4j keeps no cache"),
      Map.entry("nemo_gym_log_dir", "gym4j logs to the console"),
      Map.entry("verbose", "gym4j has no verbose mode; --debug prints stack traces"),
      Map.entry("observability_enabled", "gym4j serves its metrics at GET /metrics always"),
      Map.entry("model_call_capture_dir", "gym4j does not capture model calls"),
      Map.entry("disable_aggregation", "gym4j always writes the aggregate metrics"),
      Map.entry("rollout_collection_driver", "gym4j has one collection procedure"),
      Map.entry("skills", "gym4j does not implement Agent Skills"));

  /** NeMo Gym's server settings that gym4j accepts and does not use, wherever they appear in an instance. */
  static final Map<String, String> NEMO_GYM_UNUSED_IN_SERVERS = Map.of();
  // (vllm_model's use_completions_api, render_chat_template and tokenizer were here until vllm_model took them)

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z0-9_]+)[.}]");

  private ConfigKeys() {}

  /** One line per key that gym4j will not use, naming it and, when known, its file. */
  static List<String> warnings(ObjectNode raw, Set<String> instances, Origins origins) {
    Set<String> referenced = new HashSet<>();
    references(raw, referenced);
    List<String> warnings = new ArrayList<>();
    for (var field : raw.properties()) {
      String key = field.getKey();
      if (instances.contains(key) || READ.contains(key) || referenced.contains(key)) {
        continue;
      }
      String where = where(key, field.getValue(), origins);
      if (NEMO_GYM_UNUSED.containsKey(key)) {
        warnings.add(key + where + " is a NeMo Gym setting that gym4j does not use: " + NEMO_GYM_UNUSED.get(key));
      } else {
        Set<String> known = new TreeSet<>(READ);
        known.addAll(instances);
        warnings.add("unknown key " + key + where + ": not a server instance, not a setting gym4j reads, and no ${"
            + key + "} refers to it" + GlobalConfig.Names.didYouMean(key, known));
      }
    }
    for (String instance : instances) {
      serverSettings(raw.path(instance), instance, origins, warnings);
    }
    return warnings;
  }

  /** " (file)" for a key, or for the first key under it that has one (a dotted override sets only the leaf). */
  private static String where(String key, JsonNode value, Origins origins) {
    String where = origins.suffix(key);
    if (where.isEmpty() && value.isObject() && !value.isEmpty()) {
      String child = value.propertyNames().iterator().next();
      return where(key + "." + child, value.get(child), origins);
    }
    return where;
  }

  private static void serverSettings(JsonNode node, String path, Origins origins, List<String> warnings) {
    for (var field : node.properties()) {
      String child = path + "." + field.getKey();
      if (NEMO_GYM_UNUSED_IN_SERVERS.containsKey(field.getKey()) && !field.getValue().isObject()) {
        warnings.add(child + origins.suffix(child) + " is a NeMo Gym setting that gym4j does not use: "
            + NEMO_GYM_UNUSED_IN_SERVERS.get(field.getKey()));
      } else if (field.getValue().isObject()) {
        serverSettings(field.getValue(), child, origins, warnings);
      }
    }
  }

  private static void references(JsonNode node, Set<String> into) {
    if (node.isString()) {
      Matcher matcher = REFERENCE.matcher(node.asString());
      while (matcher.find()) {
        into.add(matcher.group(1));
      }
    } else {
      node.forEach(child -> references(child, into));
    }
  }
}
