package dev.gym4j.server;

/**
 * An endpoint of a gym4j server. It returns the response body (a JSON tree, a {@link dev.gym4j.json.JsonView},
 * a record, or a {@link Reply} for another status); the runtime turns bad input and failures into 4xx/500.
 */
@FunctionalInterface
public interface JsonHandler {
  Object handle(Call call) throws Exception;
}
