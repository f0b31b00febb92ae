"""The guide's figures: its decisions, thresholds, check and house rules, drawn from its data
(and drawn again from a results folder: ``golfsim redraw``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from .. import plots
from ...experiments import compare as cmp
from ...experiments.guide import PLACE_SITUATION, RANK_TABLES, SITUATION_KEYS, GuideResult
from ...game.rules import Rules
from .data import (CHECK_PLOT, DECISIONS_PLOT, HOUSE_RULES_PARQUET, HOUSE_RULES_PLOT, PARQUET,
                   THRESHOLDS_PLOT, check_summary, title)
from .words import ANY_CARD, question, threshold_question


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
