"""What ``golfsim guide`` writes: ``guide.html`` (one self-contained file, its figures
inlined), ``guide.md`` (beside its PNG figures), ``guide.parquet`` (every measured entry) and
the house-rule comparison under ``compare/``."""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from ..experiments import compare as cmp
from ..experiments import stats
from . import plots
from ..experiments.guide import (CONFIRMED, EITHER, IGNORE, LINE_SITUATIONS, MOOT,
                                 PLACE_SITUATION, REFUTED, UNCLEAR,
                                 POWER_TABLE, RANK_TABLES, SAY_TABLES, SCORING_OPTIONS,
                                 SITUATION_KEYS, SWEEPS, TABLES, GuideResult, applicable,
                                 early_count, entry_cards, entry_name, equal_word, has_lines,
                                 knock_words, line_word, placeable_ranks, ranks_in_play,
                                 say_labels, situation_help, situations, split_groups)
from ..experiments.report import (atomic_path, ran_on, rules_metadata, text_table, version,
                                  write_parquet_atomic)
from ..experiments.report import title as report_title
from ..game import codes as K
from ..game.cards import RANK_NAMES, SUIT_SYMBOLS, card_id
from ..game.effects import effect_of
from ..game.rules import (OPTIONS, PRESET_DESCRIPTIONS, PRESETS, VALUE_DESCRIPTIONS, Rules,
                          card_values_text, option_text)

DECISIONS_PLOT = "guide-decisions.png"
THRESHOLDS_PLOT = "guide-thresholds.png"
CHECK_PLOT = "guide-check.png"
HOUSE_RULES_PLOT = "guide-house-rules.png"
HOUSE_RULES_PARQUET = "guide-house-rules.parquet"   # the figure's table
PARQUET = "guide.parquet"


ANY_CARD = "any card"   # the placement table's one column where no two cards pair


def question(table: str, pairs: bool = True) -> str:
    """A decision table's question (its heading)."""
    if table == "down" and not pairs:
        return ("Where to put a card you keep: over a face-down card, or where it saves most "
                "(usually over your highest face-up card)?")
    return RANK_TABLES[table][3]


def threshold_question(rules: Rules, table: str) -> str:
    """A threshold's question, as its figure asks it (kept as its rows' situation_text)."""
    if table == "out":
        return "Go out only when your score would be at most ..."
    return f"{_capital(knock_words(rules)[0])} when your estimated score is at most ..."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _labels(rules: Rules) -> dict[str, str]:
    """Column headings of the situations, the placement table's and the snap and match
    tables' included."""
    labels = dict(situations(rules) + [PLACE_SITUATION]) | say_labels(rules)
    if rules.pair_scope == "none":
        labels[PLACE_SITUATION[0]] = ANY_CARD
    return labels


def cards_of(rules: Rules, e) -> str:
    """What an entry's row stands for: its rank, or some of its suits (``entry_cards``)."""
    if e.table in RANK_TABLES:
        return entry_cards(rules, e.table, RANK_NAMES.index(e.row))
    return e.row


def pp(x: float) -> str:
    """A share difference in percentage points."""
    return f"{100 * x:+.2f}"


def _pm(lo: float, hi: float) -> str:
    return f"±{100 * (hi - lo) / 2:.2f}"


# ---- the data ---------------------------------------------------------------------------------
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


