package dev.gym4j.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.Secrets;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.Yaml;
import dev.gym4j.head.HeadSecret;
import dev.gym4j.json.Json;
import dev.gym4j.run.ServedInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Kubernetes objects of a deployment ({@code gym4j k8s render}): the head server and each server instance
 * as a Deployment and a Service, the config in a ConfigMap with its secrets taken out into a Secret, and,
 * for a collection, an indexed Job whose pods each collect one shard onto a shared volume.
 *
 * <p>Every pod runs the same image; an instance pod runs {@code gym4j serve} and announces its Service name
 * to the head server ({@code announce_host}), so calls reach any replica through the Service. Sessions live
 * in the replica that seeded them: with more than one replica the Service keeps each caller on one replica
 * ({@code sessionAffinity: ClientIP}) for longer than a rollout lasts.
 */
final class KubernetesManifests {
  static final int INSTANCE_PORT = 8000;
  static final int HEAD_PORT = 11000;
  static final String CONFIG_MAP = "gym4j-config";
  static final String SECRET = "gym4j-secrets";
  static final String HEAD = "gym4j-head";
  static final String VOLUME_CLAIM = "gym4j-rollouts";
  /** Longer than a rollout's deadline (simple_agent's 60 minutes, collect's 65): a session never moves. */
  static final int AFFINITY_SECONDS = 3 * 60 * 60;
  private static final String CONFIG_DIR = "/etc/gym4j/config";
  private static final String SECRET_DIR = "/etc/gym4j/secret";
  private static final int USER = 65532;

  /** An indexed collection Job: {@code shards} pods, each collecting the tasks of its index. */
  record Collect(int shards, String input, String agent, int repeats, String storage) {}

  record Options(String namespace, String image, Map<String, Integer> replicas, Collect collect) {}

  private final GlobalConfig config;
  private final Options options;

  KubernetesManifests(GlobalConfig config, Options options) {
    this.config = config;
    this.options = options;
    for (String name : options.replicas().keySet()) {
      config.require(name);
    }
  }

  /** The objects in the order {@code kubectl apply} should create them. */
  List<ObjectNode> objects(HeadSecret headSecret) {
    List<ObjectNode> objects = new ArrayList<>();
    if (!options.namespace().equals("default")) {
      objects.add(object("v1", "Namespace", options.namespace(), false));
    }
    Split split = split(config.raw());
    ObjectNode configMap = object("v1", "ConfigMap", CONFIG_MAP, true);
    configMap.putObject("data").put("config.yaml", Yaml.write(split.plain()));
    objects.add(configMap);
    ObjectNode secret = object("v1", "Secret", SECRET, true);
    secret.put("type", "Opaque");
    ObjectNode data = secret.putObject("stringData");
    data.put("env.yaml", split.secret().isEmpty() ? "{}\n" : Yaml.write(split.secret()));
    data.put("head-secret", headSecret.value());
    objects.add(secret);
    List<String> everyInstance = config.instances().stream().map(ServerInstance::name).toList();
    objects.add(deployment(HEAD, 1, HEAD_PORT, headArguments(everyInstance)));
    objects.add(service(HEAD, HEAD_PORT, 1));
    for (ServerInstance instance : config.instances()) {
      int replicas = options.replicas().getOrDefault(instance.name(), 1);
      objects.add(deployment(name(instance.name()), replicas, INSTANCE_PORT, serveArguments(instance)));
      objects.add(service(name(instance.name()), INSTANCE_PORT, replicas));
    }
    if (options.collect() != null) {
      objects.add(volumeClaim(options.collect().storage()));
      objects.add(collectJob(options.collect()));
    }
    return objects;
  }

  /** A Kubernetes name for an instance: a DNS label, as a Service name must be. */
  static String name(String instance) {
    String label = "gym4j-" + instance.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("-+$", "");
    if (label.length() <= 63) {
      return label;
    }
    String hash = Integer.toHexString(instance.hashCode() & 0x7fffffff);
    return label.substring(0, 62 - hash.length()).replaceAll("-+$", "") + "-" + hash;
  }

  /** The config without its secrets, and the secrets alone, each at its path in the tree. */
  record Split(ObjectNode plain, ObjectNode secret) {}

  static Split split(ObjectNode raw) {
    ObjectNode plain = raw.deepCopy();
    plain.remove("config_paths");
    ObjectNode secret = Json.object();
    moveSecrets(plain, secret, false);
    return new Split(plain, secret);
  }

  /**
   * Moves every value the redactor counts as a secret ({@link Secrets#isSecret}): under a secret key, in a header
   * map, or holding a URL's user info or a credential; a list holding one moves whole, as env.yaml replaces it whole.
   */
  private static void moveSecrets(ObjectNode from, ObjectNode to, boolean underHeaders) {
    for (String key : new ArrayList<>(from.propertyNames())) {
      JsonNode value = from.get(key);
      // an interpolation only names another key, which is moved itself if it is a secret
      boolean secret = value.isString() ? !value.stringValue().startsWith("${")
          && Secrets.isSecret(key, underHeaders, value.stringValue())
          : value.isArray() && holdsSecret(value);
      if (secret) {
        to.set(key, value);
        from.remove(key);
      } else if (value instanceof ObjectNode child) {
        ObjectNode moved = Json.object();
        moveSecrets(child, moved, Secrets.isHeaderKey(key));
        if (!moved.isEmpty()) {
          to.set(key, moved);
        }
      }
    }
  }

