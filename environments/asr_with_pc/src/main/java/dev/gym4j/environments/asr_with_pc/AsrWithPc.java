package dev.gym4j.environments.asr_with_pc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * Speech transcripts scored by word error rate (NeMo Gym's asr_with_pc), by {@code task_type}, from the row or
 * else the config (default {@code ASR-PC}):
 * <ul>
 *   <li>{@code ASR-PC}: WER after Whisper's English normaliser, WER_C (case kept, punctuation removed), WER_PC
 *       (punctuation marks as words) and PER (punctuation error rate); reward 1 iff WER_PC &lt; 0.5.
 *   <li>{@code ASR}: the normalised WER only (empty reference: WER 0 and reward 0; empty hypothesis read as
 *       "empty"); reward 1 iff WER &lt; 0.5.
 *   <li>{@code ASR_LEADERBOARD}: as ASR, plus {@code wer_<suffix>}/{@code is_correct_<suffix>} against each
 *       field named in {@code reference_fields} ({@code text_tn} gives suffix {@code tn}).
 *   <li>{@code Hallucination}: characters per minute of {@code audio_duration} above 1500 is a hallucination.
 * </ul>
 */
@Implementation("asr_with_pc")
public final class AsrWithPc extends ResourcesServer {
  /** The fields NeMo Gym's ASRWithPCVerifyResponse declares. */
  static final List<String> FIELDS = List.of("text", "pred_text", "wer", "wer_c", "wer_pc", "per", "is_correct",
      "ref_pc_tok", "hyp_pc_tok", "ref_c", "hyp_c", "hallucination_rate", "char_rate");
  static final Set<String> TASK_TYPES = Set.of("ASR-PC", "ASR", "Hallucination", "ASR_LEADERBOARD");
  static final double HALLUCINATION_CHAR_RATE_THRESHOLD = 1500.0;
  /** The request fields NeMo Gym's ASRWithPCVerifyRequest declares (besides the model's response). */
  private static final Set<String> DECLARED = Set.of("expected_answer", "sample_id", "split", "task_type",
      "audio_duration", "reference_fields");
  private static final Pattern SPACES = PythonRegex.compile("\\s+");
  private static final Pattern NOT_WORD_OR_SPACE = PythonRegex.compile("[^\\w\\s]");

  private static final JsonNode NULL = NullNode.getInstance();

  private String taskType;

  @Override
  protected void start() {
    taskType = context().config().path("task_type").asString("ASR-PC");
    if (!TASK_TYPES.contains(taskType)) {
      throw new ConfigException(context().path("task_type") + ": expected one of ASR-PC, ASR, Hallucination, "
          + "ASR_LEADERBOARD, got " + taskType);
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String hypothesis = PythonText.strip(request.response().outputTextParts());
    String reference = PythonText.strip(string(request, "expected_answer", ""));
    String type = taskType;
    if (!request.field("task_type").isMissingNode() && !request.field("task_type").isNull()) {
      type = string(request, "task_type", null);
      if (!TASK_TYPES.contains(type)) {
        throw new FieldError(List.of("task_type"), "Input should be 'ASR-PC', 'ASR', 'Hallucination' or "
            + "'ASR_LEADERBOARD'", "literal_error");
      }
    }
    return switch (type) {
      case "ASR-PC" -> asrPc(reference, hypothesis);
      case "ASR" -> asr(reference, hypothesis).verification();
      case "ASR_LEADERBOARD" -> leaderboard(request, reference, hypothesis);
      default -> hallucination(request, reference, hypothesis);
    };
  }

  static Verification asrPc(String reference, String hypothesis) {
    String refPcTok = String.join(" ", ErrorRates.tokens(normalizeWhitespace(reference)));
    String hypPcTok = String.join(" ", ErrorRates.tokens(normalizeWhitespace(hypothesis)));
    double werPc = ErrorRates.wer(refPcTok, hypPcTok);
    String refC = normalizeWhitespace(PythonRegex.sub(NOT_WORD_OR_SPACE, reference, ""));
    String hypC = normalizeWhitespace(PythonRegex.sub(NOT_WORD_OR_SPACE, hypothesis, ""));
    String refStd = standard(reference);
    String hypStd = standard(hypothesis);
    boolean correct = werPc < 0.5;
    return Verification.of(correct ? 1.0 : 0.0).with("text", refStd).with("pred_text", hypStd)
        .with("wer", ErrorRates.wer(refStd, hypStd)).with("wer_c", ErrorRates.wer(refC, hypC)).with("wer_pc", werPc)
        .with("per", ErrorRates.per(reference, hypothesis)).with("is_correct", correct)
        .with("ref_pc_tok", refPcTok).with("hyp_pc_tok", hypPcTok).with("ref_c", refC).with("hyp_c", hypC)
        .with("hallucination_rate", NULL).with("char_rate", NULL);
  }

  /** NeMo Gym's evaluate_asr: a null WER (and correctness) for an empty reference. */
  record Asr(Double wer, Boolean correct, String text, String predText) {
    Verification verification() {
      return zeroed(Boolean.TRUE.equals(correct), text, predText, wer == null ? 0.0 : wer);
    }
  }

  static Asr asr(String reference, String hypothesis) {
    String ref = standard(reference);
    String hyp = standard(hypothesis);
    if (ref.isEmpty()) {
      return new Asr(null, null, "", hyp);
    }
    if (hyp.isEmpty()) {
      hyp = "empty";
    }
    double wer = ErrorRates.wer(ref, hyp);
    return new Asr(wer, wer < 0.5, ref, hyp);
  }

  private static Verification leaderboard(VerifyRequest request, String reference, String hypothesis) {
    Verification result = asr(reference, hypothesis).verification();
    JsonNode fields = request.field("reference_fields");
    if (fields.isMissingNode() || fields.isNull()) {
      return result;
    }
    if (!fields.isArray()) {
      throw new FieldError(List.of("reference_fields"), "Input should be a valid list of strings", "list_type");
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!fields.get(i).isString()) {
        throw new FieldError(List.of("reference_fields", String.valueOf(i)), "Input should be a valid string",
            "string_type");
      }
      String field = fields.get(i).stringValue();
      JsonNode value = request.field(field);
      if (value.isMissingNode() && DECLARED.contains(field)) {
        // a field of NeMo Gym's request model is there with its default even when the row lacks it
        value = NullNode.getInstance();
      }
      if (value.isMissingNode()) {
        throw new FieldError(List.of("reference_fields", String.valueOf(i)), "ASR_LEADERBOARD: reference field '"
            + field + "' is not on the request", "value_error");
      }
      if (!value.isNull() && !value.isString()) {
        throw new FieldError(List.of(field), "Input should be a valid string", "string_type");
      }
      Asr scores = asr(value.isString() ? value.stringValue() : "", hypothesis);
      String suffix = field.startsWith("text_") ? field.substring("text_".length()) : field;
      result = result.with("wer_" + suffix, scores.wer() == null ? NULL : Json.toTree(scores.wer()))
          .with("is_correct_" + suffix, scores.correct() == null ? NULL : Json.toTree(scores.correct()));
    }
    return result;
  }

  private static Verification hallucination(VerifyRequest request, String reference, String hypothesis) {
    JsonNode duration = request.field("audio_duration");
    if (!duration.isMissingNode() && !duration.isNull() && !duration.isNumber()) {
      throw new FieldError(List.of("audio_duration"), "Input should be a valid number", "float_parsing");
    }
    double seconds = duration.isNumber() ? duration.asDouble() : 0.0;
    double rate = 0.0;
    double charRate = 0.0;
    boolean correct = true;
    if (seconds > 0) {
      double perMinute = hypothesis.codePointCount(0, hypothesis.length()) / seconds * 60.0;
      boolean hallucinating = perMinute > HALLUCINATION_CHAR_RATE_THRESHOLD;
      rate = hallucinating ? 1.0 : 0.0;
      // Python's round(x, 2): the exact binary value rounded half to even
      charRate = new BigDecimal(perMinute).setScale(2, RoundingMode.HALF_EVEN).doubleValue();
      correct = !hallucinating;
    }
    return zeroed(correct, reference, hypothesis, 0.0).with("hallucination_rate", rate).with("char_rate", charRate);
  }

  private static Verification zeroed(boolean correct, String text, String predText, double wer) {
    return Verification.of(correct ? 1.0 : 0.0).with("text", text).with("pred_text", predText).with("wer", wer)
        .with("wer_c", 0.0).with("wer_pc", 0.0).with("per", 0.0).with("is_correct", correct)
        .with("ref_pc_tok", "").with("hyp_pc_tok", "").with("ref_c", "").with("hyp_c", "")
        .with("hallucination_rate", NULL).with("char_rate", NULL);
  }

  /** NeMo Gym's preprocess_asr_text: lower case, Whisper's English normaliser, whitespace collapsed. */
  static String standard(String text) {
    return normalizeWhitespace(EnglishTextNormalizer.normalize(EnglishTextNormalizer.lower(text)));
  }

  static String normalizeWhitespace(String text) {
    return PythonText.strip(PythonRegex.sub(SPACES, text, " "));
  }

  private static String string(VerifyRequest request, String field, String absent) {
    JsonNode value = request.field(field);
    if (value.isMissingNode() && absent != null) {
      return absent;
    }
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Input should be a valid string", "string_type");
    }
    return value.stringValue();
  }
}
