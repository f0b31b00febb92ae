"""Figures of a run (PNG, matplotlib's Agg backend): win share and mean score per seat with
95% intervals, and the distribution of hole scores per seat.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot, so no global figure
state is touched and nothing needs a display.
"""

from __future__ import annotations

import io
import json
import re

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from ..experiments.report import Z95, atomic_path  # noqa: E402
from ..experiments.runner import Totals  # noqa: E402
from ..kernel.tally import HIST_BINS, HIST_OFFSET, TOT_ROUNDS  # noqa: E402

PLOT_FILES = ("win_share.png", "mean_score.png", "score_distribution.png")
MATCH_PLOT = "match_win_share.png"   # match play (run --holes / --target) only


def wrap(text: str, width: int | None) -> str:
    """``text`` in lines of at most ``width`` characters, broken after ", ", ",", ":" or a
    space (a strategy spec such as ``heuristic:take_max=5,hold=2`` breaks after its colon and
    commas); a piece longer than ``width`` keeps its own line. Lines already broken stay
    broken."""
    if not width:
        return text
    out = []
    for line in text.split("\n"):
        current = ""
        for piece in re.findall(r".+?(?:, |[,: ]|$)", line):
            if current and len((current + piece).rstrip()) > width:
                out.append(current.rstrip())
                current = ""
            current += piece
        out.append(current.rstrip())
    return "\n".join(out)


def strategy_label(name: str) -> str:
    """A strategy's name for a plot: a user policy ``/some/folder/file.py:decide`` as
    ``file.py:decide`` (the whole path, in the metadata and tables, would squeeze the axes to
    nothing); anything else as it is."""
    head, sep, tail = name.rpartition(".py:")
    if sep and ("/" in head or "\\" in head):
        return re.split(r"[/\\]", head)[-1] + sep + tail
    return name


def chars(inches: float, fontsize: float = 10.0) -> int:
    """About how many characters of a ``fontsize`` text fit in ``inches`` (DejaVu Sans, the
    default font, averages about 0.6 em a character on golfsim's titles and names)."""
    return max(8, int(inches * 72 / (0.6 * fontsize)))


def title_lines(title: str, width: int | None = None) -> str:
    """A results title (report.title: the rules; what was played) with each part on its own
    line, so that a long rule set does not push the rest off the figure; with ``width``,
    a part longer than that many characters is wrapped (``wrap``) rather than cut off by the
    figure's edge."""
    return wrap(title.replace("; ", "\n"), width)


def _seat_labels(summary: pl.DataFrame, inches: float) -> list[str]:
    """Tick labels "seat N" over the seat's strategy, wrapped to ``inches`` per seat."""
    width = chars(inches / max(summary.height, 1))
    return [f"seat {s}\n{wrap(strategy_label(name), width)}" for s, name in
            zip(summary["seat"], summary["strategy"])]


def _side_legend(ax, fontsize: float = 8) -> None:
    """The axes' legend beside them, to the right, outside (constrained layout makes room)."""
    ax.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)


def _outside_legend(fig: Figure, ax, ncol: int = 1) -> None:
    """The axes' legend below the axes, outside them (constrained layout makes room), so that
    it never covers a bar or a point."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", fontsize=8, ncol=ncol,
                   frameon=False)


def _share_figure(summary: pl.DataFrame, share, err, color: str, what: str,
                  title: str) -> Figure:
    """Bars of a share per seat (in %) with 95% error bars, and the line of equal shares."""
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    seats = np.arange(summary.height)
    ax.bar(seats, share, yerr=err, capsize=4, color=color, alpha=0.8)
    ax.axhline(100 / summary.height, color="grey", lw=0.8, ls="--", label="equal shares")
    ax.set_xticks(seats, _seat_labels(summary, 5.6))
    ax.set_ylabel(f"share of {what} won (%)")
    ax.set_title(f"{'Win' if what == 'rounds' else 'Match win'} share per seat, 95% intervals"
                 f"\n{title_lines(title, chars(6.0))}", fontsize=10)
    _outside_legend(fig, ax)
    return fig


def win_share_figure(summary: pl.DataFrame, title: str) -> Figure:
    return _share_figure(summary, 100 * summary["win_share"].to_numpy(),
                         100 * Z95 * summary["se_win"].to_numpy(), "tab:blue", "rounds", title)


def match_win_share_figure(summary: pl.DataFrame, title: str) -> Figure:
    """Each seat's share of whole matches won (ties split), with the summary's 95% interval;
    seats take turns to play first, so a seat's figure is not its first-player share."""
    share = 100 * summary["match_win_share"].to_numpy()
    err = np.vstack([share - 100 * summary["match_win_share_lo95"].to_numpy(),
                     100 * summary["match_win_share_hi95"].to_numpy() - share])
    return _share_figure(summary, share, np.maximum(err, 0), "tab:green", "matches", title)


