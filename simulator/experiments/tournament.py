"""Tournaments: every pair of strategies plays at one table with the seats rotated, so no
strategy gains from where it sits; a ranking by win share and a head-to-head matrix come out.

A pairing {A, B} seats A and B alternately (A B A B ...) in every cyclic rotation of that
pattern; with an odd number of players the pattern's extra seat goes to A in half of the
seatings and to B in the other half. Across a pairing's seatings each strategy then holds every
seat equally often and half of all seats.

Every seating of every pairing plays rounds 0 .. n-1 of the same seed, so the same deals come
back under every seating (common random numbers). The statistics therefore take one
observation per round index: a strategy's value averaged over its seats and the seatings (and,
for the overall figures, over its pairings). Those observations are independent across round
indices, and the standard errors come from their spread.

The rounds are played by ``runner.run`` (chunks on threads), so the results are identical for
any thread count.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import polars as pl

from strategies import Strategy, StrategyError, resolve, seat_arrays, user_policy

from . import report, runner, stats
from .report import Z95, rules_metadata, text_table
from ..game.rules import Rules, describe

MIN_CHUNK = 1024

RANKING_COLUMNS = (
    "rank", "strategy", "pairings", "rounds",
    "win_share", "se_win", "win_share_lo95", "win_share_hi95",
    "mean_score", "se_score", "mean_score_lo95", "mean_score_hi95",
)
HEAD_TO_HEAD_COLUMNS = (
    "strategy", "opponent", "rounds",
    "win_share", "se_win", "win_share_lo95", "win_share_hi95",
    "mean_score", "se_score", "mean_score_lo95", "mean_score_hi95",
    "opponent_mean_score", "score_diff", "se_score_diff", "score_diff_lo95", "score_diff_hi95",
    "verdict", "rounds_needed",
)


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (too few strategies, a repeated one)."""


# ---- seatings ------------------------------------------------------------------------------
def seatings(players: int) -> list[tuple[int, ...]]:
    """The seatings of one pairing: tuples giving, per seat, 0 (the pairing's first strategy)
    or 1 (the second). Every cyclic rotation of 0 1 0 1 ..., and for an odd number of players
    also of 1 0 1 0 ..., so that each strategy holds every seat equally often."""
    if players < 2:
        raise TournamentError(f"--players {players}: a tournament needs at least 2 players")
    out: list[tuple[int, ...]] = []
    for first in (0, 1):
        base = [(first + s) % 2 for s in range(players)]
        for shift in range(players):
            seating = tuple(base[(s + shift) % players] for s in range(players))
            if seating not in out:
                out.append(seating)
    return out


def seating_text(seating: tuple[int, ...]) -> str:
    return "".join("AB"[x] for x in seating)


# ---- strategies ----------------------------------------------------------------------------
def resolve_strategies(specs: list[str]) -> list[Strategy]:
    """Resolve the specs: at least two different strategies, none given twice
    (``knock-threshold`` and ``knock-threshold:T=8`` are the same strategy)."""
    resolved = [resolve(s) for s in specs]
    first: dict[tuple, str] = {}
    for s in resolved:
        first.setdefault((s.policy_id, s.params, s.user), s.spec)
    if len(first) < 2:
        given = " ".join(f"--strategy {s}" for s in specs) or "none"
        raise TournamentError(f"a tournament needs at least 2 different strategies (got "
                              f"{given}); give --strategy once per strategy, e.g. "
                              "--strategy greedy --strategy random")
    if len(first) < len(resolved):
        seen = set()
        for s in resolved:
            key = (s.policy_id, s.params, s.user)
            if key in seen:
                raise TournamentError(f"--strategy {s.spec}: the same strategy as --strategy "
                                      f"{first[key]}; give each strategy once")
            seen.add(key)
    return resolved


