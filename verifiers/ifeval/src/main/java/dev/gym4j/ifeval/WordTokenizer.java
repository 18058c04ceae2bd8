package dev.gym4j.ifeval;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * NLTK's {@code word_tokenize}: each Punkt sentence split by the Penn Treebank rules (as NLTK's improved
 * Treebank tokenizer applies them): punctuation, brackets and quotes become tokens of their own, a
 * sentence's final period is split off, and contractions split ({@code don't} → {@code do n't}).
 */
final class WordTokenizer {
  private record Rule(Pattern pattern, String replacement) {
    Rule(String regex, String replacement) {
      this(Pattern.compile(regex, PyStr.UNICODE), replacement);
    }

    String apply(String text) {
      return pattern.matcher(text).replaceAll(replacement);
    }
  }

  private static final List<Rule> STARTING_QUOTES = List.of(
      new Rule("([«“‘„]|[`]+)", " $1 "),
      new Rule("^\"", "``"),
      new Rule("(``)", " $1 "),
      new Rule("([ (\\[{<])(\"|'{2})", "$1 `` "),
      new Rule("(?i)(')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", "$1 $2"));
  private static final List<Rule> PUNCTUATION = List.of(
      new Rule("([^.])(\\.)([\\]\\)}>\"']*)\\s*$", "$1 $2 $3 "),
      new Rule("([:,])([^\\d])", " $1 $2"),
      new Rule("([:,])$", " $1 "),
      new Rule("\\.{2,}", " $0 "),
      new Rule("[;@#$%&]", " $0 "),
      new Rule("([^.])(\\.)([\\]\\)}>\"']*)\\s*$", "$1 $2 $3 "),
      new Rule("[?!]", " $0 "),
      new Rule("([^'])' ", "$1 ' "),
      new Rule("[*]", " $0 "),
      new Rule("[\\]\\[(){}<>]", " $0 "),
      new Rule("--", " -- "));
  private static final List<Rule> ENDING_QUOTES = List.of(
      new Rule("([»”’])", " $1 "),
      new Rule("''", " '' "),
      new Rule("\"", " '' "),
      new Rule("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
      new Rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "),
      new Rule("(?i)\\b(can)(not)\\b", " $1 $2 "),
      new Rule("(?i)\\b(d)('ye)\\b", " $1 $2 "),
      new Rule("(?i)\\b(gim)(me)\\b", " $1 $2 "),
      new Rule("(?i)\\b(gon)(na)\\b", " $1 $2 "),
      new Rule("(?i)\\b(got)(ta)\\b", " $1 $2 "),
      new Rule("(?i)\\b(lem)(me)\\b", " $1 $2 "),
      new Rule("(?i)\\b(more)('n)\\b", " $1 $2 "),
      new Rule("(?i)\\b(wan)(na)(?=\\s)", " $1 $2 "),
      new Rule("(?i) ('t)(is)\\b", " $1 $2 "),
      new Rule("(?i) ('t)(was)\\b", " $1 $2 "));

  private WordTokenizer() {}

  static List<String> tokenize(String text) {
    List<String> tokens = new ArrayList<>();
    for (String sentence : Sentences.punkt(text)) {
      tokens.addAll(treebank(sentence));
    }
    return tokens;
  }

  static List<String> treebank(String sentence) {
    String text = sentence;
    for (Rule rule : STARTING_QUOTES) {
      text = rule.apply(text);
    }
    for (Rule rule : PUNCTUATION) {
      text = rule.apply(text);
    }
    text = " " + text + " ";
    for (Rule rule : ENDING_QUOTES) {
      text = rule.apply(text);
    }
    return PyStr.split(text);
  }
}
