package dev.gym4j.resources;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a {@link ResourcesServer} as a tool the model can call, served at {@code POST /<name>}.
 * The method takes a record (the tool's arguments, bound from the call's JSON) and optionally the
 * {@link Session}; what it returns is written back as JSON and becomes the model's
 * {@code function_call_output}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Tool {
  /** The tool name; by default the method name in snake_case ({@code getWeather} → {@code get_weather}). */
  String name() default "";

  String description() default "";
}
