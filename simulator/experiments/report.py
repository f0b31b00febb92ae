"""Results of a run as tables: the per-seat summary and the per-round scores as polars
DataFrames, their Parquet files (written atomically, with the run's description in the file's
key-value metadata), and the plain-text summary printed by ``golfsim run``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from contextlib import contextmanager
from importlib import metadata as _importlib_metadata
from pathlib import Path

import numpy as np
import polars as pl

from ..game.rules import PRESETS, Rules, describe
from .runner import RunResult

Z95 = 1.959963984540054  # two-sided 95% normal quantile
TITLE_WIDTH = 72         # characters of the rule set a plot title shows on its line
CAPPED_WARN_SHARE = 0.01  # above this share of rounds stopped by the turn cap, a run is degenerate
_NEVER_KNOCK = ("greedy", "opponent-aware")   # built-ins without a knock rule (and guide
                                              # without a knock threshold)

SUMMARY_COLUMNS = (
    "seat", "strategy", "rounds",
    "mean_score", "se_score", "mean_score_lo95", "mean_score_hi95",
    "win_share", "se_win", "win_share_lo95", "win_share_hi95",
    "ender_share", "se_ender", "ender_share_lo95", "ender_share_hi95",
    "mean_turns", "se_turns", "capped_share",
    "knock_share", "knocker_win_share", "se_knocker_win_share",
)
MATCH_COLUMNS = (
    "matches", "match_win_share", "se_match_win", "match_win_share_lo95", "match_win_share_hi95",
    "mean_match_total", "se_match_total", "mean_holes",
)


def version() -> str:
    """The installed golfsim version (the source tree's pyproject version when not installed)."""
    try:
        return _importlib_metadata.version("golfsim")
    except _importlib_metadata.PackageNotFoundError:
        import tomllib
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return tomllib.loads(pyproject.read_text())["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def summary_frame(result: RunResult) -> pl.DataFrame:
    """One row per seat; the statistics of ``result.totals`` with 95% normal intervals."""
    t = result.totals
    n = t.rounds
    seats = result.players
    mean, se = t.mean_score(), t.se_score()
    win, se_win = t.win_share(), t.se_win()
    ender = t.ender_share()
    # ender is a 0/1 outcome per round, so its standard error follows from the share alone
    se_ender = np.sqrt(ender * (1 - ender) / (n - 1)) if n > 1 else np.zeros(seats)
    strategies = list(result.strategies) or [""] * seats
    turns, se_turns = t.mean_turns(), t.se_turns()
    capped = t.capped / n if n else 0.0
    frame = pl.DataFrame({
        "seat": np.arange(seats, dtype=np.int64),
        "strategy": [str(s) for s in strategies],
        "rounds": np.full(seats, n, dtype=np.int64),
        "mean_score": mean, "se_score": se,
        "mean_score_lo95": mean - Z95 * se, "mean_score_hi95": mean + Z95 * se,
        "win_share": win, "se_win": se_win,
        "win_share_lo95": np.clip(win - Z95 * se_win, 0, 1),
        "win_share_hi95": np.clip(win + Z95 * se_win, 0, 1),
        "ender_share": ender, "se_ender": se_ender,
        "ender_share_lo95": np.clip(ender - Z95 * se_ender, 0, 1),
        "ender_share_hi95": np.clip(ender + Z95 * se_ender, 0, 1),
        "mean_turns": np.full(seats, turns), "se_turns": np.full(seats, se_turns),
        "capped_share": np.full(seats, capped),
        # hole-level knock figures (docs/rules.md#ending-a-hole): the same in every row
        "knock_share": np.full(seats, t.knocks / n if n else 0.0),
        "knocker_win_share": np.full(seats, t.knocker_win_share()),
        "se_knocker_win_share": np.full(seats, t.se_knocker_win_share()),
    }).select(SUMMARY_COLUMNS)
    mt = result.match_totals
    if mt is not None:  # match play: the whole-match figures per seat
        mwin, se_mwin = mt.win_share(), mt.se_win()
        frame = frame.with_columns(pl.DataFrame({
            "matches": np.full(seats, mt.matches, dtype=np.int64),
            "match_win_share": mwin, "se_match_win": se_mwin,
            "match_win_share_lo95": np.clip(mwin - Z95 * se_mwin, 0, 1),
            "match_win_share_hi95": np.clip(mwin + Z95 * se_mwin, 0, 1),
            "mean_match_total": mt.mean_total(), "se_match_total": mt.se_total(),
            "mean_holes": np.full(seats, mt.mean_holes()),
        }).get_columns())
        if result.rules.pot_enabled:
            frame = frame.with_columns(pl.DataFrame({
                "mean_pot_balance": mt.mean_pot(), "se_pot_balance": mt.se_pot(),
            }).get_columns())
    return frame


def rounds_frame(result: RunResult) -> pl.DataFrame:
    """Every round: ``round``, ``score_0`` .. ``score_{n-1}`` (hole scores by seat), ``turns``.

    After a policy error or an interruption only the rounds of the chunks that finished are
    there."""
    pr = result.per_round
    if pr is None:
        raise ValueError("the run was made without per-round output")
    cols = {"round": pr.rounds.astype(np.int64)}
    for seat in range(pr.scores.shape[1]):
        cols[f"score_{seat}"] = pr.scores[:, seat]
    cols["turns"] = pr.turns
    return pl.DataFrame(cols)


def capped_warning(capped: int, rounds: int, rules: Rules, strategies=(),
                   where: str = "") -> str | None:
    """A warning when more than CAPPED_WARN_SHARE of ``rounds`` (of what ``where`` names,
    e.g. " of the baseline") hit the turn cap, naming the likely cause: the scores of such
    rounds are those of the cap's moment, not of finished holes, so every figure built on
    them describes a game nobody plays. None when the share is at most that."""
    if rounds <= 0 or capped <= CAPPED_WARN_SHARE * rounds:
        return None
    return (f"{100 * capped / rounds:.1f}% of rounds{where} hit the turn cap "
            f"(turn_cap={rules.turn_cap}): {_capped_cause(rules, strategies)}; their scores "
            "are not those of finished holes")


def _capped_cause(rules: Rules, strategies) -> str:
    heads = sorted({str(s).split(":", 1)[0] for s in strategies if _never_knocks(str(s))})
    if set(rules.end_triggers) == {"knock"} and heads:
        return (f"{' and '.join(heads)} never knock{'s' if len(heads) == 1 else ''}, and only a "
                "knock ends a hole here (end_triggers=knock); play knock-threshold or another "
                "strategy that knocks")
    return "a strategy here rarely ends a hole under these rules"


def _never_knocks(spec: str) -> bool:
    head, _, args = spec.partition(":")
    return head in _NEVER_KNOCK or (head == "guide" and "knock=" not in args)


def run_warnings(result: RunResult) -> list[str]:
    w = capped_warning(result.totals.capped, result.totals.rounds, result.rules,
                       result.strategies)
    return [w] if w else []


def rules_metadata(what: str, rules: Rules, preset: str, command: str,
                   rules_file: str | None) -> dict[str, str]:
    """The metadata every results file starts with: what it is, the version, the command and
    the complete rule set (as a loadable TOML file and as differences from the defaults and
    from the preset)."""
    preset_rules = Rules.preset(preset) if preset in PRESETS else Rules()
    return {
        "golfsim": what,
        "version": version(),
        "command": command,
        "preset": preset,
        "rules_file": rules_file or "",
        "rules": rules.to_toml(preset),
        "rules_diff": json.dumps(rules.diff(), default=list),
        "rules_diff_from_preset": json.dumps(rules.diff(preset_rules), default=list),
        "rules_text": describe(rules, preset),
    }


def title(rules: Rules, preset: str, details: str) -> str:
    """The title of a command's results: the rule set in brief (``rules.describe``, cut to
    TITLE_WIDTH characters), then ``details`` (what was played), joined by "; ". The figures
    put each part on its own line (plots.title_lines); text uses it as one line."""
    return f"{describe(rules, preset, TITLE_WIDTH)}; {details}"


def run_title(result: RunResult, preset: str) -> str:
    n = result.totals.rounds
    if result.match_totals is not None:
        kind = f"{result.holes} holes" if result.holes else f"to {result.target} points"
        played = f"{result.match_totals.matches:,} matches ({kind}), {n:,} holes"
    else:
        played = f"{n:,} rounds"
    return title(result.rules, preset,
                 f"{result.players} players, {played}, seed {result.seed}")


def run_metadata(result: RunResult, preset: str, rounds_requested: int, command: str,
                 rules_file: str | None = None) -> dict[str, str]:
    """Everything needed to reproduce the run, as Parquet key-value metadata (strings).

    Nothing here depends on the thread count or chunk size (the results do not either);
    those settings appear only inside the command line."""
    return {
        **rules_metadata("a golfsim run (summary.parquet: one row per seat; rounds.parquet: one "
                         "row per round)", result.rules, preset, command, rules_file),
        "players": str(result.players),
        "strategies": json.dumps([str(s) for s in result.strategies]),
        "seed": str(result.seed),
        "rounds_requested": str(rounds_requested),
        "rounds": str(result.totals.rounds),
        "complete": "true" if result.complete else "false",
        "error": result.error or "",
        "match_holes": str(result.holes),
        "match_target": str(result.target),
        "matches": str(result.match_totals.matches if result.match_totals else 0),
        # the compiled build that played (simulator/kernel/features.py BUILDS)
        "build": result.build,
        "title": run_title(result, preset),
        "warnings": json.dumps(run_warnings(result)),
        "score_histogram": json.dumps(score_histogram(result)),
    }


def score_histogram(result: RunResult) -> dict:
    """The hole scores' histogram per seat, trimmed to the scores that occur: what
    score_distribution.png is drawn from, kept so that `golfsim plot` can draw it again."""
    scores, counts = result.totals.score_histogram()
    return {"first_score": int(scores[0]) if scores.size else 0,
            "counts": counts.astype(int).tolist()}


def write_parquet_atomic(df: pl.DataFrame, path: str | Path,
                         metadata: dict[str, str] | None = None) -> Path:
    """Write ``df`` to a temporary file next to ``path``, then rename it over ``path``, so a
    reader never sees a half-written file."""
    path = Path(path)
    with atomic_path(path) as tmp:
        df.write_parquet(tmp, metadata=metadata)
    return path


class WriteError(OSError):
    """Writing a file failed (a full disk, a missing permission, ...): ``filename`` is the
    file meant, ``strerror`` the reason; ``str()`` is "<file>: <reason>". Every writer here
    raises it (polars' own error for a failed Parquet write included), so a command can
    say in one line which file failed and why."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


_OS_ERROR = re.compile(r"os error (\d+)")


def write_error(path: Path, e: BaseException) -> WriteError | None:
    """``e``, raised while writing ``path``, as a WriteError; None when it is no I/O error
    (a bug, an interruption), which is then raised as it is. Polars reports an I/O error of
    a Parquet write as a ComputeError ending "... (os error 28)"."""
    if isinstance(e, WriteError):
        return e
    if isinstance(e, OSError):
        return WriteError(e.errno or 0, e.strerror or str(e), str(path))
    m = _OS_ERROR.search(str(e)) if isinstance(e, Exception) else None
    if m is not None:
        code = int(m.group(1))
        return WriteError(code, os.strerror(code), str(path))
    return None


TEMPORARY_NAME_BYTES = 64   # of the file's name kept in its temporary's: any name that
                            # fits the file system then has a temporary name that fits too


def temporary_path(path: Path) -> Path:
    """A new temporary name beside ``path``: ``.<name>.<pid>.<random>.tmp``, the name cut
    to TEMPORARY_NAME_BYTES (folder.remove_stale_temporaries reads the pid there)."""
    path = Path(path)
    name = os.fsencode(path.name)[:TEMPORARY_NAME_BYTES].decode(errors="ignore")
    return path.with_name(f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def check_writable(path: Path) -> None:
    """Raise OSError unless a file can be written at ``path`` as atomic_path writes it:
    its temporary file is created and removed, ``path`` itself is not touched."""
    tmp = temporary_path(path)
    with open(tmp, "x"):
        pass
    tmp.unlink()


@contextmanager
def atomic_path(path: Path):
    """Yield a temporary name in ``path``'s folder; on success rename it to ``path``. On any
    failure the temporary file is removed (nothing half-written stays) and an I/O error is
    raised as a WriteError naming ``path``. (The file is created by the writer, so it gets
    the usual permissions of the umask.)"""
    path = Path(path)
    tmp = temporary_path(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        failed = write_error(path, e)
        if failed is None or failed is e:
            raise
        raise failed from e


def save_npy_atomic(path: Path, array: np.ndarray) -> None:
    """np.save ``array`` to ``path`` through a temporary file, flushed to disk, then renamed."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            np.save(f, array)
            f.flush()
            os.fsync(f.fileno())


# ---- text ----------------------------------------------------------------------------------
def text_table(header, rows, left) -> list[str]:
    """Lines of a plain-text table: columns as wide as their widest cell, the columns whose
    index is in ``left`` left-aligned, the others right-aligned."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def fmt(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [fmt(header), *(fmt(r) for r in rows)]


def ran_on(threads) -> str:
    """"2 thread(s)", or the cluster's description (cluster.description) as it is."""
    return threads if isinstance(threads, str) else f"{threads} thread(s)"


def format_summary(df: pl.DataFrame, result: RunResult, preset: str, threads: int) -> str:
    """The table printed after a run: one line per seat, intervals as ± half-widths."""
    t = result.totals
    n = t.rounds
    rate = n / result.seconds if result.seconds > 0 else float("nan")
    lines = [
        f"rules: {describe(result.rules, preset)}",
        f"{result.players} players, {n:,} rounds, seed {result.seed}, "
        f"{result.seconds:.2f} s on {ran_on(threads)} ({rate:,.0f} rounds/s)",
        "",
    ]
    header = ("seat", "strategy", "mean score", "±95%", "win share", "±95%", "ender share")
    rows = []
    for r in df.iter_rows(named=True):
        rows.append((str(r["seat"]), r["strategy"], f"{r['mean_score']:.3f}",
                     f"{Z95 * r['se_score']:.3f}", f"{100 * r['win_share']:.2f}%",
                     f"{100 * Z95 * r['se_win']:.2f}%", f"{100 * r['ender_share']:.2f}%"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    left = {1}  # the strategy column reads better left-aligned

    def fmt(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    lines.append(fmt(header))
    lines.extend(fmt(row) for row in rows)
    lines.append("")
    capped_pct = 100 * t.capped / n if n else 0.0
    lines.append(f"mean turns per round: {t.mean_turns():.3f} ± {Z95 * t.se_turns():.3f}; "
                 f"capped rounds: {t.capped:,} ({capped_pct:.3f}%)")
    mt = result.match_totals
    if mt is not None:
        kind = f"{result.holes} holes" if result.holes else f"to {result.target} points"
        lines.append(f"matches ({kind}): {mt.matches:,}, {mt.mean_holes():.2f} holes each; "
                     "seats take turns to play first, so hole figures are per physical seat")
        for seat, (w, se, tot) in enumerate(zip(mt.win_share(), mt.se_win(),
                                                 mt.mean_total())):
            pot = (f", pot balance {mt.mean_pot()[seat]:+.2f} ± {Z95 * mt.se_pot()[seat]:.2f}"
                   if result.rules.pot_enabled else "")
            lines.append(f"  seat {seat}: match win share {100 * w:.2f}% ± {100 * Z95 * se:.2f}%,"
                         f" mean match total {tot:.2f}{pot}")
    if t.knocks:
        lines.append(f"knocks: {100 * t.knocks / n:.2f}% of rounds; the knocker won "
                     f"{100 * t.knocker_win_share():.2f}% ± "
                     f"{100 * Z95 * t.se_knocker_win_share():.2f}% of them")
    return "\n".join(lines)