def mean_score_figure(summary: pl.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    seats = np.arange(summary.height)
    ax.errorbar(seats, summary["mean_score"].to_numpy(),
                yerr=Z95 * summary["se_score"].to_numpy(), fmt="o", capsize=4, color="tab:red")
    ax.set_xticks(seats, _seat_labels(summary, 5.6))
    ax.set_xlim(-0.5, summary.height - 0.5)
    ax.set_ylabel("mean hole score (lower is better)")
    ax.set_title(f"Mean score per seat, 95% intervals\n{title_lines(title, chars(6.0))}",
                 fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return fig


def score_distribution_figure(totals: Totals, summary: pl.DataFrame, title: str) -> Figure:
    fig = Figure(figsize=(7.2, 4.0), layout="constrained")
    ax = fig.add_subplot()
    scores, counts = totals.score_histogram()
    n = max(totals.rounds, 1)
    for seat in range(counts.shape[0]):
        name = summary["strategy"][seat] if seat < summary.height else ""
        ax.step(scores, 100 * counts[seat] / n, where="mid",
                label=f"seat {seat} ({wrap(name, 40)})")
    ax.set_xlabel("hole score")
    ax.set_ylabel("share of rounds (%)")
    ax.set_title(f"Score distribution per seat\n{title_lines(title, chars(6.8))}",
                 fontsize=10)
    ax.grid(alpha=0.3)
    _outside_legend(fig, ax, ncol=2)
    return fig


def warm_up() -> None:
    """Draw one small figure to memory: loading fonts and setting up the renderer costs the
    first figure of a process about as much as drawing it (`golfsim run` does this on a side
    thread while its rounds run)."""
    fig = Figure(figsize=(2.0, 1.5), layout="constrained")
    ax = fig.add_subplot()
    ax.bar([0, 1], [1, 2])
    ax.set_title("warm-up")
    fig.savefig(io.BytesIO(), format="png", dpi=60)


def _save_atomic(fig: Figure, path: Path) -> Path:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120)
    return path


def run_figures(summary: pl.DataFrame, totals: Totals, title: str) -> list[tuple[str, Figure]]:
    """(file name, figure) for the three figures of a run and, after match play, the match
    win share."""
    figures = (win_share_figure(summary, title), mean_score_figure(summary, title),
               score_distribution_figure(totals, summary, title))
    out = list(zip(PLOT_FILES, figures))
    if "match_win_share" in summary.columns:
        out.append((MATCH_PLOT, match_win_share_figure(summary, title)))
    return out


def write_plots(summary: pl.DataFrame, totals: Totals, out: str | Path, title: str) -> list[Path]:
    """Write the three figures into ``out`` (and, after match play, the match win share) and
    return their paths."""
    out = Path(out)
    return [_save_atomic(fig, out / name) for name, fig in run_figures(summary, totals, title)]


# ---- tournaments ---------------------------------------------------------------------------
TOURNAMENT_PLOT = "tournament.png"


def head_to_head_matrix(ranking: pl.DataFrame,
                        h2h: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From a tournament's two tables, in the ranking's order: H[i, j], the row strategy's
    share of its pairing with the column's, its standard error, and ``upset``: the row
    strategy clearly beats the column's, which is ranked above it (the clear results go round
    in a cycle)."""
    names = ranking["strategy"].to_list()
    k = len(names)
    pos = {n: i for i, n in enumerate(names)}
    h = np.full((k, k), np.nan)
    se = np.full((k, k), np.nan)
    upset = np.zeros((k, k), dtype=bool)
    clear = h2h["verdict"].to_list() if "verdict" in h2h.columns else [None] * h2h.height
    for r, verdict in zip(h2h.iter_rows(named=True), clear):
        i, j = pos[r["strategy"]], pos[r["opponent"]]
        h[i, j], se[i, j] = r["win_share"], r["se_win"]
        upset[i, j] = verdict == "clear" and r["win_share"] > 0.5 and i > j
    return h, se, upset


def _strength_panel(ax, ranking: pl.DataFrame, names: list[str], panel: int) -> None:
    """Each strategy's rating with 95% error bars, best first (the win share in files written
    before the tournament had ratings)."""
    x = np.arange(ranking.height)
    if "rating" in ranking.columns:
        ax.bar(x, ranking["rating"].to_numpy(), yerr=Z95 * ranking["se_rating"].to_numpy(),
               capsize=4, color="tab:blue", alpha=0.8)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_ylabel("rating (Elo scale, mean 0)")
        heading = "Rating (Bradley-Terry on the pairings), 95% intervals"
    else:
        ax.bar(x, 100 * ranking["win_share"].to_numpy(),
               yerr=100 * Z95 * ranking["se_win"].to_numpy(), capsize=4, color="tab:blue",
               alpha=0.8)
        ax.axhline(50, color="grey", lw=0.8, ls="--", label="even (50%)")
        ax.set_ylim(0, 100)
        ax.set_ylabel("share of its pairings' rounds won (%)")
        heading = "Win share, mean over pairings, 95% intervals"
        _side_legend(ax)
    ax.set_xticks(x, names, rotation=20, ha="right")
    ax.set_xlabel("strategy (ranking order)")
    ax.set_title(wrap(heading, panel), fontsize=10)


def tournament_figure(ranking: pl.DataFrame, h2h: pl.DataFrame, title: str) -> Figure:
    """Left: each strategy's rating with 95% error bars, in ranking order. Right: the
    head-to-head matrix (row strategy's share of the pairing's rounds) as a heatmap, a clear
    win over a strategy ranked higher marked *."""
    k = ranking.height
    h, h_se, upset = head_to_head_matrix(ranking, h2h)
    width = 6.0 + 1.6 * k
    names = [wrap(strategy_label(n), 18) for n in ranking["strategy"].to_list()]
    fig = Figure(figsize=(width, 4.6), layout="constrained")
    ax, hm = fig.subplots(1, 2, width_ratios=[1, 1.25])
    # the titles' width: the bar panel's share of the figure, less what its tick labels and
    # the heatmap's colour bar take (with two strategies the panels are narrow)
    panel = chars(0.6 * width / 2.25, 10)
    _strength_panel(ax, ranking, names, panel)
    masked = np.ma.masked_invalid(100 * h)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.85")  # grey diagonal
    image = hm.imshow(masked, cmap=cmap, vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if i != j and np.isfinite(h[i, j]):
                colour = "white" if abs(h[i, j] - 0.5) > 0.3 else "black"
                mark = "*" if upset[i, j] else ""
                hm.text(j, i, f"{100 * h[i, j]:.1f}%{mark}\n±{100 * Z95 * h_se[i, j]:.1f}",
                        ha="center", va="center", fontsize=8, color=colour)
    x = np.arange(k)
    hm.set_xticks(x, names, rotation=45, ha="right", rotation_mode="anchor")
    hm.set_yticks(x, names)
    hm.set_xlabel("opponent")
    hm.set_ylabel("strategy")
    heading = "Head to head: strategy's share of the pairing's rounds" + \
        (" (*: clearly beats a strategy ranked above it)" if upset.any() else "")
    hm.set_title(wrap(heading, panel), fontsize=10)
    fig.colorbar(image, ax=hm, label="share of rounds won (%)")
    fig.suptitle(f"Tournament\n{title_lines(title, chars(width - 0.4))}", fontsize=10)
    return fig


def write_tournament_plot(ranking: pl.DataFrame, h2h: pl.DataFrame, out: str | Path,
                          title: str) -> Path:
    """Write ``tournament.png`` into ``out`` and return its path."""
    return _save_atomic(tournament_figure(ranking, h2h, title), Path(out) / TOURNAMENT_PLOT)


# ---- tuning --------------------------------------------------------------------------------
TUNE_PLOT = "tune.png"
_TUNE_MAX_LINES = 10   # with two parameters: one line per value of the second, up to this many


def tune_figure(frame: pl.DataFrame, names: list[str], objective: str, title: str) -> Figure:
    """Three panels sharing the x axis (the first tuned parameter): the objective with 95%
    error bars; the paired difference to the best with 95% intervals; the deals each candidate
    played. Filled markers: indistinguishable from the best; the best is a star. With two
    parameters there is one line per value of the second; with more, the x axis lists the
    candidates."""
    win = objective == "win_share"
    col, lo, hi = (("win_share", "win_share_lo95", "win_share_hi95") if win else
                   ("mean_score", "mean_score_lo95", "mean_score_hi95"))
    dcol, dlo, dhi = (("win_diff", "win_diff_lo95", "win_diff_hi95") if win else
                      ("score_diff", "score_diff_lo95", "score_diff_hi95"))
    if "diff_holm_lo95" in frame.columns:   # the interval that makes a candidate worse
        dlo, dhi = "diff_holm_lo95", "diff_holm_hi95"
    scale = 100 if win else 1
    params = [f"param_{n}" for n in names]
    groups: list[tuple[str, pl.DataFrame]]
    if len(names) == 1 or (len(names) == 2 and
                           frame[params[1]].n_unique() <= _TUNE_MAX_LINES):
        xcol = params[0]
        if len(names) == 1:
            groups = [("", frame)]
        else:
            groups = [(f"{names[1]} = {v:g}", frame.filter(pl.col(params[1]) == v))
                      for v in sorted(frame[params[1]].unique())]
        xlabel = names[0]
        ticks = None
    else:
        frame = frame.with_columns(pl.col("candidate").cast(pl.Float64).alias("_x"))
        xcol, groups, xlabel = "_x", [("", frame)], "candidate"
        ticks = (frame["_x"].to_list(),
                 [", ".join(f"{n}={v:g}" for n, v in zip(names, row))
                  for row in frame.select(params).iter_rows()])
    values = np.sort(frame[xcol].unique().to_numpy())
    step = float(np.min(np.diff(values))) if values.size > 1 else 1.0
    fig = Figure(figsize=(7.6, 8.4), layout="constrained")
    ax, dx, nx = fig.subplots(3, 1, sharex=True, height_ratios=[3, 2, 1.4])
    colours = matplotlib.colormaps["tab10"]
    for g, (label, part) in enumerate(groups):
        width = 0.6 * step / len(groups)        # side by side, one slot per line
        offset = (g - (len(groups) - 1) / 2) * width
        x = part[xcol].to_numpy() + (offset if len(groups) > 1 else 0.0)
        same = part["indistinguishable"].to_numpy()
        best = part["best"].to_numpy()
        colour = colours(g % 10)
        for axis, (m, a, b) in ((ax, (col, lo, hi)), (dx, (dcol, dlo, dhi))):
            y = scale * part[m].to_numpy()
            err = np.abs(np.vstack([y - scale * part[a].to_numpy(),
                                    scale * part[b].to_numpy() - y]))
            axis.plot(x, y, color=colour, lw=0.8, alpha=0.6, label=label or None)
            axis.errorbar(x, y, yerr=err, fmt="none", ecolor=colour, capsize=3, lw=1)
            axis.scatter(x[same], y[same], color=colour, zorder=3, s=22)
            axis.scatter(x[~same], y[~same], facecolors="white", edgecolors=colour,
                         zorder=3, s=22)
            axis.scatter(x[best], y[best], marker="*", color="gold", edgecolors="black",
                         zorder=4, s=160)
        nx.bar(x, part["deals"].to_numpy(), width=width, color=colour, alpha=0.7)
    what = "win share (%)" if win else "mean hole score"
    ax.set_ylabel(what)
    ax.set_title(f"Tuning: {what} against the parameter, 95% intervals\n"
                 f"{title_lines(title, chars(7.0))}", fontsize=10)
    ax.grid(alpha=0.3)
    if len(groups) > 1:   # beside the top panel, outside it
        _side_legend(ax)
    dx.axhline(0, color="grey", lw=0.8, ls="--")
    dx.set_ylabel(f"{'win share' if win else 'score'}\nminus the best's" +
                  (" (pp)" if win else " (points)"))
    dx.set_title(wrap("Paired difference to the best on the same deals, Holm-adjusted 95% "
                      "intervals (filled: indistinguishable from the best; star: best)",
                      chars(6.4, 9)),
                 fontsize=9)
    dx.grid(alpha=0.3)
    nx.set_ylabel("deals played")
    nx.set_xlabel(xlabel)
    nx.grid(axis="y", alpha=0.3)
    if ticks is not None:
        nx.set_xticks(ticks[0], ticks[1], rotation=60, ha="right", fontsize=7)
    elif values.size <= 30:
        nx.set_xticks(values, [f"{v:g}" for v in values])
    return fig


def write_tune_plot(frame: pl.DataFrame, names: list[str], objective: str, out: str | Path,
                    title: str) -> Path:
    """Write ``tune.png`` into ``out`` and return its path."""
    return _save_atomic(tune_figure(frame, names, objective, title), Path(out) / TUNE_PLOT)


def redraw_tune(folder: str | Path) -> Path:
    """Redraw ``tune.png`` from the folder's ``tune.parquet`` and its metadata."""
    path = Path(folder) / "tune.parquet"
    frame, meta = read_results(path)
    with results_content(path):
        names = list(json.loads(meta["params"]))
        return write_tune_plot(frame, names, meta.get("objective", "win_share"), folder,
                               meta.get("title", ""))


