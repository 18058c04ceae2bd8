package dev.gym4j.agents;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import dev.gym4j.server.ServerContext;
import dev.gym4j.wire.ImageToolCalls;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The image-tool turns of one episode, as NeMo Gym's {@code ImageToolsGymToolLogic.process_nonterminal_turn}
 * (resources_servers/image_tools/base.py) plays them: each model turn's text is read for calls; the first
 * {@code max_tool_calls_per_turn} run, each output image becomes the next image index; a repeated call, or a
 * zoom/crop overlapping an earlier one by {@code duplicate_iou_threshold}, is penalised and (by default) the next
 * turn must answer; a malformed or failing call is penalised and (by default) ends the episode; past
 * {@code max_tool_calls} the model is told to answer. A turn that fails keeps none of its calls. Not thread-safe:
 * one per episode.
 */
final class ImageToolTurns {
  private static final String FORCED_FINAL = "This is your FINAL turn. Based on the original images and any image "
      + "tool results already provided, answer the original question now. Do not call any more tools.";

  /** The agent's tool settings, NeMo Gym's names and defaults. */
  record Settings(Path cropDir, String format, float jpegQuality, ImageToolbox toolbox, int maxToolCalls,
      int maxPerTurn, double successReward, double successCap, double invalidPenalty, double duplicatePenalty,
      boolean forceFinalAfterDuplicate, boolean terminateOnInvalid, double duplicateIou) {
    static Settings of(ServerContext context) {
      JsonNode c = context.config();
      String format = c.path("crop_format").asString("jpeg").toLowerCase(java.util.Locale.ROOT);
      if (!List.of("jpeg", "jpg", "png").contains(format)) {
        throw new ConfigException(context.path("crop_format") + " must be jpeg or png, not " + format);
      }
      long maxPixels = c.path("crop_max_pixels").asLong(1_048_576);
      if (maxPixels < 1024 || maxPixels > ImageToolbox.MAX_OUTPUT_PIXELS) {
        throw new ConfigException(context.path("crop_max_pixels") + " must be between 1024 and "
            + ImageToolbox.MAX_OUTPUT_PIXELS);
      }
      return new Settings(Path.of(c.path("crop_dir").asString("image_tool_outputs")), format.equals("jpg")
          ? "jpeg" : format, c.path("crop_jpeg_quality").asInt(95) / 100f,
          new ImageToolbox(c.path("crop_min_pixels").asLong(262_144), maxPixels), c.path("max_tool_calls").asInt(4),
          c.path("max_tool_calls_per_turn").asInt(1), c.path("tool_success_reward").asDouble(0.02),
          c.path("tool_success_reward_cap").asDouble(0.05), c.path("invalid_tool_call_penalty").asDouble(-0.05),
          c.path("duplicate_tool_call_penalty").asDouble(-0.02),
          c.path("force_final_after_duplicate").asBoolean(true),
          c.path("terminate_on_invalid_tool_call").asBoolean(true), c.path("duplicate_iou_threshold").asDouble(0.5));
    }
  }

  /** What the episode's calls came to, for the rollout's verify response. */
  record Summary(double auxReward, int calls, int errors, List<String> outputPaths, List<List<String>> generationPaths) {
    void writeTo(ObjectNode verdict) {
      verdict.put("image_tools_call_count", calls);
      verdict.put("image_tools_error_count", errors);
      verdict.set("image_tools_output_paths", Json.toTree(outputPaths));
      verdict.set("image_tools_generation_image_paths", Json.toTree(generationPaths));
    }
  }

  /** The rollout's state that a failed turn leaves as it was. */
  private static final class State {
    final List<Object> images = new ArrayList<>();
    final List<String> outputPaths = new ArrayList<>();
    final List<String> signatures = new ArrayList<>();
    final Map<String, List<double[]>> boxes = new HashMap<>();
    int calls;
    int errors;
    boolean forceFinal;

    State copy() {
      State next = new State();
      next.images.addAll(images);
      next.outputPaths.addAll(outputPaths);
      next.signatures.addAll(signatures);
      boxes.forEach((k, v) -> next.boxes.put(k, new ArrayList<>(v)));
      next.calls = calls;
      next.errors = errors;
      next.forceFinal = forceFinal;
      return next;
    }
  }

