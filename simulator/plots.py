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


# ---- tournaments ---------------------------------------------------------------------------
TOURNAMENT_PLOT = "tournament.png"


def tournament_figure(ranking: pl.DataFrame, h: np.ndarray, h_se: np.ndarray,
                      title: str) -> Figure:
    """Left: each strategy's win share with 95% error bars, best first. Right: the
    head-to-head matrix (row strategy's share of the pairing's rounds) as a heatmap; ``h`` and
    ``h_se`` are in the ranking's order."""
    k = ranking.height
    names = ranking["strategy"].to_list()
    fig = Figure(figsize=(6.0 + 1.6 * k, 4.6), layout="constrained")
    ax, hm = fig.subplots(1, 2, width_ratios=[1, 1.25])
    x = np.arange(k)
    share = ranking["win_share"].to_numpy()
    ax.bar(x, 100 * share, yerr=100 * Z95 * ranking["se_win"].to_numpy(), capsize=4,
           color="tab:blue", alpha=0.8)
    ax.axhline(50, color="grey", lw=0.8, ls="--", label="even (50%)")
    ax.set_xticks(x, names, rotation=20, ha="right")
    ax.set_ylim(0, 100)
    ax.set_xlabel("strategy (best first)")
    ax.set_ylabel("share of its pairings' rounds won (%)")
    ax.set_title("Win share, mean over pairings, 95% intervals", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)

    masked = np.ma.masked_invalid(100 * h)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.85")  # grey diagonal
    image = hm.imshow(masked, cmap=cmap, vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if i != j and np.isfinite(h[i, j]):
                colour = "white" if abs(h[i, j] - 0.5) > 0.3 else "black"
                hm.text(j, i, f"{100 * h[i, j]:.1f}%\n±{100 * Z95 * h_se[i, j]:.1f}",
                        ha="center", va="center", fontsize=8, color=colour)
    hm.set_xticks(x, names, rotation=20, ha="right")
    hm.set_yticks(x, names)
    hm.set_xlabel("opponent")
    hm.set_ylabel("strategy")
    hm.set_title("Head to head: strategy's share of the pairing's rounds", fontsize=10)
    fig.colorbar(image, ax=hm, label="share of rounds won (%)")
    fig.suptitle(f"Tournament\n{title}", fontsize=10)
    return fig


def write_tournament_plot(ranking: pl.DataFrame, h: np.ndarray, h_se: np.ndarray,
                          out: str | Path, title: str) -> Path:
    """Write ``tournament.png`` into ``out`` and return its path."""
    return _save_atomic(tournament_figure(ranking, h, h_se, title), Path(out) / TOURNAMENT_PLOT)
