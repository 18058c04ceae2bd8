package dev.gym4j.server;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names a server implementation by the config key users write for it, such as {@code simple_agent} or
 * {@code example_single_tool_call}. The class is listed in
 * {@code META-INF/services/dev.gym4j.server.GymServer}; a jar on the classpath that does this adds
 * implementations the same way the built-in ones are found.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Implementation {
  String value();
}