  private final Settings settings;
  private State state = new State();
  private double auxReward;
  private final List<List<String>> generationPaths = new ArrayList<>(List.of(List.of()));

  ImageToolTurns(Settings settings, List<String> imageUrls) {
    this.settings = settings;
    state.images.addAll(imageUrls);
  }

  /** The image URLs of a request's input, in order: {@code input_image}, {@code image_url} and {@code image} parts. */
  static List<String> imageUrls(JsonNode input) {
    List<String> urls = new ArrayList<>();
    for (JsonNode item : input) {
      for (JsonNode part : item.path("content")) {
        String type = part.path("type").asString("");
        if (!List.of("input_image", "image_url", "image").contains(type)) {
          continue;
        }
        JsonNode url = part.has("image_url") ? part.get("image_url") : part.path("image");
        if (url.isObject()) {
          url = url.path("url");
        }
        if (url.isString() && !url.stringValue().isEmpty()) {
          urls.add(url.stringValue());
        }
      }
    }
    return urls;
  }

  /**
   * Plays one model turn; the user message to append, or empty when the episode ends (the model answered, or an
   * invalid call ends it).
   */
  Optional<ObjectNode> take(String text) {
    List<ImageToolCalls.Call> calls = ImageToolCalls.parse(text);
    if (ImageToolCalls.hasMalformedMarkup(text)) {
      return invalid("Invalid image tool call format.");
    }
    if (calls.isEmpty()) {
      return Optional.empty();
    }
    if (state.forceFinal) {
      return invalid("No more tool calls are allowed. A final answer was required.");
    }
    if (state.calls >= settings.maxToolCalls()) {
      state.forceFinal = true;
      return append(userMessage(Json.toTree(FORCED_FINAL)), List.of());
    }
    List<ImageToolCalls.Call> selected = calls.subList(0, Math.max(0, Math.min(calls.size(),
        Math.min(settings.maxPerTurn(), settings.maxToolCalls() - state.calls))));
    if (state.images.isEmpty()) {
      return invalid("Image tools are unavailable because no source images were provided.");
    }
    State next = state.copy();
    ArrayNode content = Json.array();
    text(content, "<tool_response>\n");
    List<String> paths = new ArrayList<>();
    double reward = 0.0;
    boolean forceFinal = false;
    for (ImageToolCalls.Call call : selected) {
      String name = PythonValues.str(call.name());
      if (!ImageToolbox.NAMES.contains(name)) {
        return invalid("Unknown tool name: " + Calls.abbreviate(name));
      }
      if (!call.arguments().isObject()) {
        return invalid("Tool arguments must be an object.");
      }
      JsonNode args = call.arguments();
      String warning;
      ImageToolbox.Output output;
      try {
        warning = duplicateWarning(name, args, next);
        output = settings.toolbox().run(name, args, imagesOf(next));
      } catch (ImageToolbox.ToolError e) {
        return invalid(name + " failed: " + e.getMessage());
      }
      Path path = save(output.image());
      if (warning != null) {
        reward += settings.duplicatePenalty();
        forceFinal = settings.forceFinalAfterDuplicate();
      } else {
        reward += settings.successReward();
      }
      ObjectNode result = Json.object();
      result.put("ok", true);
      result.setAll(output.result());
      result.set("new_img_indices", Json.array().add(next.images.size()));
      if (warning != null) {
        result.put("warning", warning);
      }
      text(content, PythonValues.dumps(result, PythonValues.Dumps.DEFAULT.withEnsureAscii(false)) + "\n");
      content.addObject().put("type", "input_image").put("image_url", dataUrl(output.image()))
          .put("detail", "auto");
      text(content, "\n");
      next.images.add(output.image());
      next.outputPaths.add(path.toString());
      paths.add(path.toString());
      next.calls++;
    }
    if (calls.size() > selected.size()) {
      text(content, "Only the first " + selected.size() + " tool call(s) were executed this turn. "
          + "Call tools one turn at a time.\n");
    }
    text(content, "</tool_response>");
    next.forceFinal = forceFinal;
    state = next;
    auxReward += reward;
    Optional<ObjectNode> message = append(userMessage(content), paths);
    if (!paths.isEmpty()) {
      auxReward = Math.min(auxReward, settings.successCap());
    }
    return message;
  }

