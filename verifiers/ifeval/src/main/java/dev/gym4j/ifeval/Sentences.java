package dev.gym4j.ifeval;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two sentence splitters the checks use: IFEval's regular-expression splitter
 * ({@code split_into_sentences}), ported rule for rule, and an approximation of NLTK's Punkt English
 * tokenizer ({@code count_sentences}, {@code word_tokenize}), which is a trained model and has no exact Java
 * counterpart. Punkt as done here: a sentence ends at {@code .}, {@code ?} or {@code !} (with any closing
 * quotes or brackets) before whitespace, except after a known abbreviation, a single-letter initial, or an
 * ellipsis followed by a lower-case word; line breaks alone never end one.
 */
final class Sentences {
  private static final String ALPHABETS = "([A-Za-z])";
  private static final String STARTERS = "(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\\s|She\\s|It\\s|They\\s|Their\\s|Our\\s|We\\s"
      + "|But\\s|However\\s|That\\s|This\\s|Wherever)";
  private static final String ACRONYMS = "([A-Z][.][A-Z][.](?:[A-Z][.])?)";
  private static final Pattern PREFIXES = Pattern.compile("(Mr|St|Mrs|Ms|Dr)[.]");
  private static final Pattern WEBSITES = Pattern.compile("[.](com|net|org|io|gov|edu|me)");
  private static final Pattern DECIMALS = Pattern.compile("([0-9])[.]([0-9])");
  private static final Pattern MULTIPLE_DOTS = Pattern.compile("\\.{2,}");
  private static final Pattern INITIAL = Pattern.compile("\\s" + ALPHABETS + "[.] ", PyStr.UNICODE);
  private static final Pattern ACRONYM_THEN_STARTER = Pattern.compile(ACRONYMS + " " + STARTERS, PyStr.UNICODE);
  private static final Pattern THREE_LETTERS = Pattern.compile(ALPHABETS + "[.]" + ALPHABETS + "[.]" + ALPHABETS + "[.]");
  private static final Pattern TWO_LETTERS = Pattern.compile(ALPHABETS + "[.]" + ALPHABETS + "[.]");
  private static final Pattern SUFFIX_THEN_STARTER = Pattern.compile(" (Inc|Ltd|Jr|Sr|Co)[.] " + STARTERS,
      PyStr.UNICODE);
  private static final Pattern SUFFIX = Pattern.compile(" (Inc|Ltd|Jr|Sr|Co)[.]");
  private static final Pattern SPACED_LETTER = Pattern.compile(" " + ALPHABETS + "[.]");

  /** Abbreviations Punkt's English model knows (the common ones), lower case, without the final period. */
  private static final Set<String> ABBREVIATIONS = Set.of("mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "inc",
      "ltd", "co", "corp", "vs", "etc", "e.g", "i.e", "u.s", "u.k", "u.n", "a.m", "p.m", "jan", "feb", "mar", "apr",
      "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "no", "vol", "fig", "approx", "dept", "est", "gen",
      "gov", "sen", "rep", "rev", "sgt", "capt", "col", "lt", "mt", "ft", "ave", "blvd", "cf", "al", "ph.d", "d.c",
      "n.y", "calif", "mass", "wash", "bros", "messrs", "mme", "mlle", "univ", "assn", "adm", "cmdr", "pres",
      "supt", "atty", "pp", "p", "op", "ed", "eds", "vols", "nos", "figs", "min", "max", "misc");
  private static final String CLOSERS = "\"')]}’”»";

  private Sentences() {}

  /** IFEval's {@code split_into_sentences}. */
  static List<String> ifeval(String input) {
    String text = " " + input + "  ";
    text = text.replace("\n", " ");
    text = PREFIXES.matcher(text).replaceAll("$1<prd>");
    text = WEBSITES.matcher(text).replaceAll("<prd>$1");
    text = DECIMALS.matcher(text).replaceAll("$1<prd>$2");
    text = MULTIPLE_DOTS.matcher(text).replaceAll(m -> "<prd>".repeat(m.group().length()) + "<stop>");
    if (text.contains("Ph.D")) {
      text = text.replace("Ph.D.", "Ph<prd>D<prd>");
    }
    text = INITIAL.matcher(text).replaceAll(" $1<prd> ");
    text = ACRONYM_THEN_STARTER.matcher(text).replaceAll("$1<stop> $2");
    text = THREE_LETTERS.matcher(text).replaceAll("$1<prd>$2<prd>$3<prd>");
    text = TWO_LETTERS.matcher(text).replaceAll("$1<prd>$2<prd>");
    text = SUFFIX_THEN_STARTER.matcher(text).replaceAll(" $1<stop> $2");
    text = SUFFIX.matcher(text).replaceAll(" $1<prd>");
    text = SPACED_LETTER.matcher(text).replaceAll(" $1<prd>");
    text = text.replace(".”", "”.").replace(".\"", "\".").replace("!\"", "\"!").replace("?\"", "\"?");
    text = text.replace(".", ".<stop>").replace("?", "?<stop>").replace("!", "!<stop>").replace("<prd>", ".");
    List<String> sentences = new ArrayList<>();
    for (String sentence : PyStr.split(text, "<stop>")) {
      sentences.add(PyStr.strip(sentence));
    }
    if (!sentences.isEmpty() && sentences.getLast().isEmpty()) {
      sentences.removeLast();
    }
    return sentences;
  }

  /** Sentences as NLTK's Punkt English tokenizer would find them (see the class comment for how close). */
  static List<String> punkt(String text) {
    List<String> sentences = new ArrayList<>();
    List<int[]> tokens = new ArrayList<>();
    Matcher word = Pattern.compile("\\S+").matcher(text);
    while (word.find()) {
      tokens.add(new int[] {word.start(), word.end()});
    }
    int sentenceStart = tokens.isEmpty() ? 0 : tokens.getFirst()[0];
    for (int i = 0; i < tokens.size(); i++) {
      String token = text.substring(tokens.get(i)[0], tokens.get(i)[1]);
      String next = i + 1 < tokens.size() ? text.substring(tokens.get(i + 1)[0], tokens.get(i + 1)[1]) : null;
      if (next != null && endsSentence(token, next)) {
        sentences.add(text.substring(sentenceStart, tokens.get(i)[1]));
        sentenceStart = tokens.get(i + 1)[0];
      }
    }
    if (!tokens.isEmpty()) {
      sentences.add(text.substring(sentenceStart, tokens.getLast()[1]));
    }
    return sentences;
  }

  private static boolean endsSentence(String token, String next) {
    String core = PyStr.rstrip(token, CLOSERS);
    if (core.isEmpty()) {
      return false;
    }
    char last = core.charAt(core.length() - 1);
    if (last == '?' || last == '!') {
      return true;
    }
    if (last != '.') {
      return false;
    }
    boolean nextLower = Character.isLowerCase(PyStr.lstrip(next, CLOSERS + "(").codePoints().findFirst().orElse('A'));
    if (core.endsWith("..")) {
      // an ellipsis ends a sentence only when a capitalised word follows
      return !nextLower;
    }
    String stem = PyStr.lower(PyStr.lstrip(core.substring(0, core.length() - 1), "\"'(["));
    if (ABBREVIATIONS.contains(stem)) {
      return false;
    }
    if (stem.length() == 1 && Character.isLetter(stem.charAt(0))) {
      // an initial (J. Smith) or a list letter: not a boundary before a lower-case or capitalised name
      return false;
    }
    return !(stem.contains(".") && stem.matches("(?:[a-z]\\.)+[a-z]") && nextLower);
  }
}
