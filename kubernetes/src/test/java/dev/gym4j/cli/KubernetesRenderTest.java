package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.testing.Fixtures;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code gym4j k8s render}: every rendered object parses into the Kubernetes API model (fabric8's, generated
 * from Kubernetes' OpenAPI schema) with no field it does not know, and the deployment's invariants hold:
 * each instance has a Deployment and a Service, probes on GET /, requests and limits; secrets are only in
 * the Secret. Instance and key names are NeMo Gym's ({@code resources_servers/example_single_tool_call/
 * configs/example_single_tool_call.yaml}, {@code responses_api_models/vllm_model/configs/vllm_model.yaml}).
 */
class KubernetesRenderTest {
  private static final String API_KEY = "sk-rendered-0123456789";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("Namespace", Namespace.class,
      "ConfigMap", ConfigMap.class, "Secret", Secret.class, "Service", Service.class, "Deployment", Deployment.class,
      "Job", Job.class, "PersistentVolumeClaim", PersistentVolumeClaim.class);
  private static final List<String> INSTANCES = List.of("example_single_tool_call",
      "example_single_tool_call_simple_agent", "policy_model");

  @TempDir
  Path dir;

  private Rendered render() throws Exception {
    return render("http://vllm.models:8000/v1");
  }

  private Rendered render(String baseUrl, String... more) throws Exception {
    Path root = Fixtures.projectRoot();
    StringWriter out = new StringWriter();
    picocli.CommandLine command = Main.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(out, true));
    List<String> args = new ArrayList<>(List.of("k8s", "render", "+config_paths=["
        + root.resolve("models/configs/vllm_model.yaml") + ","
        + root.resolve("environments/example_single_tool_call/config.yaml") + "]",
        "+policy_base_url=" + baseUrl, "+policy_api_key=" + API_KEY, "+policy_model_name=m"));
    args.addAll(List.of(more));
    args.addAll(List.of("--namespace", "rl", "--image", "registry.example.com/gym4j:1", "--replicas",
        "example_single_tool_call=3", "--collect", "4", "--collect-agent", "example_single_tool_call_simple_agent",
        "-o", dir.toString()));
    int status = command.execute(args.toArray(String[]::new));
    assertThat(status).as(out.toString()).isZero();
    return new Rendered(Files.readString(dir.resolve("gym4j.yaml")),
        Files.readString(dir.resolve("gym4j-secret.yaml")));
  }

  private record Rendered(String main, String secret) {
    List<HasMetadata> objects() {
      List<HasMetadata> objects = new ArrayList<>();
      for (String text : List.of(main, secret)) {
        for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text)) {
          Map<?, ?> map = (Map<?, ?>) document;
          Class<? extends HasMetadata> type = KINDS.get((String) map.get("kind"));
          assertThat(type).as("a kind this test knows: %s", map.get("kind")).isNotNull();
          HasMetadata parsed = MAPPER.convertValue(map, type);
          assertThat(unknownFields(parsed, map.get("kind") + " " + parsed.getMetadata().getName())).isEmpty();
          objects.add(parsed);
        }
      }
      return objects;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
      return objects().stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
      return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst()
          .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }
  }

  @Test
  void everyObjectIsValidForTheKubernetesApi() throws Exception {
    Rendered rendered = render();
    List<HasMetadata> objects = rendered.objects();
    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("Namespace", "ConfigMap", "Deployment",
        "Service", "Deployment", "Service", "Deployment", "Service", "Deployment", "Service",
        "PersistentVolumeClaim", "Job", "Secret");
    for (HasMetadata object : objects) {
      assertThat(object.getMetadata().getName()).matches("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");
      if (!(object instanceof Namespace)) {
        assertThat(object.getMetadata().getNamespace()).isEqualTo("rl");
      }
    }
    for (Deployment deployment : rendered.all(Deployment.class)) {
      Container container = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst();
      // quantities parse as Kubernetes reads them
      assertThat(Quantity.getAmountInBytes(container.getResources().getLimits().get("memory")).longValue())
          .isEqualTo(2L << 30);
      assertThat(Quantity.getAmountInBytes(container.getResources().getRequests().get("cpu")).doubleValue())
          .isEqualTo(0.25);
    }
  }

  @Test
  void theValidatorRejectsAFieldKubernetesDoesNotHave() {
    Map<String, Object> misspelt = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Service",
        "metadata", Map.of("name", "x"), "spec", Map.of("sessionAfinity", "ClientIP")));
    Service parsed = MAPPER.convertValue(misspelt, Service.class);
    assertThat(unknownFields(parsed, "Service x")).containsExactly("Service x.spec: [sessionAfinity]");
  }

  @Test
  void everyInstanceHasADeploymentAServiceProbesAndLimits() throws Exception {
    Rendered rendered = render();
    for (String instance : INSTANCES) {
      String name = KubernetesManifests.name(instance);
      Deployment deployment = rendered.named(Deployment.class, name);
      Service service = rendered.named(Service.class, name);
      var template = deployment.getSpec().getTemplate();
      assertThat(template.getMetadata().getLabels()).containsAllEntriesOf(service.getSpec().getSelector());
      assertThat(deployment.getSpec().getSelector().getMatchLabels()).isEqualTo(service.getSpec().getSelector());
      Container container = template.getSpec().getContainers().getFirst();
      assertThat(container.getImage()).isEqualTo("registry.example.com/gym4j:1");
      assertThat(container.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
          .containsExactly("http:8000");
      assertThat(service.getSpec().getPorts().getFirst().getTargetPort().getStrVal()).isEqualTo("http");
      assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/");
      assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/");
      assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
      assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
      assertThat(template.getMetadata().getAnnotations()).containsEntry("prometheus.io/scrape", "true")
          .containsEntry("prometheus.io/path", "/metrics").containsEntry("prometheus.io/port", "8000");
      assertThat(template.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
      // the instance announces its Service, which every replica is behind, not its own pod
      assertThat(container.getArgs()).startsWith("serve", instance, "--head", "http://gym4j-head:11000")
          .anyMatch(arg -> arg.endsWith(".announce_host=" + name)).anyMatch(arg -> arg.endsWith(".host=0.0.0.0"));
      boolean replicated = instance.equals("example_single_tool_call");
      assertThat(deployment.getSpec().getReplicas()).isEqualTo(replicated ? 3 : 1);
      assertThat(service.getSpec().getSessionAffinity()).isEqualTo(replicated ? "ClientIP" : null);
    }
    Container head = rendered.named(Deployment.class, "gym4j-head").getSpec().getTemplate().getSpec().getContainers()
        .getFirst();
    assertThat(head.getArgs()).contains("run", "++head_server.host=0.0.0.0", "--elsewhere");
    assertThat(head.getArgs().get(head.getArgs().indexOf("--elsewhere") + 1).split(","))
        .containsExactlyInAnyOrderElementsOf(INSTANCES);
  }

  @Test
  void secretsAreOnlyInTheSecretAndTheSplitConfigLoadsBackWhole() throws Exception {
    Rendered rendered = render();
    assertThat(rendered.main()).doesNotContain(API_KEY);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("gym4j-secret.yaml"))))
        .isEqualTo("rw-------");
    Secret secret = rendered.named(Secret.class, "gym4j-secrets");
    assertThat(secret.getStringData().get("env.yaml")).contains(API_KEY);
    for (Deployment deployment : rendered.all(Deployment.class)) {
      for (var env : deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv()) {
        assertThat(env.getValue()).as("%s is set from a Secret, not a literal", env.getName()).isNull();
        assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("gym4j-secrets");
      }
    }
    // the pods see config.yaml from the ConfigMap and env.yaml from the Secret: together, the same config
    Path pod = Files.createDirectories(dir.resolve("pod"));
    Files.writeString(pod.resolve("config.yaml"), rendered.named(ConfigMap.class, "gym4j-config").getData()
        .get("config.yaml"));
    Files.writeString(pod.resolve("env.yaml"), secret.getStringData().get("env.yaml"));
    GlobalConfig loaded = new ConfigLoader(List.of(pod), Map.of()).load(List.of("+config_paths=[config.yaml]"));
    assertThat(loaded.get("policy_model.responses_api_models.vllm_model.api_key").orElseThrow().asString())
        .isEqualTo(API_KEY);
    assertThat(loaded.get("policy_model.responses_api_models.vllm_model.base_url").orElseThrow().asString())
        .isEqualTo("http://vllm.models:8000/v1");
  }

  /**
   * Issue 31, defect 4: a URL's user info and a header value are secrets to the redactor ({@code gym4j config}
   * masks both), so they go to the Secret, not the world-readable ConfigMap; the pods still get them back.
   */
  @Test
  void urlUserInfoAndHeaderValuesGoToTheSecret_issue31() throws Exception {
    String password = "sk-userinfo-31-abcdefgh";
    String header = "custom-auth-31-ijklmnop";
    String url = "http://u:" + password + "@vllm.models:8000/v1";
    Rendered rendered = render(url,
        "++policy_model.responses_api_models.vllm_model.default_headers={X-Custom-Auth: " + header + "}");
    for (ConfigMap configMap : rendered.all(ConfigMap.class)) {
      assertThat(configMap.getData().values()).allSatisfy(text -> assertThat(text)
          .doesNotContain(password, header, "u:" + password, API_KEY));
    }
    for (Deployment deployment : rendered.all(Deployment.class)) {
      assertThat(MAPPER.writeValueAsString(deployment)).doesNotContain(password, header);
    }
    String env = rendered.named(Secret.class, "gym4j-secrets").getStringData().get("env.yaml");
    assertThat(env).contains(password, header);
    GlobalConfig loaded = loadedAsThePodsSeeIt(rendered);
    String model = "policy_model.responses_api_models.vllm_model.";
    assertThat(loaded.get(model + "base_url").orElseThrow().asString()).isEqualTo(url);
    assertThat(loaded.get(model + "default_headers").orElseThrow().path("X-Custom-Auth").asString())
        .isEqualTo(header);
    assertThat(loaded.get(model + "api_key").orElseThrow().asString()).isEqualTo(API_KEY);
  }

  /** config.yaml from the ConfigMap and env.yaml from the Secret, in one folder, loaded as a pod loads them. */
  private GlobalConfig loadedAsThePodsSeeIt(Rendered rendered) throws Exception {
    Path pod = Files.createDirectories(dir.resolve("pod"));
    Files.writeString(pod.resolve("config.yaml"), rendered.named(ConfigMap.class, "gym4j-config").getData()
        .get("config.yaml"));
    Files.writeString(pod.resolve("env.yaml"), rendered.named(Secret.class, "gym4j-secrets").getStringData()
        .get("env.yaml"));
    return new ConfigLoader(List.of(pod), Map.of()).load(List.of("+config_paths=[config.yaml]"));
  }

  @Test
  void theCollectJobShardsByCompletionIndexAndResumes() throws Exception {
    Rendered rendered = render();
    Job job = rendered.named(Job.class, "gym4j-collect");
    assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
    assertThat(job.getSpec().getCompletions()).isEqualTo(4);
    assertThat(job.getSpec().getParallelism()).isEqualTo(4);
    Container container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(container.getArgs()).containsSubsequence("--shard", "$(SHARD_INDEX)/4")
        .containsSubsequence("--output", "/data/shards/rollouts-$(SHARD_INDEX).jsonl").contains("--resume");
    assertThat(container.getEnv()).singleElement().satisfies(env -> {
      assertThat(env.getName()).isEqualTo("SHARD_INDEX");
      assertThat(env.getValueFrom().getFieldRef().getFieldPath())
          .isEqualTo("metadata.annotations['batch.kubernetes.io/job-completion-index']");
    });
    assertThat(container.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals("/data"));
    assertThat(rendered.named(PersistentVolumeClaim.class, "gym4j-rollouts").getSpec().getAccessModes())
        .containsExactly("ReadWriteMany");
  }

  @Test
  void replicasForAnInstanceTheConfigDoesNotHaveIsAUsageError() {
    StringWriter err = new StringWriter();
    picocli.CommandLine command = Main.commandLine();
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.setErr(new PrintWriter(err, true));
    Path root = Fixtures.projectRoot();
    int status = command.execute("k8s", "render", "+config_paths=[" + root.resolve("models/configs/vllm_model.yaml")
        + "," + root.resolve("environments/example_single_tool_call/config.yaml") + "]",
        "+policy_base_url=http://vllm.models:8000/v1", "+policy_api_key=" + API_KEY, "+policy_model_name=m",
        "--replicas", "weathr=2", "-o", dir.toString());
    assertThat(status).isEqualTo(Main.USAGE_ERROR);
    assertThat(err.toString()).contains("weathr").doesNotContain("Exception");
    assertThat(dir.resolve("gym4j.yaml")).doesNotExist();
  }

  /** Fields the model did not recognise, by object path: they land in fabric8's additionalProperties. */
  static List<String> unknownFields(Object object, String path) {
    List<String> unknown = new ArrayList<>();
    walk(object, path, unknown);
    return unknown;
  }

  private static void walk(Object object, String path, List<String> unknown) {
    if (object instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        walk(item, path + "[" + i++ + "]", unknown);
      }
      return;
    }
    if (object instanceof Map<?, ?> map) {
      map.forEach((key, value) -> walk(value, path + "." + key, unknown));
      return;
    }
    if (object == null || !object.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
      return;
    }
    for (Method method : object.getClass().getMethods()) {
      if (method.getParameterCount() != 0 || !method.getName().startsWith("get")
          || method.getDeclaringClass() == Object.class) {
        continue;
      }
      Object value;
      try {
        value = method.invoke(object);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
      if (method.getName().equals("getAdditionalProperties")) {
        if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
          unknown.add(path + ": " + extra.keySet());
        }
        continue;
      }
      String field = method.getName().substring(3);
      walk(value, path + "." + Character.toLowerCase(field.charAt(0)) + field.substring(1), unknown);
    }
  }
}
