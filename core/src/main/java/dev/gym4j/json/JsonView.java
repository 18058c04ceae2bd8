package dev.gym4j.json;

import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.node.ObjectNode;

/**
 * A typed view over a JSON object that keeps every field it does not model.
 *
 * <p>Wire types of the OpenAI and NeMo Gym APIs implement this: their accessors read the fields gym4j
 * needs, while the underlying tree carries everything else (new OpenAI fields, token ids, a provider's
 * extensions, explicit {@code null}s) through untouched. Writing a view writes its tree.
 */
public interface JsonView {
  @JsonValue
  ObjectNode json();
}
