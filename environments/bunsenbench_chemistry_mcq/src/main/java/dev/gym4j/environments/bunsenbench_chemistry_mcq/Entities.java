package dev.gym4j.environments.bunsenbench_chemistry_mcq;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTML character references decoded as Python's {@code html.unescape} does for the forms chemistry text
 * uses: every numeric reference ({@code &#8322;}, {@code &#x2082;}, the semicolon optional, invalid code
 * points made U+FFFD) and the common named ones (markup, spaces, dashes, quotes, Greek letters, math
 * signs, sub/superscript digits and fractions). Other names are left as written.
 */
final class Entities {
  private static final Pattern REFERENCE = Pattern.compile("&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]{0,31};)");
  private static final Map<String, String> NAMED = new HashMap<>();

  static {
    String[] pairs = {"amp", "&", "lt", "<", "gt", ">", "quot", "\"", "apos", "'", "nbsp", "\u00a0", "ensp", "\u2002",
        "emsp", "\u2003", "thinsp", "\u2009", "shy", "\u00ad", "zwj", "\u200d", "zwnj", "\u200c", "ndash", "\u2013",
        "mdash", "\u2014", "minus", "\u2212", "lsquo", "\u2018", "rsquo", "\u2019", "ldquo", "\u201c", "rdquo",
        "\u201d", "hellip", "\u2026", "bull", "\u2022", "middot", "\u00b7", "times", "\u00d7", "divide", "\u00f7",
        "plusmn", "\u00b1", "deg", "\u00b0", "micro", "\u00b5", "permil", "\u2030", "prime", "\u2032", "Prime",
        "\u2033", "le", "\u2264", "ge", "\u2265", "ne", "\u2260", "asymp", "\u2248", "equiv", "\u2261", "infin",
        "\u221e", "sum", "\u2211", "prod", "\u220f", "radic", "\u221a", "larr", "\u2190", "rarr", "\u2192", "harr",
        "\u2194", "lArr", "\u21d0", "rArr", "\u21d2", "hArr", "\u21d4", "rlarr", "\u21c4", "sup1", "\u00b9", "sup2",
        "\u00b2", "sup3", "\u00b3", "frac12", "\u00bd", "frac14", "\u00bc", "frac34", "\u00be", "copy", "\u00a9",
        "reg", "\u00ae", "trade", "\u2122", "sect", "\u00a7", "para", "\u00b6", "Aring", "\u00c5", "angst", "\u00c5"};
    for (int i = 0; i < pairs.length; i += 2) {
      NAMED.put(pairs[i], pairs[i + 1]);
    }
    String greek = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau "
        + "Upsilon Phi Chi Psi Omega";
    String[] names = greek.split(" ");
    for (int i = 0; i < names.length; i++) {
      if (!names[i].equals("-")) {
        NAMED.put(names[i], Character.toString(0x391 + i));
        NAMED.put(names[i].toLowerCase(java.util.Locale.ROOT), Character.toString(0x3b1 + i));
      }
    }
    NAMED.put("sigmaf", "\u03c2");
  }

  private Entities() {}

  static String unescape(String text) {
    if (text.indexOf('&') < 0) {
      return text;
    }
    Matcher matcher = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String body = matcher.group(1);
      String replacement;
      if (body.startsWith("#")) {
        String digits = body.endsWith(";") ? body.substring(1, body.length() - 1) : body.substring(1);
        boolean hex = digits.startsWith("x") || digits.startsWith("X");
        replacement = codePoint(hex ? digits.substring(1) : digits, hex ? 16 : 10);
      } else {
        replacement = NAMED.getOrDefault(body.substring(0, body.length() - 1), matcher.group());
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    return matcher.appendTail(out).toString();
  }

  private static String codePoint(String digits, int radix) {
    java.math.BigInteger value = new java.math.BigInteger(digits, radix);
    if (value.compareTo(java.math.BigInteger.valueOf(0x10FFFF)) > 0) {
      return "\uFFFD";
    }
    int c = value.intValue();
    return c == 0 || (c >= 0xD800 && c <= 0xDFFF) ? "\uFFFD" : Character.toString(c);
  }
}
