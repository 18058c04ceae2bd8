package dev.gym4j.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;

/**
 * The official Anthropic SDKs as real clients: the TypeScript SDK ({@code @anthropic-ai/sdk} from npm) and the
 * Python SDK ({@code anthropic} from the configured pip index, in a venv), each installed once into a folder under
 * the module's {@code target/}, at pinned versions. A client runs the scenario script shipped beside this class
 * against a base URL and prints what it read from the SDK's typed objects as one JSON document.
 *
 * <p>Where the SDK cannot be installed (no registry), the test is skipped, except in CI ({@code GYM4J_CI=1}),
 * where it fails.
 */
public final class AnthropicSdks {
  public static final String NODE_SDK = "@anthropic-ai/sdk@1.12.0";
  public static final String PYTHON_SDK = "anthropic==1.13.0";
  private static final long INSTALL_MINUTES = 8;
  private static final long RUN_SECONDS = 120;

  private AnthropicSdks() {}

  /** The scenario's result as read through the TypeScript SDK. */
  public static JsonNode typescript(Path target, String baseUrl, String scenario) {
    Path dir = target.resolve("anthropic-sdk-node");
    if (!Files.isDirectory(dir.resolve("node_modules/@anthropic-ai/sdk"))) {
      run(dir, INSTALL_MINUTES * 60, true, "npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix",
          dir.toString(), NODE_SDK);
    }
    Path script = copy("anthropic_sdk.mjs", dir);
    return Json.parse(run(dir, RUN_SECONDS, false, "node", script.toString(), baseUrl, scenario));
  }

  /** The scenario's result as read through the Python SDK. */
  public static JsonNode python(Path target, String baseUrl, String scenario) {
    Path dir = target.resolve("anthropic-sdk-python");
    Path python = dir.resolve("bin/python");
    if (!Files.isExecutable(dir.resolve("bin/ready"))) {
      run(target, 120, true, "python3", "-m", "venv", dir.toString());
      // a registry that cannot be reached should fail in seconds, not after pip's default retries
      run(dir, INSTALL_MINUTES * 60, true, python.toString(), "-m", "pip", "install", "--quiet", "--retries", "0",
          "--timeout", "20", PYTHON_SDK);
      try {
        Files.writeString(dir.resolve("bin/ready"), "");
        dir.resolve("bin/ready").toFile().setExecutable(true);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    Path script = copy("anthropic_sdk.py", dir);
    return Json.parse(run(dir, RUN_SECONDS, false, python.toString(), script.toString(), baseUrl, scenario));
  }

  private static Path copy(String name, Path dir) {
    try (InputStream in = AnthropicSdks.class.getResourceAsStream(name)) {
      Path out = dir.resolve(name);
      Files.write(out, in.readAllBytes());
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Runs a command and returns its standard output. An install step that fails skips the test outside CI (no npm,
   * no registry); a client run that fails always fails the test.
   */
  private static String run(Path dir, long seconds, boolean install, String... command) {
    String shown = String.join(" ", command);
    try {
      Files.createDirectories(dir);
      Path out = Files.createTempFile(dir, "sdk", ".out");
      Path err = Files.createTempFile(dir, "sdk", ".err");
      try {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
            .redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
          throw new AssertionError(shown + " did not finish within " + seconds + " s");
        }
        String output = Files.readString(out);
        if (process.exitValue() != 0) {
          String why = shown + " exited with " + process.exitValue() + ": " + Files.readString(err) + output;
          if (!install) {
            throw new AssertionError(why);
          }
          unavailable(why);
        }
        return output;
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      unavailable(shown + " could not run: " + e.getMessage());
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** In CI a failure; elsewhere a skip. */
  private static void unavailable(String why) {
    if ("1".equals(System.getenv("GYM4J_CI"))) {
      throw new AssertionError(why);
    }
    Assumptions.abort(why);
  }
}
