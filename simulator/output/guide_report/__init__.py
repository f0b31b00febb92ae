"""What ``golfsim guide`` writes: ``guide.html`` (one self-contained file, its figures
inlined), ``guide.md`` (beside its PNG figures), ``guide.parquet`` (every measured entry) and
the house-rule comparison under ``compare/``.

The modules, by concern: :mod:`.data` (guide.parquet's frame and metadata), :mod:`.charts`
(the figures), :mod:`.words` (questions, numbers and cells), :mod:`.rules_text` (the rule set
and the baseline players in words), :mod:`.tables` (the decision, power, snap and match,
threshold and advice tables), :mod:`.summary` (rules of thumb, verdict, method),
:mod:`.sections` (the page's sections), :mod:`.documents` (guide.md, guide.html, and writing
every file) and :mod:`.printed` (what the command prints). Everything public is importable
from here.
"""

from __future__ import annotations

from .charts import (check_figure, decisions_figure, figures, house_rules, redraw,
                     thresholds_figure, write_figures)
from .data import (CHECK_PLOT, DECISIONS_PLOT, HOUSE_RULES_PARQUET, HOUSE_RULES_PLOT, PARQUET,
                   THRESHOLDS_PLOT, check_summary, frame, metadata, title)
from .documents import CSS, html_page, markdown, write
from .printed import format_guide
from .rules_text import (AMBIGUITY_REF, AT_ONCE, CALL_TIMING, SNAP_WORDS, TURN_MATCH_WORDS,
                         baseline_text, for_players, rules_lines)
from .sections import place_text
from .summary import (RULES_OF_THUMB_NOTE, method_lines, rules_of_thumb, rules_of_thumb_lines,
                      verdict_line)
from .tables import (ADVICE_HEADING, ADVICE_KINDS, EFFECT_WORDS, POWER_HEADING, POWERS_CLASS,
                     SAY_HEADINGS, advice, advice_note, advice_table, cards_note, decision_tables,
                     legend_lines, power_table, reveal_lines, say_question, say_row_heading,
                     say_tables, threshold_tables)
from .words import (ADVICE_TABLE, ANY_CARD, BASELINE, CLEAR_MARK, MAX_RULES, NA, NUMBER_WORDS,
                    PLURALS, RANK_ORDER, Cell, Rule, cards_of, pp, question, threshold_question)

__all__ = ["advice", "ADVICE_HEADING", "ADVICE_KINDS", "advice_note", "advice_table",
           "ADVICE_TABLE", "AMBIGUITY_REF", "ANY_CARD", "AT_ONCE", "BASELINE", "baseline_text",
           "CALL_TIMING", "cards_note", "cards_of", "Cell", "check_figure", "CHECK_PLOT",
           "check_summary", "CLEAR_MARK", "CSS", "decision_tables", "decisions_figure",
           "DECISIONS_PLOT", "EFFECT_WORDS", "figures", "for_players", "format_guide", "frame",
           "house_rules", "HOUSE_RULES_PARQUET", "HOUSE_RULES_PLOT", "html_page", "legend_lines",
           "markdown", "MAX_RULES", "metadata", "method_lines", "NA", "NUMBER_WORDS", "PARQUET",
           "place_text", "PLURALS", "POWER_HEADING", "power_table", "POWERS_CLASS", "pp",
           "question", "RANK_ORDER", "redraw", "reveal_lines", "Rule", "rules_lines",
           "rules_of_thumb", "rules_of_thumb_lines", "RULES_OF_THUMB_NOTE", "SAY_HEADINGS",
           "say_question", "say_row_heading", "say_tables", "SNAP_WORDS", "threshold_question",
           "threshold_tables", "thresholds_figure", "THRESHOLDS_PLOT", "title", "TURN_MATCH_WORDS",
           "verdict_line", "write", "write_figures"]
