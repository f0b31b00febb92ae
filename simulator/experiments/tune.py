"""Tuning: find the best value of a strategy's numeric parameters against a stated field of
opponents, spending rounds where they matter.

The candidates are the Cartesian product of the value lists of the tuned parameters
(``--param T=4..20 --param decay=0,0.1,0.2``). A candidate's objective on one deal (round
index) is the tuned strategy's win share (a k-way tie for the lowest score counts 1/k), or
its hole score, averaged over ``players`` seatings: the tuned strategy takes every seat in
turn, with the opponents in the same order after it, so position does not masquerade as
skill.

**Search: successive halving on shards of deals.** Every candidate plays the first shard
(deals 0 .. n1-1 of the seed); the better half by mean objective (rounded up) is kept and
plays the next shard (the following deals), and so on until one candidate remains. Each stage
spends about the same share of the budget, so the rounds per candidate roughly double from
stage to stage. The schedule depends only on the number of candidates and the budget
(``schedule``). The candidates of a stage have always played exactly the same deals, so every
comparison is paired (common random numbers). Because the best candidate survived every
stage, it has played all the deals any other candidate played, and it was ranked at least as
high as that candidate on exactly those deals.

**Report.** Each candidate's objective on the deals it played, with a 95% interval; its paired
difference to the best on those deals (candidate minus best), with a 95% interval; and a
two-sided paired test of "no difference" for each candidate against the best, Holm-corrected
over all of them (familywise error 5%). Candidates whose test is not rejected are
*indistinguishable from the best*. The best was chosen on the same data, so the difference
of the runner-up tends to look a little smaller than it is; the correction and the two-sided
tests lean the other way (towards a larger set).

The search itself (``successive_halving``) only needs a callback ``evaluate(candidate,
round_start, round_count)`` returning per-deal observations, so it can be tested on a
synthetic objective with a planted optimum (tests/test_tune.py).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from strategies import (STRATEGIES, Strategy, StrategyError, label_of, resolve, seat_arrays,
                        user_policy)

from . import cluster, runner, stats
from . import report
from .report import rules_metadata, save_npy_atomic, text_table
from ..game.rules import Rules, describe, flatten
from .shards import ShardError, ShardStore
from .tournament import round_wins

ALPHA = stats.ALPHA    # familywise error of the "indistinguishable from the best" tests
MIN_DEALS = 100        # fewest deals a candidate may play in the first stage (the CLI's floor)
MAX_CANDIDATES = 10_000
OBJECTIVES = {          # name: (observation column, higher is better)
    "win_share": (0, True),
    "mean_score": (1, False),
}
RESOLUTION = {"win_share": stats.RESOLUTION_SHARE, "mean_score": stats.RESOLUTION_POINTS}
SHOWN_VERDICTS = 8      # verdict lines printed; every candidate's is in tune.parquet


class TuneError(ValueError):
    """A tuning request that cannot be carried out (bad --param, too small a budget, ...)."""


# ---- parameters and candidates -------------------------------------------------------------
@dataclass(frozen=True)
class ParamValues:
    name: str
    values: tuple[float, ...]
    text: str                       # as given, for messages and the printed header


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RANGE = re.compile(rf"^({_NUMBER})\.\.({_NUMBER})(?::({_NUMBER}))?$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_param(text: str) -> ParamValues:
    """``NAME=LO..HI`` (step 1, both ends included), ``NAME=LO..HI:STEP`` or
    ``NAME=V1,V2,...``; the values come back sorted, without repeats."""
    name, eq, spec = (s.strip() for s in text.partition("="))
    form = "NAME=LO..HI, NAME=LO..HI:STEP or NAME=V1,V2,..., e.g. T=4..20"
    if not eq or not name or not spec:
        raise TuneError(f"--param {text!r}: expected {form}")
    if not _NAME.match(name):
        raise TuneError(f"--param {text!r}: {name!r} is not a parameter name; expected {form}")
    m = _RANGE.match(spec.replace(" ", ""))
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        step = float(m.group(3)) if m.group(3) else 1.0
        if step <= 0:
            raise TuneError(f"--param {text!r}: the step must be above 0")
        if hi < lo:
            raise TuneError(f"--param {text!r}: the range is empty ({m.group(2)} is below "
                            f"{m.group(1)}); write LO..HI with LO <= HI")
        count = math.floor((hi - lo) / step + 1e-9) + 1
        if count > MAX_CANDIDATES:
            raise TuneError(f"--param {text!r}: {count:,} values; at most {MAX_CANDIDATES:,}")
        values = [round(lo + i * step, 12) for i in range(count)]
    else:
        values = [_list_value(text, item.strip(), form) for item in spec.split(",")]
    return ParamValues(name, tuple(sorted(set(values))), text)


def _list_value(text: str, item: str, form: str) -> float:
    """One value of ``--param`` ``text`` (NAME=V1,V2,..., ``form``): a finite number."""
    try:
        v = float(item)
    except ValueError:
        v = None
    if v is None or not math.isfinite(v):
        what = f"not a number; expected {form}" if v is None else "not a finite number"
        raise TuneError(f"--param {text!r}: {item!r} is {what}")
    return v


def number_text(v: float) -> str:
    """4.0 -> '4', 0.5 -> '0.5' (exact: the text reads back as the same float)."""
    v = float(v)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)


def _spec_parts(spec: str) -> tuple[str, list[str]]:
    """``knock-threshold:T=8`` -> ('knock-threshold', ['T=8']); ``f.py:fn:a=1`` ->
    ('f.py:fn', ['a=1'])."""
    spec = spec.strip()
    if ".py:" in spec:
        path, _, rest = spec.partition(".py:")
        function, _, args = rest.partition(":")
        head = f"{path}.py:{function}"
    else:
        head, _, args = spec.partition(":")
    return head, [a.strip() for a in args.split(",") if a.strip()]


def with_params(spec: str, assignment: dict[str, float]) -> str:
    """The strategy spec with the tuned parameters added: ``knock-threshold`` + {T: 9} ->
    ``knock-threshold:T=9``."""
    head, args = _spec_parts(spec)
    args = args + [f"{k}={number_text(v)}" for k, v in assignment.items()]
    return head + (":" + ",".join(args) if args else "")


def declared_parameters(strategy: Strategy) -> tuple[str, ...]:
    """Names of the strategy's numeric parameters."""
    if strategy.user is not None:
        from ..kernel.policy_api import load_function
        _, declared = load_function(*strategy.user)
        return tuple(p[0] for p in declared)
    for info in STRATEGIES.values():
        if info.policy_id == strategy.policy_id:
            return tuple(p.name for p in info.params)
    return ()


