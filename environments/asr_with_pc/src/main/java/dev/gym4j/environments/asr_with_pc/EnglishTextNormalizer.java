package dev.gym4j.environments.asr_with_pc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Whisper's English text normaliser as the {@code whisper_normalizer} package (which NeMo Gym's asr_with_pc
 * calls) has it: lower case; bracketed and parenthesised spans and hesitations (hmm, uh, um) removed;
 * contractions and titles spelled out; symbols and diacritics removed except the numeric ones; spelled
 * numbers written as digits ({@link EnglishNumbers}); British spellings made American (the package's
 * english.json, shipped as a resource); whitespace collapsed.
 */
final class EnglishTextNormalizer {
  private static final Pattern BRACKETS = PythonRegex.compile("[<\\[][^>\\]]*[>\\]]");
  private static final Pattern PARENTHESES = PythonRegex.compile("\\(([^)]+?)\\)");
  private static final Pattern IGNORED = PythonRegex.compile("\\b(hmm|mm|mhm|mmm|uh|um)\\b");
  private static final Pattern SPACE_APOSTROPHE = PythonRegex.compile("\\s+'");
  private static final Pattern DIGIT_COMMA = PythonRegex.compile("(\\d),(\\d)");
  private static final Pattern PERIOD = PythonRegex.compile("\\.([^0-9]|$)");
  private static final Pattern LOOSE_SYMBOL = PythonRegex.compile("[.$¢€£]([^0-9])");
  private static final Pattern LOOSE_PERCENT = PythonRegex.compile("([^0-9])%");
  private static final Pattern SPACES = PythonRegex.compile("\\s+");
  private static final String KEEP = ".%$¢€£";
  private static final Map<Integer, String> ADDITIONAL_DIACRITICS = Map.ofEntries(Map.entry((int) 'œ', "oe"),
      Map.entry((int) 'Œ', "OE"), Map.entry((int) 'ø', "o"), Map.entry((int) 'Ø', "O"), Map.entry((int) 'æ', "ae"),
      Map.entry((int) 'Æ', "AE"), Map.entry((int) 'ß', "ss"), Map.entry((int) 'ẞ', "SS"), Map.entry((int) 'đ', "d"),
      Map.entry((int) 'Đ', "D"), Map.entry((int) 'ð', "d"), Map.entry((int) 'Ð', "D"), Map.entry((int) 'þ', "th"),
      Map.entry((int) 'Þ', "th"), Map.entry((int) 'ł', "l"), Map.entry((int) 'Ł', "L"));
  /** The replacers, applied in this order. */
  private static final Map<Pattern, String> REPLACERS = new LinkedHashMap<>();
  private static final Map<String, String> SPELLINGS = spellings();

  static {
    String[][] replacers = {
        {"\\bwon't\\b", "will not"}, {"\\bcan't\\b", "can not"}, {"\\blet's\\b", "let us"},
        {"\\bain't\\b", "aint"}, {"\\by'all\\b", "you all"}, {"\\bwanna\\b", "want to"},
        {"\\bkinda\\b", "kind of"}, {"\\bsorta\\b", "sort of"}, {"\\bdunno\\b", "do not know"},
        {"\\bgotta\\b", "got to"}, {"\\bgonna\\b", "going to"}, {"\\bi'ma\\b", "i am going to"},
        {"\\bimma\\b", "i am going to"}, {"\\bwoulda\\b", "would have"}, {"\\bcoulda\\b", "could have"},
        {"\\bshoulda\\b", "should have"}, {"\\bcause\\b", "because"}, {"\\bma'am\\b", "madam"},
        {"\\bmr\\b", "mister "}, {"\\bmrs\\b", "missus "}, {"\\bst\\b", "saint "}, {"\\bdr\\b", "doctor "},
        {"\\bprof\\b", "professor "}, {"\\bcapt\\b", "captain "}, {"\\bgov\\b", "governor "},
        {"\\bald\\b", "alderman "}, {"\\bgen\\b", "general "}, {"\\bsen\\b", "senator "},
        {"\\brep\\b", "representative "}, {"\\bpres\\b", "president "}, {"\\brev\\b", "reverend "},
        {"\\bhon\\b", "honorable "}, {"\\basst\\b", "assistant "}, {"\\bassoc\\b", "associate "},
        {"\\blt\\b", "lieutenant "}, {"\\bcol\\b", "colonel "}, {"\\bjr\\b", "junior "}, {"\\bsr\\b", "senior "},
        {"\\besq\\b", "esquire "},
        {"'d been\\b", " had been"}, {"'s been\\b", " has been"}, {"'d gone\\b", " had gone"},
        {"'s gone\\b", " has gone"}, {"'d done\\b", " had done"}, {"'s got\\b", " has got"},
        {"n't\\b", " not"}, {"'re\\b", " are"}, {"'s\\b", " is"}, {"'d\\b", " would"}, {"'ll\\b", " will"},
        {"'t\\b", " not"}, {"'ve\\b", " have"}, {"'m\\b", " am"}};
    for (String[] replacer : replacers) {
      REPLACERS.put(PythonRegex.compile(replacer[0]), replacer[1]);
    }
  }