# ---- statistics ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A mean over round indices and its standard error."""
    mean: float
    se: float

    @classmethod
    def of(cls, obs: np.ndarray) -> "Estimate":
        n = obs.size
        if n == 0:
            return cls(math.nan, math.nan)
        se = float(obs.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        return cls(float(obs.mean()), se)

    @property
    def lo95(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def hi95(self) -> float:
        return self.mean + Z95 * self.se


def round_wins(scores: np.ndarray) -> np.ndarray:
    """Per round and seat: 1/k when the seat is one of k seats sharing the lowest score,
    else 0 (the runner's win share, round by round)."""
    low = scores == scores.min(axis=1, keepdims=True)
    return low / low.sum(axis=1, keepdims=True)


@dataclass
class PairingResult:
    """One pairing: index ``a`` and ``b`` into the tournament's strategies; per strategy
    (position 0 for ``a``, 1 for ``b``) the share of the pairing's rounds its seats won (ties
    split) and its mean score per seat-round; ``score_diff`` = a's mean score minus b's."""
    a: int
    b: int
    rounds: int                      # rounds played in this pairing (all seatings)
    win: tuple[Estimate, Estimate]
    score: tuple[Estimate, Estimate]
    score_diff: Estimate
    capped: int = 0                  # of its rounds, those stopped by the turn cap


@dataclass
class TournamentResult:
    rules: Rules
    players: int
    strategies: list[str]
    seed: int
    rounds_requested: int            # per pairing, as asked
    rounds_per_seating: int
    seatings: list[tuple[int, ...]]
    pairings: list[PairingResult]
    win: list[Estimate]              # per strategy, mean over its pairings
    score: list[Estimate]
    seconds: float
    order: list[int] = field(default_factory=list)   # strategy indices, best first

    @property
    def rounds_per_pairing(self) -> int:
        return self.rounds_per_seating * len(self.seatings)

    def head_to_head(self) -> tuple[np.ndarray, np.ndarray]:
        """(H, SE): H[i, j] = share of the rounds of pairing {i, j} won by i's seats, and its
        standard error; NaN on the diagonal. H[i, j] + H[j, i] = 1."""
        k = len(self.strategies)
        h = np.full((k, k), np.nan)
        se = np.full((k, k), np.nan)
        for p in self.pairings:
            h[p.a, p.b], se[p.a, p.b] = p.win[0].mean, p.win[0].se
            h[p.b, p.a], se[p.b, p.a] = p.win[1].mean, p.win[1].se
        return h, se


def play(rules: Rules, players: int, specs: list[str], rounds: int, seed: int,
         threads: int = 1, progress=None, chunk_size: int | None = None) -> TournamentResult:
    """Play every pairing of ``specs`` for about ``rounds`` rounds each (split evenly over
    the pairing's seatings, rounded up); ``progress(n)`` is called as chunks end.

    Raises StrategyError/TournamentError for bad strategies, RuleError for a player count the
    rules do not allow, runner.PolicyError when a policy makes an illegal move, and
    KeyboardInterrupt when interrupted."""
    rules.check_players(players)
    resolved = resolve_strategies(list(specs))
    user = user_policy(resolved)  # the one user policy function the strategies may include
    if rounds < 1:
        raise TournamentError(f"--rounds {rounds}: expected a whole number >= 1")
    seats_list = seatings(players)
    n = -(-rounds // len(seats_list))
    if chunk_size is None:  # enough chunks to keep every thread busy
        chunk_size = min(runner.DEFAULT_CHUNK, max(MIN_CHUNK, -(-n // (4 * max(1, threads)))))
    k = len(resolved)
    names = [s.spec for s in resolved]
    win_sum = [np.zeros(n) for _ in range(k)]       # per strategy, summed over its pairings
    score_sum = [np.zeros(n) for _ in range(k)]
    pairings = []
    t0 = time.perf_counter()
    for a, b in combinations(range(k), 2):
        win = np.zeros((2, n))           # team win share summed over seatings
        score = np.zeros((2, n), dtype=np.int64)   # scores summed over seats and seatings
        seat_count = np.zeros(2, dtype=np.int64)
        capped = 0
        for seating in seats_list:
            seat_strategies = [resolved[(a, b)[x]] for x in seating]
            ids, params = seat_arrays(seat_strategies)
            res = runner.run(rules, players, ids, params, n, seed, threads=threads,
                             chunk_size=chunk_size, per_round=True, progress=progress,
                             strategies=[s.spec for s in seat_strategies], user=user)
            if not res.complete:
                if res.error.startswith("interrupted"):
                    raise KeyboardInterrupt
                raise runner.PolicyError(f"{names[a]} vs {names[b]}, seating "
                                         f"{seating_text(seating)}: {res.error}")
            capped += res.totals.capped
            scores = res.per_round.scores
            wins = round_wins(scores)
            for side in (0, 1):
                mine = np.array(seating) == side
                win[side] += wins[:, mine].sum(axis=1)
                score[side] += scores[:, mine].sum(axis=1)
                seat_count[side] += int(mine.sum())
        win /= len(seats_list)
        mean_score = score / seat_count[:, None]
        for side, s in enumerate((a, b)):
            win_sum[s] += win[side]
            score_sum[s] += mean_score[side]
        pairings.append(PairingResult(
            a, b, n * len(seats_list),
            (Estimate.of(win[0]), Estimate.of(win[1])),
            (Estimate.of(mean_score[0]), Estimate.of(mean_score[1])),
            Estimate.of(mean_score[0] - mean_score[1]), capped))
    seconds = time.perf_counter() - t0
    win_est = [Estimate.of(w / (k - 1)) for w in win_sum]
    score_est = [Estimate.of(s / (k - 1)) for s in score_sum]
    # best first: higher win share, then lower mean score, then the order given
    order = sorted(range(k), key=lambda i: (-win_est[i].mean, score_est[i].mean, i))
    return TournamentResult(rules, players, names, int(seed), rounds, n, seats_list, pairings,
                            win_est, score_est, seconds, order)


# ---- tables --------------------------------------------------------------------------------
def pairing_verdict(share: Estimate, rounds: int) -> stats.Verdict:
    """Is a strategy's share of a pairing's ``rounds`` clearly off even (50%), and if not,
    about how many rounds per pairing would settle it (stats.verdict)."""
    return stats.verdict(share.mean - 0.5, share.se, rounds, stats.RESOLUTION_SHARE)


def verdict_lines(result: TournamentResult) -> list[str]:
    """One line per pairing, the strategy with the larger share named first."""
    lines = []
    for p in result.pairings:
        first = 0 if p.win[0].mean >= p.win[1].mean else 1
        a, b = (p.a, p.b) if first == 0 else (p.b, p.a)
        v = pairing_verdict(p.win[first], p.rounds)
        lines.append(f"{result.strategies[a]} vs {result.strategies[b]}: "
                     f"{v.text(100, ' pp', 2, 'rounds per pairing')}")
    return lines


def _win_interval(e: Estimate) -> tuple[float, float]:
    return max(0.0, e.lo95), min(1.0, e.hi95)


def ranking_frame(result: TournamentResult) -> pl.DataFrame:
    """One row per strategy, best first: win share (mean over its pairings of the share of the
    rounds its seats won) and mean score per seat-round, with 95% intervals."""
    rows = []
    k = len(result.strategies)
    for rank, i in enumerate(result.order, start=1):
        w, s = result.win[i], result.score[i]
        lo, hi = _win_interval(w)
        rows.append({
            "rank": rank, "strategy": result.strategies[i], "pairings": k - 1,
            "rounds": (k - 1) * result.rounds_per_pairing,
            "win_share": w.mean, "se_win": w.se, "win_share_lo95": lo, "win_share_hi95": hi,
            "mean_score": s.mean, "se_score": s.se,
            "mean_score_lo95": s.lo95, "mean_score_hi95": s.hi95,
        })
    return pl.DataFrame(rows, schema={c: _dtype(c) for c in RANKING_COLUMNS})


def head_to_head_frame(result: TournamentResult) -> pl.DataFrame:
    """One row per ordered pair (strategy, opponent), strategies in ranking order: the
    strategy's share of the pairing's rounds (ties split), its and the opponent's mean score
    per seat-round, and the paired score difference (strategy minus opponent)."""
    by_pair = {}
    for p in result.pairings:
        by_pair[(p.a, p.b)] = (p.win[0], p.score[0], p.score[1], p.score_diff, p.rounds)
        by_pair[(p.b, p.a)] = (p.win[1], p.score[1], p.score[0],
                               Estimate(-p.score_diff.mean, p.score_diff.se), p.rounds)
    rows = []
    for i in result.order:
        for j in result.order:
            if i == j:
                continue
            w, s, so, d, n = by_pair[(i, j)]
            lo, hi = _win_interval(w)
            v = pairing_verdict(w, n)
            rows.append({
                "strategy": result.strategies[i], "opponent": result.strategies[j],
                "rounds": n, "win_share": w.mean, "se_win": w.se,
                "win_share_lo95": lo, "win_share_hi95": hi,
                "mean_score": s.mean, "se_score": s.se,
                "mean_score_lo95": s.lo95, "mean_score_hi95": s.hi95,
                "opponent_mean_score": so.mean, "score_diff": d.mean, "se_score_diff": d.se,
                "score_diff_lo95": d.lo95, "score_diff_hi95": d.hi95,
                "verdict": v.kind, "rounds_needed": v.needed,
            })
    return pl.DataFrame(rows, schema={c: _dtype(c) for c in HEAD_TO_HEAD_COLUMNS})


def _dtype(column: str):
    if column in ("strategy", "opponent", "verdict"):
        return pl.String
    if column in ("rank", "pairings", "rounds", "rounds_needed"):
        return pl.Int64
    return pl.Float64


def metadata(result: TournamentResult, preset: str, command: str,
             rules_file: str | None = None) -> dict[str, str]:
    """Everything needed to reproduce the tournament, as Parquet key-value metadata. Nothing
    here depends on the thread count (the results do not either)."""
    return {
        **rules_metadata("a golfsim tournament (ranking.parquet: one row per strategy; "
                         "head_to_head.parquet: one row per ordered pair of strategies)",
                         result.rules, preset, command, rules_file),
        "players": str(result.players),
        "strategies": json.dumps(result.strategies),
        "seed": str(result.seed),
        "rounds_requested": str(result.rounds_requested),
        "rounds_per_pairing": str(result.rounds_per_pairing),
        "rounds_per_seating": str(result.rounds_per_seating),
        "seatings": json.dumps([seating_text(s) for s in result.seatings]),
        "title": title(result, preset),
        "warnings": json.dumps(warnings(result)),
        "complete": "true",
    }


def warnings(result: TournamentResult) -> list[str]:
    """A warning for every pairing in which more than 1% of the rounds hit the turn cap
    (report.capped_warning)."""
    out = []
    for p in result.pairings:
        a, b = result.strategies[p.a], result.strategies[p.b]
        w = report.capped_warning(p.capped, p.rounds, result.rules, [a, b], f" of {a} vs {b}")
        if w:
            out.append(w)
    return out


def title(result: TournamentResult, preset: str) -> str:
    return report.title(result.rules, preset,
                        f"{result.players} players, {result.rounds_per_pairing:,} rounds per "
                        f"pairing, seed {result.seed}")


# ---- text ----------------------------------------------------------------------------------
def format_tournament(result: TournamentResult, preset: str, threads: int) -> str:
    """The ranking table and the head-to-head matrix, intervals as ± half-widths."""
    k = len(result.strategies)
    n_pair = len(result.pairings)
    total = n_pair * result.rounds_per_pairing
    rate = total / result.seconds if result.seconds > 0 else float("nan")
    lines = [
        f"rules: {describe(result.rules, preset)}",
        f"{result.players} players, {k} strategies, {n_pair} pairing(s) x "
        f"{len(result.seatings)} seatings ({', '.join(map(seating_text, result.seatings))}) x "
        f"{result.rounds_per_seating:,} rounds, seed {result.seed}",
        f"{total:,} rounds in {result.seconds:.2f} s on {report.ran_on(threads)} "
        f"({rate:,.0f} rounds/s); every seating and pairing replays the same deals",
        "",
        "ranking (win share: share of a pairing's rounds won by the strategy's seats, ties "
        "split, averaged over its pairings; 50% = even)",
    ]
    header = ("rank", "strategy", "win share", "±95%", "mean score", "±95%")
    rows = [(str(r + 1), result.strategies[i], f"{100 * result.win[i].mean:.2f}%",
             f"{100 * Z95 * result.win[i].se:.2f}%", f"{result.score[i].mean:.3f}",
             f"{Z95 * result.score[i].se:.3f}") for r, i in enumerate(result.order)]
    lines += text_table(header, rows, left={1})
    lines += ["", "head-to-head (row strategy's share of the pairing's rounds, ±95%)"]
    h, se = result.head_to_head()
    names = [result.strategies[i] for i in result.order]
    rows = []
    for i in result.order:
        cells = [result.strategies[i]]
        for j in result.order:
            cells.append("-" if i == j else
                         f"{100 * h[i, j]:.2f}% ± {100 * Z95 * se[i, j]:.2f}%")
        rows.append(tuple(cells))
    lines += text_table(("", *names), rows, left={0})
    lines += ["", "verdicts: is the first strategy's share of each pairing's rounds clearly off "
              "even (50%), and if not, about how many rounds per pairing would settle it (to "
              f"within its own size, or {100 * stats.RESOLUTION_SHARE:g} pp when nearer even)"]
    lines += [f"  {line}" for line in verdict_lines(result)]
    return "\n".join(lines)



__all__ = ["Estimate", "PairingResult", "TournamentError", "TournamentResult",
           "StrategyError", "format_tournament", "head_to_head_frame", "metadata", "play",
           "title", "verdict_lines", "pairing_verdict", "warnings",
           "ranking_frame", "resolve_strategies", "round_wins", "seating_text", "seatings"]