@dataclass(frozen=True)
class Candidate:
    values: tuple[float, ...]       # one per tuned parameter, in --param order
    strategy: Strategy

    @property
    def spec(self) -> str:
        return self.strategy.spec


def candidates(strategy_spec: str, params: list[ParamValues]) -> list[Candidate]:
    """Every combination of the parameter values, the last parameter varying fastest."""
    base = resolve(strategy_spec)
    declared = declared_parameters(base)
    seen = set()
    head, fixed = _spec_parts(strategy_spec)
    fixed_names = {a.partition("=")[0].strip() for a in fixed}
    for p in params:
        if p.name in seen:
            raise TuneError(f"--param {p.text!r}: {p.name} is tuned twice; give each "
                            "parameter once")
        seen.add(p.name)
        if p.name not in declared:
            has = (f"its parameters: {', '.join(declared)}" if declared
                   else "it has no numeric parameters")
            raise TuneError(f"--param {p.text!r}: strategy {head} has no parameter {p.name} "
                            f"({has})")
        if p.name in fixed_names:
            raise TuneError(f"--param {p.text!r}: --strategy {strategy_spec} already sets "
                            f"{p.name}; tune it or fix it, not both")
    if not params:
        raise TuneError("give at least one --param NAME=VALUES, e.g. --param T=4..20")
    count = math.prod(len(p.values) for p in params)
    if count > MAX_CANDIDATES:
        raise TuneError(f"{count:,} candidates (the product of the --param value counts); at "
                        f"most {MAX_CANDIDATES:,}")
    out = []
    for combo in itertools.product(*(p.values for p in params)):
        spec = with_params(strategy_spec, dict(zip((p.name for p in params), combo)))
        out.append(Candidate(tuple(combo), resolve(spec)))
    return out


def opponent_seats(specs: list[str], players: int) -> list[Strategy]:
    """One opponent spec for every other seat, or one per opponent seat: the i-th sits i
    seats after the tuned strategy."""
    if players < 2:
        raise TuneError(f"--players {players}: tuning needs at least 2 players")
    if not specs:
        raise TuneError("give the field: --opponent SPEC (once for every other seat, or once "
                        "per opponent seat)")
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise TuneError(f"--opponent was given {len(specs)} times for {players - 1} opponent "
                        "seats: give it once (every opponent) or once per opponent seat")
    return [resolve(s) for s in specs]


def rotations(players: int) -> list[list[int]]:
    """Per seating, per seat: -1 for the tuned strategy, else the opponent's index. Seating r
    puts the tuned strategy in seat r and opponent i in seat r + 1 + i (mod players)."""
    out = []
    for r in range(players):
        seats = [0] * players
        seats[r] = -1
        for i in range(players - 1):
            seats[(r + 1 + i) % players] = i
        out.append(seats)
    return out


# ---- the search (independent of the engine) -----------------------------------------------
@dataclass(frozen=True)
class Stage:
    survivors: int       # candidates playing this stage
    deals: int           # new deals each of them plays
    start: int           # first deal index of the stage's shard
    keep: int            # candidates kept after it


def schedule(n_candidates: int, budget: int) -> list[Stage]:
    """Successive halving of ``n_candidates`` on ``budget`` candidate-deals: ceil(log2 K)
    stages of about budget / stages candidate-deals each, keeping half (rounded up) after each
    stage and one after the last. Deal counts are whole; the last stage takes what is left."""
    if n_candidates < 1:
        raise TuneError("no candidates to tune")
    stages = max(1, math.ceil(math.log2(n_candidates)))
    per_stage = budget // stages
    out, alive, start, spent = [], n_candidates, 0, 0
    for s in range(stages):
        last = s == stages - 1
        deals = ((budget - spent) if last else per_stage) // alive
        keep = 1 if last else max(2, math.ceil(alive / 2))
        out.append(Stage(alive, deals, start, keep))
        spent += deals * alive
        start += deals
        alive = keep
    return out


