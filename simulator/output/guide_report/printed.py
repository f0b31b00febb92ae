"""The text ``golfsim guide`` prints."""

from __future__ import annotations

from ...experiments.guide import EITHER, MOOT, GuideResult
from ...experiments.report import ran_on, text_table
from .data import title
from .summary import rules_of_thumb_lines, verdict_line
from .rules_text import rules_lines
from .sections import _house_rule_sections
from .tables import (ADVICE_KINDS, POWER_HEADING, SAY_HEADINGS, _against, _optional, advice_table,
                     cards_note, decision_tables, power_table, reveal_lines, say_tables,
                     threshold_tables)
from .words import CLEAR_MARK, NA


def format_guide(result: GuideResult, threads: int) -> str:
    """The text ``golfsim guide`` prints."""
    lines = [f"strategy guide: {title(result)}; {result.deals:,} deals per decision, seed "
             f"{result.seed}; {result.seconds:.1f} s on {ran_on(threads)}"]
    lines += [f"{label}: {text}" for label, text in rules_lines(result)]
    lines += ["", "Rules of thumb:"]
    lines += [f"{i}. {x}" for i, x in enumerate(rules_of_thumb_lines(result), 1)]
    lines += ["", verdict_line(result)]
    said = [POWER_HEADING] + list(SAY_HEADINGS.values())
    for head, _, header, rows in (decision_tables(result) + _optional(power_table(result)) +
                                  say_tables(result)):
        rest = (f"{EITHER}: no clear difference, the baseline player's rule; {NA}: never "
                "came up" if head in said else f"{EITHER}: no clear difference, the "
                "play in brackets; no number: both options played alike")
        lines += ["", head + f"  (what the advice gains in pp of win share, ± paired 95%; "
                  f"{CLEAR_MARK} clear; {rest})"]
        words = set(range(len(header) - 1)) if head == POWER_HEADING else {0}
        lines += text_table(tuple(header), [tuple(str(c) for c in r) for r in rows], left=words)
    lines += [x for x in [cards_note(result)] if x]
    for th, (head, _, header, rows) in zip(result.thresholds, threshold_tables(result)):
        lines += ["", f"{head}  (against {_against(th, result.players, result.rules)})"]
        lines += text_table(tuple(header), [tuple(str(c) for c in r) for r in rows], left={0})
    lines += reveal_lines(result)
    for head, _, header, rows in _optional(advice_table(result)):
        lines += ["", f"{head}  (following the advice minus breaking it, pp of win share, "
                  "± paired 95%; guide.md says how each was measured)"]
        moot = [r for r in rows if r[2].kind == ADVICE_KINDS[MOOT]]
        lines += text_table(tuple(header[:1] + header[2:]),
                            [tuple(str(c) for c in r[:1] + r[2:]) for r in rows
                             if r not in moot], left={0, 1})
        lines += [f"{c.advice} ({MOOT}: {c.moot})" for c in result.claims if c.moot]
    if result.compare is not None:
        heading, header, rows = _house_rule_sections(result)[0]
        lines += ["", f"house rules, {heading} (guide.md has the rest)"]
        lines += text_table(tuple(header), [tuple(r) for r in rows], left={0})
    lines.append(f"the guide as a strategy: {result.spec}")
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)
