package dev.gym4j.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The OCI image tarball Jib wrote in this build (target/gym4j-image.tar): its config (entrypoint, user,
 * ports) and its layers, then the image itself, unpacked and run as its config says under bubblewrap (no
 * container daemon here) with its AOT cache required, answering GET / as a Kubernetes probe would.
 */
class ImageTarballTest {
  private static final Path TARBALL = Path.of("target/gym4j-image.tar");

  @TempDir
  Path dir;

  @Test
  void theConfigRunsTheCommandAsANonRootUserWithItsPortsOpen() throws IOException {
    Image image = Image.read(TARBALL);
    JsonNode config = image.config().get("config");
    assertThat(config.get("User").asString()).isEqualTo("65532:65532");
    assertThat(config.get("Entrypoint").get(0).asString()).isEqualTo("/opt/java/bin/java");
    assertThat(config.get("Entrypoint").get(config.get("Entrypoint").size() - 1).asString())
        .isEqualTo("dev.gym4j.cli.Main");
    assertThat(config.get("ExposedPorts").propertyNames()).containsExactlyInAnyOrder("8000/tcp", "11000/tcp");
    assertThat(image.config().get("os").asString()).isEqualTo("linux");
    assertThat(image.config().get("architecture").asString()).isEqualTo("amd64");
  }

  @Test
  void theLayersHoldTheJreItsLibrariesAndTheDistribution() throws IOException {
    Image image = Image.read(TARBALL);
    Set<String> files = image.files();
    assertThat(files).contains("opt/java/bin/java", "opt/java/lib/server/libjvm.so", "lib64/ld-linux-x86-64.so.2",
        "etc/passwd", "app/models/configs/vllm_model.yaml",
        "app/environments/example_single_tool_call/config.yaml", "app/jib-classpath-file",
        // the ahead-of-time cache the build recorded in the image, as the gym4j launcher records its own
        "app/gym4j.aot");
    assertThat(files).anyMatch(f -> f.matches("app/libs/gym4j-cli.*\\.jar"))
        .anyMatch(f -> f.matches("app/libs/helidon-webserver-.*\\.jar"))
        .anyMatch(f -> f.matches("lib/x86_64-linux-gnu/libc\\.so\\.6"));
    // the runtime only: no test framework in the image
    assertThat(files).noneMatch(f -> f.contains("junit") || f.contains("assertj") || f.contains("fabric8"));
    assertThat(image.layerCount()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void theUnpackedImageServesAnEnvironmentThatAnswersGetRoot() throws Exception {
    // unpacked and run as the config says: its entrypoint, its user, its working directory, nothing from here
    Image image = Image.read(TARBALL);
    Path root = Files.createDirectories(dir.resolve("rootfs"));
    image.unpack(root);
    JsonNode config = image.config().get("config");
    int port = freePort();
    List<String> command = new ArrayList<>(List.of("bwrap", "--bind", root.toString(), "/", "--proc", "/proc",
        "--dev", "/dev", "--tmpfs", "/tmp", "--unshare-pid", "--unshare-user", "--die-with-parent", "--uid", "65532",
        "--gid", "65532", "--chdir", config.get("WorkingDir").asString(), "--clearenv",
        // the JVM refuses to start unless it can use the image's AOT cache
        "--setenv", "JAVA_TOOL_OPTIONS", "-XX:AOTMode=on"));
    config.get("Env").forEach(e -> {
      String[] pair = e.asString().split("=", 2);
      command.addAll(List.of("--setenv", pair[0], pair[1]));
    });
    config.get("Entrypoint").forEach(arg -> command.add(arg.asString()));
    // the configs the image carries under gym4j.home; the model is not called while nothing collects
    command.addAll(List.of("run", "+config_paths=[models/configs/vllm_model.yaml,"
        + "environments/example_single_tool_call/config.yaml]", "++head_server.port=" + port,
        "+policy_base_url=http://127.0.0.1:9/v1", "+policy_api_key=unused", "+policy_model_name=unused"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("image.log").toFile()).start();
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      int status = 0;
      while (System.nanoTime() < deadline && process.isAlive() && status != 200) {
        try {
          status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
              .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
          Thread.sleep(200);
        }
      }
      assertThat(status).as(Files.readString(dir.resolve("image.log"))).isEqualTo(200);
      String instances = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/server_instances")).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(instances).contains("\"process_name\":\"example_single_tool_call\"");
    } finally {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static int freePort() throws IOException {
    try (var socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** An OCI image layout in a tar file: index, manifest, config and gzipped layers, read by digest. */
  private record Image(Map<String, byte[]> blobs, JsonNode manifest) {
    static Image read(Path tarball) throws IOException {
      assertThat(tarball).as("the image tarball the build writes before the tests").exists();
      Map<String, byte[]> entries = Tar.read(Files.newInputStream(tarball));
      JsonNode index = Json.parse(entries.get("index.json"));
      JsonNode manifest = Json.parse(blob(entries, index.get("manifests").get(0).get("digest").asString()));
      Map<String, byte[]> blobs = new HashMap<>();
      entries.forEach((name, bytes) -> {
        if (name.startsWith("blobs/sha256/")) {
          blobs.put("sha256:" + name.substring("blobs/sha256/".length()), bytes);
        }
      });
      return new Image(blobs, manifest);
    }

    private static byte[] blob(Map<String, byte[]> entries, String digest) {
      return entries.get("blobs/" + digest.replace(':', '/'));
    }

    JsonNode config() {
      return Json.parse(blobs.get(manifest.get("config").get("digest").asString()));
    }

    int layerCount() {
      return manifest.get("layers").size();
    }

    Set<String> files() throws IOException {
      Set<String> files = new HashSet<>();
      for (JsonNode layer : manifest.get("layers")) {
        files.addAll(Tar.read(new GZIPInputStream(new java.io.ByteArrayInputStream(
            blobs.get(layer.get("digest").asString())))).keySet());
      }
      return files;
    }

    void unpack(Path root) throws IOException, InterruptedException {
      for (JsonNode layer : manifest.get("layers")) {
        Path file = Files.write(root.resolveSibling("layer.tar.gz"), blobs.get(layer.get("digest").asString()));
        Process tar = new ProcessBuilder("tar", "--warning=no-unknown-keyword", "-xzf", file.toString(), "-C",
            root.toString()).redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0).as(out).isTrue();
      }
    }
  }

  /** Regular files of a ustar stream, by path without a leading "./" or "/". */
  private static final class Tar {
    static Map<String, byte[]> read(InputStream in) throws IOException {
      Map<String, byte[]> files = new HashMap<>();
      try (in) {
        byte[] header = new byte[512];
        String longName = null;
        while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
          String name = longName != null ? longName : field(header, 0, 100);
          String prefix = field(header, 345, 155);
          if (longName == null && !prefix.isEmpty()) {
            name = prefix + "/" + name;
          }
          longName = null;
          long size = Long.parseLong(field(header, 124, 12).trim().isEmpty() ? "0" : field(header, 124, 12).trim(), 8);
          byte type = header[156];
          byte[] body = in.readNBytes((int) size);
          in.skipNBytes((512 - size % 512) % 512);
          if (type == 'L') {
            longName = new String(body, StandardCharsets.UTF_8).replace("\0", "");
          } else if (type == '0' || type == 0) {
            files.put(name.replaceFirst("^\\./", "").replaceFirst("^/", ""), body);
          }
        }
      }
      return files;
    }

    private static String field(byte[] header, int offset, int length) {
      int end = offset;
      while (end < offset + length && header[end] != 0) {
        end++;
      }
      return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
    }
  }
}
