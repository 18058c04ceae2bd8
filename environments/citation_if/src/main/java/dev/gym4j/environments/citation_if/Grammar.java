package dev.gym4j.environments.citation_if;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A citation grammar of NeMo Gym's citation_if (resources_servers/citation_if/scorer.py): an opening
 * marker, the ID (or, for multi grammars, a comma list of IDs), a closing marker. Since an ID never holds
 * a delimiter, the ID text of a candidate span is fixed by where its run of ID characters ends, and the
 * spans Python's regex finds are found by a scan. {@code claim_wrap_xml} also holds a claim,
 * {@code <cite index="ID">claim</cite>}, and an empty claim is no citation.
 */
record Grammar(String name, String open, String close, boolean multi, boolean tagged, boolean holdout) {
  static final Map<String, Grammar> ALL = Map.ofEntries(
      entry(new Grammar("cite_xml", "<cite>", "</cite>", true, true, false)),
      entry(new Grammar("ascii_brackets", "[", "]", false, false, false)),
      entry(new Grammar("claim_wrap_xml", "<cite index=\"", "\">", true, true, false)),
      entry(new Grammar("fullwidth_brackets", "\u3010", "\u3011", false, false, false)),
      entry(new Grammar("ref_colon", "[ref:", "]", false, false, false)),
      entry(new Grammar("double_angle", "<<", ">>", false, false, false)),
      entry(new Grammar("web_brackets", "[web:", "]", false, false, false)),
      entry(new Grammar("paren_part", "(", ")", false, false, false)),
      entry(new Grammar("markdown_footnote", "[^", "]", false, false, false)),
      entry(new Grammar("curly_double", "{{", "}}", false, false, true)),
      entry(new Grammar("angle_pipe", "<ref|", ">", false, false, true)));

  private static Map.Entry<String, Grammar> entry(Grammar grammar) {
    return Map.entry(grammar.name(), grammar);
  }

  /**
   * A well-formed span: where it starts and ends, its ID text, and for claim_wrap_xml where the claim is.
   */
  record Span(int start, int end, String ids, int claimStart, int claimEnd) {}

  /** The well-formed spans, left to right, as Python's {@code finditer} gives them (empty claims dropped). */
  List<Span> spans(String text, IdPattern id) {
    List<Span> spans = new ArrayList<>();
    int noCloseAfter = Integer.MAX_VALUE;   // once no </cite> follows a position, none follows a later one
    int from = 0;
    int at;
    while ((at = text.indexOf(open, from)) >= 0) {
      int idStart = at + open.length();
      int idEnd = idStart;
      while (idEnd < text.length() && (id.mayContain(text.charAt(idEnd)) || multi && text.charAt(idEnd) == ',')) {
        idEnd++;
      }
      String ids = text.substring(idStart, idEnd);
      int end = idEnd + close.length();
      boolean ok = text.startsWith(close, idEnd) && idsMatch(ids, id)
          && !(name.equals("ascii_brackets") && text.startsWith("(", end));
      int claimStart = -1;
      int claimEnd = -1;
      if (ok && name.equals("claim_wrap_xml")) {
        claimStart = end;
        claimEnd = claimStart >= noCloseAfter ? -1 : text.indexOf("</cite>", claimStart);
        if (claimEnd < 0) {
          noCloseAfter = Math.min(noCloseAfter, claimStart);
        }
        ok = claimEnd >= 0;
        end = claimEnd + "</cite>".length();
      }
      if (!ok) {
        from = at + 1;
        continue;
      }
      if (claimStart < 0 || !dev.gym4j.text.PythonText.strip(text.substring(claimStart, claimEnd)).isEmpty()) {
        spans.add(new Span(at, end, ids, claimStart, claimEnd));
      }
      from = end;
    }
    return spans;
  }

  private boolean idsMatch(String ids, IdPattern id) {
    if (!multi) {
      return id.matches(ids);
    }
    for (String part : ids.split(",", -1)) {
      if (!id.matches(part)) {
        return false;
      }
    }
    return true;
  }
}