# ---- tune --symmetric and --best-response ------------------------------------------------------
TABLE_PLOTS = {"symmetric": "symmetric.png", "best_response": "best_response.png"}


def _table_axis(frame: pl.DataFrame, names: list[str], mode: str):
    """(x, tick labels or None, axis label) of a symmetric scan or a best-response path."""
    if mode != "symmetric":
        return frame["step"].to_numpy().astype(float), None, "step of the iteration"
    if len(names) == 1:
        return frame[f"param_{names[0]}"].to_numpy(), None, f"{names[0]} (every seat)"
    labels = [", ".join(f"{n}={v:g}" for n, v in zip(names, row))
              for row in frame.select([f"param_{n}" for n in names]).iter_rows()]
    return np.arange(frame.height, dtype=float), labels, "value (every seat)"


def table_figure(frame: pl.DataFrame, names: list[str], objective: str, mode: str,
                 title: str) -> Figure:
    """``tune --symmetric`` (against the value every seat plays) or ``--best-response``
    (against the step): what one seat gains by its best deviation, with the Holm-adjusted 95%
    interval that decides "stable" (filled: stable); with one parameter, the best response
    (the diagonal: the value itself; the iteration: the value played and its response); and
    the table's mean score with every seat at the value, with its 95% interval."""
    x, labels, xlabel = _table_axis(frame, names, mode)
    one = len(names) == 1
    fig = Figure(figsize=(7.6, 8.4 if one else 6.2), layout="constrained")
    axes = fig.subplots(3 if one else 2, 1, sharex=True)
    gx, sx = axes[0], axes[-1]
    win = objective == "win_share"
    scale, unit = (100.0, "pp") if win else (1.0, "points")
    lo, hi = (("gain_holm_lo95", "gain_holm_hi95") if "gain_holm_lo95" in frame.columns
              else ("gain_lo95", "gain_hi95"))
    gain = scale * frame["gain"].to_numpy()
    err = np.abs(np.vstack([gain - scale * frame[lo].to_numpy(),
                            scale * frame[hi].to_numpy() - gain]))
    stable = frame["stable"].to_numpy()
    gx.errorbar(x, gain, yerr=err, fmt="none", ecolor="tab:blue", capsize=3, lw=1)
    gx.scatter(x[stable], gain[stable], color="tab:blue", zorder=3, s=26)
    gx.scatter(x[~stable], gain[~stable], facecolors="white", edgecolors="tab:blue",
               zorder=3, s=26)
    gx.axhline(0, color="grey", lw=0.8, ls="--")
    gx.set_ylabel(f"gain by deviating ({unit})")
    what = "Symmetric table" if mode == "symmetric" else "Best-response iteration"
    gx.set_title(wrap(f"{what}: what one seat gains by its best response, Holm-adjusted "
                      "95% intervals (filled: stable)", chars(7.0)) +
                 f"\n{title_lines(title, chars(7.0))}", fontsize=10)
    gx.grid(alpha=0.3)
    if one:
        bx = axes[1]
        best = frame[f"best_{names[0]}"].to_numpy()
        if mode == "symmetric":
            bx.plot(x, x, color="grey", lw=0.8, ls="--", label="the value itself")
        else:
            bx.plot(x, frame[f"param_{names[0]}"].to_numpy(), color="grey", lw=0.8,
                    marker="o", ms=4, label="the value the table plays")
        bx.scatter(x, best, color="tab:red", zorder=3, s=26, label="its best response")
        bx.set_ylabel(f"{names[0]}")
        bx.set_title("The best response to a table playing the value", fontsize=9)
        bx.grid(alpha=0.3)
        _side_legend(bx)
    sx.errorbar(x, frame["table_mean_score"].to_numpy(),
                yerr=frame["table_mean_score_hw95"].to_numpy(), fmt="o", capsize=3, ms=4,
                color="tab:green")
    sx.set_ylabel("table's mean score")
    sx.set_title("Mean hole score with every seat at the value, 95% intervals", fontsize=9)
    sx.set_xlabel(xlabel)
    sx.grid(alpha=0.3)
    if labels is not None:
        sx.set_xticks(x, labels, rotation=60, ha="right", fontsize=7)
    elif x.size <= 30:
        sx.set_xticks(x, [f"{v:g}" for v in x])
    return fig