  private static boolean holdsSecret(JsonNode list) {
    for (JsonNode item : list) {
      ObjectNode moved = Json.object();
      if (item instanceof ObjectNode object) {
        moveSecrets(object.deepCopy(), moved, false);
      }
      if (!moved.isEmpty() || item.isString() && Secrets.isSecret("", false, item.stringValue())
          || item.isArray() && holdsSecret(item)) {
        return true;
      }
    }
    return false;
  }

  private List<String> headArguments(List<String> instances) {
    List<String> args = new ArrayList<>(List.of("run", "+config_paths=[" + CONFIG_DIR + "/config.yaml]",
        "++head_server.host=0.0.0.0", "++head_server.port=" + HEAD_PORT));
    if (!instances.isEmpty()) {
      args.addAll(List.of("--elsewhere", String.join(",", instances)));
    }
    return args;
  }

  private List<String> serveArguments(ServerInstance instance) {
    String block = "++" + instance.name() + "." + instance.kind().key() + "." + instance.implementation() + ".";
    return List.of("serve", instance.name(), "--head", headUrl(), block + "host=0.0.0.0",
        block + "port=" + INSTANCE_PORT, block + ServedInstance.ANNOUNCE_HOST + "=" + name(instance.name()));
  }

  private String headUrl() {
    return "http://" + HEAD + ":" + HEAD_PORT;
  }

  private ObjectNode object(String apiVersion, String kind, String name, boolean namespaced) {
    ObjectNode object = Json.object();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    ObjectNode metadata = object.putObject("metadata");
    metadata.put("name", name);
    if (namespaced) {
      metadata.put("namespace", options.namespace());
    }
    metadata.putObject("labels").put("app.kubernetes.io/part-of", "gym4j");
    return object;
  }

  private ObjectNode deployment(String name, int replicas, int port, List<String> args) {
    ObjectNode deployment = object("apps/v1", "Deployment", name, true);
    ObjectNode spec = deployment.putObject("spec");
    spec.put("replicas", replicas);
    spec.putObject("selector").putObject("matchLabels").put("app.kubernetes.io/name", name);
    ObjectNode template = spec.putObject("template");
    ObjectNode metadata = template.putObject("metadata");
    metadata.putObject("labels").put("app.kubernetes.io/name", name).put("app.kubernetes.io/part-of", "gym4j");
    metadata.putObject("annotations").put("prometheus.io/scrape", "true").put("prometheus.io/port",
        String.valueOf(port)).put("prometheus.io/path", "/metrics");
    ObjectNode pod = podSpec(template);
    ObjectNode container = container(pod, args);
    // the head server checks it, gym4j serve shows it: the collector needs none
    ((ArrayNode) container.get("env")).addObject().put("name", "GYM4J_HEAD_SECRET").putObject("valueFrom")
        .putObject("secretKeyRef").put("name", SECRET).put("key", "head-secret");
    container.put("workingDir", SECRET_DIR);
    container.putArray("ports").addObject().put("name", "http").put("containerPort", port);
    container.set("readinessProbe", probe(port, 2, 3));
    container.set("livenessProbe", probe(port, 10, 6));
    container.putObject("startupProbe").setAll(probe(port, 1, 60));
    mountConfigAndSecret(pod, container);
    return deployment;
  }

  private ObjectNode podSpec(ObjectNode template) {
    ObjectNode pod = template.putObject("spec");
    pod.put("automountServiceAccountToken", false);
    pod.putObject("securityContext").put("runAsNonRoot", true).put("runAsUser", USER).put("runAsGroup", USER)
        .put("fsGroup", USER).putObject("seccompProfile").put("type", "RuntimeDefault");
    return pod;
  }

  private ObjectNode container(ObjectNode pod, List<String> args) {
    ObjectNode container = pod.putArray("containers").addObject();
    container.put("name", "gym4j");
    container.put("image", options.image());
    ArrayNode argList = container.putArray("args");
    args.forEach(argList::add);
    container.putArray("env");
    ObjectNode resources = container.putObject("resources");
    resources.putObject("requests").put("cpu", "250m").put("memory", "512Mi");
    resources.putObject("limits").put("cpu", "2").put("memory", "2Gi");
    container.putObject("securityContext").put("allowPrivilegeEscalation", false).put("readOnlyRootFilesystem", true)
        .putObject("capabilities").putArray("drop").add("ALL");
    ArrayNode mounts = container.putArray("volumeMounts");
    mounts.addObject().put("name", "tmp").put("mountPath", "/tmp");
    pod.putArray("volumes").addObject().put("name", "tmp").putObject("emptyDir");
    return container;
  }

