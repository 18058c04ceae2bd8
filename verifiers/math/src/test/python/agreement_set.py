#!/usr/bin/env python3
"""Builds and labels the notation agreement set (src/test/resources/notation_agreement_pairs.jsonl).

    python3 agreement_set.py generate GOLDS.txt > pairs.jsonl      # (gold, prediction, category) rows
    python3 agreement_set.py label < pairs.jsonl > labelled.jsonl  # adds math-verify's verdict as "reward"

`generate` needs only the standard library. Its input is a file of gold answers, one a line, each line
`source<TAB>gold` (see golds.tsv beside this script: the expected answers of NeMo Gym's math datasets and of
the benchmarks our environments run). For every gold it writes the prediction the way models write answers
(one category per notation) and in wrong-answer forms, at most PER_CATEGORY a category; then the pairs of
handwritten_pairs.tsv (`gold<TAB>prediction`, category "handwritten"). It is deterministic (a fixed seed).

`label` needs math-verify 0.8.0 and latex2sympy2_extended 1.10.2 (antlr4-python3-runtime 4.13.2) installed
in the running Python; it calls them exactly as NeMo Gym main's math_with_judge does (judge off;
resources_servers/math_with_judge/app.py, `_run_math_verify`): the gold is `\\boxed{strip_math_delimiters(gold)}`
read by LatexExtractionConfig, the prediction by ExprExtractionConfig and LatexExtractionConfig, in a forked
child with a 10 s deadline (timeout or error -> 0). The Java test never runs Python: it reads the committed
labelled file.
"""
import json
import os
import random
import re
import sys

# ---------------------------------------------------------------------------------------------- generate

NUM = re.compile(r"^-?\d+$")
DEC = re.compile(r"^-?\d+\.\d+$")
FRAC = re.compile(r"^(-?)\\[dt]?frac\{(\d+)\}\{(\d+)\}$")


def strip_delims(s):
    s = s.strip()
    if s.startswith("\\(") and s.endswith("\\)"):
        s = s[2:-2].strip()
    if s.startswith("$") and s.endswith("$") and len(s) > 1:
        s = s[1:-1].strip()
    return s


