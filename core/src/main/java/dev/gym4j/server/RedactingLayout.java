package dev.gym4j.server;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.gym4j.config.Secrets;

/**
 * Logback's pattern layout with every line, stack trace included, passed through the {@link Secrets}
 * redactor: an exception message or an upstream's answer quoted in a log line never shows a credential.
 * Name it in {@code logback.xml} as the layout of a {@code LayoutWrappingEncoder}.
 */
public final class RedactingLayout extends PatternLayout {
  @Override
  public String doLayout(ILoggingEvent event) {
    return Secrets.redact(super.doLayout(event));
  }
}
