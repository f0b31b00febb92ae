"""Figures of a run (PNG, matplotlib's Agg backend): win share and mean score per seat with
95% intervals, and the distribution of hole scores per seat.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot, so no global figure
state is touched and nothing needs a display.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from .report import Z95, atomic_path  # noqa: E402
from .runner import Totals  # noqa: E402

PLOT_FILES = ("win_share.png", "mean_score.png", "score_distribution.png")


def _seat_labels(summary: pl.DataFrame) -> list[str]:
    return [f"seat {s}\n{name}" for s, name in zip(summary["seat"], summary["strategy"])]


def win_share_figure(summary: pl.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    seats = np.arange(summary.height)
    share = summary["win_share"].to_numpy()
    ax.bar(seats, 100 * share, yerr=100 * Z95 * summary["se_win"].to_numpy(), capsize=4,
           color="tab:blue", alpha=0.8)
    ax.axhline(100 / summary.height, color="grey", lw=0.8, ls="--", label="equal shares")
    ax.set_xticks(seats, _seat_labels(summary))
    ax.set_ylabel("share of rounds won (%)")
    ax.set_title(f"Win share per seat, 95% intervals\n{title}", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return fig


def mean_score_figure(summary: pl.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    seats = np.arange(summary.height)
    ax.errorbar(seats, summary["mean_score"].to_numpy(),
                yerr=Z95 * summary["se_score"].to_numpy(), fmt="o", capsize=4, color="tab:red")
    ax.set_xticks(seats, _seat_labels(summary))
    ax.set_xlim(-0.5, summary.height - 0.5)
    ax.set_ylabel("mean hole score (lower is better)")
    ax.set_title(f"Mean score per seat, 95% intervals\n{title}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return fig


def score_distribution_figure(totals: Totals, summary: pl.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(7.2, 4.0), layout="constrained")
    ax = fig.add_subplot()
    scores, counts = totals.score_histogram()
    n = max(totals.rounds, 1)
    for seat in range(counts.shape[0]):
        name = summary["strategy"][seat] if seat < summary.height else ""
        ax.step(scores, 100 * counts[seat] / n, where="mid", label=f"seat {seat} ({name})")
    ax.set_xlabel("hole score")
    ax.set_ylabel("share of rounds (%)")
    ax.set_title(f"Score distribution per seat\n{title}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def _save_atomic(fig: Figure, path: Path) -> Path:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120)
    return path


def write_plots(summary: pl.DataFrame, totals: Totals, out: str | Path, title: str) -> list[Path]:
    """Write the three figures into ``out`` and return their paths."""
    out = Path(out)
    figures = (win_share_figure(summary, title), mean_score_figure(summary, title),
               score_distribution_figure(totals, summary, title))
    return [_save_atomic(fig, out / name) for fig, name in zip(figures, PLOT_FILES)]