def redraw_table(folder: Path, mode: str) -> list[Path]:
    """Redraw the figure of a ``tune --symmetric`` or ``--best-response`` folder (``mode``
    symmetric or best_response) from its Parquet file."""
    folder = Path(folder)
    path = folder / f"{mode}.parquet"
    frame, meta = read_results(path)
    with results_content(path):
        return [write_table_plot(frame, list(json.loads(meta["params"])),
                                 meta.get("objective", "win_share"), mode, folder,
                                 meta.get("title", ""))]


def write_table_plot(frame: pl.DataFrame, names: list[str], objective: str, mode: str,
                     out: str | Path, title: str) -> Path:
    """Write ``symmetric.png`` or ``best_response.png`` into ``out`` and return its path."""
    return _save_atomic(table_figure(frame, names, objective, mode, title),
                        Path(out) / TABLE_PLOTS[mode])


# ---- rule comparisons ----------------------------------------------------------------------
COMPARE_PLOT = "compare.png"

_COMPARE_PANELS = (   # (quantity, group kind, title, unit, scale)
    ("mean_score", "strategy", "Mean score by strategy", "change in points (lower is better)",
     1.0),
    ("mean_score", "seat", "Mean score by seat", "change in points (lower is better)", 1.0),
    ("win_share", "strategy", "Win share by strategy", "change in percentage points", 100.0),
    ("win_share", "seat", "Win share by seat", "change in percentage points", 100.0),
    ("first_player_advantage", "table", "First-player advantage",
     "change in percentage points", 100.0),
    ("round_length", "table", "Round length", "change in turns per round", 1.0),
    ("knocker_success", "table", "Knocker's success (unpaired interval)",
     "change in percentage points", 100.0),
)