  /** A repeat of an earlier call, or a zoom/crop box overlapping an earlier one on the same image: the warning. */
  private String duplicateWarning(String name, JsonNode args, State next) {
    ObjectNode signature = Json.object();
    signature.put("name", name);
    signature.set("arguments", args);
    String sig = PythonValues.dumps(signature, PythonValues.Dumps.DEFAULT.withEnsureAscii(false).withSortKeys(true));
    boolean exact = next.signatures.contains(sig);
    next.signatures.add(sig);
    Double overlap = null;
    if (name.equals("image_zoom_in_tool") || name.equals("image_crop_tool")) {
      double[] box = ImageToolCalls.bbox(args.path("bbox_2d"));
      java.math.BigInteger idx = args.has("img_idx") ? ImageToolbox.integer(args.get("img_idx"))
          : java.math.BigInteger.ZERO;
      if (idx == null) {
        throw new ImageToolbox.ToolError("img_idx must be an integer");
      }
      if (box == null) {
        throw new ImageToolbox.ToolError("bbox_2d must be a list of four numbers");
      }
      List<double[]> seen = next.boxes.computeIfAbsent(name + ":" + idx, k -> new ArrayList<>());
      for (double[] previous : seen) {
        double iou = ImageToolCalls.iou(previous, box);
        if (iou >= settings.duplicateIou()) {
          overlap = iou;
          break;
        }
      }
      seen.add(box);
    }
    if (exact) {
      return "You already requested this exact tool call. Use the evidence you have and provide the final answer.";
    }
    if (overlap != null) {
      return "This region heavily overlaps a previous " + name + " result (IoU=" + String.format(java.util.Locale.ROOT,
          "%.2f", overlap) + "). Use the evidence you have and provide the final answer.";
    }
    return null;
  }

  private Optional<ObjectNode> invalid(String message) {
    state.errors++;
    auxReward += settings.invalidPenalty();
    if (settings.terminateOnInvalid()) {
      return Optional.empty();
    }
    return append(userMessage(Json.toTree("<tool_response>\n" + message + "\n</tool_response>")), List.of());
  }

  private Optional<ObjectNode> append(ObjectNode message, List<String> paths) {
    generationPaths.add(List.copyOf(paths));
    return Optional.of(message);
  }

  private static ObjectNode userMessage(JsonNode content) {
    ObjectNode message = Json.object();
    message.put("type", "message");
    message.put("role", "user");
    message.set("content", content);
    return message;
  }

  private static void text(ArrayNode content, String text) {
    content.addObject().put("type", "input_text").put("text", text);
  }

  private ImageToolbox.Images imagesOf(State s) {
    return new ImageToolbox.Images() {
      @Override
      public int size() {
        return s.images.size();
      }

      @Override
      public BufferedImage image(int index) {
        Object image = s.images.get(index);
        return image instanceof BufferedImage decoded ? decoded : ImageToolbox.decode((String) image);
      }
    };
  }

  /** Writes an output image under {@code crop_dir}, in a folder of its own named by a random UUID. */
  private Path save(BufferedImage image) {
    String ext = settings.format().equals("png") ? "png" : "jpg";
    try {
      Path dir = Files.createDirectories(settings.cropDir().resolve(UUID.randomUUID().toString()));
      Path file = dir.resolve(UUID.randomUUID() + "." + ext);
      Files.write(file, encode(image, settings.jpegQuality()));
      return file.toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write an image tool output under crop_dir", e);
    }
  }

  /** The image as the model sees it: re-encoded at the encoder's default quality, as NeMo Gym's data URL is. */
  private String dataUrl(BufferedImage image) {
    byte[] bytes = encode(image, settings.format().equals("png") ? 1f : 0.75f);
    return "data:image/" + settings.format() + ";base64," + Base64.getEncoder().encodeToString(bytes);
  }

  private byte[] encode(BufferedImage image, float quality) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (settings.format().equals("png")) {
        ImageIO.write(image, "png", out);
        return out.toByteArray();
      }
      ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
      try (ImageOutputStream stream = ImageIO.createImageOutputStream(out)) {
        writer.setOutput(stream);
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(Math.max(0f, Math.min(1f, quality)));
        writer.write(null, new IIOImage(image, null, null), param);
      } finally {
        writer.dispose();
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Summary summary() {
    return new Summary(auxReward, state.calls, state.errors, List.copyOf(state.outputPaths),
        List.copyOf(generationPaths));
  }
}