# ---- figures ----------------------------------------------------------------------------------
def decisions_figure(df: pl.DataFrame, heading: str):
    from matplotlib.figure import Figure
    tables = [t for t in RANK_TABLES if df.filter(pl.col("table") == t).height]
    width = 5.0 * max(2, len(tables))
    fig = Figure(figsize=(width, 7.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(1, len(tables)), squeeze=False).ravel())
    colours = {"pair": "#1f77b4", "early": "#ff7f0e", "late": "#2ca02c", "last": "#9467bd",
               "other": "#8c564b", "line3": "#d62728", "line2": "#17becf", "": "#e377c2",
               "own": "#bcbd22", "opponent": "#7f7f7f", "known": "#bcbd22",
               "blind": "#7f7f7f"}   # (snaps and matches: colours no other column has)
    for ax, table in zip(axes, tables):
        part = df.filter(pl.col("table") == table)
        ranks = part["row"].unique(maintain_order=True).to_list()
        # a file written before rows named their cards: the ranks
        names = dict(zip(part["row"], part["cards"])) if "cards" in part.columns else {}
        order = list(SITUATION_KEYS) + [PLACE_SITUATION[0]]
        situations = sorted(part["situation"].unique().to_list(),
                            key=lambda x: order.index(x) if x in order else len(order))
        h = 0.8 / max(1, len(situations))
        for j, s in enumerate(situations):
            sub = part.filter(pl.col("situation") == s)
            y = np.array([ranks.index(r) for r in sub["row"]]) + (j - (len(situations) - 1) / 2) * h
            d = 100 * sub["win_diff"].to_numpy()
            err = 100 * np.vstack([sub["win_diff"].to_numpy() - sub["win_diff_lo95"].to_numpy(),
                                   sub["win_diff_hi95"].to_numpy() - sub["win_diff"].to_numpy()])
            label = sub["situation_text"][0] if "situation_text" in sub.columns and \
                sub["situation_text"][0] else s
            ax.barh(y, d, height=h * 0.9, color=colours.get(s, "grey"), alpha=0.85, label=label)
            ax.errorbar(d, y, xerr=err, fmt="none", ecolor="black", capsize=2, lw=0.8)
        verb_a, verb_b = RANK_TABLES[table][0], RANK_TABLES[table][1]
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(np.arange(len(ranks)), [names.get(r) or r for r in ranks])
        ax.set_ylim(len(ranks) - 0.5, -0.5)
        ax.set_xlabel(f"win share, {verb_a} minus {verb_b}\n(percentage points, 95% interval)")
        pairs = table != "down" or "situation_text" not in part.columns or \
            part["situation_text"][0] != ANY_CARD
        ax.set_title(plots.wrap(question(table, pairs), plots.chars(4.4, 9)), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    # one legend for every panel, below them: inside a panel it would cover the last ranks
    legend = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    if legend:   # as many entries a row as fit the figure's width
        room, ncol = plots.chars(width - 0.4, 9), len(legend)
        while ncol > 1 and sum(len(x) + 6 for x in list(legend)[:ncol]) > room:
            ncol -= 1
        fig.legend(list(legend.values()), list(legend), loc="outside lower center",
                   ncol=ncol, fontsize=9, frameon=False)
    fig.suptitle("What each decision is worth, by the card's rank\n" +
                 plots.title_lines(heading, plots.chars(width - 0.4)), fontsize=10)
    return fig


def thresholds_figure(df: pl.DataFrame, heading: str):
    from matplotlib.figure import Figure
    tables = [t for t in ("out", "knock") if df.filter(pl.col("table") == t).height]
    width = 6.5 * max(1, len(tables))
    fig = Figure(figsize=(width, 4.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(1, len(tables)), squeeze=False).ravel())
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
        # (a file written before the question was kept in it: the plain games' words)
        asked = part["situation_text"][0] or threshold_question(Rules(), table)
        ax.set_title(plots.wrap(asked, plots.chars(5.6)), fontsize=10)
        ax.grid(alpha=0.3)
    plots._outside_legend(fig, axes[0])   # below the panels, never over a point
    fig.suptitle("Thresholds against players who follow the guide (95% intervals)\n" +
                 plots.title_lines(heading, plots.chars(width - 0.4)), fontsize=10)
    return fig


def check_figure(check: dict, players: int, heading: str):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.subplots()
    names = ["guide", "baseline"]
    w = 100 * np.array([check["guide_win"], check["field_win"]])
    se = 100 * np.array([check["guide_win_se"], check["field_win_se"]])
    ax.barh([0, 1], w, color=["#2ca02c", "#7f7f7f"], xerr=1.96 * se, capsize=4)
    ax.axvline(50, color="grey", lw=0.8, ls="--")
    ax.set_yticks([0, 1], names)
    ax.set_ylim(1.5, -0.5)
    ax.set_xlabel("share of the rounds won by the strategy's seats (%), 95% interval")
    ax.set_title(plots.title_lines(f"The guide against the baseline: {check['rounds']:,} "
                                   f"rounds, every seating of {players} players\n" + heading,
                                   plots.chars(5.4)), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return fig


def _figures(df: pl.DataFrame, heading: str, check: dict | None, players: int) -> list:
    """(file name, figure) for the decision, threshold and check figures the data calls
    for."""
    heading = plots.title_lines(heading)
    out = []
    if df.filter(pl.col("table").is_in(list(RANK_TABLES))).height:
        out.append((DECISIONS_PLOT, decisions_figure(df, heading)))
    if df.filter(pl.col("table").is_in(["out", "knock"])).height:
        out.append((THRESHOLDS_PLOT, thresholds_figure(df, heading)))
    if check:
        out.append((CHECK_PLOT, check_figure(check, players, heading)))
    return out


def house_rules(result: GuideResult) -> tuple[pl.DataFrame, str] | None:
    """The house-rule comparison's table (compare.parquet's columns) and heading, its
    strategies named "guide" and "baseline player" as in the page's tables; None without
    one. Kept as HOUSE_RULES_PARQUET, so that `golfsim plot` draws its figure again."""
    if result.compare is None:
        return None
    names = {result.spec: "guide", result.field: "baseline player"}
    house = cmp.frame(result.compare).with_columns(pl.col("group").replace(names))
    heading = cmp.title(result.compare)
    for old, new in names.items():
        heading = heading.replace(old, new)
    return house, heading


def figures(result: GuideResult, df: pl.DataFrame) -> list:
    """(file name, figure) for every figure of the guide, the house rules' last."""
    out = _figures(df, title(result), check_summary(result), result.players)
    house = house_rules(result)
    if house is not None:
        out.append((HOUSE_RULES_PLOT, plots.compare_figure(*house)))
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
    guide.parquet, the check from its metadata, the house rules' from HOUSE_RULES_PARQUET."""
    frame, meta = plots.read_results(folder / PARQUET)
    with plots.results_content(folder / PARQUET):
        check = json.loads(meta.get("check", "null") or "null")
        written = _draw(frame, meta.get("title", ""), check, int(meta.get("players", "0")),
                        folder)
    if (folder / HOUSE_RULES_PARQUET).exists():
        house, house_meta = plots.read_results(folder / HOUSE_RULES_PARQUET)
        with plots.results_content(folder / HOUSE_RULES_PARQUET):
            figure = plots.compare_figure(house, house_meta.get("title", ""))
        written.append(plots._save_atomic(figure, folder / HOUSE_RULES_PLOT))
    return written


# ---- the guide's content, shared by HTML, Markdown and the printed text ------------------------
CLEAR_MARK = "✓"
NA = "n/a"
MAX_RULES = 8          # rules of thumb listed at the top of a guide
BASELINE = "the baseline players"
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
PLURALS = {"A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
           "7": "sevens", "8": "eights", "9": "nines", "10": "tens", "J": "jacks",
           "Q": "queens", "K": "kings", "Joker": "jokers"}
RANK_ORDER = list(PLURALS)


@dataclass
class Cell:
    """A table cell: its text and what it is ("clear": a clear difference, "na": the
    situation never came up; "" otherwise)."""
    text: str
    kind: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass
class Rule:
    """A rule of thumb: what to do, and what it is worth in win share (a paired interval)."""
    text: str
    worth: float
    lo: float
    hi: float
    against: str = ""       # whom it was measured against, when not the baseline players

    def line(self) -> str:
        against = f", against {self.against}" if self.against else ""
        return (f"{self.text}: worth {pp(self.worth)} ± {100 * (self.hi - self.lo) / 2:.2f} "
                f"percentage points of win share{against}.")


def _option_words(name: str, value) -> str:
    """``name=value`` and what it means: the value's description, else the option's."""
    doc = OPTIONS[name].metadata["doc"]
    named = VALUE_DESCRIPTIONS.get(name, {})
    values = value if isinstance(value, tuple) else (value,)
    meant = [named[v] for v in values if isinstance(v, str) and v in named]
    text = f"{name}={option_text(value)}"
    if meant:
        return f"{text} ({doc}: {'; '.join(meant)})"
    return f"{text} ({doc})"


def _preset_rules(preset: str) -> Rules:
    return Rules.preset(preset) if preset in PRESETS else Rules()


def rules_lines(result: GuideResult) -> list[tuple[str, str]]:
    """The rule set in words, as (label, text): the preset and every change from it, what
    every card is worth, what cancels, how a round starts and ends."""
    r, preset = result.rules, result.preset
    about = PRESET_DESCRIPTIONS.get(preset)
    changes = r.diff(_preset_rules(preset))
    game = f"{preset}" + (f" ({about})" if about else "")
    if changes:
        game += ", with " + ("this change" if len(changes) == 1 else "these changes") + ": " + \
            "; ".join(_option_words(k, v) for k, v in changes.items())
    else:
        game += ", as the preset has it (no option changed)"
    out = [("Rules", game + "."),
           ("Card values", card_values_text(r) + ".")]
    cancels = []
    equal = "the same rank" if r.match_key == "rank" else \
        "the same point value (a jack and a queen both worth 10 pair)"
    if r.pair_scope != "none":
        cancels.append(f"a pair scores 0: {VALUE_DESCRIPTIONS['pair_scope'][r.pair_scope]} "
                       f"(equal: {equal})")
    if r.line_sets != "none":
        cancels.append(f"three equal cards in a line score 0: "
                       f"{VALUE_DESCRIPTIONS['line_sets'][r.line_sets]}")
    if not cancels:
        cancels.append("nothing: every card scores its value")
    default = Rules()
    for name in SCORING_OPTIONS:
        v = getattr(r, name)
        if v != getattr(default, name):
            cancels.append(_option_words(name, v))
    out.append(("What cancels", "; ".join(cancels) + "."))
    out.append(("Start and end", _start_and_end(r)))
    return [(label, for_players(text)) for label, text in out]


# the option texts' references to docs/rules.md's ambiguity notes: "(AMB-12)", ", AMB-43)",
# "AMB-44; "
AMBIGUITY_REF = re.compile(r" \(AMB-\d+[a-z]?\)|,? AMB-\d+[a-z]?(?=\))|AMB-\d+[a-z]?; ")


def for_players(text: str) -> str:
    """An option's or preset's description as the guide's reader needs it: without the
    references to the rules' notes, and a hole called a round, as everywhere in the guide."""
    return AMBIGUITY_REF.sub("", text).replace("the hole", "the round")


def _start_and_end(r: Rules) -> str:
    n = r.n_positions
    count = r.initial_reveal_count
    many = "a whole row" if count < 0 else f"{NUMBER_WORDS.get(count, count)}"
    start = {"flip": f"each player turns {many} of their {n} cards face up",
             "peek": f"each player looks at {many} of their {n} cards, which stay face down",
             "flip_on_first_turn": f"each player turns {many} of their {n} cards face up at "
                                   "the start of their first turn",
             "none": f"nobody sees any of their {n} cards before play"}.get(
        r.initial_reveal_mode, VALUE_DESCRIPTIONS["initial_reveal_mode"].get(
            r.initial_reveal_mode, r.initial_reveal_mode))
    placed = VALUE_DESCRIPTIONS["placement_face"][r.placement_face]
    return f"To start, {start}. A card put into the layout goes {placed}. {_end_words(r)}"


CALL_TIMING = {"instead_of_turn": "instead of playing a turn",
               "end_of_own_turn": "right after playing a turn",
               "any_time_in_turn": "instead of playing a turn or right after it"}
# the end triggers that end the round with no more turns, whatever final_turns says
AT_ONCE = {"all_players_face_up": "when every player's cards are all face up",
           "stock_exhausted": "when the last card of the stock has been taken",
           "empty_layout": "when a player has no cards left"}


def _end_words(r: Rules) -> str:
    """How the round ends, in a player's words: the ends after which the others play their
    last turns (a knock, a call by its name, a layout all face up), then those that end it
    at once."""
    timing = CALL_TIMING[r.knock_timing]
    lasting = {"knock": f"a player may knock {timing}",
               "call": f"a player may call {r.call_name} {timing}",
               "all_face_up": "a player whose cards are all face up at the end of their turn "
                              "ends it"}
    then = [lasting[t] for t in r.end_triggers if t in lasting]
    now = [AT_ONCE[t] for t in r.end_triggers if t in AT_ONCE]
    text = []
    if then:
        text.append(f"The round ends: {'; '.join(then)}; then "
                    f"{VALUE_DESCRIPTIONS['final_turns'][r.final_turns]}.")
    if now:
        text.append(("It also ends" if then else "The round ends") + " at once, with no more "
                    f"turns, {' or '.join(now)}.")
    return " ".join(text)


def baseline_text(result: GuideResult) -> str:
    """Who the baseline players are, in words (the field the entries are measured against)."""
    text = ("The baseline player counts cards: it takes the discard, or keeps a card drawn "
            "from the stock, when that lowers its estimated score (the cards it knows at "
            "their values, each card it does not know at the average of the cards it has not "
            "seen), and puts the card where it lowers that estimate most (over a card it "
            "knows only when that saves at least a point).")
    if result.field == "knock-threshold":
        text += " It knocks when its estimated score is at most 8."
    elif applicable(result.rules, result.players)["out"]:
        text += " It goes out whenever it can."
    if has_lines(result.rules):
        text += (f" It does not build {line_word(result.rules)}s of three on purpose: a card "
                 "counts at its value wherever it lies.")
    if "call" in result.rules.end_triggers and result.field == "greedy":
        call = knock_words(result.rules)[0]
        text += (f" It does not {call} before it knows every one of its cards, and then only "
                 f"when their total plus {K.GREEDY_CALL_MARGIN} is at most every opponent's "
                 "estimated score" + (
                     " (or at its first chance once the stock has been reshuffled "
                     f"{K.GREEDY_STALL_RESHUFFLES} times)."
                     if result.rules.stock_empty == "reshuffle_keep_top" else "."))
    if any(e.table == "power" for e in result.entries):
        text += (" When it draws a card with a power and does not keep it, it uses the power "
                 "as the table of powers says (its column 'the baseline player uses it').")
    return text + _snaps_and_matches(result.rules)


# how the baseline player (and the guide, which has no table for them) matches and snaps, in
# words (docs/policies.md, the power-card games' shared rule); {equal}: "rank" or "value"
TURN_MATCH_WORDS = {
    "pablo_multi_replace": "Holding a card, it first replaces with it two or more of its own "
                           "cards of one {equal} that it knows, when together they are worth "
                           "more than the card it holds.",
    "cabo_match": "Holding a card, drawn or taken, it first matches it whenever it knows a "
                  "card of the same {equal} on the table, naming every such card it knows, "
                  "its own first.",
}
SNAP_WORDS = {
    "cumbia": "After each discard it snaps a card it knows of the discard's {equal}: one of "
              "its own worth more than 0, else an opponent's when it has a card worth more "
              "than 0 to give back (its worst).",
    "cactus": "After each discard it snaps one of its own cards that it knows of the "
              "discard's {equal}, when that card is worth more than 0.",
}


def _snaps_and_matches(r: Rules) -> str:
    said = [words[mode].format(equal="rank" if r.match_key == "rank" else "point value")
            for words, mode in ((TURN_MATCH_WORDS, r.turn_match_mode),
                                (SNAP_WORDS, r.snap_mode)) if mode in words]
    if not said:
        return ""
    tables = " and ".join(w for w, mode in (("snaps", r.snap_mode),
                                            ("matches", r.turn_match_mode)) if mode != "none")
    return (" " + " ".join(said) + f" The guide does the same, except where its table of "
            f"{tables} says otherwise.")


def advice(e) -> tuple[str, float, float, float]:
    """An entry from its advice's side: (the option it plays, what that option gains over the
    other in win share, the gain's 95% interval). A power, snap or match entry neither option
    of which won ("either") is given from its first option's side (using the power, snapping,
    matching)."""
    if e.chosen == e.b:
        return e.b, -float(e.win.mean), -float(e.win.hi), -float(e.win.lo)
    return e.chosen, float(e.win.mean), float(e.win.lo), float(e.win.hi)


def _alike(e) -> str:
    """What an entry whose options played alike on every deal shows: in the take, keep and
    placement tables the play both made (the second option: the first one's card never met
    its condition, such as lowering the estimated score), else NA."""
    if e.table not in TABLES:
        return NA
    return "ignore" if e.b == IGNORE else e.b


def _cell(e) -> Cell:
    if e.win.se == 0 and e.win.mean == 0:
        return Cell(_alike(e), "na")
    play, gain, lo, hi = advice(e)
    play = "ignore" if play == IGNORE else play
    number = f"{pp(gain)} {_pm(lo, hi)}"
    if e.clear:
        return Cell(f"{play} {number} {CLEAR_MARK}", "clear")
    if play == EITHER:
        return Cell(f"{EITHER} {number}")
    return Cell(f"{EITHER} ({play}) {number}")


def legend_lines(result: GuideResult) -> list[str]:
    """How to read the tables: the baseline, the cells, the marks, the situations."""
    never = "that pairs nothing and is worth" if result.rules.pair_scope != "none" else \
        "worth"
    return [
        baseline_text(result) + " Every entry was measured at a table of baseline players.",
        "Each cell: what to do, then what doing it gains over the other option, in "
        "percentage points of your share of rounds won, ± its paired 95% interval (a clear "
        "advice's number is positive). 'take' and 'keep' mean: take (keep) the card when it "
        "lowers your "
        "estimated score, as the baseline player does; 'draw' and 'discard': never in that "
        "situation." + (" In the two columns about lines of three, 'take' and 'keep' mean: "
                        f"take (keep) it for the {line_word(result.rules)}, and 'ignore': play "
                        "it like any other card." if has_lines(result.rules) else ""),
        f"{CLEAR_MARK} (in bold): a clear difference, the 95% interval leaves out zero. "
        f"'{EITHER} (take)': the measurement cannot tell the two options apart, so either "
        "will do; the guide then plays, in every such situation alike, the choice it started "
        "from (in brackets: the baseline player's; in a game of lines, completing one), so "
        "that its advice does not flip with the noise from one situation to the next; the "
        "number is what that choice gains over the other.",
        "A play without a number (greyed): the two options played alike on every measured "
        f"deal, so that is what to do and there is nothing to measure; for example a card "
        f"{never} more than any card it could replace never lowers your estimated score, so "
        f"even 'take' draws. {NA}: the situation never came up.",
        "Situations: " + situation_help(result.rules),
    ] + [x for x in [cards_note(result)] if x]


def decision_tables(result: GuideResult) -> list[tuple[str, str, list[str], list[list[Cell]]]]:
    """(heading, explanation, header, rows) for the take, keep and placement tables: a row
    per rank, or per group of a rank's cards worth the same where its suits differ in value
    (``split_groups``): the row its entries measure, then a row for each group no entry can
    change."""
    out = []
    rules = result.rules
    labels = _labels(rules)
    for table, (verb_a, verb_b, _, _) in TABLES.items():
        entries = [e for e in result.entries if e.table == table]
        if not entries:
            continue
        keys = [s for s in labels if any(e.situation == s for e in entries)]
        ranks = list(dict.fromkeys(e.row for e in entries))
        header = ["card"] + [labels[s] for s in keys]
        rows = []
        unchanged = Cell(NA if table == "down" else verb_b, "na")
        for r in ranks:
            rows.append(_rank_row(rules, table, r, entries, keys))
            rows += [[Cell(g.label)] + [unchanged] * len(keys)
                     for g in split_groups(rules, RANK_NAMES.index(r))[1]]
        out.append((question(table, rules.pair_scope != "none"), _table_note(rules, table),
                    header, rows))
    return out


def _rank_row(rules: Rules, table: str, row: str, entries, keys) -> list[Cell]:
    """A rank's row of a table with a column per situation: the cards, then its entries
    ("-" where it has none)."""
    cells = [Cell(entry_cards(rules, table, RANK_NAMES.index(row)))]
    for s in keys:
        e = next((x for x in entries if x.row == row and x.situation == s), None)
        cells.append(_cell(e) if e is not None else Cell("-"))
    return cells


def _table_note(rules: Rules, table: str) -> str:
    verb_a = TABLES[table][0]
    if table == "down":
        return ("'face down': over your first face-down card you do not know, when the card "
                "is below the average of the cards you have not seen; 'best gain': where it "
                "lowers your estimated score most.")
    note = (f"'{verb_a}': {verb_a} it when it lowers your estimated score; "
            + ("'draw': draw from the stock instead." if table == "take" else
               "'discard': discard it instead."))
    if has_lines(rules):
        note += (f" In the two columns about lines of three, '{verb_a}': {verb_a} it for the "
                 f"{line_word(rules)}, 'ignore': play it like any other card.")
    unplaced = [RANK_NAMES[r] for r in ranks_in_play(rules) if r not in placeable_ranks(rules)]
    if unplaced:
        note += (f" {_capital(_ranks_text(unplaced))} have a power and may not be put into a "
                 "layout: the table of powers says what to do with them.")
    return note


def cards_note(result: GuideResult) -> str:
    """What the rows of the ranks whose suits differ in value stand for, in the take, keep and
    placement tables ("" when there are none)."""
    rules = result.rules
    out = []
    for r in dict.fromkeys(e.row for e in result.entries if e.table in TABLES):
        measured, fixed = split_groups(rules, RANK_NAMES.index(r))
        if fixed:
            out.append(f"{' and '.join(g.label for g in fixed)}: no card is worth more, so "
                       "taking or keeping one never lowers your score, and the guide never does "
                       "(there is nothing to measure); the tables decide by rank, so the "
                       f"{PLURALS[r]}' entries measure {' and '.join(g.label for g in measured)} "
                       "alone.")
        elif len(measured) > 1:
            out.append(f"{', '.join(g.label for g in measured)}: one entry for all of them, "
                       "the tables deciding by rank, not by value.")
    return " ".join(out)


# each power in words, and when the baseline player uses it (strategies/powers.py
# wants_power_nb; docs/policies.md#power-cards)
EFFECT_WORDS = {
    K.POW_PEEK_OWN: ("look at one of your own cards", "when one of its cards is unknown to it"),
    K.POW_PEEK_OPP: ("look at one of an opponent's cards",
                     "when an opponent has a card unknown to it"),
    K.POW_PEEK_ANY: ("look at any one card, yours or an opponent's",
                     "when a card on the table is unknown to it"),
    K.POW_SWAP_OWN_OPP_BLIND: ("swap one of your cards with one of an opponent's, unseen",
                               "when taking the opponents' best card lowers its score"),
    K.POW_SWAP_AFTER_PEEK_OPP: ("look at one of an opponent's cards, then swap it with one of "
                                "yours, unseen", "when its worst card is worth more than an "
                                "average card it has not seen"),
    K.POW_SWAP_ANY_TWO: ("swap any two cards on the table, unseen",
                         "when taking the opponents' best card lowers its score"),
    K.POW_PEEK_BOTH_SWAP: ("look at one of your cards and one of an opponent's, then swap "
                           "them if you like", "always"),
    K.POW_SHUFFLE_OPP: ("shuffle an opponent's face-down cards",
                        "when an opponent was seen looking at his own face-down cards"),
    K.POW_FLIP_OPP: ("turn one of an opponent's cards face up",
                     "when an opponent's card it does not know is one its owner looked at"),
    K.POW_SWAP_LINE: ("swap a row or column of yours with the same line of an opponent's",
                      "when a line swap lowers its score by a point or more"),
    K.POW_DRAW_TWO: ("draw two cards and keep one", "always"),
    K.POW_SHIELD: ("shield your cards from powers until your next turn",
                   "when an opponent knows one of its low cards"),
    K.POW_GIVE_OR_REMOVE: ("give an opponent the top card of the stock, or remove one of your "
                           "cards", "to remove a card when that lowers its score, else to "
                           "give one to the leader"),
    K.POW_CANCEL_FINAL: ("a black king: cancel the final lap in progress",
                         "when it is not the lowest"),
    K.POW_COMBINE: ("use two of the other powers at once",
                    "when it would use one of them"),
    K.POW_EXCHANGE_THIS: ("swap this card with one of an opponent's cards",
                          "when it would place an opponent's card it knows"),
}
POWER_HEADING = "When to use each power"
POWERS_CLASS = "powers"   # the table of powers on the page (its own alignment: CSS)


def power_table(result: GuideResult) -> tuple[str, str, list[str], list[list[Cell]]] | None:
    """(heading, explanation, header, rows) of the table of powers: one row per rank with a
    power, None in games without powers."""
    entries = [e for e in result.entries if e.table == "power"]
    if not entries:
        return None
    use, unused, _, asked = POWER_TABLE
    rows = []
    for e in entries:
        words, baseline = EFFECT_WORDS[effect_of(result.rules,
                                                 card_id(RANK_NAMES.index(e.row), 0))]
        rows.append([Cell(cards_of(result.rules, e)), Cell(words), Cell(baseline), _cell(e)])
    note = (f"{asked} '{use}': use it whenever it has something to act on; '{unused}': never "
            f"use it; '{EITHER}': the two could not be told apart, and the guide does what the "
            "baseline player does (its column). The value: what the advice gains over the "
            "other option; for 'either', what using the power gains over discarding the card "
            "unused.")
    if result.rules.power_source == "stock_or_unused_discard":
        note += (" A card discarded unused leaves its power on the discard pile, for the next "
                 "player to spend a turn on.")
    header = ["card", "its power", "the baseline player uses it", "use it, or discard it?"]
    return POWER_HEADING, note, header, rows


SAY_HEADINGS = {"snap": "When to snap", "match": "When to match"}


def say_question(rules: Rules, table: str) -> str:
    """The snap or match table's question, in the rules' words."""
    if table == "match" and rules.turn_match_mode == "pablo_multi_replace":
        return ("You know two or more of your cards of one rank: replace them all with the "
                "card you hold, or not?")
    if table == "match":
        return (f"The card you hold has the {equal_word(rules)} of a card on the table: "
                "match it, or not?")
    return SAY_TABLES[table][3]


def say_row_heading(rules: Rules, table: str) -> str:
    """What the rows of the snap or match table are."""
    if table == "snap":
        return "the discard"
    return "your cards" if rules.turn_match_mode == "pablo_multi_replace" else \
        "the card you hold"


def _say_rule_words(rules: Rules, table: str) -> str:
    """What the first option of the snap or match table does, and the baseline's rule."""
    equal = equal_word(rules)
    if table == "snap":
        cumbia = rules.snap_mode == "cumbia"
        return (f"'snap': snap a card you know of the discard's {equal} whenever you have one "
                "(your own even when it is worth 0 or less"
                + ("; an opponent's whenever you have a card to give back, your worst, and "
                   "snap none of your own" if cumbia else "")
                + "); the baseline player snaps its own card when it is worth more than 0"
                + (", else an opponent's when it has a card worth more than 0 to give back"
                   if cumbia else "") + ". The rows are the discard's rank.")
    if rules.turn_match_mode == "pablo_multi_replace":
        return ("'match': replace them whenever you know two or more of your cards of that "
                "rank, whatever they total; the baseline player replaces them when together "
                "they are worth more than the card it holds (the rank whose cards total most). "
                "The rows are the rank of your cards, not of the card you hold.")
    penalty = rules.match_fail_penalty_cards
    cost = (f"only when the chance of a hit pays for the {penalty} penalty "
            f"card{'s' if penalty != 1 else ''} of a miss" if penalty else
            "whenever a hit gains, a miss costing nothing")
    return (f"'match': match it whenever you know a card of its {equal} (naming every one you "
            "know, yours first), as the baseline player does. A blind match: you know no "
            f"card of its {equal} and do not put it into your layout; 'match': name a card "
            "nobody has seen (your first face-down card you don't know, else an opponent's) "
            f"whenever a card of its {equal} is still unseen; the baseline player matches "
            f"blind {cost}.")


def say_tables(result: GuideResult) -> list[tuple[str, str, list[str], list[list[Cell]]]]:
    """(heading, explanation, header, rows) of the snap and match tables the rules have: a row
    per rank, a column per situation (your own card, an opponent's; a card you know, a blind
    match)."""
    rules = result.rules
    labels = _labels(rules)
    out = []
    for table, heading in SAY_HEADINGS.items():
        entries = [e for e in result.entries if e.table == table]
        if not entries:
            continue
        keys = list(dict.fromkeys(e.situation for e in entries))
        first, second = SAY_TABLES[table][:2]
        note = (f"{say_question(rules, table)} {_say_rule_words(rules, table)} "
                f"'{second}': never. '{EITHER}': the two could not be told apart, and the "
                "guide does what the baseline player does. The value: what the advice gains "
                f"over the other option; for '{EITHER}', what '{first}' gains over "
                f"'{second}'.")
        rows = [_rank_row(rules, table, r, entries, keys)
                for r in dict.fromkeys(e.row for e in entries)]
        out.append((heading, note, [say_row_heading(rules, table)] +
                    [labels[s] for s in keys], rows))
    return out


ADVICE_HEADING = "What players say, and what the simulation says"
ADVICE_TABLE = "advice"   # its rows in guide.parquet, and its class on the page
ADVICE_KINDS = {CONFIRMED: "good", REFUTED: "bad", MOOT: "na"}   # cells coloured by verdict


def advice_note(result: GuideResult) -> str:
    return ("Common advice of Golf players, each measured under these rules as a comparison "
            "the guide can play: its tables as measured, set to follow the advice, against "
            "the same tables set to break it (where the tables cannot say it, the two players "
            f"the row names), on the same {result.deals:,} deals against the same baseline "
            "players, taking every seat in turn. The number: what following it gains in "
            "percentage points of win share, ± its paired 95% interval. Confirmed: the "
            "interval lies above zero; refuted: below zero; unclear: it holds zero."
            + ("" if any(c.key == "take_pair" for c in result.claims) else
               " The advice about cards that cancel each other (never cancel your 2s or "
               "jokers; take a discard that completes a match) is left out: nothing cancels "
               "under these rules."))


def advice_table(result: GuideResult) -> tuple[str, str, list[str], list[list[Cell]]] | None:
    """(heading, explanation, header, rows) of what players say, measured; None where the
    guide measured none (a result of an older version)."""
    if not result.claims:
        return None
    rows = []
    for c in result.claims:
        kind = ADVICE_KINDS.get(c.verdict, "")
        if c.moot:
            rows.append([Cell(c.advice), Cell(""), Cell(f"{MOOT}: {c.moot}", kind), Cell(""),
                         Cell("")])
            continue
        rows.append([Cell(c.advice), Cell(f"{c.follow}, against: {c.against}"),
                     Cell(c.verdict, kind), Cell(pp(c.win.mean), kind),
                     Cell(_pm(c.win.lo, c.win.hi))])
    header = ["what players say", "measured as", "verdict", "following it gains (pp)",
              "± 95%"]
    return ADVICE_HEADING, advice_note(result), header, rows


def _against(th, players: int, rules: Rules) -> str:
    what = {"out": "going out only at", "knock": f"{knock_words(rules)[1]} at"}[th.table]
    return (f"{players - 1} players who follow this guide, {what} {_value_text(th.field_value)}"
            if th.table == "knock" or th.field_value < 1000 else
            f"{players - 1} players who follow this guide, going out whenever they can")


def threshold_tables(result: GuideResult):
    out = []
    knock = knock_words(result.rules)[0]
    names = {"out": ("When to go out",
                     "Turn your last face-down card up (ending the round) only when your score "
                     "would then be at most the threshold; otherwise discard the card. "),
             "knock": (f"When to {knock}", f"{_capital(knock)} when your estimated score is "
                       "at most the threshold (the cards you know at their values, each card "
                       "you don't know at the average of the cards you have not seen). ")}
    for th in result.thresholds:
        head, text = names[th.table]
        text += (f"Measured against {_against(th, result.players, result.rules)}, so that the "
                 "advice holds at a table where everyone plays by it. ")
        if th.settled:
            text += (f"Best: {_value_text(th.best)}, which is also what the others play: "
                     "no other threshold does better against them. ")
        else:
            text += (f"Best against them: {_value_text(th.best)}; after {th.sweeps} rounds "
                     "of replies the best reply still differed from what the others play, so "
                     "the threshold is not settled. ")
        text += ("Your win share with each threshold and its paired difference to the best "
                 "(95% intervals); 'same' marks values that cannot be told apart from the "
                 "best (Holm-corrected paired tests).")
        header = ["threshold", "win share %", "± 95%", "minus best (pp)", "± 95%", ""]
        rows = []
        for i, v in enumerate(th.values):
            rows.append([Cell(_value_text(v)), Cell(f"{100 * th.win.mean[i]:.2f}"),
                         Cell(_pm(th.win.lo[i], th.win.hi[i])),
                         Cell(pp(th.diff.mean[i])), Cell(_pm(th.diff.lo[i], th.diff.hi[i])),
                         Cell("best" if v == th.best else ("same" if th.same[i] else ""))])
        out.append((head, text, header, rows))
    return out


def _reveal_words(rules: Rules) -> tuple[str, str, str]:
    """(what one does, the first option, the second) for the reveal entry."""
    count = rules.initial_reveal_count
    verb = "Turn up" if rules.initial_reveal_mode == "flip" else "Look at"
    cards = f"your {NUMBER_WORDS.get(count, count)} cards"
    apart = "in different rows and columns" if rules.pair_scope in (
        "row_or_column", "row_column_diagonal") else "in different columns"
    together = "in the same column" if count == 2 else "all in one column"
    return f"{verb} {cards}", apart, together


def reveal_lines(result: GuideResult) -> list[str]:
    out = []
    what, apart, together = _reveal_words(result.rules)
    for e in result.entries:
        if e.table == "reveal":
            chosen, other = (apart, together) if e.chosen == e.a else (together, apart)
            gain = e.win.mean if e.chosen == e.a else -e.win.mean
            out.append(f"{what} {chosen}, rather than {other}: {pp(gain)} "
                       f"{_pm(e.win.lo, e.win.hi)} percentage points of win share "
                       f"({'a clear difference' if e.clear else 'not a clear difference'}; "
                       f"mean score {(e.score.mean if e.chosen == e.a else -e.score.mean):+.3f} "
                       "points).")
    return out


def _ranks_text(names: list[str]) -> str:
    """Plural rank names, runs of three or more as "threes to nines"; some of a rank's suits
    by name, in its place ("aces to fives and K♦")."""
    def rank(name: str) -> int:
        return RANK_ORDER.index(name.rstrip("".join(SUIT_SYMBOLS)))

    runs: list[list[str]] = []
    for name in sorted(names, key=lambda n: (rank(n), n)):
        if runs and name in PLURALS and runs[-1][-1] in PLURALS and \
                rank(name) == rank(runs[-1][-1]) + 1:
            runs[-1].append(name)
        else:
            runs.append([name])
    parts = []
    for run in runs:
        words = [PLURALS.get(n, n) for n in run]
        parts += [f"{words[0]} to {words[-1]}"] if len(run) >= 3 else words
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _situation_phrase(rules: Rules, situation: str) -> str:
    line = line_word(rules) if has_lines(rules) else ""
    nothing = ", when they pair nothing" if rules.pair_scope != "none" else ""
    return {"line3": f"when they complete a {line} of three",
            "line2": f"when they match one card of a {line} whose other two places are open",
            "pair": "when they pair one of your cards",
            "early": f"early in the round ({early_count(rules)} or more of your cards unknown)"
                     f"{nothing}",
            "late": f"later in the round{nothing}",
            "last": f"on your last turn{nothing}",
            "other": "that pair nothing" if rules.pair_scope != "none" else ""}[situation]


def _say_rule_text(rules: Rules, table: str, situation: str, yes: bool, ranks: str) -> str:
    """A rule of thumb of the tables of powers, snaps and matches."""
    equal = equal_word(rules)
    if table == "power":
        return (f"Use the power of {ranks} drawn from the stock when you do not keep them"
                if yes else f"Discard {ranks} drawn from the stock unused when you do not "
                "keep them")
    if table == "snap":
        whose = "your own" if situation == "own" else "an opponent's"
        back = ", giving one of yours back" if situation == "opponent" else ""
        return (f"Snap {whose} {ranks} that you know when a matching card is discarded{back}"
                if yes else f"Do not snap {whose} {ranks} when a matching card is discarded")
    if situation == "blind":
        return (f"Match {ranks} you hold blind when you know no card of their {equal} and do "
                "not keep them" if yes else f"Never match {ranks} blind")
    if rules.turn_match_mode == "pablo_multi_replace":
        return (f"Replace two or more of your {ranks} with the card you hold whenever you know "
                "them" if yes else f"Never replace your {ranks} with the card you hold")
    return (f"Match {ranks} you hold whenever you know a card of their {equal}" if yes else
            f"Do not match {ranks} you hold, even when you know a card of their {equal}")


def _rule_text(rules: Rules, table: str, situation: str, yes: bool, ranks: str) -> str:
    if table in SAY_TABLES:
        return _say_rule_text(rules, table, situation, yes, ranks)
    phrase = _situation_phrase(rules, situation)
    lines = situation in LINE_SITUATIONS
    line = line_word(rules) if lines else ""
    lower = "" if lines or situation == "pair" else ", if they lower your score"
    if table == "down":
        kept = f"{ranks} you keep {phrase}".rstrip()
        return (f"Put {kept} over a face-down card, not over your highest face-up card" if yes
                else f"Put {kept} where they save most, not over a face-down card")
    source = "from the discard pile" if table == "take" else "drawn from the stock"
    verb = "Take" if table == "take" else "Keep"
    if yes:
        there = f", and put them in that {line}" if lines else ""
        return f"{verb} {ranks} {source} {phrase}{there}{lower}"
    if lines:
        just = {"line3": f"complete a {line} of three",
                "line2": f"match one card of a {line}"}[situation]
        return (f"Don't {verb.lower()} {ranks} {source} just because they {just}: play them "
                "like any other card")
    if table == "take":
        return f"Don't take {ranks} from the discard pile {phrase}: draw from the stock"
    return f"Discard {ranks} drawn from the stock {phrase}"


def rules_of_thumb(result: GuideResult) -> tuple[list[Rule], int]:
    """The clear advice of the tables as rules a player can apply, the most valuable first,
    and how many there are in all (at most MAX_RULES are listed). The ranks with the same
    clear advice in one situation make one rule; its worth is the sum of their measured
    effects (the chosen option over the other), with the paired interval of that sum over
    the same deals."""
    groups: dict[tuple, list] = {}
    for e in result.entries:
        if e.table in RANK_TABLES and e.clear and e.diffs is not None:
            groups.setdefault((e.table, e.situation, e.chosen == e.a), []).append(e)
    rules = []
    for (table, situation, yes), entries in groups.items():
        d = sum(e.diffs if yes else -e.diffs for e in entries)
        w = stats.paired_interval(d.sum(), (d * d).sum(), d.size)
        if not (w.lo > 0 or w.hi < 0):
            continue
        ranks = _ranks_text([entry_name(result.rules, table, RANK_NAMES.index(e.row))
                             for e in entries])
        rules.append(Rule(_rule_text(result.rules, table, situation, yes, ranks),
                          float(w.mean), float(w.lo), float(w.hi)))
    for e in result.entries:
        if e.table == "reveal" and e.clear:
            what, apart, together = _reveal_words(result.rules)
            yes = e.chosen == e.a
            lo, hi = (e.win.lo, e.win.hi) if yes else (-e.win.hi, -e.win.lo)
            rules.append(Rule(f"{what} {apart if yes else together}, not "
                              f"{together if yes else apart}",
                              float(e.win.mean if yes else -e.win.mean), float(lo), float(hi)))
    for th in result.thresholds:
        if th.start not in th.values or th.best == th.start:
            continue
        i = th.values.index(th.start)   # the baseline's threshold, against the best
        lo, hi = -float(th.diff.hi[i]), -float(th.diff.lo[i])
        if not lo > 0:
            continue
        text = (f"Go out only when your score would then be at most {_value_text(th.best)}"
                if th.table == "out" else
                f"{_capital(knock_words(result.rules)[0])} when your estimated score is at "
                f"most {_value_text(th.best)}")
        text += (", rather than whenever you can" if th.start >= 1000 else
                 ", rather than never" if th.start <= -1000 else
                 f", rather than at {_value_text(th.start)}")
        rules.append(Rule(text, -float(th.diff.mean[i]), lo, hi,
                          _against(th, result.players, result.rules)))
    rules.sort(key=lambda r: -r.worth)
    return rules[:MAX_RULES], len(rules)


def rules_of_thumb_lines(result: GuideResult) -> list[str]:
    rules, total = rules_of_thumb(result)
    if not rules:
        return ["No entry made a clear difference on these deals: play as the baseline player "
                "does (more --deals narrow the intervals)."]
    lines = [r.line() for r in rules]
    if total > len(rules):
        lines.append(f"({total - len(rules)} more clear rules in the tables below.)")
    return lines


RULES_OF_THUMB_NOTE = ("The clear advice of the tables below, the most valuable first. Worth: "
                       "what following the rule adds to your share of rounds won, at a table "
                       "of baseline players unless it says otherwise (the sum of the measured "
                       "entries it stands for, ± its paired 95% interval).")


def verdict_line(result: GuideResult) -> str:
    c = check_summary(result)
    if c is None:
        return "The guide was not checked (--check-rounds 0)."
    diff = c["guide_win"] - c["field_win"]
    se = 2 * c["guide_win_se"]   # the two shares sum to 1, so their difference moves twice
    beats = diff - 1.96 * se > 0
    return (f"Checked: a player following these tables won {100 * c['guide_win']:.2f}% "
            f"(±{196 * c['guide_win_se']:.2f}) of the rounds against {BASELINE}' "
            f"{100 * c['field_win']:.2f}% over {c['rounds']:,} rounds on fresh deals (seed "
            f"{c['seed']}), every seating of {result.players} players: "
            f"{'it beats them' if beats else 'it does NOT clearly beat them'} by "
            f"{100 * diff:.2f} ± {196 * se:.2f} percentage points; its seats score "
            f"{c['score_diff']:+.3f} ± {1.96 * c['score_diff_se']:.3f} points a round against "
            "theirs.")


def method_lines(result: GuideResult) -> list[str]:
    out = [
        f"Every entry was measured on the same {result.deals:,} deals (seed {result.seed}), "
        f"the guided player taking each of the {result.players} seats in turn against "
        f"{result.players - 1} baseline players: the two versions of the tables that differ in "
        "that entry alone played identical deals, so the difference is paired (common random "
        "numbers).",
        "Entries were settled one after another, starting from tables that play exactly as "
        "the baseline player" + (" (knocking at 8)" if result.field == "knock-threshold" else "")
        + (f", except that they complete a {line_word(result.rules)} of three whenever a card "
           "can and keep it (the entries for joining one then measure where that leads); the "
           f"entries for lines came first, joining a {line_word(result.rules)} before "
           "completing one" if has_lines(result.rules) else "")
        + "; a change was kept only when it won clearly (its 95% interval leaves out zero).",
    ]
    if result.thresholds:
        out.append("Thresholds were swept on the same deals against players who follow the "
                   "guide's tables themselves, starting from the baseline's threshold; the "
                   "best reply became the others' threshold and the sweep was repeated (at "
                   f"most {SWEEPS} times) until the best reply was what the others play.")
    out += [
        "Win share: the share of rounds with the lowest score, a k-way tie counting 1/k.",
        f"The finished guide plays as the strategy `{result.spec}`.",
    ]
    return out


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


# ---- Markdown --------------------------------------------------------------------------------
def _md_cell(c) -> str:
    text = str(c).replace("|", "\\|")
    if getattr(c, "kind", "") == "clear":
        return f"**{text}**"
    return text


def _md_table(header, rows, words: int = 1) -> list[str]:
    """``words``: how many columns, from the first, hold words (left-aligned)."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i < words else "---:" for i in range(len(header))) + "|"]
    return lines + ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]


def markdown(result: GuideResult, figures: list[Path]) -> str:
    lines = [f"# Strategy guide: {title(result)}", ""]
    for block in _sections(result, {p.name for p in figures}):
        kind = block[0]
        if kind in ("h2", "h3"):
            lines += [("## " if kind == "h2" else "### ") + block[1], ""]
        elif kind in ("p", "note", "verdict"):
            lines += [block[1], ""]
        elif kind == "dl":
            lines += [f"- **{label}:** {text}" for label, text in block[1]] + [""]
        elif kind == "ul":
            lines += [f"- {x}" for x in block[1]] + [""]
        elif kind == "ol":
            lines += [f"{i}. {x}" for i, x in enumerate(block[1], 1)] + [""]
        elif kind == "table":
            words = {POWERS_CLASS: len(block[1]) - 1, ADVICE_TABLE: 3}.get(block[3], 1)
            lines += _md_table(block[1], block[2], words) + [""]
        elif kind == "img":
            lines += [f"![{block[2]}]({block[1]})", ""]
    lines += [f"golfsim {version()}", ""]
    return "\n".join(lines)


# ---- HTML ------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1, h2, h3, p, li, dd { overflow-wrap: break-word; }
h1 { border-bottom: 2px solid #2ca02c; padding-bottom: .2em; }
.scroll { overflow-x: auto; max-width: 100%; margin: 1em 0; }
table { border-collapse: collapse; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
table.house-rules td { white-space: nowrap; }   /* one line a cell; its wrapper scrolls */
td.clear { font-weight: bold; }
td.na { color: #999; background: #f7f7f7; }
td.good { background: #e6f4e6; } td.bad { background: #fbeaea; }
dl.rules dt { font-weight: bold; margin-top: .4em; }
dl.rules dd { margin-left: 1.2em; }
ol.thumb li { margin: .25em 0; }
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
# the table of powers: its columns of words to the left, the advice to the right
CSS += (f"table.{POWERS_CLASS} td:not(:last-child), table.{POWERS_CLASS} th:not(:last-child) "
        "{ text-align: left; }\n")
# what players say: the advice, how it was measured and the verdict to the left
CSS += (f"table.{ADVICE_TABLE} td:nth-child(-n+3), table.{ADVICE_TABLE} th:nth-child(-n+3) "
        "{ text-align: left; }\n")


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _html_table(header, rows, cls="") -> str:
    e = html.escape
    out = [f'<div class="scroll"><table class="{cls}"><thead><tr>'
           + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead><tbody>"]
    for r in rows:
        out.append("<tr>" + "".join(
            f'<td class="{getattr(c, "kind", "")}">{e(str(c))}</td>' for c in r) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def html_page(result: GuideResult, figures: list[Path]) -> str:
    by_name = {p.name: p for p in figures}
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>Strategy guide: {e(title(result))}</title><style>{CSS}</style></head>"
             f"<body><h1>Strategy guide: {e(title(result))}</h1>"]
    for block in _sections(result, set(by_name)):
        kind = block[0]
        if kind in ("h2", "h3"):
            parts.append(f"<{kind}>{e(block[1])}</{kind}>")
        elif kind == "p":
            parts.append(f"<p>{e(block[1])}</p>")
        elif kind == "note":
            parts.append(f"<p class='note'>{e(block[1])}</p>")
        elif kind == "verdict":
            parts.append(f"<p class='verdict' id='verdict'>{e(block[1])}</p>")
        elif kind == "dl":
            parts.append("<dl class='rules'>" + "".join(
                f"<dt>{e(label)}</dt><dd>{e(text)}</dd>" for label, text in block[1])
                + "</dl>")
        elif kind in ("ul", "ol"):
            cls = " class='thumb'" if kind == "ol" else ""
            parts.append(f"<{kind}{cls}>" + "".join(f"<li>{e(x)}</li>" for x in block[1])
                         + f"</{kind}>")
        elif kind == "table":
            parts.append(_html_table(block[1], block[2], block[3]))
        elif kind == "img":
            parts.append(_img(by_name[block[1]], block[2]))
    parts.append(f"<p class='note'>golfsim {e(version())}</p></body></html>")
    return "\n".join(parts)


def write(result: GuideResult, out: str | Path, command: str,
          rules_file: str | None = None) -> list[Path]:
    """Write the guide's files (each atomically) and return their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    df = frame(result)
    meta = metadata(result, command, rules_file)
    written = [write_parquet_atomic(df, out / PARQUET, meta)]
    house = house_rules(result)
    if house is not None:
        written.append(write_parquet_atomic(house[0], out / HOUSE_RULES_PARQUET,
                                            {**meta, "title": house[1]}))
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


def _optional(table) -> list:
    return [] if table is None else [table]


__all__ = ["format_guide", "frame", "markdown", "html_page", "redraw", "write", "PRESETS"]
