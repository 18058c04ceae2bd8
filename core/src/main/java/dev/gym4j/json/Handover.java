package dev.gym4j.json;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Optional;

import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.DecimalNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON tree handed from one side of a hop to the other in this JVM, instead of its bytes: a deep copy (so
 * neither side sees what the other changes later) that is exactly the tree parsing the tree's serialization
 * gives, node type for node type (a {@code long} that fits an {@code int} becomes an {@code IntNode}, a
 * {@code double} the {@code DecimalNode} {@link Json} reads floats as), and whose serialization is byte for
 * byte the original's. When the copy could not promise all that, it is refused and the caller sends bytes:
 * for a node a parse never gives (a POJO, binary), a number whose text would read back otherwise, nesting or
 * text past the parser's or writer's limits, or a serialized size that may pass {@code maxBytes} (an upper
 * bound decides, counted while copying; only a body near or over the limit is then written out and counted
 * exactly, on the bytes path).
 */
public final class Handover {
  private static final StreamReadConstraints READ = Json.MAPPER.tokenStreamFactory().streamReadConstraints();
  private static final StreamWriteConstraints WRITE = Json.MAPPER.tokenStreamFactory().streamWriteConstraints();
  private static final int MAX_DEPTH = Math.min(READ.getMaxNestingDepth(), WRITE.getMaxNestingDepth());
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final long maxBytes;
  /** An upper bound on the serialized size of what has been copied so far. */
  private long bound;
  /** Nodes and names copied; a parse reads at most three tokens for each (name, start, end). */
  private long tokens;

  private Handover(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The copy of {@code tree} to hand over, or empty when it must go as bytes; {@code maxBytes} is the most the
   * receiving side reads (a larger body is its 413).
   */
  public static Optional<JsonNode> copy(JsonNode tree, long maxBytes) {
    if (tree == null) {
      return Optional.empty();
    }
    Handover handover = new Handover(Math.min(maxBytes, READ.getMaxDocumentLength() > 0
        ? READ.getMaxDocumentLength() : Long.MAX_VALUE));
    try {
      JsonNode copy = handover.node(tree, 0);
      long maxTokens = READ.getMaxTokenCount();
      return copy == null || maxTokens > 0 && handover.tokens * 3 > maxTokens ? Optional.empty() : Optional.of(copy);
    } catch (RuntimeException e) {
      // a leaf the mapper would not write or read back (a number past the length limit): bytes decide
      return Optional.empty();
    }
  }

  /** The copy of {@code node} at nesting {@code depth}; null when the whole tree must go as bytes. */
  private JsonNode node(JsonNode node, int depth) {
    tokens++;
    switch (node.getNodeType()) {
      case OBJECT -> {
        if (depth >= MAX_DEPTH || !count(2)) {
          return null;
        }
        ObjectNode copy = NODES.objectNode();
        for (var field : node.properties()) {
          String name = field.getKey();
          tokens++;
          if (name.length() > READ.getMaxNameLength() / 2 || !count(4 + 6L * name.length())) {
            return null;
          }
          JsonNode value = node(field.getValue(), depth + 1);
          if (value == null) {
            return null;
          }
          copy.set(name, value);
        }
        return copy;
      }
      case ARRAY -> {
        if (depth >= MAX_DEPTH || !count(2)) {
          return null;
        }
        ArrayNode copy = NODES.arrayNode(node.size());
        for (JsonNode element : node) {
          JsonNode value = node(element, depth + 1);
          if (value == null || !count(1)) {
            return null;
          }
          copy.add(value);
        }
        return copy;
      }
      case STRING -> {
        String text = node.stringValue();
        // a UTF-8 character takes at most 3 bytes, an escaped one 6 (\u001f)
        return text.length() <= READ.getMaxStringLength() / 2 && count(2 + 6L * text.length()) ? node : null;
      }
      case BOOLEAN, NULL -> {
        return count(5) ? node : null;
      }
      case NUMBER -> {
        return number(node);
      }
      default -> {
        // binary, a POJO, a missing node: what a parse gives for them is the mapper's business
        return null;
      }
    }
  }

  /** A number as a parse of its text gives it: as it is when it is already that, else read back from its text. */
  private JsonNode number(JsonNode node) {
    if (node.isInt()) {
      return count(11) ? node : null;
    }
    if (node.isIntegralNumber() && node.canConvertToInt()) {
      // a small long, a short, a small big integer: the same digits, which read back as an int
      return count(11) ? IntNode.valueOf(node.intValue()) : null;
    }
    if (node.isLong()) {
      return count(20) ? node : null;
    }
    if (node instanceof DecimalNode decimal) {
      BigDecimal value = decimal.decimalValue();
      String text = value.toString();
      if (text.length() <= READ.getMaxNumberLength() && (value.scale() > 0 || text.indexOf('E') >= 0)) {
        return count(text.length()) ? node : null;
      }
    }
    if ((node.isDouble() || node.isFloat()) && Double.isFinite(node.doubleValue())) {
      // written as Double.toString or Float.toString gives it, read back as that text's BigDecimal: kept when
      // that decimal writes the same text again (1.0E-5 would come back as 0.000010)
      String text = node.isDouble() ? Double.toString(node.doubleValue()) : Float.toString(node.floatValue());
      BigDecimal value = new BigDecimal(text);
      return value.toString().equals(text) && count(text.length()) ? DecimalNode.valueOf(value) : null;
    }
    // a big integer past an int, a decimal written as an integer, a double that is not finite: read back,
    // and kept only when it is a number that writes the same text again
    byte[] text = Json.writeBytes(node);
    JsonNode read = Json.parse(text);
    if (!read.isNumber() || !Arrays.equals(text, Json.writeBytes(read)) || !count(text.length)) {
      return null;
    }
    return read.isInt() ? IntNode.valueOf(read.intValue()) : read;
  }

  private boolean count(long bytes) {
    bound += bytes;
    return bound <= maxBytes;
  }
}
