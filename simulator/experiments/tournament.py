"""Tournaments: every pair of strategies plays at one table with the seats rotated, so no
strategy gains from where it sits; a rating, a ranking consistent with the head-to-head
results and the head-to-head matrix come out.

A pairing {A, B} seats A and B alternately (A B A B ...) in every cyclic rotation of that
pattern; with an odd number of players the pattern's extra seat goes to A in half of the
seatings and to B in the other half. Across a pairing's seatings each strategy then holds every
seat equally often and half of all seats.

Every seating of every pairing plays rounds 0 .. n-1 of the same seed, so the same deals come
back under every seating (common random numbers). The statistics therefore take one
observation per round index: a strategy's value averaged over its seats and the seatings (and,
for the overall figures, over its pairings). Those observations are independent across round
indices, and the standard errors come from their spread.

**Rating.** A Bradley-Terry model fitted on the pairings: strategy i's share of a pairing
{i, j} is expected to be 1 / (1 + exp(θj - θi)); θ is the maximum-likelihood fit taking each
pairing as its rounds' worth of games (its share of them won, and half a game added to each
side, so that a pairing won every time still has a finite rating), scaled to Elo points
(400 / ln 10 per unit of log-odds: +100 is a 64% share against a strategy rated 0) with the
mean rating 0. Its standard errors come from the same rounds: the sandwich (delta-method)
covariance J⁺ Dᵀ Σ D J⁺, where J = Dᵀ W D is the Fisher information of the fit, D the
pairings' design (+1 for the first strategy, -1 for the second) and Σ the covariance of the
pairings' shares estimated from the per-round shares, which the common deals make correlated
across pairings.

**Ranking.** No strategy is ranked below one it beats clearly head to head (its share of their
pairing's rounds has a 95% interval above 50%, ``pairing_verdict``): the ranking is the order
of the clear head-to-head results, with the rating deciding between strategies that no clear
result orders. When the clear results go round in a cycle (A beats B beats C beats A) no order
agrees with all of them: the strategies of the cycle are ranked by rating and the cycle is
named (``disagreements``), as is every pair of strategies whose average win share (over their
pairings) or rating orders them the other way round.

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
from scipy.special import expit

from strategies import (Strategy, StrategyError, check_labels, resolve, seat_arrays,
                        user_policy)

from . import cluster, report, runner, stats
from .report import Z95, rules_metadata, text_table
from ..game.rules import Rules, describe

MIN_CHUNK = 1024

ELO = 400 / math.log(10)   # rating points per unit of log-odds (the Elo scale)
PSEUDO_GAMES = 0.5         # added to each side of every pairing when the rating is fitted

RANKING_COLUMNS = (
    "rank", "strategy", "pairings", "rounds",
    "rating", "se_rating", "rating_lo95", "rating_hi95",
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
        first.setdefault(s.key, s.spec)
    if len(first) < 2:
        given = " ".join(f"--strategy {s}" for s in specs) or "none"
        raise TournamentError(f"a tournament needs at least 2 different strategies (got "
                              f"{given}); give --strategy once per strategy, e.g. "
                              "--strategy greedy --strategy random")
    if len(first) < len(resolved):
        seen = set()
        for s in resolved:
            if s.key in seen:
                raise TournamentError(f"--strategy {s.spec}: the same strategy as --strategy "
                                      f"{first[s.key]}; give each strategy once")
            seen.add(s.key)
    check_labels(resolved)
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
    # a's share of every round index, averaged over the seatings (the rating's covariance)
    shares: np.ndarray | None = field(default=None, repr=False)


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
    rating: list[Estimate] = field(default_factory=list)   # per strategy, Elo scale
    specs: list[str] = field(default_factory=list)   # the strategies as given
    build: str = ""                  # the builds that played it (runner.builds_text)

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
    names = [s.label for s in resolved]
    win_sum = [np.zeros(n) for _ in range(k)]       # per strategy, summed over its pairings
    score_sum = [np.zeros(n) for _ in range(k)]
    pairings, builds = [], []
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
                             strategies=[s.label for s in seat_strategies], user=user,
                             executor=cluster.executor())
            if not res.complete:
                if res.error.startswith("interrupted"):
                    raise KeyboardInterrupt
                raise runner.PolicyError(f"{names[a]} vs {names[b]}, seating "
                                         f"{seating_text(seating)}: {res.error}")
            capped += res.totals.capped
            builds.append(res.build)
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
            Estimate.of(mean_score[0] - mean_score[1]), capped, win[0]))
    seconds = time.perf_counter() - t0
    win_est = [Estimate.of(w / (k - 1)) for w in win_sum]
    score_est = [Estimate.of(s / (k - 1)) for s in score_sum]
    rating = bradley_terry(k, pairings)
    return TournamentResult(rules, players, names, int(seed), rounds, n, seats_list, pairings,
                            win_est, score_est, seconds, ranking(k, pairings, rating), rating,
                            [s.spec for s in resolved], runner.builds_text(builds))


# ---- rating and ranking ----------------------------------------------------------------------
def _design(k: int, pairings: list[PairingResult]) -> np.ndarray:
    """A row per pairing: +1 for its first strategy, -1 for its second."""
    d = np.zeros((len(pairings), k))
    for row, p in enumerate(pairings):
        d[row, p.a], d[row, p.b] = 1.0, -1.0
    return d


def _log_likelihood(d: np.ndarray, games: np.ndarray, won: np.ndarray,
                    theta: np.ndarray) -> float:
    x = d @ theta
    return float(np.sum(games * (-won * np.logaddexp(0, -x) - (1 - won) * np.logaddexp(0, x))))


def _fit(d: np.ndarray, games: np.ndarray, won: np.ndarray) -> np.ndarray:
    """The Bradley-Terry log-odds (mean 0) maximising the likelihood of ``won`` (per pairing,
    the first strategy's share of ``games``): Newton's steps, halved while they lower it."""
    theta = np.zeros(d.shape[1])
    for _ in range(200):
        p = expit(d @ theta)
        info = d.T @ (d * (games * p * (1 - p))[:, None])
        step = np.linalg.pinv(info) @ (d.T @ (games * (won - p)))
        base = _log_likelihood(d, games, won, theta)
        while _log_likelihood(d, games, won, theta + step) < base and \
                np.abs(step).max() > 1e-12:
            step = step / 2
        theta = theta + step
        theta -= theta.mean()
        if np.abs(step).max() < 1e-10:
            break
    return theta


def share_covariance(pairings: list[PairingResult]) -> np.ndarray:
    """The covariance of the pairings' shares (first strategy), estimated from their shares
    round by round: every pairing plays the same deals, so they are correlated. Without the
    rounds (results built from summaries), their standard errors alone."""
    if all(p.shares is not None for p in pairings) and pairings[0].shares.size > 1:
        x = np.column_stack([p.shares for p in pairings])
        return np.atleast_2d(np.cov(x, rowvar=False)) / x.shape[0]
    return np.diag([p.win[0].se ** 2 for p in pairings])


def bradley_terry(k: int, pairings: list[PairingResult]) -> list[Estimate]:
    """Each strategy's Bradley-Terry rating on the Elo scale (mean 0) with its standard
    error from the sandwich covariance (module docstring)."""
    d = _design(k, pairings)
    rounds = np.array([p.rounds for p in pairings], dtype=float)
    games = rounds + 2 * PSEUDO_GAMES
    won = (rounds * np.array([p.win[0].mean for p in pairings]) + PSEUDO_GAMES) / games
    theta = _fit(d, games, won)
    p = expit(d @ theta)
    info = d.T @ (d * (games * p * (1 - p))[:, None])
    gain = np.linalg.pinv(info) @ (d.T * rounds)        # how theta moves with the shares
    cov = gain @ share_covariance(pairings) @ gain.T
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return [Estimate(float(ELO * t), float(ELO * e)) for t, e in zip(theta, se)]


def clear_wins(pairings: list[PairingResult]) -> dict[tuple[int, int], PairingResult]:
    """(winner, loser): the pairings whose share is clearly off even (``pairing_verdict``)."""
    out = {}
    for p in pairings:
        if pairing_verdict(p.win[0], p.rounds).clear:
            out[(p.a, p.b) if p.win[0].mean > 0.5 else (p.b, p.a)] = p
    return out


def _reach(k: int, wins) -> np.ndarray:
    """reach[i, j]: a chain of clear wins leads from i to j."""
    reach = np.zeros((k, k), dtype=bool)
    for a, b in wins:
        reach[a, b] = True
    for m in range(k):
        reach |= reach[:, [m]] & reach[[m], :]
    return reach


def ranking(k: int, pairings: list[PairingResult], rating: list[Estimate]) -> list[int]:
    """Strategy indices, best first: every clear head-to-head result is kept (the winner
    above the loser) wherever they do not go round in a cycle; the strategies of a cycle stay
    together, and the rating decides whatever the clear results leave open."""
    reach = _reach(k, clear_wins(pairings))
    group = [frozenset([i] + [j for j in range(k) if reach[i, j] and reach[j, i]])
             for i in range(k)]
    by_rating = sorted(range(k), key=lambda i: (-rating[i].mean, i))
    order: list[int] = []
    while len(order) < k:
        # the best-rated strategy whose group nobody outside it beats, among those left
        i = next(i for i in by_rating if i not in order and
                 not any(reach[j, i] for j in range(k) if j not in order and j not in group[i]))
        order += [j for j in by_rating if j in group[i]]
    return order


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


def _share_text(p: PairingResult, winner: int) -> str:
    """The winner's share of the pairing with its 95% half-width, in percent."""
    e = p.win[0] if winner == p.a else p.win[1]
    return f"{100 * e.mean:.2f}% ± {100 * Z95 * e.se:.2f}"


def _cycle(start: int, wins) -> list[int]:
    """A shortest chain of clear wins from ``start`` back to itself."""
    paths = [[start]]
    while paths:
        path = paths.pop(0)
        for a, b in wins:
            if a == path[-1] and b == start:
                return path + [start]
            if a == path[-1] and b not in path:
                paths.append(path + [b])
    return []


def _why(result: TournamentResult, first: int, second: int, wins, reach) -> str:
    """Why the ranking puts ``first`` above ``second``."""
    names = result.strategies
    pair = next(p for p in result.pairings if {p.a, p.b} == {first, second})
    if (first, second) in wins:
        return (f"{names[first]} beats {names[second]} head to head "
                f"({_share_text(pair, first)}, clear)")
    if reach[first, second]:
        return (f"{names[first]} beats {names[second]} through clear head-to-head results "
                f"(their own pairing: {_share_text(pair, first)})")
    r = result.rating
    return (f"{names[first]} is rated higher ({r[first].mean:+.1f} vs {r[second].mean:+.1f}) "
            f"and their head-to-head is not clear ({_share_text(pair, first)})")


def disagreements(result: TournamentResult) -> list[str]:
    """A line for every cycle of clear head-to-head results, and for every pair of strategies
    that the average win share or the rating orders the other way round from the ranking
    (saying what the ranking follows)."""
    names, k = result.strategies, len(result.strategies)
    wins = clear_wins(result.pairings)
    reach = _reach(k, wins)
    lines = []
    seen: set[frozenset] = set()
    for i in result.order:
        members = frozenset(j for j in range(k) if reach[i, j] and reach[j, i])
        if members and members not in seen:
            seen.add(members)
            cycle = _cycle(i, [w for w in wins if set(w) <= members])
            beats = ", ".join(
                f"{names[a]} beats {names[b]} "
                f"({_share_text(wins[(a, b)], a)})" for a, b in zip(cycle, cycle[1:]))
            lines.append(f"non-transitive: {beats}, each clear: no ranking agrees with all of "
                         "them; the rating orders them")
    rank = {s: r for r, s in enumerate(result.order)}
    for first in result.order:
        for second in result.order[rank[first] + 1:]:
            if reach[first, second] and reach[second, first]:
                continue   # in a cycle, named above
            for what, e in (("average win share", result.win), ("rating", result.rating)):
                if e[second].mean > e[first].mean:
                    shown = (f"{100 * e[second].mean:.2f}% vs {100 * e[first].mean:.2f}%"
                             if e is result.win else
                             f"{e[second].mean:+.1f} vs {e[first].mean:+.1f}")
                    lines.append(f"the {what} puts {names[second]} above {names[first]} "
                                 f"({shown}), the ranking {names[first]} first: "
                                 f"{_why(result, first, second, wins, reach)}")
    return lines


def _win_interval(e: Estimate) -> tuple[float, float]:
    return max(0.0, e.lo95), min(1.0, e.hi95)


def ranking_frame(result: TournamentResult) -> pl.DataFrame:
    """One row per strategy, best first (``ranking``): its rating (Elo scale), win share (mean
    over its pairings of the share of the rounds its seats won) and mean score per
    seat-round, with 95% intervals."""
    rows = []
    k = len(result.strategies)
    for rank, i in enumerate(result.order, start=1):
        w, s, r = result.win[i], result.score[i], result.rating[i]
        lo, hi = _win_interval(w)
        rows.append({
            "rank": rank, "strategy": result.strategies[i], "pairings": k - 1,
            "rounds": (k - 1) * result.rounds_per_pairing,
            "rating": r.mean, "se_rating": r.se, "rating_lo95": r.lo95, "rating_hi95": r.hi95,
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
        "build": result.build,
        "strategies": json.dumps(result.specs or result.strategies),
        "seed": str(result.seed),
        "rounds_requested": str(result.rounds_requested),
        "rounds_per_pairing": str(result.rounds_per_pairing),
        "rounds_per_seating": str(result.rounds_per_seating),
        "seatings": json.dumps([seating_text(s) for s in result.seatings]),
        "title": title(result, preset),
        "warnings": json.dumps(warnings(result)),
        "rating": "Bradley-Terry on the pairings' shares, Elo scale (400/ln 10 per log-odds), "
                  "mean 0; sandwich standard errors from the per-round shares",
        "ranking": "no strategy below one it beats clearly head to head, else by rating",
        "disagreements": json.dumps(disagreements(result)),
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
RANKING_HEADING = ("ranking (no strategy below one it beats clearly head to head, else by "
                   "rating: Bradley-Terry on the pairings, Elo scale, +100 = a 64% share "
                   "against one rated 0; win share: share of a pairing's rounds won by the "
                   "strategy's seats, ties split, averaged over its pairings, 50% = even)")


def ranking_lines(result: TournamentResult) -> list[str]:
    """The ranking table: rank, strategy, rating, win share and mean score with ±95%."""
    header = ("rank", "strategy", "rating", "±95%", "win share", "±95%", "mean score", "±95%")
    rows = []
    for r, i in enumerate(result.order):
        w, s, e = result.win[i], result.score[i], result.rating[i]
        rows.append((str(r + 1), result.strategies[i], f"{e.mean:+.1f}", f"{Z95 * e.se:.1f}",
                     f"{100 * w.mean:.2f}%", f"{100 * Z95 * w.se:.2f}%", f"{s.mean:.3f}",
                     f"{Z95 * s.se:.3f}"))
    return [RANKING_HEADING, *text_table(header, rows, left={1})]


def matrix_lines(result: TournamentResult) -> list[str]:
    """The head-to-head matrix in ranking order; a cell below the diagonal that is clearly
    above 50% (a strategy clearly beating one ranked above it: a cycle) is marked *."""
    h, se = result.head_to_head()
    wins = clear_wins(result.pairings)
    rank = {s: r for r, s in enumerate(result.order)}
    rows = []
    for i in result.order:
        cells = [result.strategies[i]]
        for j in result.order:
            upset = (i, j) in wins and rank[i] > rank[j]
            cells.append("-" if i == j else
                         f"{100 * h[i, j]:.2f}% ± {100 * Z95 * se[i, j]:.2f}%" +
                         ("*" if upset else ""))
        rows.append(tuple(cells))
    names = [result.strategies[i] for i in result.order]
    lines = ["head-to-head (row strategy's share of the pairing's rounds, ±95%)"]
    lines += text_table(("", *names), rows, left={0})
    if any(cell.endswith("*") for row in rows for cell in row):
        lines.append("* beats a strategy ranked above it (clear): the results go round in a "
                     "cycle")
    return lines


def format_tournament(result: TournamentResult, preset: str, threads: int) -> str:
    """The ranking, the head-to-head matrix, a verdict per pairing and a line for every
    disagreement between the ranking, the average win share and the rating."""
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
        *ranking_lines(result), "", *matrix_lines(result),
        "", "verdicts: is the first strategy's share of each pairing's rounds clearly off "
            "even (50%), and if not, about how many rounds per pairing would settle it (to "
            f"within its own size, or {100 * stats.RESOLUTION_SHARE:g} pp when nearer even)",
    ]
    lines += [f"  {line}" for line in verdict_lines(result)]
    notes = disagreements(result)
    if notes:
        lines += ["", "where the ranking, the head-to-heads, the average win share and the "
                      "rating disagree:"]
        lines += [f"  {line}" for line in notes]
    return "\n".join(lines)


__all__ = ["ELO", "bradley_terry", "clear_wins", "disagreements", "ranking", "share_covariance",
           "Estimate", "PairingResult", "TournamentError", "TournamentResult",
           "StrategyError", "format_tournament", "head_to_head_frame", "metadata", "play",
           "title", "verdict_lines", "pairing_verdict", "warnings",
           "ranking_frame", "resolve_strategies", "round_wins", "seating_text", "seatings"]
