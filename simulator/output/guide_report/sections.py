"""The guide page's sections in order, shared by HTML and Markdown."""

from __future__ import annotations

from ...experiments import compare as cmp
from ...experiments.guide import GuideResult, applicable, has_lines, line_word
from ...game.rules import Rules
from .data import CHECK_PLOT, DECISIONS_PLOT, HOUSE_RULES_PLOT, THRESHOLDS_PLOT
from .summary import RULES_OF_THUMB_NOTE, method_lines, rules_of_thumb_lines, verdict_line
from .rules_text import rules_lines
from .tables import (POWERS_CLASS, _optional, advice_table, decision_tables, legend_lines,
                     power_table, reveal_lines, say_tables, threshold_tables)
from .words import ADVICE_TABLE, Cell


def place_text(rules: Rules) -> str:
    parts = []
    if rules.pair_scope != "none":
        parts.append("Where it pairs one of your cards, if it can.")
    if has_lines(rules):
        line = line_word(rules)
        parts.append(f"A card you take or keep for a {line}: into that {line}; a complete "
                     f"{line} of a rank you build with is never broken up.")
    parts.append(("Otherwise" if parts else "Where") + " it lowers your estimated score "
                 "most: over a card you know only when that saves at least a point, over a "
                 "card you don't know when it is below the average of the cards you have not "
                 "seen.")
    if applicable(rules, 2)["down"]:
        parts.append("The placement table above says, by rank, when to put it over a "
                     "face-down card instead.")
    return " ".join(parts)


def _house_rule_sections(result: GuideResult):
    """The comparison's mean-score and win-share tables, the guide's column named "guide" and
    the field's "baseline"."""
    names = {result.spec: "guide", result.field: "baseline player"}
    return [(heading, [names.get(h, h) for h in header], rows)
            for heading, header, rows in cmp.sections(result.compare)[:2]]


def _sections(result: GuideResult, names: set[str]) -> list[tuple]:
    """The guide as blocks both writers render: ("h2"|"h3"|"p"|"note"|"verdict", text),
    ("dl", [(label, text)]), ("ul"|"ol", [text]), ("table", header, rows, class),
    ("img", file name, alt)."""
    b: list[tuple] = [("h2", "The rules"), ("dl", rules_lines(result)),
                      ("h2", "Rules of thumb"), ("note", RULES_OF_THUMB_NOTE),
                      ("ol", rules_of_thumb_lines(result)),
                      ("h2", "How well it plays"), ("verdict", verdict_line(result))]
    if CHECK_PLOT in names:
        b.append(("img", CHECK_PLOT, "the guide against the baseline players"))
    b += [("h2", "How to read the tables"), ("ul", legend_lines(result))]
    for head, note, header, rows in decision_tables(result):
        b += [("h2", head), ("note", note), ("table", header, rows, "decisions")]
    for head, note, header, rows in _optional(power_table(result)):
        b += [("h2", head), ("note", note), ("table", header, rows, POWERS_CLASS)]
    for head, note, header, rows in say_tables(result):
        b += [("h2", head), ("note", note), ("table", header, rows, "decisions")]
    if DECISIONS_PLOT in names:
        b.append(("img", DECISIONS_PLOT, "decisions by rank"))
    b += [("h2", "Where to put a card you keep"), ("p", place_text(result.rules))]
    for head, note, header, rows in threshold_tables(result):
        b += [("h2", head), ("note", note), ("table", header, rows, "thresholds")]
    if THRESHOLDS_PLOT in names:
        b.append(("img", THRESHOLDS_PLOT, "thresholds"))
    if reveal_lines(result):
        b += [("h2", "Which cards to reveal first")] + [("p", x) for x in reveal_lines(result)]
    for head, note, header, rows in _optional(advice_table(result)):
        b += [("h2", head), ("note", note), ("table", header, rows, ADVICE_TABLE)]
    if result.compare is not None:
        b += [("h2", "House rules: what changes when you change them"),
              ("note", f"Measured with the guide and the baseline player "
                       f"({result.compare.rounds:,} deals per rule set, paired). Each change: "
                       "variant minus baseline rules ± its paired 95% interval.")]
        for heading, header, rows in _house_rule_sections(result):
            b += [("h3", heading[0].upper() + heading[1:]),
                  ("table", header, [[Cell(c) for c in r] for r in rows], "house-rules")]
        if HOUSE_RULES_PLOT in names:
            b.append(("img", HOUSE_RULES_PLOT, "house rules"))
    b += [("h2", "How this was measured"),
          ("ul", method_lines(result) + [f"Notes: {n}" for n in result.notes])]
    return b