def compare_figure(df: pl.DataFrame, title: str) -> Figure:
    """One panel per quantity: for every variant (rows, in the order given) a bar per seat or
    strategy with the change from the baseline and its 95% interval (paired, except knocker's
    success). The first panel also shows, in grey, the wider unpaired interval the same
    number of rounds would give without common random numbers."""
    panels = []
    for quantity, kind, name, unit, scale in _COMPARE_PANELS:
        part = df.filter((pl.col("quantity") == quantity) & (pl.col("group_kind") == kind))
        if part.height:
            panels.append((part, name, unit, scale))
    variants = df.unique("variant_index", maintain_order=True).sort("variant_index")
    labels = [v.replace(", ", "\n") for v in variants["variant"]]
    n_var = len(labels)
    most = max(p[0]["group"].n_unique() for p in panels)
    cols = 2 if len(panels) > 1 else 1
    rows = -(-len(panels) // cols)
    lines = max(label.count("\n") + 1 for label in labels)
    panel_h = 1.3 + n_var * max(0.45 * lines, 0.22 * most)
    fig = Figure(figsize=(12.0 if cols == 2 else 7.0, min(60.0, 1.0 + rows * panel_h)),
                 layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False).ravel())
    colours = matplotlib.colormaps["tab10"].colors
    for i, (ax, (part, name, unit, scale)) in enumerate(zip(axes, panels)):
        groups = part["group"].unique(maintain_order=True).to_list()
        h = 0.8 / len(groups)
        for g, group in enumerate(groups):
            rows_g = part.filter(pl.col("group") == group).sort("variant_index")
            idx = rows_g["variant_index"].to_numpy() - 1
            y = idx + (g - (len(groups) - 1) / 2) * h
            diff = scale * rows_g["diff"].to_numpy()
            err = np.vstack([diff - scale * rows_g["diff_lo95"].to_numpy(),
                             scale * rows_g["diff_hi95"].to_numpy() - diff])
            ax.barh(y, diff, height=h * 0.9, color=colours[g % len(colours)], alpha=0.85,
                    label=wrap(group, 28))
            ax.errorbar(diff, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
            if i == 0 and rows_g["paired"].all():
                un = np.vstack([diff - scale * rows_g["unpaired_lo95"].to_numpy(),
                                scale * rows_g["unpaired_hi95"].to_numpy() - diff])
                ax.errorbar(diff, y + h * 0.25, xerr=un, fmt="none", ecolor="0.55",
                            capsize=2, lw=0.8,
                            label="unpaired 95% (same rounds)" if g == 0 else None)
        ax.axvline(0, color="grey", lw=0.8)
        lo = scale * np.nanmin(np.append(part["diff_lo95"].to_numpy(), 0.0))
        hi = scale * np.nanmax(np.append(part["diff_hi95"].to_numpy(), 0.0))
        if i == 0:
            lo = min(lo, scale * np.nanmin(part["unpaired_lo95"].to_numpy()))
            hi = max(hi, scale * np.nanmax(part["unpaired_hi95"].to_numpy()))
        pad = 0.08 * (hi - lo) if hi > lo else 1.0
        ax.set_xlim(lo - pad, hi + pad)   # zero always in view, with a margin on both sides
        ax.set_yticks(np.arange(n_var), labels, fontsize=8)
        ax.set_ylim(n_var - 0.5, -0.5)   # the first variant on top
        ax.set_xlabel(unit)
        ax.set_title(name, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        if len(groups) > 1 or i == 0:   # beside the panel, outside it: never over a bar
            _side_legend(ax, fontsize=7)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    fig.suptitle("Rule effects: variant minus baseline, bars with paired 95% intervals\n"
                 + title_lines(title, chars(fig.get_figwidth() - 0.4)), fontsize=10)
    return fig


def write_compare_plot(df: pl.DataFrame, out: str | Path, title: str) -> Path:
    """Write ``compare.png`` into ``out`` and return its path."""
    return _save_atomic(compare_figure(df, title), Path(out) / COMPARE_PLOT)


# ---- redrawing a results folder (`golfsim plot`) ----------------------------------------------
class ResultsFileError(ValueError):
    """A results file that cannot be read, or does not hold what golfsim writes there; the
    message, one line, names the file."""


def _reason(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def read_results(path: Path) -> tuple[pl.DataFrame, dict]:
    """The frame and the metadata of the Parquet file ``path``; ResultsFileError when it is
    missing, unreadable or not Parquet (random bytes, a truncated file)."""
    if path.is_dir():
        raise ResultsFileError(f"{path}: is a folder, expected a Parquet file")
    try:
        return pl.read_parquet(path), pl.read_parquet_metadata(path)
    except FileNotFoundError:
        raise ResultsFileError(f"{path}: no such file") from None
    except OSError as e:
        raise ResultsFileError(f"{path}: cannot read it ({e.strerror or _reason(e)})") from None
    except (pl.exceptions.PolarsError, ValueError, RuntimeError) as e:
        raise ResultsFileError(f"{path}: not a readable Parquet file ({_reason(e)})") from None


class results_content:
    """``with results_content(path): ...`` draws from what was read from ``path``: a file
    that is valid Parquet but lacks a column or a metadata key golfsim writes there (another
    program's file, or one of an older layout) is a ResultsFileError naming it."""

    def __init__(self, *paths: Path):
        self.paths = paths

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or isinstance(e, (ResultsFileError, OSError)):
            return False
        if isinstance(e, (pl.exceptions.PolarsError, KeyError, IndexError, TypeError,
                          ValueError, AttributeError)):
            names = " and ".join(str(p) for p in self.paths)
            raise ResultsFileError(f"{names}: not what golfsim writes there "
                                   f"({type(e).__name__}: {_reason(e)})") from None
        return False


def _histogram_totals(players: int, histogram: dict) -> Totals:
    """Totals holding only the score histogram kept in a run's metadata
    (report.score_histogram): what the score distribution is drawn from."""
    totals = Totals(players)
    counts = np.asarray(histogram["counts"], dtype=np.int64).reshape(players, -1)
    start = histogram["first_score"] + HIST_OFFSET
    totals.hist[:, start:start + counts.shape[1]] = counts
    totals.tot[TOT_ROUNDS] = int(counts[0].sum()) if players else 0
    return totals


def _rounds_totals(players: int, per_round: pl.DataFrame) -> Totals:
    """Totals holding the score histogram of every round's scores (rounds.parquet)."""
    totals = Totals(players)
    totals.tot[TOT_ROUNDS] = per_round.height
    for seat in range(players):
        bins = np.clip(per_round[f"score_{seat}"].to_numpy() + HIST_OFFSET, 0, HIST_BINS - 1)
        totals.hist[seat] = np.bincount(bins, minlength=HIST_BINS)
    return totals


def redraw_run(folder: Path, notes: list[str]) -> list[Path]:
    """Redraw a run's figures from summary.parquet (the score distribution from the histogram
    its metadata keeps, or, for files written before it did, from rounds.parquet)."""
    summary, meta = read_results(folder / "summary.parquet")
    has_rounds = (folder / "rounds.parquet").exists()
    per_round = read_results(folder / "rounds.parquet")[0] if has_rounds else None
    with results_content(folder / "summary.parquet"):
        rounds = int(summary["rounds"][0]) if summary.height else 0
        title = meta.get("title") or (   # results written before the metadata kept the title
            f"{meta.get('preset', '?')}, {meta.get('players', summary.height)} players, "
            f"{rounds:,} rounds, seed {meta.get('seed', '?')}")
        figures = [(win_share_figure(summary, title), PLOT_FILES[0]),
                   (mean_score_figure(summary, title), PLOT_FILES[1])]
        if "match_win_share" in summary.columns:
            figures.append((match_win_share_figure(summary, title), MATCH_PLOT))
        totals = (_histogram_totals(summary.height, json.loads(meta["score_histogram"]))
                  if meta.get("score_histogram") else None)
    if totals is None and has_rounds:
        with results_content(folder / "summary.parquet", folder / "rounds.parquet"):
            totals = _rounds_totals(summary.height, per_round)
    if totals is not None:
        figures.append((score_distribution_figure(totals, summary, title), PLOT_FILES[2]))
    else:
        notes.append(f"{PLOT_FILES[2]} needs the histogram of the scores, which the metadata "
                     "of summary.parquet keeps (this one was written before it did), or every "
                     "round's scores (rounds.parquet, written by golfsim run --per-round); "
                     "left as it is")
    # drawn from files read whole: nothing is written when one of them is unreadable
    return [_save_atomic(fig, folder / name) for fig, name in figures]


def redraw_compare(folder: Path, notes: list[str] | None = None) -> list[Path]:
    """Redraw ``compare.png`` from compare.parquet."""
    frame, meta = read_results(folder / "compare.parquet")
    with results_content(folder / "compare.parquet"):
        return [write_compare_plot(frame, folder, meta.get("title", ""))]


def redraw_tournament(folder: Path, notes: list[str] | None = None) -> list[Path]:
    """Redraw ``tournament.png`` from ranking.parquet and head_to_head.parquet."""
    ranking, meta = read_results(folder / "ranking.parquet")
    h2h, _ = read_results(folder / "head_to_head.parquet")
    with results_content(folder / "ranking.parquet", folder / "head_to_head.parquet"):
        return [_draw_tournament(folder, ranking, h2h, meta)]


def _draw_tournament(folder: Path, ranking: pl.DataFrame, h2h: pl.DataFrame,
                     meta: dict) -> Path:
    per_pairing = int(meta.get("rounds_per_pairing", "0") or 0)
    title = meta.get("title") or (   # results written before the metadata kept the title
        f"{meta.get('preset', '?')}, {meta.get('players', '?')} players, "
        f"{per_pairing:,} rounds per pairing, seed {meta.get('seed', '?')}")
    return write_tournament_plot(ranking, h2h, folder, title)