  /** The ConfigMap's config.yaml, and the Secret's env.yaml in the working directory, where gym4j reads it. */
  private void mountConfigAndSecret(ObjectNode pod, ObjectNode container) {
    ArrayNode mounts = (ArrayNode) container.get("volumeMounts");
    mounts.addObject().put("name", "config").put("mountPath", CONFIG_DIR).put("readOnly", true);
    mounts.addObject().put("name", "secret").put("mountPath", SECRET_DIR).put("readOnly", true);
    ArrayNode volumes = (ArrayNode) pod.get("volumes");
    volumes.addObject().put("name", "config").putObject("configMap").put("name", CONFIG_MAP);
    ObjectNode secret = volumes.addObject().put("name", "secret").putObject("secret");
    secret.put("secretName", SECRET).put("defaultMode", 0400);
    secret.putArray("items").addObject().put("key", "env.yaml").put("path", "env.yaml");
  }

  private static ObjectNode probe(int port, int periodSeconds, int failureThreshold) {
    ObjectNode probe = Json.object();
    probe.putObject("httpGet").put("path", "/").put("port", port);
    probe.put("periodSeconds", periodSeconds);
    probe.put("timeoutSeconds", 2);
    probe.put("failureThreshold", failureThreshold);
    return probe;
  }

  private ObjectNode service(String name, int port, int replicas) {
    ObjectNode service = object("v1", "Service", name, true);
    ObjectNode spec = service.putObject("spec");
    spec.putObject("selector").put("app.kubernetes.io/name", name);
    spec.putArray("ports").addObject().put("name", "http").put("port", port).put("targetPort", "http");
    if (replicas > 1) {
      spec.put("sessionAffinity", "ClientIP");
      spec.putObject("sessionAffinityConfig").putObject("clientIP").put("timeoutSeconds", AFFINITY_SECONDS);
    }
    return service;
  }

  private ObjectNode volumeClaim(String storage) {
    ObjectNode claim = object("v1", "PersistentVolumeClaim", VOLUME_CLAIM, true);
    ObjectNode spec = claim.putObject("spec");
    // every shard's pod writes its own files on the same volume, from any node
    spec.putArray("accessModes").add("ReadWriteMany");
    spec.putObject("resources").putObject("requests").put("storage", storage);
    return claim;
  }

  private ObjectNode collectJob(Collect collect) {
    if (collect.shards() < 1) {
      throw new ConfigException("--collect needs at least 1 shard, got " + collect.shards());
    }
    ObjectNode job = object("batch/v1", "Job", "gym4j-collect", true);
    ObjectNode spec = job.putObject("spec");
    spec.put("completionMode", "Indexed");
    spec.put("completions", collect.shards());
    spec.put("parallelism", collect.shards());
    // a failed pod is replaced and resumes its shard from the volume; give each shard a few tries
    spec.put("backoffLimit", 4 * collect.shards());
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app.kubernetes.io/name", "gym4j-collect")
        .put("app.kubernetes.io/part-of", "gym4j");
    ObjectNode pod = podSpec(template);
    pod.put("restartPolicy", "OnFailure");
    String output = "/data/shards/rollouts-$(SHARD_INDEX).jsonl";
    List<String> args = new ArrayList<>(List.of("collect", "--head", headUrl(), "--input", collect.input(),
        "--output", output, "--resume", "--shard", "$(SHARD_INDEX)/" + collect.shards(), "--repeats",
        String.valueOf(collect.repeats())));
    if (collect.agent() != null) {
      args.addAll(List.of("--agent", collect.agent()));
    }
    ObjectNode container = container(pod, args);
    // declared before the arguments use it: Kubernetes expands $(NAME) only for variables the container lists
    ((ArrayNode) container.get("env")).addObject().put("name", "SHARD_INDEX").putObject("valueFrom")
        .putObject("fieldRef")
        .put("fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']");
    ((ArrayNode) container.get("volumeMounts")).addObject().put("name", "rollouts").put("mountPath", "/data");
    ((ArrayNode) pod.get("volumes")).addObject().put("name", "rollouts").putObject("persistentVolumeClaim")
        .put("claimName", VOLUME_CLAIM);
    return job;
  }

  /** The objects as one YAML stream, secrets excepted, and the Secret alone. */
  static Map<String, String> files(List<ObjectNode> objects) {
    StringBuilder main = new StringBuilder();
    StringBuilder secrets = new StringBuilder();
    for (ObjectNode object : objects) {
      StringBuilder target = object.path("kind").asString().equals("Secret") ? secrets : main;
      target.append("---\n").append(Yaml.write(object));
    }
    Map<String, String> files = new LinkedHashMap<>();
    files.put("gym4j.yaml", main.toString());
    files.put("gym4j-secret.yaml", secrets.toString());
    return files;
  }
}
