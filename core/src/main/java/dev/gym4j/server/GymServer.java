package dev.gym4j.server;

import dev.gym4j.config.ServerKind;

/**
 * One server implementation: a model server, an environment (resources server) or an agent. Subclasses
 * have a public no-argument constructor, an {@link Implementation} name, and a line in
 * {@code META-INF/services/dev.gym4j.server.GymServer}; the runtime gives each instance its
 * {@link ServerContext} before asking for its routes.
 */
public abstract class GymServer {
  private ServerContext context;

  /** Which kind of server this is; the base class of each kind answers it. */
  public abstract ServerKind kind();

  /** Adds this server's endpoints. {@code GET /} is added by the runtime. */
  protected abstract void routes(Routes routes);

  /** Called once, after the context is set and before the routes are built. */
  protected void start() {}

  /** Called once when the server stops. */
  protected void stop() {}

  public final ServerContext context() {
    if (context == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " is not started yet");
    }
    return context;
  }

  final void attach(ServerContext context) {
    if (this.context != null) {
      throw new IllegalStateException(getClass().getSimpleName() + " is already attached to " + this.context.name());
    }
    this.context = context;
  }

  /** The session cookie's name: {@code <Class>___<instance>}, as in NeMo Gym. */
  public String sessionCookieName() {
    return getClass().getSimpleName() + "___" + context().name();
  }
}