@dataclass
class Search:
    """What successive halving played: per candidate the observations of the deals
    0 .. deals[c]-1 (shape (deals, columns)), the stage after which it was dropped (None for
    the best), and the best candidate."""
    stages: list[Stage]
    obs: list[np.ndarray]
    dropped_after: list[int | None]
    best: int
    column: int
    maximize: bool

    @property
    def deals(self) -> np.ndarray:
        return np.array([o.shape[0] for o in self.obs], dtype=np.int64)


def _ranked(means: dict[int, float], maximize: bool) -> list[int]:
    """Candidates best first; ties to the lower index (the earlier grid point)."""
    return sorted(means, key=lambda c: (-means[c] if maximize else means[c], c))


def successive_halving(n_candidates: int, evaluate, budget: int, *, column: int = 0,
                       maximize: bool = True, min_deals: int = 1) -> Search:
    """Run the halving ``schedule``; ``evaluate(candidate, round_start, round_count)``
    returns that candidate's observations of deals round_start .. round_start+round_count-1,
    shape (round_count,) or (round_count, columns); column ``column`` is the objective
    (higher is better when ``maximize``). Candidates are compared by their mean objective on
    the deals played so far, which are the same deals for all survivors."""
    plan = schedule(n_candidates, budget)
    if plan[0].deals < max(1, min_deals):
        raise TuneError(f"a budget of {budget:,} deals gives each of the {n_candidates} "
                        f"candidates {plan[0].deals} deal(s) in the first of {len(plan)} "
                        f"stages; at least {max(1, min_deals)} are needed, so give at least "
                        f"{minimum_budget(n_candidates, min_deals):,}")
    parts: list[list[np.ndarray]] = [[] for _ in range(n_candidates)]
    sums = np.zeros(n_candidates)
    dropped: list[int | None] = [None] * n_candidates
    alive = list(range(n_candidates))
    for s, st in enumerate(plan):
        for c in alive:
            if st.deals == 0:
                continue
            o = np.asarray(evaluate(c, st.start, st.deals), dtype=np.float64)
            o = o.reshape(st.deals, -1)
            parts[c].append(o)
            sums[c] += o[:, column].sum()
        played = st.start + st.deals
        means = {c: sums[c] / max(played, 1) for c in alive}
        alive = sorted(_ranked(means, maximize)[:st.keep])
        for c in means:
            if c not in alive:
                dropped[c] = s + 1
    (best,) = alive
    dropped[best] = None
    width = max((p[0].shape[1] for p in parts if p), default=1)
    obs = [np.concatenate(p) if p else np.zeros((0, width)) for p in parts]
    return Search(plan, obs, dropped, best, column, maximize)


def minimum_budget(n_candidates: int, min_deals: int) -> int:
    """The smallest budget (candidate-deals) whose first stage gives every candidate
    ``min_deals`` deals."""
    stages = max(1, math.ceil(math.log2(n_candidates)))
    budget = stages * n_candidates * min_deals
    while schedule(n_candidates, budget)[0].deals < min_deals:   # rounding: step up
        budget += 1
    return budget


# ---- statistics ----------------------------------------------------------------------------
holm = stats.holm


def paired_p(diff: stats.Interval, n) -> np.ndarray:
    """Two-sided p-values of "mean difference 0" of paired differences (stats.paired_p)."""
    return stats.paired_p(diff.mean, diff.se, n)


@dataclass
class Comparison:
    """Per candidate (rows) and observation column: the mean on the deals it played and the
    paired difference candidate minus best on those deals, as stats.Interval arrays of shape
    (candidates, columns); the two-sided p-value of the objective's difference and its Holm
    adjustment over all candidates but the best; and each candidate's verdict on that
    difference (stats.holm_verdicts; None for the best). The verdicts are the one decision
    behind every claim: the table's marks, the verdict lines and the candidates
    ``indistinguishable`` from the best (not clear; the best itself included)."""
    estimate: stats.Interval
    diff: stats.Interval
    p: np.ndarray
    p_holm: np.ndarray
    verdicts: list

    @property
    def indistinguishable(self) -> np.ndarray:
        return np.array([v is None or not v.clear for v in self.verdicts])

    def half_width(self, c: int) -> float:
        """The half-width of the interval that decides candidate ``c`` (0 for the best)."""
        v = self.verdicts[c]
        return 0.0 if v is None else v.half_width


def compare_to_best(search: Search, alpha: float = ALPHA,
                    resolution: float = stats.RESOLUTION_SHARE) -> Comparison:
    best = search.obs[search.best]
    n = search.deals.astype(float)[:, None]
    total = np.array([o.sum(axis=0) for o in search.obs])
    total_sq = np.array([(o * o).sum(axis=0) for o in search.obs])
    # the best has played every deal any other candidate played
    diffs = [o - best[:o.shape[0]] for o in search.obs]
    d_sum = np.array([d.sum(axis=0) for d in diffs])
    d_sq = np.array([(d * d).sum(axis=0) for d in diffs])
    estimate = stats.mean_interval(total, total_sq, n)
    diff = stats.paired_interval(d_sum, d_sq, n)
    col = search.column
    p = stats.paired_p(diff.mean[:, col], diff.se[:, col], n[:, 0])
    p[search.best] = np.nan
    judged = stats.holm_verdicts(diff.mean[:, col], diff.se[:, col], n[:, 0], resolution,
                                 alpha, exclude=search.best)
    return Comparison(estimate, diff, p, stats.holm(p), judged)


