package dev.gym4j.server;

import io.helidon.logging.common.spi.LoggingProvider;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Helidon logs through java.util.logging and looks for a logging provider when it starts; this one routes
 * those logs to SLF4J, so one logging setup (Logback in the CLI) governs gym4j and Helidon alike.
 */
public final class Slf4jLogging implements LoggingProvider {
  @Override
  public void initialization() {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
  }

  @Override
  public void runTime() {
    initialization();
  }
}
