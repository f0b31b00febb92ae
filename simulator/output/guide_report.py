"""What ``golfsim guide`` writes: ``guide.html`` (one self-contained file, its figures
inlined), ``guide.md`` (beside its PNG figures), ``guide.parquet`` (every measured entry) and
the house-rule comparison under ``compare/``."""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

import numpy as np
import polars as pl

from ..experiments import compare as cmp
from . import plots
from ..experiments.guide import PLACE_SITUATION, SITUATION_HELP, SITUATIONS, TABLES, GuideResult
from ..experiments.report import (atomic_path, rules_metadata, text_table, version,
                                  write_parquet_atomic)
from ..experiments.report import title as report_title
from ..game.rules import PRESETS

DECISIONS_PLOT = "guide-decisions.png"
THRESHOLDS_PLOT = "guide-thresholds.png"
CHECK_PLOT = "guide-check.png"
HOUSE_RULES_PLOT = "guide-house-rules.png"
PARQUET = "guide.parquet"


def pp(x: float) -> str:
    """A share difference in percentage points."""
    return f"{100 * x:+.2f}"


def _pm(lo: float, hi: float) -> str:
    return f"±{100 * (hi - lo) / 2:.2f}"


# ---- the data ---------------------------------------------------------------------------------
def frame(result: GuideResult) -> pl.DataFrame:
    """One row per measured entry and per threshold value."""
    rows = []
    for e in result.entries:
        rows.append({"table": e.table, "row": e.row, "situation": e.situation,
                     "option": e.a, "versus": e.b, "deals": e.deals,
                     "win_diff": float(e.win.mean), "win_diff_se": float(e.win.se),
                     "win_diff_lo95": float(e.win.lo), "win_diff_hi95": float(e.win.hi),
                     "score_diff": float(e.score.mean), "score_diff_lo95": float(e.score.lo),
                     "score_diff_hi95": float(e.score.hi), "win": None, "win_lo95": None,
                     "win_hi95": None, "chosen": e.chosen,
                     "clear": e.clear, "indistinguishable": None})
    for th in result.thresholds:
        for i, v in enumerate(th.values):
            rows.append({"table": th.table, "row": _value_text(v), "situation": "",
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
    schema = {"table": pl.Utf8, "row": pl.Utf8, "situation": pl.Utf8, "option": pl.Utf8,
              "versus": pl.Utf8, "deals": pl.Int64, "win_diff": pl.Float64,
              "win_diff_se": pl.Float64, "win_diff_lo95": pl.Float64,
              "win_diff_hi95": pl.Float64, "score_diff": pl.Float64,
              "score_diff_lo95": pl.Float64, "score_diff_hi95": pl.Float64,
              "win": pl.Float64, "win_lo95": pl.Float64, "win_hi95": pl.Float64,
              "chosen": pl.Utf8, "clear": pl.Boolean, "indistinguishable": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


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
            "players": str(result.players), "seed": str(result.seed),
            "deals": str(result.deals), "guide_strategy": result.spec,
            "check": json.dumps(check_summary(result)),
            "warnings": json.dumps(result.warnings),
            "title": title(result)}


def title(result: GuideResult) -> str:
    return report_title(result.rules, result.preset, f"{result.players} players")


# ---- figures ----------------------------------------------------------------------------------
def decisions_figure(df: pl.DataFrame, heading: str):
    from matplotlib.figure import Figure
    tables = [t for t in TABLES if df.filter(pl.col("table") == t).height]
    width = 5.0 * max(2, len(tables))
    fig = Figure(figsize=(width, 7.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(1, len(tables)), squeeze=False).ravel())
    colours = {"pair": "#1f77b4", "early": "#ff7f0e", "late": "#2ca02c", "last": "#9467bd",
               "other": "#8c564b"}
    for ax, table in zip(axes, tables):
        part = df.filter(pl.col("table") == table)
        ranks = part["row"].unique(maintain_order=True).to_list()
        situations = part["situation"].unique(maintain_order=True).to_list()
        h = 0.8 / max(1, len(situations))
        for j, s in enumerate(situations):
            sub = part.filter(pl.col("situation") == s)
            y = np.array([ranks.index(r) for r in sub["row"]]) + (j - (len(situations) - 1) / 2) * h
            d = 100 * sub["win_diff"].to_numpy()
            err = 100 * np.vstack([sub["win_diff"].to_numpy() - sub["win_diff_lo95"].to_numpy(),
                                   sub["win_diff_hi95"].to_numpy() - sub["win_diff"].to_numpy()])
            label = dict(SITUATIONS + (PLACE_SITUATION,))[s]
            ax.barh(y, d, height=h * 0.9, color=colours.get(s, "grey"), alpha=0.85, label=label)
            ax.errorbar(d, y, xerr=err, fmt="none", ecolor="black", capsize=2, lw=0.8)
        verb_a, verb_b = TABLES[table][0], TABLES[table][1]
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(np.arange(len(ranks)), ranks)
        ax.set_ylim(len(ranks) - 0.5, -0.5)
        ax.set_xlabel(f"win share, {verb_a} minus {verb_b}\n(percentage points, 95% interval)")
        ax.set_title(plots.wrap(TABLES[table][3], plots.chars(4.4, 9)), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    # one legend for every panel, below them: inside a panel it would cover the last ranks
    legend = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=len(legend), fontsize=9, frameon=False)
    fig.suptitle("What each decision is worth, by the card's rank\n" +
                 plots.title_lines(heading, plots.chars(width - 0.4)), fontsize=10)
    return fig


def thresholds_figure(df: pl.DataFrame, heading: str):
    from matplotlib.figure import Figure
    tables = [t for t in ("out", "knock") if df.filter(pl.col("table") == t).height]
    width = 6.5 * max(1, len(tables))
    fig = Figure(figsize=(width, 4.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(1, len(tables)), squeeze=False).ravel())
    names = {"out": "Go out only when your score would be at most ...",
             "knock": "Knock when your estimated score is at most ..."}
    for ax, table in zip(axes, tables):
        part = df.filter(pl.col("table") == table)
        x = np.arange(part.height)
        w = 100 * part["win"].to_numpy()
        err = 100 * np.vstack([part["win"].to_numpy() - part["win_lo95"].to_numpy(),
                               part["win_hi95"].to_numpy() - part["win"].to_numpy()])
        same = part["indistinguishable"].to_numpy().astype(bool)
        ax.errorbar(x, w, yerr=err, fmt="o-", color="#1f77b4", capsize=3, lw=1)
        ax.scatter(x[same], w[same], s=90, facecolors="none", edgecolors="#d62728",
                   label="indistinguishable from the best")
        ax.set_xticks(x, part["row"].to_list())
        ax.set_xlabel("threshold (points)")
        ax.set_ylabel("win share of the guided player (%)")
        ax.set_title(plots.wrap(names[table], plots.chars(5.6)), fontsize=10)
        ax.grid(alpha=0.3)
    plots._outside_legend(fig, axes[0])   # below the panels, never over a point
    fig.suptitle("Thresholds against the field (95% intervals)\n" +
                 plots.title_lines(heading, plots.chars(width - 0.4)), fontsize=10)
    return fig


def check_figure(check: dict, players: int, heading: str):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.subplots()
    names = ["guide", check["field"]]
    w = 100 * np.array([check["guide_win"], check["field_win"]])
    se = 100 * np.array([check["guide_win_se"], check["field_win_se"]])
    ax.barh([0, 1], w, color=["#2ca02c", "#7f7f7f"], xerr=1.96 * se, capsize=4)
    ax.axvline(50, color="grey", lw=0.8, ls="--")
    ax.set_yticks([0, 1], names)
    ax.set_ylim(1.5, -0.5)
    ax.set_xlabel("share of the rounds won by the strategy's seats (%), 95% interval")
    ax.set_title(plots.title_lines(f"The guide against {check['field']}: {check['rounds']:,} "
                                   f"rounds, every seating of {players} players\n" + heading,
                                   plots.chars(5.4)), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return fig


def _figures(df: pl.DataFrame, heading: str, check: dict | None, players: int) -> list:
    """(file name, figure) for the decision, threshold and check figures the data calls
    for."""
    heading = plots.title_lines(heading)
    out = []
    if df.filter(pl.col("table").is_in(list(TABLES))).height:
        out.append((DECISIONS_PLOT, decisions_figure(df, heading)))
    if df.filter(pl.col("table").is_in(["out", "knock"])).height:
        out.append((THRESHOLDS_PLOT, thresholds_figure(df, heading)))
    if check:
        out.append((CHECK_PLOT, check_figure(check, players, heading)))
    return out


def figures(result: GuideResult, df: pl.DataFrame) -> list:
    """(file name, figure) for every figure of the guide, the house rules' last."""
    out = _figures(df, title(result), check_summary(result), result.players)
    if result.compare is not None:   # the guide named "guide", as in the page's tables
        house = cmp.frame(result.compare).with_columns(
            pl.col("group").replace(result.spec, "guide"))
        out.append((HOUSE_RULES_PLOT, plots.compare_figure(
            house, cmp.title(result.compare).replace(result.spec, "guide"))))
    return out


def _draw(df: pl.DataFrame, heading: str, check: dict | None, players: int,
          out: Path) -> list[Path]:
    """Write the decision, threshold and check figures that the data calls for."""
    return [plots._save_atomic(fig, out / name)
            for name, fig in _figures(df, heading, check, players)]


def write_figures(result: GuideResult, df: pl.DataFrame, out: Path) -> list[Path]:
    return [plots._save_atomic(fig, out / name) for name, fig in figures(result, df)]


def redraw(folder: Path) -> list[Path]:
    """``golfsim plot`` of a guide folder: the decision and threshold figures from
    guide.parquet, the check from its metadata (the house-rule figure: compare/)."""
    frame, meta = plots.read_results(folder / PARQUET)
    with plots.results_content(folder / PARQUET):
        check = json.loads(meta.get("check", "null") or "null")
        return _draw(frame, meta.get("title", ""), check, int(meta.get("players", "0")),
                     folder)


# ---- the guide's content, shared by HTML and Markdown ------------------------------------------
def _cell(e) -> str:
    verdict = e.chosen.upper() if e.clear else e.chosen
    if e.win.se == 0 and e.win.mean == 0:
        return f"{e.chosen} (never came up)"
    return f"{verdict} {pp(e.win.mean)} {_pm(e.win.lo, e.win.hi)}"


def _house_rule_sections(result: GuideResult):
    """The comparison's mean-score and win-share tables, the guide's column named "guide"."""
    out = []
    for heading, header, rows in cmp.sections(result.compare)[:2]:
        out.append((heading, ["guide" if h == result.spec else h for h in header], rows))
    return out


def decision_tables(result: GuideResult) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """(heading, explanation, header, rows) for the take and keep tables."""
    out = []
    for table, (verb_a, verb_b, _, question) in TABLES.items():
        entries = [e for e in result.entries if e.table == table]
        if not entries:
            continue
        labels = dict(SITUATIONS + (PLACE_SITUATION,))
        situations = [s for s in labels if any(e.situation == s for e in entries)]
        ranks = list(dict.fromkeys(e.row for e in entries))
        header = ["card"] + [labels[s] for s in situations]
        rows = []
        for r in ranks:
            row = [r]
            for s in situations:
                e = next((x for x in entries if x.row == r and x.situation == s), None)
                row.append(_cell(e) if e is not None else "-")
            rows.append(row)
        note = (f"Each cell: what to do, then the measured effect of '{verb_a}' over "
                f"'{verb_b}' on the guided player's win share in percentage points, ± its "
                "paired 95% interval. CAPITALS: the interval leaves out zero. ")
        if table == "down":
            note += ("'face down': over your first face-down card you do not know, when the "
                     "card is below the average of the cards you have not seen; 'best gain': "
                     "where it lowers your estimated score most.")
        else:
            note += (f"'{verb_a}' means {verb_a} it when it lowers your estimated score "
                     "(greedy's placement rule says where). " + SITUATION_HELP)
        out.append((question, note, header, rows))
    return out


def threshold_tables(result: GuideResult):
    out = []
    names = {"out": ("When to go out",
                     "Turn your last face-down card up (ending the round) only when your score "
                     "would then be at most the threshold; otherwise discard the card. "),
             "knock": ("When to knock", "Knock when your estimated score is at most the "
                       "threshold. ")}
    for th in result.thresholds:
        head, text = names[th.table]
        text += (f"Best: {_value_text(th.best)}. Win share of the guided player with each "
                 "threshold and its paired difference to the best (95% intervals); 'same' "
                 "marks values indistinguishable from the best (Holm-corrected paired tests).")
        header = ["threshold", "win share %", "± 95%", "minus best (pp)", "± 95%", ""]
        rows = []
        for i, v in enumerate(th.values):
            rows.append([_value_text(v), f"{100 * th.win.mean[i]:.2f}",
                         _pm(th.win.lo[i], th.win.hi[i]),
                         pp(th.diff.mean[i]), _pm(th.diff.lo[i], th.diff.hi[i]),
                         "best" if v == th.best else ("same" if th.same[i] else "")])
        out.append((head, text, header, rows))
    return out


def reveal_lines(result: GuideResult) -> list[str]:
    out = []
    for e in result.entries:
        if e.table == "reveal":
            out.append(f"Reveal your first two cards in {e.chosen}: {e.a} minus {e.b} is "
                       f"{pp(e.win.mean)} {_pm(e.win.lo, e.win.hi)} percentage points of win "
                       f"share ({'a clear difference' if e.clear else 'not a clear difference'}"
                       f"; mean score {e.score.mean:+.3f} points).")
    return out


def verdict_line(result: GuideResult) -> str:
    c = check_summary(result)
    if c is None:
        return "The guide was not checked (--check-rounds 0)."
    diff = c["guide_win"] - c["field_win"]
    f = c["field"]
    se = 2 * c["guide_win_se"]   # the two shares sum to 1, so their difference moves twice
    beats = diff - 1.96 * se > 0
    return (f"Checked: a player following these tables won {100 * c['guide_win']:.2f}% "
            f"(±{196 * c['guide_win_se']:.2f}) of the rounds against {f}'s "
            f"{100 * c['field_win']:.2f}% over {c['rounds']:,} rounds on fresh deals (seed "
            f"{c['seed']}), every seating of {result.players} players: "
            f"{f'it beats {f}' if beats else f'it does NOT clearly beat {f}'} by "
            f"{100 * diff:.2f} ± {196 * se:.2f} percentage points; its seats score "
            f"{c['score_diff']:+.3f} ± {1.96 * c['score_diff_se']:.3f} points a round against "
            f"{f}'s.")


def method_lines(result: GuideResult) -> list[str]:
    return [
        f"Every entry was measured on the same {result.deals:,} deals (seed {result.seed}), "
        f"the guided player taking each of the {result.players} seats in turn against "
        f"{result.players - 1} {result.field} players: the two versions of the tables that "
        "differ in "
        "that entry alone played identical deals, so the difference is paired (common random "
        "numbers).",
        "Entries were settled one after another, starting from the tables that play exactly "
        "as greedy (knocking at 8 in games only a knock ends); a change was kept when it won by "
        "more than one standard error.",
        "Win share: the share of rounds with the lowest score, a k-way tie counting 1/k.",
        f"The finished guide plays as the strategy `{result.spec}`.",
    ]


PLACE_TEXT = ("Where it completes a pair, if it can. Otherwise as the table 'Where to put a card "
              "you keep that pairs nothing' says: over a face-down card, or where it lowers your "
              "estimated score most, counting a face-down card at the average of the cards you "
              "have not seen and replacing a face-up card only when that saves at least a "
              "point.")


# ---- Markdown --------------------------------------------------------------------------------
def _md_table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]


def markdown(result: GuideResult, figures: list[Path]) -> str:
    names = {p.name for p in figures}
    lines = [f"# Strategy guide: {title(result)}", "", verdict_line(result), ""]
    if CHECK_PLOT in names:
        lines += [f"![the guide against {result.field}]({CHECK_PLOT})", ""]
    for head, note, header, rows in decision_tables(result):
        lines += [f"## {head}", "", note, ""] + _md_table(header, rows) + [""]
    if DECISIONS_PLOT in names:
        lines += [f"![decisions by rank]({DECISIONS_PLOT})", ""]
    lines += ["## Where to put a card you keep", "", PLACE_TEXT, ""]
    for head, note, header, rows in threshold_tables(result):
        lines += [f"## {head}", "", note, ""] + _md_table(header, rows) + [""]
    if THRESHOLDS_PLOT in names:
        lines += [f"![thresholds]({THRESHOLDS_PLOT})", ""]
    if reveal_lines(result):
        lines += ["## Which cards to reveal first", ""] + reveal_lines(result) + [""]
    if result.compare is not None:
        lines += ["## House rules: what changes when you change them", "",
                  f"Measured with the guide and {result.field} "
                  f"({result.compare.rounds:,} deals per "
                  "rule set, paired).", ""]
        for heading, header, rows in _house_rule_sections(result):
            lines += [f"### {heading[0].upper()}{heading[1:]}", ""] + \
                _md_table(header, rows) + [""]
        if HOUSE_RULES_PLOT in names:
            lines += [f"![house rules]({HOUSE_RULES_PLOT})", ""]
    lines += ["## How this was measured", ""] + [f"- {m}" for m in method_lines(result)]
    lines += [f"- Notes: {n}" for n in result.notes]
    lines += ["", f"golfsim {version()}", ""]
    return "\n".join(lines)


# ---- HTML ------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1, h2, h3, p, li { overflow-wrap: break-word; }
h1 { border-bottom: 2px solid #2ca02c; padding-bottom: .2em; }
.scroll { overflow-x: auto; max-width: 100%; margin: 1em 0; }
table { border-collapse: collapse; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
table.house-rules td { white-space: nowrap; }   /* one line a cell; its wrapper scrolls */
td.clear { font-weight: bold; }
td.good { background: #e6f4e6; } td.bad { background: #fbeaea; }
.verdict { background: #eef6ee; border-left: 4px solid #2ca02c; padding: .6em 1em; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; margin: .5em 0; }
.note { color: #555; font-size: .9em; }
@media (max-width: 600px) {
  body { margin: 1em auto; padding: 0 .6em; }
  table { font-size: .8em; }
  th, td { padding: .2em .35em; }
}
@media print {   /* paper does not scroll: every table whole, at the page's width */
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  .scroll { overflow: visible; }
  table { width: 100%; font-size: 8pt; }
  thead { display: table-header-group; }
  th, td, table.house-rules td { padding: .15em .3em; white-space: normal;
                                 overflow-wrap: anywhere; }
  tr, img, .verdict { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  img { border: none; }
}
"""


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _html_table(header, rows, cls="") -> str:
    out = [f'<div class="scroll"><table class="{cls}"><thead><tr>'
           + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr></thead><tbody>"]
    for r in rows:
        cells = []
        for c in r:
            k = "clear" if any(w.isupper() and len(w) > 2 for w in c.split()[:1]) else ""
            cells.append(f'<td class="{k}">{html.escape(c)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def html_page(result: GuideResult, figures: list[Path]) -> str:
    by_name = {p.name: p for p in figures}
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>Strategy guide: {e(title(result))}</title><style>{CSS}</style></head>"
             f"<body><h1>Strategy guide: {e(title(result))}</h1>",
             f"<p class='verdict' id='verdict'>{e(verdict_line(result))}</p>"]
    if CHECK_PLOT in by_name:
        parts.append(_img(by_name[CHECK_PLOT], f"the guide against {result.field}"))
    for head, note, header, rows in decision_tables(result):
        parts += [f"<h2>{e(head)}</h2>", f"<p class='note'>{e(note)}</p>",
                  _html_table(header, rows, "decisions")]
    if DECISIONS_PLOT in by_name:
        parts.append(_img(by_name[DECISIONS_PLOT], "decisions by rank"))
    parts += ["<h2>Where to put a card you keep</h2>", f"<p>{e(PLACE_TEXT)}</p>"]
    for head, note, header, rows in threshold_tables(result):
        parts += [f"<h2>{e(head)}</h2>", f"<p class='note'>{e(note)}</p>",
                  _html_table(header, rows, "thresholds")]
    if THRESHOLDS_PLOT in by_name:
        parts.append(_img(by_name[THRESHOLDS_PLOT], "thresholds"))
    if reveal_lines(result):
        parts += ["<h2>Which cards to reveal first</h2>"] + \
            [f"<p>{e(x)}</p>" for x in reveal_lines(result)]
    if result.compare is not None:
        parts += ["<h2>House rules: what changes when you change them</h2>",
                  f"<p class='note'>Measured with the guide and {result.field} "
                  f"({result.compare.rounds:,} deals per rule set, paired). Each change: "
                  "variant minus baseline ± its paired 95% interval.</p>"]
        for heading, header, rows in _house_rule_sections(result):
            parts += [f"<h3>{e(heading)}</h3>", _html_table(header, rows, "house-rules")]
        if HOUSE_RULES_PLOT in by_name:
            parts.append(_img(by_name[HOUSE_RULES_PLOT], "house rules"))
    parts += ["<h2>How this was measured</h2><ul>"] + \
        [f"<li>{e(m)}</li>" for m in method_lines(result) + result.notes] + ["</ul>"]
    parts.append(f"<p class='note'>golfsim {e(version())}</p></body></html>")
    return "\n".join(parts)


def write(result: GuideResult, out: str | Path, command: str,
          rules_file: str | None = None) -> list[Path]:
    """Write the guide's files (each atomically) and return their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    df = frame(result)
    written = [write_parquet_atomic(df, out / PARQUET, metadata(result, command, rules_file))]
    figures = write_figures(result, df, out)
    written += figures
    for name, text in (("guide.md", markdown(result, figures)),
                       ("guide.html", html_page(result, figures))):
        with atomic_path(out / name) as tmp:
            tmp.write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


def format_guide(result: GuideResult, threads: int) -> str:
    """The text ``golfsim guide`` prints."""
    lines = [f"strategy guide: {title(result)}; {result.deals:,} deals per decision, seed "
             f"{result.seed}; {result.seconds:.1f} s on {threads} thread(s)",
             verdict_line(result)]
    for head, _, header, rows in decision_tables(result):
        lines += ["", head + "  (win share change in pp, ± paired 95%)"]
        lines += text_table(tuple(header), [tuple(r) for r in rows], left={0})
    for head, _, header, rows in threshold_tables(result):
        lines += ["", head]
        lines += text_table(tuple(header), [tuple(r) for r in rows], left={0})
    lines += reveal_lines(result)
    if result.compare is not None:
        heading, header, rows = _house_rule_sections(result)[0]
        lines += ["", f"house rules, {heading} (guide.md has the rest)"]
        lines += text_table(tuple(header), [tuple(r) for r in rows], left={0})
    lines.append(f"the guide as a strategy: {result.spec}")
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)


__all__ = ["format_guide", "frame", "markdown", "html_page", "redraw", "write", "PRESETS"]
