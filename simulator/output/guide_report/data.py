"""The guide's data: guide.parquet's frame of every measured entry, its metadata and title, the
check's summary, and the names of the files it writes."""

from __future__ import annotations

import json

import polars as pl

from ...experiments.guide import UNCLEAR, GuideResult
from ...experiments.report import title as report_title
from ...experiments.report import rules_metadata
from .words import ADVICE_TABLE, _labels, cards_of, threshold_question


DECISIONS_PLOT = "guide-decisions.png"
THRESHOLDS_PLOT = "guide-thresholds.png"
CHECK_PLOT = "guide-check.png"
HOUSE_RULES_PLOT = "guide-house-rules.png"
HOUSE_RULES_PARQUET = "guide-house-rules.parquet"   # the figure's table
PARQUET = "guide.parquet"

def frame(result: GuideResult) -> pl.DataFrame:
    """One row per measured entry and per threshold value."""
    rows = []
    labels = _labels(result.rules)
    for e in result.entries:
        rows.append({"table": e.table, "row": e.row, "cards": cards_of(result.rules, e),
                     "situation": e.situation,
                     "situation_text": labels.get(e.situation, ""),
                     "option": e.a, "versus": e.b, "deals": e.deals,
                     "win_diff": float(e.win.mean), "win_diff_se": float(e.win.se),
                     "win_diff_lo95": float(e.win.lo), "win_diff_hi95": float(e.win.hi),
                     "score_diff": float(e.score.mean), "score_diff_lo95": float(e.score.lo),
                     "score_diff_hi95": float(e.score.hi), "win": None, "win_lo95": None,
                     "win_hi95": None, "chosen": e.chosen,
                     "clear": e.clear, "indistinguishable": None})
    rows += [_claim_row(c) for c in result.claims]
    for th in result.thresholds:
        for i, v in enumerate(th.values):
            rows.append({"table": th.table, "row": _value_text(v), "cards": None,
                         "situation": "",
                         "situation_text": threshold_question(result.rules, th.table),
                         "option": _value_text(v), "versus": _value_text(th.best),
                         "deals": result.deals,
                         "win_diff": float(th.diff.mean[i]), "win_diff_se": float(th.diff.se[i]),
                         "win_diff_lo95": float(th.diff.lo[i]),
                         "win_diff_hi95": float(th.diff.hi[i]),
                         "score_diff": None, "score_diff_lo95": None, "score_diff_hi95": None,
                         "win": float(th.win.mean[i]), "win_lo95": float(th.win.lo[i]),
                         "win_hi95": float(th.win.hi[i]),
                         "chosen": _value_text(th.best), "clear": None,
                         "indistinguishable": bool(th.same[i])})
    schema = {"table": pl.Utf8, "row": pl.Utf8, "cards": pl.Utf8, "situation": pl.Utf8,
              "situation_text": pl.Utf8, "option": pl.Utf8,
              "versus": pl.Utf8, "deals": pl.Int64, "win_diff": pl.Float64,
              "win_diff_se": pl.Float64, "win_diff_lo95": pl.Float64,
              "win_diff_hi95": pl.Float64, "score_diff": pl.Float64,
              "score_diff_lo95": pl.Float64, "score_diff_hi95": pl.Float64,
              "win": pl.Float64, "win_lo95": pl.Float64, "win_hi95": pl.Float64,
              "chosen": pl.Utf8, "clear": pl.Boolean, "indistinguishable": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


def _claim_row(c) -> dict:
    """A piece of common advice as a row of guide.parquet (table "advice"; no measurement
    where it does not apply: its reason is the option)."""
    w, sc = c.win, c.score
    return {"table": ADVICE_TABLE, "row": c.key, "cards": None, "situation": "",
            "situation_text": c.advice, "option": c.follow or c.moot, "versus": c.against,
            "deals": c.deals,
            **{k: (None if w is None else float(getattr(w, a)))
               for k, a in (("win_diff", "mean"), ("win_diff_se", "se"),
                            ("win_diff_lo95", "lo"), ("win_diff_hi95", "hi"))},
            **{k: (None if sc is None else float(getattr(sc, a)))
               for k, a in (("score_diff", "mean"), ("score_diff_lo95", "lo"),
                            ("score_diff_hi95", "hi"))},
            "win": None, "win_lo95": None, "win_hi95": None, "chosen": c.verdict,
            "clear": None if c.moot else c.verdict != UNCLEAR, "indistinguishable": None}


def _value_text(v: float) -> str:
    if abs(v) >= 1000:
        return "no limit" if v > 0 else "never"
    return f"{v:g}"


def check_summary(result: GuideResult) -> dict | None:
    """The check tournament's pairing of the guide against the field (greedy, or
    knock-threshold in knock-only games)."""
    if result.check is None:
        return None
    p = result.check.pairings[0]
    g, gr = p.win[0], p.win[1]
    return {"rounds": p.rounds, "guide_win": g.mean, "guide_win_se": g.se,
            "field": result.field, "field_win": gr.mean, "field_win_se": gr.se,
            "score_diff": p.score_diff.mean, "score_diff_se": p.score_diff.se,
            "seed": result.check.seed}


def metadata(result: GuideResult, command: str, rules_file: str | None = None) -> dict:
    return {**rules_metadata("a golfsim strategy guide (guide.parquet: one row per measured "
                             "entry or threshold value)", result.rules, result.preset,
                             command, rules_file),
            "players": str(result.players), "seed": str(result.seed), "build": result.build,
            "deals": str(result.deals), "guide_strategy": result.spec,
            "check": json.dumps(check_summary(result)),
            "threshold_fields": json.dumps({th.table: {"field": th.field,
                                                       "field_value": th.field_value,
                                                       "sweeps": th.sweeps,
                                                       "settled": th.settled}
                                            for th in result.thresholds}),
            "warnings": json.dumps(result.warnings),
            "title": title(result)}


def title(result: GuideResult) -> str:
    return report_title(result.rules, result.preset, f"{result.players} players")
