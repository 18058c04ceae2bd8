package dev.gym4j.ifeval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.cybozu.labs.langdetect.Detector;
import com.cybozu.labs.langdetect.DetectorFactory;
import com.cybozu.labs.langdetect.LangDetectException;

/**
 * The language of a text, by Cybozu's language-detection library: Python's {@code langdetect}, which the
 * checks call, is a port of it with the same 55 language profiles and parameters, so the two agree. Python's
 * is random unless seeded and NeMo Gym does not seed it; ours is seeded, so a verdict never changes between
 * runs.
 */
final class Languages {
  private static final String[] PROFILES = {"af", "ar", "bg", "bn", "cs", "da", "de", "el", "en", "es", "et", "fa",
      "fi", "fr", "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "lt", "lv", "mk", "ml", "mr", "ne", "nl",
      "no", "pa", "pl", "pt", "ro", "ru", "sk", "sl", "so", "sq", "sv", "sw", "ta", "te", "th", "tl", "tr", "uk", "ur",
      "vi", "zh-cn", "zh-tw"};

  /** No language could be told, as langdetect's "No features in text". */
  static final class Undetectable extends Exception {
    Undetectable(String message) {
      super(message);
    }
  }

  static {
    List<String> profiles = new ArrayList<>();
    for (String name : PROFILES) {
      try (InputStream in = DetectorFactory.class.getResourceAsStream("/profiles/" + name)) {
        profiles.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    try {
      DetectorFactory.loadProfile(profiles);
      DetectorFactory.setSeed(0);
    } catch (LangDetectException e) {
      throw new IllegalStateException("language profiles failed to load", e);
    }
  }

  private Languages() {}

  /** The most likely language's code ({@code en}, {@code zh-cn}, …). */
  static String detect(String text) throws Undetectable {
    try {
      Detector detector = DetectorFactory.create();
      detector.append(text);
      return detector.detect();
    } catch (LangDetectException e) {
      throw new Undetectable(e.getMessage());
    }
  }
}