def wrong_number(text, rnd):
    """The same text with one digit changed: a wrong answer in the same notation."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        return None
    i = rnd.choice(digits)
    d = (int(text[i]) + rnd.choice([1, 2, 3, 7])) % 10
    if d == 0 and i == 0 and len(digits) > 1:
        d = 1
    return text[:i] + str(d) + text[i + 1:]


def over(g):
    """\\frac{a}{b} as {a \\over b}, innermost first."""
    pattern = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
    for _ in range(4):
        g2 = pattern.sub(lambda m: "{" + m.group(1) + " \\over " + m.group(2) + "}", g)
        if g2 == g:
            break
        g = g2
    return g


def unicode_math(g):
    out = g
    out = re.sub(r"\\sqrt\{(\d+)\}", lambda m: "√" + m.group(1), out)
    out = re.sub(r"\\sqrt\{([^{}]+)\}", lambda m: "√(" + m.group(1) + ")", out)
    out = out.replace("\\pi", "π").replace("\\infty", "∞").replace("\\cdot", "·").replace("\\times", "×")
    out = out.replace("\\leq", "≤").replace("\\geq", "≥").replace("\\le ", "≤ ").replace("\\ge ", "≥ ")
    out = re.sub(r"\^\\circ|\^\{\\circ\}", "°", out)
    out = out.replace("\\theta", "θ").replace("\\alpha", "α")
    return out


def variants(source, gold, rnd):
    """(category, prediction) pairs for one gold."""
    g = strip_delims(gold)
    g_noperiod = g[:-1] if g.endswith(".") else g
    rows = []

    def add(cat, pred):
        if pred is not None and pred.strip():
            rows.append((cat, pred))

    wrong = wrong_number(g_noperiod, rnd)
    # plain forms every gold gets
    add("boxed", "Therefore, the final answer is $\\boxed{" + g_noperiod + "}$.")
    add("boxed", "\\boxed{" + g_noperiod + "}")
    add("final_answer_phrase", "The final answer is $" + g_noperiod + "$. I hope it is correct.")
    add("answer_colon", "**Answer:** $" + g_noperiod + "$")
    add("answer_equals", "$$\\text{Answer} = " + g_noperiod + "$$")
    add("answer_equals", "$\\text{Final Answer} = " + g_noperiod + "$")
    add("display_math", "After simplifying we get\n\\[\n" + g_noperiod + "\n\\]")
    add("text_wrap", "\\boxed{\\text{" + g_noperiod + "}}")
    add("text_wrap", "\\boxed{\\textbf{" + g_noperiod + "}}")
    add("text_wrap", "\\boxed{\\mathbf{" + g_noperiod + "}}")
    add("text_wrap", "**Answer:** $\\mathrm{" + g_noperiod + "}$")
    add("trailing_period", "So the answer is $" + g_noperiod + ".$")
    add("trailing_period", "The answer is " + g_noperiod + ".")
    if wrong:
        add("wrong", "\\boxed{" + wrong + "}")
        add("wrong", "The final answer is $" + wrong + "$.")
        add("wrong", "$$\\text{Answer} = " + wrong + "$$")
        add("wrong_text_wrap", "\\boxed{\\text{" + wrong + "}}")
        add("wrong_text_wrap", "\\boxed{\\textbf{" + wrong + "}}")
    if "\\frac" in g or "\\dfrac" in g:
        add("frac_over", "\\boxed{" + over(g_noperiod) + "}")
        add("frac_over", "$" + over(g_noperiod) + "$")
        add("dfrac", "\\boxed{" + g_noperiod.replace("\\frac", "\\dfrac") + "}")
        add("dfrac", "\\boxed{" + g_noperiod.replace("\\frac", "\\tfrac") + "}")
        if wrong:
            add("wrong", "\\boxed{" + over(wrong) + "}")
    uni = unicode_math(g_noperiod)
    if uni != g_noperiod:
        add("unicode", "The answer is " + uni)
        add("unicode", "\\boxed{" + uni + "}")
        if wrong:
            add("wrong", "\\boxed{" + unicode_math(wrong) + "}")
    m = re.search(r"\\sqrt\{(\d+)\}", g_noperiod)
    if m:
        add("sqrt_unbraced", "\\boxed{" + g_noperiod.replace(m.group(0), "\\sqrt" + m.group(1), 1) + "}")
        add("sqrt_unbraced", "$" + g_noperiod.replace(m.group(0), "\\sqrt " + m.group(1), 1) + "$")
    if "\\left" in g or "(" in g or "[" in g:
        big = g_noperiod.replace("\\left(", "(").replace("\\right)", ")").replace("\\left[", "[").replace("\\right]", "]")
        add("delimiters", "\\boxed{" + big.replace("(", "\\bigl(").replace(")", "\\bigr)") + "}")
        add("delimiters", "\\boxed{" + big.replace("(", "\\left(").replace(")", "\\right)") + "}")
        add("delimiters", "\\boxed{\\left[ " + big + " \\right]}")
        add("delimiters", "\\boxed{" + big.replace("(", "\\Big(").replace(")", "\\Big)") + "}")
    else:
        add("delimiters", "\\boxed{\\left(" + g_noperiod + "\\right)}")
        add("delimiters", "\\boxed{\\bigl(" + g_noperiod + "\\bigr)}")
    if re.match(r"^[A-Za-z]", g_noperiod) and " " in g_noperiod or g_noperiod.startswith("\\text"):
        inner = re.sub(r"^\\text\{(.*)\}$", r"\1", g_noperiod)
        add("prose_case", "\\boxed{\\text{" + inner.upper() + "}}")
        add("prose_case", "\\boxed{\\text{" + inner.lower() + "}}")
        add("prose_case", "The answer is " + inner.lower() + ".")
        add("prose_case", "\\boxed{" + inner.title() + "}")
    plain = g_noperiod.replace("\\$", "").replace("\\%", "").replace(",", "")
    if NUM.match(plain) or DEC.match(plain):
        add_number_variants(add, plain, rnd)
    mf = FRAC.match(g_noperiod)
    if mf:
        sign, a, b = mf.group(1), int(mf.group(2)), int(mf.group(3))
        add("fraction", "\\boxed{" + sign + str(a) + "/" + str(b) + "}")
        add("fraction", sign + str(a) + "/" + str(b))
        add("fraction", "The answer is " + sign + str(a) + "/" + str(b) + ".")
        add("fraction", "\\boxed{" + sign + "{" + str(a) + " \\over " + str(b) + "}}")
        add("decimal", "\\boxed{" + sign + format(a / b, ".6f").rstrip("0").rstrip(".") + "}")
        add("decimal", "\\boxed{" + sign + format(a / b, ".3f") + "}")
        add("decimal", "\\boxed{" + sign + format(a / b, ".10f") + "}")
        add("text_wrap", "\\boxed{\\text{" + sign + format(a / b, ".6f") + "}}")
        add("scientific", "\\boxed{" + sign + format(a / b, ".4e") + "}")
        if a > b:
            add("mixed_number", "\\boxed{" + sign + str(a // b) + "\\frac{" + str(a % b) + "}{" + str(b) + "}}")
            add("mixed_number", "\\boxed{" + sign + str(a // b) + " \\frac{" + str(a % b) + "}{" + str(b) + "}}")
        add("wrong", "\\boxed{" + sign + str(b) + "/" + str(a) + "}")
        add("wrong", "\\boxed{" + sign + format(a / b + 0.01, ".4f") + "}")
    if "=" in g_noperiod:
        lhs, _, rhs = g_noperiod.partition("=")
        add("equation", "\\boxed{" + rhs.strip() + "}")
        add("equation", "\\boxed{" + rhs.strip() + " = " + lhs.strip() + "}")
        add("equation", "$$" + g_noperiod.replace(" ", "") + "$$")
    elif not any(c in g_noperiod for c in ",;\\{") or FRAC.match(g_noperiod) or "\\sqrt" in g_noperiod:
        add("equation", "\\boxed{x = " + g_noperiod + "}")
        add("equation", "$$x = " + g_noperiod + "$$")
        add("equation", "So $a + b = " + g_noperiod + "$.")
    if "," in g_noperiod and "\\" not in g_noperiod.replace("\\frac", "").replace("\\sqrt", ""):
        items = [x.strip() for x in g_noperiod.strip("()[]{} ").split(",")]
        add("set", "\\boxed{\\{" + ", ".join(items) + "\\}}")
        add("set", "\\boxed{\\{" + ", ".join(reversed(items)) + "\\}}")
        add("set", "\\boxed{" + " \\text{ and } ".join(items) + "}")
        add("tuple", "\\boxed{(" + ", ".join(items) + ")}")
        add("tuple", "\\boxed{\\left(" + ", ".join(reversed(items)) + "\\right)}")
        add("tuple", "\\boxed{[" + ", ".join(items) + "]}")
        add("set", "\\boxed{\\text{" + ", ".join(items) + "}}")
    if "matrix" in g_noperiod:
        add("matrix", "\\boxed{" + g_noperiod.replace("pmatrix", "bmatrix") + "}")
        add("matrix", "$" + g_noperiod.replace("\\begin{pmatrix}", "\\left(\\begin{array}{cc}").replace("\\end{pmatrix}", "\\end{array}\\right)") + "$")
        add("matrix", "\\boxed{" + g_noperiod.replace("pmatrix", "matrix") + "}")
    if re.search(r"\^\\circ|\^\{\\circ\}", g_noperiod):
        base = re.sub(r"\^\\circ|\^\{\\circ\}", "", g_noperiod)
        add("degrees", "\\boxed{" + base + "}")
        add("degrees", "\\boxed{" + base + "°}")
        add("degrees", "\\boxed{" + base + "\\degree}")
        add("degrees", "\\boxed{" + base + " \\text{ degrees}}")
    if re.search(r"[A-Za-z]", g_noperiod) and not g_noperiod.startswith("\\text"):
        add("unknown_command", "\\boxed{" + g_noperiod.replace(" ", "") + "}")
        add("unknown_command", "\\boxed{" + re.sub(r"([+\-])", r" \1 ", g_noperiod) + "}")
    return rows


UNITS = ["\\text{ cm}", "\\text{ m}", " \\mathrm{kg}", "\\text{ dollars}", " meters", "\\,\\text{s}", "\\text{ units}"]


def add_number_variants(add, plain, rnd):
    neg = plain.startswith("-")
    digits = plain.lstrip("-")
    if NUM.match(plain):
        n = int(plain)
        if abs(n) >= 1000:
            add("thousands", "\\boxed{" + format(n, ",") + "}")
            add("thousands", "The answer is " + format(n, ",") + ".")
            add("thousands", "\\boxed{" + format(n, ",").replace(",", "{,}") + "}")
            add("thousands", "\\boxed{" + format(n, ",").replace(",", "\\,") + "}")
            add("thousands", "$" + format(n, ",").replace(",", "\\ ") + "$")
            add("scientific", "\\boxed{" + format(n, ".6e") + "}")
            mant = n / 10 ** (len(digits) - 1)
            add("scientific", "\\boxed{" + format(mant, "g") + " \\times 10^{" + str(len(digits) - 1) + "}}")
            add("wrong", "\\boxed{" + format(n + 1, ",") + "}")
        add("decimal", "\\boxed{" + plain + ".0}")
        add("decimal", "\\boxed{" + plain + ".00}")
        add("text_wrap", "\\boxed{\\text{" + plain + ".0}}")
        add("percent", "\\boxed{" + plain + "\\%}")
        add("percent", plain + "%")
        add("percent", "\\boxed{" + plain + " \\text{ percent}}")
        add("degrees", "\\boxed{" + plain + "^\\circ}")
        add("degrees", "\\boxed{" + plain + "^{\\circ}}")
        add("degrees", "\\boxed{" + plain + "°}")
        add("degrees", "\\boxed{" + plain + "\\degree}")
        add("degrees", "\\boxed{" + plain + "^\\circ \\text{C}}")
        add("units", "\\boxed{" + plain + rnd.choice(UNITS) + "}")
        add("units", "The answer is " + plain + " " + rnd.choice(["apples", "cm", "meters", "dollars", "minutes"]) + ".")
        add("units", "\\boxed{\\$" + plain + "}")
        add("units", "\\boxed{" + plain + "\\text{ m/s}}")
        add("text_wrap", "\\boxed{\\textbf{" + plain + "}}")
        add("wrong", "\\boxed{" + str(n + 1) + "}")
        add("wrong", "\\boxed{" + str(-n if n else 1) + "}")
        add("wrong", "The answer is " + str(n * 10) + ".")
        add("wrong_units", "\\boxed{" + str(n + 1) + rnd.choice(UNITS) + "}")
        add("wrong", "\\boxed{" + plain + ".5}")
        add("wrong_degrees", "\\boxed{" + str(n + 1) + "^\\circ}")
        if n > 1:
            add("mixed_number", "\\boxed{" + str(n - 1) + "\\frac{2}{2}}")
            add("fraction", "\\boxed{\\frac{" + str(2 * n) + "}{2}}")
            add("frac_over", "\\boxed{{" + str(2 * n) + " \\over 2}}")
            add("fraction", "\\boxed{" + str(3 * n) + "/3}")
    else:
        x = float(plain)
        add("decimal", "\\boxed{" + plain + "0}")
        add("decimal", "\\boxed{" + ("-" if neg else "") + digits.lstrip("0") + "}")
        add("scientific", "\\boxed{" + format(x, ".3e") + "}")
        add("scientific", "\\boxed{" + format(x, "e") + "}")
        add("percent", "\\boxed{" + format(x * 100, "g") + "\\%}")
        add("text_wrap", "\\boxed{\\text{" + plain + "}}")
        add("text_wrap", "\\boxed{\\textbf{" + plain + "}}")
        add("units", "\\boxed{" + plain + rnd.choice(UNITS) + "}")
        add("wrong", "\\boxed{" + format(x + 0.1, "g") + "}")
        add("wrong", "\\boxed{" + format(x * 1.001, ".6g") + "}")
        add("wrong_text_wrap", "\\boxed{\\text{" + format(x + 1, "g") + "}}")


PER_CATEGORY = 200  # at most this many pairs a category, drawn at random, so no notation dominates


def generate(path):
    rnd = random.Random(32)
    seen = set()
    by_category = {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        source, _, gold = line.partition("\t")
        for category, pred in variants(source, gold, rnd):
            if (gold, pred) in seen:
                continue
            seen.add((gold, pred))
            by_category.setdefault(category, []).append({"category": category, "source": source, "gold": gold,
                                                         "pred": pred})
    for category in sorted(by_category):
        rows = by_category[category]
        rnd.shuffle(rows)
        for row in rows[:PER_CATEGORY]:
            print(json.dumps(row, ensure_ascii=False))
    # pairs written by hand, one per notation seen in model answers, not derived from the golds above
    for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "handwritten_pairs.tsv"),
                     encoding="utf-8"):
        gold, _, pred = line.rstrip("\n").partition("\t")
        if gold and pred:
            print(json.dumps({"category": "handwritten", "source": "handwritten", "gold": gold, "pred": pred},
                             ensure_ascii=False))


# ---------------------------------------------------------------------------------------------- label

def label():
    import multiprocessing as mp

    from math_verify.errors import TimeoutException
    from math_verify.metric import math_metric
    from math_verify.parser import ExprExtractionConfig, LatexExtractionConfig
    import logging

    logging.getLogger("math_verify").setLevel(logging.CRITICAL)

    # Built once in the parent and warmed (math-verify caches its compiled patterns), then used by each forked
    # child: the same object NeMo Gym builds in its child, without recompiling the patterns for every pair.
    metric = math_metric(
        gold_extraction_target=(LatexExtractionConfig(),),
        pred_extraction_target=(ExprExtractionConfig(), LatexExtractionConfig()),
    )
    metric(["\\boxed{1}"], ["\\boxed{1}"])

    def child(expected, generated, conn):
        try:
            score, _ = metric(["\\boxed{" + strip_delims(expected) + "}"], [generated])
            conn.send(float(score))
        except (Exception, TimeoutException):
            conn.send(0.0)
        finally:
            conn.close()

    ctx = mp.get_context("fork")
    for line in sys.stdin:
        row = json.loads(line)
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=child, args=(row["gold"], row["pred"], send))
        proc.start()
        send.close()
        reward = 0.0
        if recv.poll(10.0):
            try:
                reward = recv.recv()
            except EOFError:
                reward = 0.0
        proc.join(1.0)
        if proc.is_alive():
            proc.kill()
            proc.join()
        recv.close()
        row["reward"] = int(reward)
        print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["generate"]:
        generate(sys.argv[2])
    elif sys.argv[1:2] == ["label"]:
        label()
    else:
        sys.exit(__doc__)