  private EnglishTextNormalizer() {}

  static String normalize(String text) {
    String s = lower(text);
    s = PythonRegex.sub(BRACKETS, s, "");
    s = PythonRegex.sub(PARENTHESES, s, "");
    s = PythonRegex.sub(IGNORED, s, "");
    s = PythonRegex.sub(SPACE_APOSTROPHE, s, "'");
    for (var replacer : REPLACERS.entrySet()) {
      s = PythonRegex.sub(replacer.getKey(), s, replacer.getValue());
    }
    s = PythonRegex.sub(DIGIT_COMMA, s, "\\1\\2");
    s = PythonRegex.sub(PERIOD, s, " \\1");
    s = removeSymbolsAndDiacritics(s);
    s = EnglishNumbers.normalize(s);
    s = americanSpellings(s);
    s = PythonRegex.sub(LOOSE_SYMBOL, s, " \\1");
    s = PythonRegex.sub(LOOSE_PERCENT, s, "\\1 ");
    return PythonRegex.sub(SPACES, s, " ");
  }

  /** Python's {@code str.lower()}. */
  static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  /**
   * NFKD, then each mark, symbol and punctuation character (Unicode categories M*, S*, P*) a space, except
   * the kept numeric symbols; non-spacing marks (Mn) dropped and a few letters spelled in ASCII.
   */
  static String removeSymbolsAndDiacritics(String text) {
    StringBuilder out = new StringBuilder();
    Normalizer.normalize(text, Normalizer.Form.NFKD).codePoints().forEach(c -> {
      if (KEEP.indexOf(c) >= 0) {
        out.appendCodePoint(c);
      } else if (ADDITIONAL_DIACRITICS.containsKey(c)) {
        out.append(ADDITIONAL_DIACRITICS.get(c));
      } else if (Character.getType(c) == Character.NON_SPACING_MARK) {
        return;
      } else if (isMarkSymbolOrPunctuation(c)) {
        out.append(' ');
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  private static boolean isMarkSymbolOrPunctuation(int c) {
    return switch (Character.getType(c)) {
      case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK,
          Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL,
          Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
          Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION -> true;
      default -> false;
    };
  }

  static String americanSpellings(String text) {
    List<String> words = new ArrayList<>();
    for (String word : PythonText.split(text)) {
      words.add(SPELLINGS.getOrDefault(word, word));
    }
    return String.join(" ", words);
  }

  private static Map<String, String> spellings() {
    try (InputStream in = EnglishTextNormalizer.class.getResourceAsStream("english.json")) {
      if (in == null) {
        throw new IllegalStateException("english.json is missing from the asr_with_pc module");
      }
      JsonNode mapping = Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      Map<String, String> spellings = new java.util.HashMap<>();
      for (var entry : mapping.properties()) {
        spellings.put(entry.getKey(), entry.getValue().stringValue());
      }
      return spellings;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
