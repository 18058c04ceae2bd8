package dev.gym4j.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A resources server that runs model-written code in a {@link Sandbox} of its own, started from the instance's
 * config when the server starts and closed when it stops. NeMo Gym's {@code num_processes} sets how many runs go at
 * once unless {@code sandbox_concurrency} is set. A sandbox that cannot run is a failure of the rollout (502),
 * never a reward.
 */
public abstract class SandboxedServer extends ResourcesServer {
  private Sandbox sandbox;

  /** Reads the environment's own keys; called before the sandbox starts, so a bad key fails first. */
  protected void configure(ObjectNode config) {}

  @Override
  protected final void start() {
    ObjectNode config = context().config();
    configure(config);
    SandboxSettings settings = SandboxSettings.from(config, context().name());
    if (config.has("num_processes") && !config.has("sandbox_concurrency")) {
      settings = settings.withConcurrency(config.get("num_processes").asInt(), settings.queueTimeout());
    }
    sandbox = Sandbox.start(settings);
    started(sandbox);
  }

  /** Called once the sandbox runs, for what needs it (long-lived interpreters). */
  protected void started(Sandbox sandbox) {}

  /** Closes the sandbox, which kills whatever still runs in it; a subclass that overrides this calls super. */
  @Override
  protected void stop() {
    if (sandbox != null) {
      sandbox.close();
    }
    super.stop();
  }

  protected final Sandbox sandbox() {
    return sandbox;
  }

  /** Runs a program in the sandbox; a sandbox that cannot run it is an {@link UpstreamException}. */
  protected final ExecutionResult run(Execution execution) {
    try {
      return sandbox.run(execution);
    } catch (SandboxException e) {
      throw upstream(e);
    }
  }

  /**
   * Runs a trusted checker that calls into the untrusted candidate, each in a sandbox of its own (see
   * {@link Sandbox#runChecked}); a sandbox that cannot run them is an {@link UpstreamException}.
   */
  protected final ExecutionResult runChecked(Execution checker, Execution candidate) {
    try {
      return sandbox.runChecked(checker, candidate);
    } catch (SandboxException e) {
      throw upstream(e);
    }
  }

  /** A sandbox failure as the rollout's failure, named after this environment. */
  protected final UpstreamException upstream(SandboxException e) {
    return new UpstreamException(UpstreamException.Kind.STATUS, context().name() + ": " + e.getMessage(), 0, e);
  }

  /**
   * The JSON object a checker printed on its last line of standard output. Only for the result of
   * {@link #runChecked}, whose standard output no model-written code can reach: never read a verdict from the
   * output of a process that ran the candidate.
   */
  protected static ObjectNode checkerResult(ExecutionResult result) {
    String[] lines = result.stdout().strip().split("\n");
    JsonNode last = Json.parse(lines[lines.length - 1]);
    if (!last.isObject()) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "the checker's last line is not a JSON object");
    }
    return (ObjectNode) last;
  }

  /** A text file packed next to {@code owner} (a checker script, example problems). */
  protected static String resource(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + " of " + owner.getSimpleName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