# ---- playing the candidates ----------------------------------------------------------------
class TableObjective:
    """``evaluate(c, start, count)`` for the real game: candidate ``c`` plays deals start ..
    start+count-1 in every seating of ``rotations(players)``; returns (count, 2): the tuned
    seat's win share (ties split) and its hole score, each averaged over the seatings.

    Chunks go to a thread pool; every deal's result lands at its own index for its seating,
    and the seatings are added in their order at the end, so the numbers do not depend on the
    thread count or on the order in which the chunks finish (float sums of shares such as
    1/3 do: (1 + 1/3) + 1 is not (1 + 1) + 1/3)."""

    MIN_CHUNK = 256

    def __init__(self, rules: Rules, players: int, grid: list[Candidate],
                 opponents: list[Strategy], seed: int, threads: int = 1, user=None,
                 progress=None):
        self.rules, self.players, self.grid = rules, players, grid
        self.opponents, self.seed, self.threads = opponents, int(seed), max(1, threads)
        self.user, self.progress = user, progress
        self.seatings = rotations(players)
        self._local = threading.local()
        self._pool: ThreadPoolExecutor | None = None
        self.rounds_played = 0
        self.capped: dict[int, list[int]] = {}   # candidate: [rounds at the turn cap, rounds]
        self._lock = threading.Lock()

    def __enter__(self):
        self._pool = ThreadPoolExecutor(max_workers=self._pool_size())
        return self

    def _pool_size(self) -> int:
        """Threads of the local pool: with --cluster they only wait for the cluster's tasks,
        twice as many as it has threads (cluster.py)."""
        remote = cluster.active()
        return self.threads if remote is None else 2 * remote.threads()

    def _play(self, job, q: int, c: int, a: int, n: int):
        """(Totals, scores) of rounds [a, a + n) of seating ``q``: here or on the cluster."""
        if cluster.active() is None:
            t, (scores, _, _), _ = runner.play_chunk(job, a, n, self._state(job),
                                                     per_round=True)
            return t, scores
        ids, params = seat_arrays(self.seat_strategies(c, self.seatings[q]))
        spec = cluster.job_spec(self.rules, self.players, ids, params, self.seed, False,
                                "auto", self.user)
        t, _, scores, _ = cluster.run_chunk(spec, a, n, True)
        return t, scores

    def __exit__(self, *exc):
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None

    def seat_strategies(self, c: int, seating: list[int]) -> list[Strategy]:
        tuned = self.grid[c].strategy
        return [tuned if i < 0 else self.opponents[i] for i in seating]

    def jobs(self, c: int) -> list[runner.Job]:
        out = []
        for seating in self.seatings:
            ids, params = seat_arrays(self.seat_strategies(c, seating))
            out.append(runner.make_job(self.rules, self.players, ids, params, self.seed,
                                       user=self.user))
        return out

    def build(self) -> str:
        """The builds its seatings play on (runner.builds_text); the candidates differ only
        in their parameters, which choose no build."""
        arrays = flatten(self.rules, self.players)
        return runner.builds_text(
            runner.build_of(arrays, seat_arrays(self.seat_strategies(0, s))[0], user=self.user)
            for s in self.seatings)

    def _state(self, job: runner.Job):
        states = getattr(self._local, "states", None)
        if states is None:
            states = self._local.states = {}
        if job.lean not in states:
            states[job.lean] = runner.new_state(job, self.players)
        return states[job.lean]

    def __call__(self, c: int, start: int, count: int) -> np.ndarray:
        k = len(self.seatings)
        win = np.zeros((k, count))
        score = np.zeros((k, count))
        remote = cluster.active()
        threads = self.threads if remote is None else remote.threads()
        chunk = min(runner.DEFAULT_CHUNK,
                    max(self.MIN_CHUNK, -(-count // (2 * threads))))

        def work(q, job, seat, a, n):
            t, scores = self._play(job, q, c, a, n)
            win[q, a - start:a - start + n] = round_wins(scores)[:, seat]
            score[q, a - start:a - start + n] = scores[:, seat]
            with self._lock:
                tally = self.capped.setdefault(c, [0, 0])
                tally[0] += t.capped
                tally[1] += n
            if self.progress is not None:
                self.progress(n)

        tasks = [(q, job, seating.index(-1), a, min(chunk, start + count - a))
                 for q, (job, seating) in enumerate(zip(self.jobs(c), self.seatings))
                 for a in range(start, start + count, chunk)]
        pool = self._pool or ThreadPoolExecutor(max_workers=self._pool_size())
        try:
            runner.wait_all([pool.submit(work, *t) for t in tasks], cluster.cancel)
        finally:
            if self._pool is None:
                pool.shutdown(wait=True)
        self.rounds_played += count * self.players
        # added row by row, in seating order, whatever order the chunks finished in
        return np.column_stack([win.sum(axis=0), score.sum(axis=0)]) / self.players


# ---- the whole tuning run ------------------------------------------------------------------
@dataclass
class TuneResult:
    rules: Rules
    players: int
    strategy: str                   # as given (may fix other parameters)
    params: list[ParamValues]
    opponents: list[str]            # one per opponent seat
    objective: str
    seed: int
    rounds_requested: int
    grid: list[Candidate]
    search: Search
    comparison: Comparison
    rounds: int                     # rounds played (deals x seatings, all candidates)
    seconds: float
    alpha: float = ALPHA
    notes: list[str] = field(default_factory=list)
    # candidate: [rounds at the turn cap, rounds], of the rounds whose count is known (played
    # now, or loaded with its count; evaluations kept by older versions have none)
    capped: dict[int, list[int]] = field(default_factory=dict)
    played_now: int | None = None   # of ``rounds``, those played by this call (None: all)
    build: str = ""                 # the builds that play it (TableObjective.build)

    @property
    def best(self) -> Candidate:
        return self.grid[self.search.best]

    def indistinguishable(self) -> list[Candidate]:
        return [g for g, same in zip(self.grid, self.comparison.indistinguishable) if same]


@dataclass
class Plan:
    """A checked tuning request: nothing has been played yet."""
    rules: Rules
    players: int
    strategy: str
    params: list[ParamValues]
    grid: list[Candidate]
    opponents: list[Strategy]
    objective: str
    rounds: int
    budget_deals: int
    stages: list[Stage]
    user: object

    @property
    def rounds_to_play(self) -> int:
        return sum(s.survivors * s.deals for s in self.stages) * self.players


def plan(rules: Rules, players: int, strategy: str, params: list[str | ParamValues],
         opponents: list[str], rounds: int, objective: str = "win_share",
         min_deals: int = MIN_DEALS) -> Plan:
    """Check everything and lay out the search. Raises TuneError, StrategyError, RuleError."""
    rules.check_players(players)
    if objective not in OBJECTIVES:
        raise TuneError(f"--objective {objective}: expected one of {', '.join(OBJECTIVES)}")
    parsed = [p if isinstance(p, ParamValues) else parse_param(p) for p in params]
    grid = candidates(strategy, parsed)
    opp = opponent_seats(list(opponents), players)
    user = user_policy([g.strategy for g in grid] + opp)
    budget = rounds // players
    stages = schedule(len(grid), budget)
    if stages[0].deals < min_deals:
        need = minimum_budget(len(grid), min_deals) * players
        raise TuneError(f"--rounds {rounds:,}: too few for {len(grid)} candidates x {players} "
                        f"seatings in {len(stages)} halving stages (the first stage would give "
                        f"each candidate {stages[0].deals} deal(s), at least {min_deals} are "
                        f"needed); give --rounds {need:,} or more")
    return Plan(rules, players, strategy, parsed, grid, opp, objective, rounds, budget, stages,
                user)


class Resumable:
    """``evaluate`` with every answer kept on disk (``<out>/shards/eval-*.npy``, written
    atomically), so that a rerun of an interrupted search with the same arguments replays
    nothing it has already played and ends with the identical result."""

    def __init__(self, evaluate, store: ShardStore):
        self.evaluate = evaluate
        self.store = store
        self.loaded = 0
        self.capped: dict[int, list[int]] = {}   # as TableObjective.capped, loaded ones too

    def __call__(self, c: int, start: int, count: int) -> np.ndarray:
        path = self.store.dir / f"eval-{c:05d}-{start}-{count}.npy"
        # beside it, [rounds at the turn cap, rounds], written first: an evaluation is never
        # kept without its count
        capped_path = path.with_name(f"capped-{path.name}")
        if path.exists():
            try:
                o = np.load(path, allow_pickle=False)
                self.loaded += 1
                if capped_path.exists():
                    self._add(c, np.load(capped_path, allow_pickle=False))
                return o
            except Exception:  # noqa: BLE001 - an unreadable file is simply played again
                self.store.notes.append(f"{path.name} is unreadable; playing it again")
        before = np.array(self._played(c))
        o = np.asarray(self.evaluate(c, start, count), dtype=np.float64)
        counts = np.array(self._played(c)) - before
        save_npy_atomic(capped_path, counts)
        save_npy_atomic(path, o)
        self._add(c, counts)
        return o

    def _played(self, c: int) -> list[int]:
        return getattr(self.evaluate, "capped", {}).get(c, [0, 0])

    def _add(self, c: int, counts) -> None:
        tally = self.capped.setdefault(c, [0, 0])
        tally[0] += int(counts[0])
        tally[1] += int(counts[1])


def manifest(p: Plan, seed: int) -> dict:
    """The arguments that fix a search's results (not threads: results do not depend on it)."""
    return {"command": "tune", "rules": p.rules.to_toml(), "players": p.players,
            "strategy": p.strategy, "grid": [c.spec for c in p.grid],
            "opponents": [o.spec for o in p.opponents], "objective": p.objective,
            "rounds": p.rounds, "seed": int(seed)}


def tune(p: Plan, seed: int, threads: int = 1, progress=None,
         min_deals: int = MIN_DEALS, out_dir=None, fresh: bool = False) -> TuneResult:
    """Play the search of a checked ``plan``; with ``out_dir`` every evaluation is kept under
    ``out_dir/shards`` and a rerun resumes (``fresh`` discards what is there). Raises
    runner.PolicyError when a policy makes an illegal move, ShardError when ``out_dir`` holds
    another search, and KeyboardInterrupt when interrupted."""
    column, maximize = OBJECTIVES[p.objective]
    t0 = time.perf_counter()
    with TableObjective(p.rules, p.players, p.grid, p.opponents, seed, threads, p.user,
                        progress) as objective:
        evaluate = counted = objective
        if out_dir is not None:
            store = ShardStore(out_dir)
            if fresh:
                for pattern in ("eval-*.npy", "capped-eval-*.npy"):
                    for old in store.dir.glob(pattern):
                        old.unlink()
            store.open(manifest(p, seed), fresh=fresh)
            evaluate = counted = Resumable(objective, store)
        search = successive_halving(len(p.grid), evaluate, p.budget_deals, column=column,
                                    maximize=maximize, min_deals=min_deals)
    seconds = time.perf_counter() - t0
    # every round of the search, those loaded from an earlier run included (not only those
    # played now: after a resume that undercounted, and a rerun of a finished search said 0)
    rounds = int(search.deals.sum()) * p.players
    return TuneResult(p.rules, p.players, p.strategy, p.params,
                      [o.spec for o in p.opponents], p.objective, int(seed), p.rounds, p.grid,
                      search, compare_to_best(search, resolution=RESOLUTION[p.objective]),
                      rounds, seconds,
                      capped=counted.capped, played_now=objective.rounds_played,
                      notes=list(store.notes) if out_dir is not None else [],
                      build=objective.build())


def warm_up(p: Plan) -> None:
    """Compile (or load) the kernel each seating of the first candidate needs."""
    objective = TableObjective(p.rules, p.players, p.grid, p.opponents, 0, 1, p.user)
    for job in objective.jobs(0):
        try:
            runner.play_chunk(job, 0, 2)
        except runner.PolicyError:
            pass  # the search meets the same error and reports it


# ---- tables --------------------------------------------------------------------------------
def param_column(name: str) -> str:
    return f"param_{name}"


def verdicts(result: TuneResult) -> list[stats.Verdict | None]:
    """Per candidate: is its difference to the best in the objective clear on the deals both
    played (Holm-corrected over all of them, the test that makes it "worse" or "≈ best"), and
    if not, about how many deals would settle it; None for the best."""
    return result.comparison.verdicts


def result_frame(result: TuneResult) -> pl.DataFrame:
    """One row per candidate, in grid order."""
    s, cmp = result.search, result.comparison
    judged = verdicts(result)
    rows = []
    e, d = cmp.estimate, cmp.diff
    for c, cand in enumerate(result.grid):
        obj = d.mean[c, s.column]
        row = {"candidate": c, "strategy": cand.spec}
        row.update({param_column(p.name): v for p, v in zip(result.params, cand.values)})
        row.update({
            "deals": int(s.obs[c].shape[0]), "rounds": int(s.obs[c].shape[0]) * result.players,
            "dropped_after_stage": s.dropped_after[c],
            "win_share": e.mean[c, 0], "se_win": e.se[c, 0],
            "win_share_lo95": max(0.0, e.lo[c, 0]), "win_share_hi95": min(1.0, e.hi[c, 0]),
            "mean_score": e.mean[c, 1], "se_score": e.se[c, 1],
            "mean_score_lo95": e.lo[c, 1], "mean_score_hi95": e.hi[c, 1],
            "win_diff": d.mean[c, 0], "se_win_diff": d.se[c, 0],
            "win_diff_lo95": d.lo[c, 0], "win_diff_hi95": d.hi[c, 0],
            "score_diff": d.mean[c, 1], "se_score_diff": d.se[c, 1],
            "score_diff_lo95": d.lo[c, 1], "score_diff_hi95": d.hi[c, 1],
            "diff_holm_lo95": obj - cmp.half_width(c), "diff_holm_hi95": obj + cmp.half_width(c),
            "p_value": cmp.p[c], "p_holm": cmp.p_holm[c],
            "indistinguishable": bool(cmp.indistinguishable[c]),
            "best": c == s.best,
            "verdict": "best" if judged[c] is None else judged[c].kind,
            "deals_needed": None if judged[c] is None else judged[c].needed,
        })
        rows.append(row)
    return pl.DataFrame(rows, schema={k: _dtype(k) for k in rows[0]})


def _dtype(column: str):
    if column in ("strategy", "verdict"):
        return pl.String
    if column in ("candidate", "deals", "rounds", "dropped_after_stage", "deals_needed"):
        return pl.Int64
    if column in ("indistinguishable", "best"):
        return pl.Boolean
    return pl.Float64


def metadata(result: TuneResult, preset: str, command: str,
             rules_file: str | None = None) -> dict[str, str]:
    """Everything needed to reproduce the search, as Parquet key-value metadata. Nothing here
    depends on the thread count (the results do not either)."""
    best = result.best
    return {
        **rules_metadata("a golfsim tune (tune.parquet: one row per candidate parameter value)",
                         result.rules, preset, command, rules_file),
        "players": str(result.players),
        "strategy": result.strategy,
        "build": result.build,
        "params": json.dumps({p.name: list(p.values) for p in result.params}),
        "opponents": json.dumps(result.opponents),
        "seatings": json.dumps([["tuned" if i < 0 else f"opponent {i}" for i in s]
                                for s in rotations(result.players)]),
        "objective": result.objective,
        "seed": str(result.seed),
        "rounds_requested": str(result.rounds_requested),
        "rounds": str(result.rounds),
        "stages": json.dumps([vars(st) for st in result.search.stages]),
        "best": json.dumps({p.name: v for p, v in zip(result.params, best.values)}),
        "best_strategy": best.spec,
        "indistinguishable": json.dumps([g.spec for g in result.indistinguishable()]),
        "test": f"two-sided paired t-test of each candidate against the best on the deals "
                f"both played, Holm-corrected, familywise alpha {result.alpha}",
        "title": plot_title(result, preset),
        "warnings": json.dumps(warnings(result)),
        "at_edge": json.dumps([p.name for p in edge_params(result)]),
        "complete": "true",
    }


def warnings(result: TuneResult) -> list[str]:
    """A warning when more than 1% of the rounds of some candidates hit the turn cap
    (report.capped_warning), naming the first few of them."""
    bad = [c for c, (k, n) in sorted(result.capped.items())
           if report.capped_warning(k, n, result.rules) is not None]
    if not bad:
        return []
    k = sum(result.capped[c][0] for c in bad)
    n = sum(result.capped[c][1] for c in bad)
    specs = [result.grid[c].spec for c in bad]
    where = " of " + (f"every candidate ({len(bad)})" if len(bad) == len(result.grid) else
                      ", ".join(specs[:3]) + (f" and {len(bad) - 3} more candidate(s)"
                                              if len(bad) > 3 else ""))
    return [report.capped_warning(k, n, result.rules, specs + result.opponents, where)]


def plot_title(result: TuneResult, preset: str) -> str:
    return report.title(result.rules, preset,
                        f"{label_of(result.strategy)} vs "
                        f"{', '.join(sorted(set(map(label_of, result.opponents))))}, "
                        f"{result.players} players, {result.rounds:,} rounds, seed "
                        f"{result.seed}")


# ---- text ----------------------------------------------------------------------------------
def values_text(values: list[float], grid_values: tuple[float, ...]) -> str:
    """Values as a list; a run of three or more consecutive grid values with an even step is
    written LO..HI (step 1) or LO..HI:STEP, like --param."""
    idx = sorted(grid_values.index(v) for v in set(values))
    runs: list[list[float]] = []
    for i in idx:
        v = grid_values[i]
        run = runs[-1] if runs else None
        if run and i == run[-1][0] + 1 and (len(run) < 2 or
                                            math.isclose(v - run[-1][1], run[1][1] - run[0][1])):
            run.append((i, v))
        else:
            runs.append([(i, v)])
    out = []
    for run in runs:
        vals = [v for _, v in run]
        if len(vals) < 3:
            out += [number_text(v) for v in vals]
            continue
        step = round(vals[1] - vals[0], 12)
        out.append(f"{number_text(vals[0])}..{number_text(vals[-1])}" +
                   ("" if step == 1 else f":{number_text(step)}"))
    return ", ".join(out)


def _stage_text(st: Stage, i: int, players: int) -> str:
    after = "kept 1 (the best)" if st.keep == 1 else f"kept {st.keep}"
    return (f"  stage {i}: {st.survivors} candidate(s) x {st.deals:,} new deals "
            f"(deals {st.start:,}..{st.start + st.deals - 1:,}, x {players} seatings) -> "
            f"{after}")


MARKS = {None: "best", True: "worse", False: "≈ best"}


def mark(v: stats.Verdict | None) -> str:
    """A candidate's mark in the table, from its verdict: best, worse (its difference to the
    best is clear) or ≈ best."""
    return MARKS[None if v is None else v.clear]


def _shown(result: TuneResult) -> tuple[float, str, int]:
    """(scale, unit, digits) of a difference in the objective: percentage points of win
    share, points of score."""
    return (100.0, " pp", 2) if result.objective == "win_share" else (1.0, " points", 3)


def candidate_table(result: TuneResult) -> list[str]:
    """The table of the candidates: each one's estimates, its difference to the best with
    the interval that decides it, the Holm-adjusted p and its mark (all from its verdict)."""
    s, cmp = result.search, result.comparison
    scale, unit, _ = _shown(result)
    header = (*(p.name for p in result.params), "deals", "win share", "±95%", "mean score",
              "±95%", f"vs best ({unit.strip()})", "± (Holm)", "p (Holm)", "")
    e, dd, col = cmp.estimate, cmp.diff, s.column
    rows = []
    for c, cand in enumerate(result.grid):
        v = cmp.verdicts[c]
        if v is None:
            shown = ("-", "", "", mark(v))
        else:
            p = "<0.001" if cmp.p_holm[c] < 0.001 else f"{cmp.p_holm[c]:.3f}"
            shown = (f"{scale * dd.mean[c, col]:+.3f}", f"{scale * v.half_width:.3f}", p,
                     f"{mark(v)} (dropped after stage {s.dropped_after[c]})")
        rows.append((*(number_text(x) for x in cand.values), f"{s.obs[c].shape[0]:,}",
                     f"{100 * e.mean[c, 0]:.2f}%", f"{100 * e.half_width[c, 0]:.2f}%",
                     f"{e.mean[c, 1]:.3f}", f"{e.half_width[c, 1]:.3f}", *shown))
    return text_table(header, rows, left={len(header) - 1})


def format_tune(result: TuneResult, preset: str, threads: int) -> str:
    """The search, the candidate table and the verdict, intervals as ± half-widths."""
    s, cmp = result.search, result.comparison
    now = result.rounds if result.played_now is None else result.played_now
    rate = now / result.seconds if result.seconds > 0 else float("nan")
    opp = [label_of(o) for o in result.opponents]
    field_text = (f"{opp[0]} in the other {len(opp)} seats" if len(set(opp)) == 1 else
                  "opponents " + ", ".join(opp) + " (in seat order after it)")
    grid_text = "; ".join(f"{p.name} = {values_text(list(p.values), p.values)}"
                          for p in result.params)
    objective = ("win share (share of deals won, a k-way tie for the lowest score counts 1/k; "
                 "higher is better)" if result.objective == "win_share"
                 else "mean hole score (lower is better)")
    lines = [
        f"rules: {describe(result.rules, preset)}",
        f"tuning {label_of(result.strategy)}: {grid_text} ({len(result.grid)} candidates), "
        f"{result.players} players, against {field_text}",
        f"objective: {objective}, averaged over the {result.players} seatings that put the "
        "tuned strategy in every seat, on the same deals for every candidate",
        f"successive halving, seed {result.seed}: {result.rounds:,} rounds in "
        f"{result.seconds:.2f} s on {report.ran_on(threads)} ({rate:,.0f} rounds/s)"
        if now == result.rounds else
        f"successive halving, seed {result.seed}: {result.rounds:,} rounds, "
        f"{result.rounds - now:,} of them loaded from an earlier run; {now:,} played in "
        f"{result.seconds:.2f} s on {report.ran_on(threads)}" +
        (f" ({rate:,.0f} rounds/s)" if now else ""),
    ]
    lines += [_stage_text(st, i + 1, result.players) for i, st in enumerate(s.stages)]
    lines += [""]
    names = [p.name for p in result.params]
    lines += candidate_table(result)
    best = result.best
    b = s.best
    e = cmp.estimate
    lines += [
        "",
        f"vs best: the candidate minus the best on the deals it played (paired), in "
        f"{_shown(result)[1].strip()}; ± (Holm): the interval at the level Holm's step-down "
        f"tests it at (familywise 95% over {len(result.grid) - 1} comparison(s)), which leaves "
        "out 0 exactly when the candidate is worse; p (Holm): the two-sided paired t-test's "
        "Holm-adjusted p",
        f"best: {_assignment(names, best.values)} ({best.spec}): win share "
        f"{100 * e.mean[b, 0]:.2f}% ± {100 * e.half_width[b, 0]:.2f}%, mean score "
        f"{e.mean[b, 1]:.3f} ± {e.half_width[b, 1]:.3f} over {s.obs[b].shape[0]:,} deals",
    ]
    same = result.indistinguishable()
    if len(names) == 1:
        vals = [g.values[0] for g in same]
        lo, hi = min(vals), max(vals)
        lines.append(f"indistinguishable from the best (familywise 95%): {names[0]} = "
                     f"{values_text(vals, result.params[0].values)}; interval "
                     f"{names[0]} in [{number_text(lo)}, {number_text(hi)}]")
    else:
        lines.append(f"indistinguishable from the best (familywise 95%): {len(same)} "
                     "candidate(s): " + "; ".join(_assignment(names, g.values) for g in same))
        for i, name in enumerate(names):
            vals = [g.values[i] for g in same]
            lines.append(f"  {name} in [{number_text(min(vals))}, {number_text(max(vals))}]")
    lines += verdict_lines(result)
    for p in edge_params(result):
        lines.append(f"note: the best {p.name} is at the edge of its grid "
                     f"({p.name} = {values_text(list(p.values), p.values)}); the optimum may lie "
                     f"beyond it: widen --param {p.name}")
    return "\n".join(lines)


def verdict_lines(result: TuneResult) -> list[str]:
    """A line per candidate indistinguishable from the best (or, when none is, for the
    closest), the closest first: its mark and verdict (the Holm-corrected test of the table),
    and when it is not clear, about how many deals would settle it."""
    names = [p.name for p in result.params]
    judged = verdicts(result)
    scale, unit, digits = _shown(result)
    others = sorted((c for c, v in enumerate(judged) if v is not None),
                    key=lambda c: -result.comparison.p[c])
    if not others:
        return []
    open_ = [c for c in others if result.comparison.indistinguishable[c]] or others[:1]
    lines = [f"verdicts against the best (the test of the table: Holm-corrected, familywise "
             f"95%; to within {scale * RESOLUTION[result.objective]:g}{unit} when nearer "
             "zero):"]
    lines += [f"  {_assignment(names, result.grid[c].values)} ({mark(judged[c])}): "
              f"{judged[c].text(scale, unit, digits)}" for c in open_[:SHOWN_VERDICTS]]
    if len(open_) > SHOWN_VERDICTS:
        lines.append(f"  ... {len(open_) - SHOWN_VERDICTS} more in tune.parquet (verdict, "
                     "deals_needed)")
    return lines


def edge_params(result: TuneResult) -> list[ParamValues]:
    """The tuned parameters whose best value is the first or last of their (several) values."""
    return [p for p, v in zip(result.params, result.best.values)
            if len(p.values) > 1 and v in (p.values[0], p.values[-1])]


def _assignment(names, values) -> str:
    return ", ".join(f"{n} = {number_text(v)}" for n, v in zip(names, values))



__all__ = ["ALPHA", "Candidate", "Comparison", "MIN_DEALS", "OBJECTIVES", "ParamValues", "Plan",
           "ShardError",
           "Search", "Stage", "StrategyError", "TableObjective", "TuneError", "TuneResult",
           "candidates", "compare_to_best", "format_tune", "holm", "metadata",
           "minimum_budget", "opponent_seats", "parse_param", "plan", "plot_title", "result_frame",
           "rotations", "schedule", "successive_halving", "tune", "paired_p",
           "values_text", "verdict_lines", "verdicts", "warm_up", "warnings", "with_params"]
