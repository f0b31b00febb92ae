"""Rule comparisons: which house rules favour whom, with paired intervals, resumable.

``golfsim compare --vary 'pair_scope=column,anywhere' --vary 'ender_penalty=none,plus_10'``
plays a baseline rule set and its variants on the same deals and reports, for each variant,
the change (variant - baseline) in mean score, win share, first-player advantage, knocker's
success and round length, per seat and per strategy, each with a paired 95% interval and, for
contrast, the unpaired interval independent samples of the same size would give.

* **Baseline and variants.** The baseline is the rule set (preset or rules file, then --set)
  with every varied option at its first listed value. ``factorial`` plays every combination of
  the listed values, ``one-at-a-time`` changes one option at a time.
* **Seats.** With k strategies (k <= players) there are k seatings; in seating q seat s plays
  strategy (s + q) mod k, so every strategy holds every seat exactly once over the seatings.
  A round index's observation is the average over the seatings (one seating for k = 1).
* **Common random numbers.** Every rule set and seating plays the same round indices with the
  same seed: round i has the same deal (when the deck is unchanged) and each seat's random
  choices come from their own stream. The paired interval uses the per-round differences, so
  what the deal decides cancels. (How much it cancels depends on the rule: a rule the players
  do not react to, such as an ender penalty for greedy, keeps every trajectory identical; a
  scoring rule they react to, such as ``pair_scope``, changes their choices and the games
  drift apart after the first different decision.)
* **Shards.** Rounds are played in shards of consecutive round indices. Of each shard only
  sums are kept (count, sums and sums of squares of every observation per rule set, and of
  every per-round difference per variant; knock counts), so memory stays flat. Each finished
  shard is written atomically to ``<out>/shards/shard-NNNNN.npz``; ``manifest.json`` there
  records the arguments. A rerun with the same arguments loads the finished shards and plays
  only the rest; the final tables add the shard sums in shard order, so an interrupted and
  resumed comparison gives exactly the result of an uninterrupted one.
* **Knocker's success** (the share of knock rounds the knocker won, ties split) comes from
  the kernel's knock totals, which are not per round: its change carries only an unpaired
  interval (conservative, since the deals are shared).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from strategies import (Strategy, StrategyError, check_labels, check_net_players, resolve,
                        seat_arrays)

from ..game import codes as K
from . import runner
from . import stats
from ..kernel.tally import N_TOT, TOT_CAPPED, TOT_KNOCKER_WIN_K0, TOT_KNOCKS
from . import report
from .report import rules_metadata, text_table, version
from ..game.rules import (OPTIONS, RuleError, Rules, canonical_option, describe, flatten,
                          option_text, parse_option_text)
from . import cluster, warm
from .shards import SHARD_DIR, ShardError, ShardStore, ShardSums
from .tournament import round_wins

DESIGNS = ("factorial", "one-at-a-time")
DEFAULT_SHARD = 20_000
DEFAULT_MAX_ROUNDS = 10_000_000
SHARD_FORMAT = 1

QUANTITIES = {   # name: (title, unit shown, scale to the shown unit)
    "mean_score": ("mean score", "points; lower is better", 1.0),
    "win_share": ("win share", "percentage points", 100.0),
    "first_player_advantage": ("first-player advantage", "percentage points", 100.0),
    "knocker_success": ("knocker's success", "percentage points", 100.0),
    "round_length": ("round length", "turns", 1.0),
}
TABLE_QUANTITIES = ("first_player_advantage", "round_length", "knocker_success")
# The smallest change worth telling from none, in the quantity's own unit (shares as
# fractions): the interval a verdict asks for when the effect is nearer zero (stats.verdict).
RESOLUTION = {"mean_score": stats.RESOLUTION_POINTS, "win_share": stats.RESOLUTION_SHARE,
              "first_player_advantage": stats.RESOLUTION_SHARE,
              "knocker_success": stats.RESOLUTION_SHARE, "round_length": stats.RESOLUTION_TURNS}

FRAME_COLUMNS = (
    "variant_index", "variant", "quantity", "group", "group_kind", "seat", "strategy",
    "rounds", "baseline_n", "variant_n",
    "baseline", "baseline_lo95", "baseline_hi95",
    "variant_value", "variant_lo95", "variant_hi95",
    "diff", "paired", "se_diff", "diff_lo95", "diff_hi95",
    "se_unpaired", "unpaired_lo95", "unpaired_hi95", "width_ratio", "verdict", "deals_needed",
)


class CompareError(ValueError):
    """A comparison that cannot be made as asked; the message is one user-facing line."""


# ---- the arguments ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Vary:
    """One --vary: an option and its values, the baseline's first."""
    option: str
    values: tuple

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(option_text(v) for v in self.values)

    def __str__(self) -> str:
        sep = "|" if any("," in t for t in self.texts) else ","
        return f"{self.option}={sep.join(self.texts)}"


def parse_vary(text: str, rules: Rules | None = None) -> Vary:
    """``option=v1,v2,...`` (values separated by ``|`` instead when they contain commas,
    e.g. ``end_triggers=all_face_up|knock,all_face_up``); each value is checked against
    ``rules`` (default: the six_card rules)."""
    rules = rules or Rules()
    key, eq, rest = text.partition("=")
    if not eq or not key.strip() or not rest.strip():
        raise CompareError(f"--vary {text!r}: expected option=value1,value2 with the baseline "
                           "value first, e.g. --vary pair_scope=column,anywhere")
    try:
        option = canonical_option(key.strip())
    except RuleError as e:
        raise CompareError(f"--vary {text}: {e}") from None
    sep = "|" if "|" in rest else ","
    texts = [t.strip() for t in rest.split(sep)]
    if any(not t for t in texts):
        raise CompareError(f"--vary {text}: an empty value; separate the values with commas "
                           "(or | when a value holds commas)")
    values = []
    for t in texts:
        try:
            value = parse_option_text(option, t)
            value = getattr(rules.with_options(**{option: value}), option)
        except RuleError as e:
            raise CompareError(f"--vary {text}: {e}") from None
        except (TypeError, ValueError) as e:
            raise CompareError(f"--vary {text}: bad value {t!r} ({e})") from None
        if value in values:
            raise CompareError(f"--vary {text}: the value {t} is given twice")
        values.append(value)
    if len(values) < 2:
        raise CompareError(f"--vary {text}: give at least two values, the baseline first "
                           f"(e.g. {option}={texts[0]},...); use --set for a single value")
    return Vary(option, tuple(values))


def split_strategies(specs) -> list[str]:
    """--strategy values, each a single strategy or a comma-separated list of them. A piece
    ``k=v`` without a ``:`` continues the previous strategy's parameters, so
    ``heuristic:take_max=4,hold=2,greedy`` is two strategies."""
    out: list[str] = []
    for spec in specs:
        first = True
        for piece in spec.split(","):
            piece = piece.strip()
            if not piece:
                raise CompareError(f"--strategy {spec!r}: an empty strategy name; separate "
                                   "strategies with commas, e.g. --strategy greedy,random")
            if not first and "=" in piece and ":" not in piece:
                out[-1] += "," + piece
            else:
                out.append(piece)
            first = False
    return out


def resolve_strategies(specs: list[str], players: int) -> list[Strategy]:
    resolved = [resolve(s) for s in specs]
    seen: dict[tuple, str] = {}
    for s in resolved:
        if s.key in seen:
            raise CompareError(f"--strategy {s.spec}: the same strategy as {seen[s.key]}; give "
                               "each strategy once")
        seen[s.key] = s.spec
    check_labels(resolved)
    check_net_players(resolved, players)
    if len(resolved) > players:
        raise CompareError(f"--strategy: {len(resolved)} strategies for {players} players; "
                           "give at most one strategy per seat")
    return resolved


def seatings(players: int, k: int) -> list[tuple[int, ...]]:
    """Per seating, the strategy index of every seat: seat s plays (s + q) mod k in seating q,
    so over the k seatings every strategy holds every seat exactly once."""
    return [tuple((s + q) % k for s in range(players)) for q in range(k)]


@dataclass(frozen=True)
class Variant:
    index: int                       # 1.. (0 is the baseline)
    rules: Rules
    changes: tuple                   # ((option, value), ...) that differ from the baseline
    values: tuple                    # every varied option's value, in --vary order

    @property
    def label(self) -> str:
        return ", ".join(f"{o}={option_text(v)}" for o, v in self.changes)


def build_variants(rules: Rules, varies: list[Vary], design: str,
                   players: int) -> tuple[Rules, list[Variant]]:
    """The baseline (every varied option at its first value) and the variants."""
    if not varies:
        raise CompareError("give at least one --vary option=value1,value2 (the baseline value "
                           "first), e.g. --vary pair_scope=column,anywhere")
    if design not in DESIGNS:
        raise CompareError(f"--design {design}: expected one of {', '.join(DESIGNS)}")
    seen = set()
    for v in varies:
        if v.option in seen:
            raise CompareError(f"--vary {v.option} is given twice; list all its values in one "
                               "--vary")
        seen.add(v.option)
    first = {v.option: v.values[0] for v in varies}
    try:
        baseline = rules.with_options(**first)
        baseline.check_players(players)
    except RuleError as e:
        raise CompareError(f"the baseline ({_settings_text(first)}) is not a valid rule set: "
                           f"{e}") from None
    if design == "factorial":
        combos = [c for c in itertools.product(*(range(len(v.values)) for v in varies))
                  if any(c)]
        # single changes first (in --vary order), then pairs of changes, ...
        combos.sort(key=lambda c: (sum(1 for x in c if x),
                                   tuple(i for i, x in enumerate(c) if x), c))
    else:
        combos = []
        for i, v in enumerate(varies):
            for j in range(1, len(v.values)):
                combos.append(tuple(j if m == i else 0 for m in range(len(varies))))
    variants = []
    for idx, combo in enumerate(combos, start=1):
        values = tuple(v.values[j] for v, j in zip(varies, combo))
        changes = tuple((v.option, v.values[j]) for v, j in zip(varies, combo) if j)
        try:
            r = baseline.with_options(**dict(changes))
            r.check_players(players)
        except RuleError as e:
            hint = "; --design one-at-a-time changes one option at a time" \
                if len(changes) > 1 else ""
            raise CompareError(f"--vary: the variant {_settings_text(dict(changes))} is not a "
                               f"valid rule set: {e}{hint}") from None
        variants.append(Variant(idx, r, changes, values))
    return baseline, variants


def _settings_text(settings: dict) -> str:
    return ", ".join(f"{o}={option_text(v)}" for o, v in settings.items())


# ---- what is observed every round --------------------------------------------------------
@dataclass(frozen=True)
class Column:
    quantity: str
    kind: str        # seat, strategy or table
    group: str       # "seat 2", the strategy's spec, or "table"
    index: int = 0   # the seat or strategy index


def observed_columns(players: int, names: list[str]) -> list[Column]:
    """The per-round observations, in the order of the stored sums."""
    cols = [Column("mean_score", "strategy", n, j) for j, n in enumerate(names)]
    cols += [Column("mean_score", "seat", f"seat {s}", s) for s in range(players)]
    if len(names) > 1:  # with one strategy its win share is always 100%
        cols += [Column("win_share", "strategy", n, j) for j, n in enumerate(names)]
    cols += [Column("win_share", "seat", f"seat {s}", s) for s in range(players)]
    cols += [Column("first_player_advantage", "table", "table"),
             Column("round_length", "table", "table")]
    return cols


def observe(columns: list[Column], seats: list[tuple[int, ...]], scores: np.ndarray,
            turns: np.ndarray) -> np.ndarray:
    """Per round, every column's value averaged over the seatings. ``scores[q, i, s]`` and
    ``turns[q, i]`` are seating q's round i. Win shares split ties (1/k each)."""
    k, n, players = scores.shape
    wins = np.stack([round_wins(scores[q]) for q in range(k)])
    out = np.zeros((n, len(columns)))
    for c, col in enumerate(columns):
        acc = np.zeros(n)
        for q, seating in enumerate(seats):
            if col.kind == "seat":
                acc += (scores if col.quantity == "mean_score" else wins)[q][:, col.index]
            elif col.kind == "strategy":
                mine = [s for s in range(players) if seating[s] == col.index]
                if col.quantity == "mean_score":
                    acc += scores[q][:, mine].sum(axis=1) / len(mine)
                else:
                    acc += wins[q][:, mine].sum(axis=1)
            elif col.quantity == "first_player_advantage":
                acc += wins[q][:, 0] - 1.0 / players
            else:   # round_length
                acc += turns[q]
        out[:, c] = acc / k
    return out


# ---- the plan -------------------------------------------------------------------------------
@dataclass
class Plan:
    """Everything that fixes a comparison's results (and so its shards)."""
    preset: str
    baseline: Rules
    varies: list[Vary]
    design: str
    variants: list[Variant]
    strategies: list[Strategy]
    players: int
    seed: int
    shard_size: int = DEFAULT_SHARD
    seats: list = field(init=False)
    columns: list = field(init=False)

    def __post_init__(self):
        self.seats = seatings(self.players, len(self.strategies))
        self.columns = observed_columns(self.players, self.names)

    @property
    def names(self) -> list[str]:
        """What the tables call the strategies (their aliases, else their specs)."""
        return [s.label for s in self.strategies]

    @property
    def specs(self) -> list[str]:
        return [s.spec for s in self.strategies]

    @property
    def rule_sets(self) -> list[Rules]:
        return [self.baseline] + [v.rules for v in self.variants]

    def seating_arrays(self) -> list[tuple]:
        """(policy ids, parameters) of every seating, in play order."""
        return [seat_arrays([self.strategies[x] for x in seating]) for seating in self.seats]

    def build(self, kernel: str = "auto", user=None) -> str:
        """The builds every rule set and seating plays on (runner.builds_text)."""
        return runner.builds_text(
            runner.build_of(flatten(rules, self.players), ids, kernel, user)
            for rules in self.rule_sets for ids, _ in self.seating_arrays())

    def manifest(self) -> dict:
        return {
            "format": SHARD_FORMAT,
            "kind": "golfsim compare shards",
            "baseline": json.loads(json.dumps(self.baseline.as_dict(), default=list)),
            "vary": [str(v) for v in self.varies],
            "design": self.design,
            "variants": [v.label for v in self.variants],
            "players": self.players,
            "strategies": self.specs,
            "seed": self.seed,
            "shard_size": self.shard_size,
            "columns": [f"{c.quantity}:{c.group}" for c in self.columns],
        }

    def key(self) -> str:
        text = json.dumps(self.manifest(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


def make_plan(rules: Rules, preset: str, vary_texts, design: str, strategy_texts,
              players: int, seed: int, shard_size: int = DEFAULT_SHARD,
              set_options=()) -> Plan:
    """Check and resolve the arguments (raises CompareError, RuleError or StrategyError)."""
    rules.check_players(players)
    varies = [parse_vary(t, rules) for t in vary_texts]
    for name in set_options:
        if any(v.option == name for v in varies):
            raise CompareError(f"--set {name}=... and --vary {name}=...: give the option in one "
                               "place (the first --vary value is the baseline)")
    baseline, variants = build_variants(rules, varies, design, players)
    resolved = resolve_strategies(split_strategies(strategy_texts), players)
    ids = [s.policy_id for s in resolved]
    for label, r in [("the baseline", baseline)] + [(f"the variant {v.label}", v.rules)
                                                     for v in variants]:
        try:
            runner.check_policies(r, players, ids)
        except ValueError as e:
            raise CompareError(f"{label}: {e}") from None
    if shard_size < 1:
        raise CompareError(f"--shard-size {shard_size}: expected a whole number >= 1")
    return Plan(preset, baseline, varies, design, variants, resolved, players, int(seed),
                shard_size)


# ---- playing ----------------------------------------------------------------------------------
class _Player:
    """Plays the shards of a plan on a pool of threads."""

    def __init__(self, plan: Plan, threads: int, kernel: str = "auto", user=None):
        self.plan = plan
        self.threads = max(1, threads)
        self.jobs = [[runner.make_job(rules, plan.players, ids, params, plan.seed,
                                      kernel=kernel, user=user)
                      for ids, params in plan.seating_arrays()] for rules in plan.rule_sets]
        self.local = threading.local()
        self.pool = ThreadPoolExecutor(max_workers=self.threads)

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _state(self, job):
        states = getattr(self.local, "states", None)
        if states is None:
            states = self.local.states = {}
        if job.lean not in states:
            states[job.lean] = runner.new_state(job, self.plan.players)
        return states[job.lean]

    def play(self, start: int, count: int, progress=None) -> ShardSums:
        """Play rounds [start, start + count) with every rule set and seating; keep the sums.
        One rule set at a time, so only its rounds and the baseline's observations are held."""
        plan = self.plan
        n_sets, c = len(plan.rule_sets), len(plan.columns)
        sums = ShardSums.zeros(n_sets, c)
        sums.start, sums.count = start, count
        base = None
        for r in range(n_sets):
            scores, turns, tot = self._play_rule_set(r, start, count, progress)
            obs = observe(plan.columns, plan.seats, scores, turns)
            sums.x_sum[r] = obs.sum(axis=0)
            sums.x_sq[r] = (obs * obs).sum(axis=0)
            if r == 0:
                base = obs
            else:
                d = obs - base
                sums.d_sum[r - 1] = d.sum(axis=0)
                sums.d_sq[r - 1] = (d * d).sum(axis=0)
            sums.knocks[r] = tot[TOT_KNOCKS]
            sums.knock_wins[r] = tot[TOT_KNOCKER_WIN_K0:TOT_KNOCKER_WIN_K0 + K.MAX_PLAYERS]
            sums.capped[r] = tot[TOT_CAPPED]
        return sums

    def _play_rule_set(self, r: int, start: int, count: int, progress):
        """Every seating of rule set ``r`` on the round range, in pieces on the threads:
        (scores[seating, round, seat], turns[seating, round], summed kernel totals)."""
        plan = self.plan
        k, p = len(plan.seats), plan.players
        scores = np.zeros((k, count, p), dtype=np.int64)
        turns = np.zeros((k, count), dtype=np.int64)
        tot = np.zeros(N_TOT, dtype=np.int64)
        lock = threading.Lock()
        piece = -(-count // self.threads)
        items = [(q, a, min(piece, count - a)) for q in range(k) for a in range(0, count, piece)]

        def work(item):
            q, a, n = item
            job = self.jobs[r][q]
            try:
                t, (s, tr, _), _ = runner.play_chunk(job, start + a, n, self._state(job),
                                                     per_round=True)
            except runner.PolicyError as e:
                where = "baseline" if r == 0 else plan.variants[r - 1].label
                raise runner.PolicyError(f"{where}, seating {q}: {e}", e.round_index) \
                    from None
            scores[q, a:a + n] = s
            turns[q, a:a + n] = tr
            with lock:
                tot[:] += t.tot
            if progress is not None:
                progress(n)

        runner.wait_all([self.pool.submit(work, it) for it in items], cluster.cancel)
        return scores, turns, tot


def shard_task(plan: Plan, kernel: str, user, start: int, count: int):
    """One shard of a comparison on a cluster's worker: ("ok", its ShardSums), or ("policy",
    message, round, seat) after a policy error."""
    player = cluster.cached(("compare", plan.key(), kernel, user),
                            lambda: _Player(plan, 1, kernel, cluster.compiled_user(user)))
    try:
        return "ok", player.play(start, count)
    except runner.PolicyError as e:
        return "policy", str(e), e.round_index, e.seat


def remote_shard(plan: Plan, kernel: str, user, start: int, count: int) -> ShardSums:
    """Play one shard of ``plan`` on the active cluster; raises runner.PolicyError."""
    key = f"golfsim-shard-{plan.key()}-{kernel}-{cluster.digest(user)}-{start}-{count}"
    return cluster.call(shard_task, plan, kernel, user, start, count, key=key)[0]


class _RemotePlayer:
    """Plays the shards of a plan as tasks on the active cluster (cluster.py), up to twice as
    many at once as the cluster has threads, in shard order; ``play`` hands them back in
    that order, so the sums are added exactly as in-process."""

    def __init__(self, plan: Plan, kernel: str, user, ranges, store: ShardStore, key: str):
        self.plan, self.kernel = plan, kernel
        self.user = cluster.user_source(user)
        self.store, self.key = store, key
        self.window = 2 * cluster.active().threads()
        self.pool = ThreadPoolExecutor(max_workers=self.window)
        self.source = enumerate(ranges)
        self.ahead: list = []   # (j, start, count, future or None when it is stored)

    def ranges(self):
        """The shard ranges, each submitted (unless stored) before it is reached."""
        while True:
            self._fill()
            if not self.ahead:
                return
            j, start, count, future = self.ahead[0]
            self.current = future
            yield start, count
            self.ahead.pop(0)

    def _fill(self) -> None:
        busy = sum(f is not None for *_, f in self.ahead)
        while busy < self.window:
            item = next(self.source, None)
            if item is None:
                return
            j, (start, count) = item
            stored = self.store.path(j).exists()
            future = None if stored else self.pool.submit(
                remote_shard, self.plan, self.kernel, self.user, start, count)
            self.ahead.append((j, start, count, future))
            busy += future is not None

    def play(self, start: int, count: int, progress=None) -> ShardSums:
        future = self.current
        if future is None:   # stored, but not loadable (another cut, unreadable): play it
            future = self.pool.submit(remote_shard, self.plan, self.kernel, self.user, start,
                                      count)
        while not future.done():   # short waits keep the main thread responsive to Ctrl-C
            wait([future], timeout=0.25)
        sums = future.result()
        if progress is not None:
            progress(count * len(self.plan.rule_sets) * len(self.plan.seats))
        return sums

    def close(self):
        """After the last shard, an early stop (--until-width), an error or a Ctrl-C: the
        shards still on the cluster are cancelled, so their threads end at once (those not
        started first, so that none starts after)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        cluster.cancel()
        self.pool.shutdown(wait=True)


def warm_up(plan: Plan, kernel: str = "auto", user=None) -> None:
    """Compile (or load) the kernels every rule set and seating needs."""
    for rules in plan.rule_sets:
        for ids, params in plan.seating_arrays():
            try:
                warm.warm_up(rules, plan.players, ids, params, kernel=kernel, user=user)
            except runner.PolicyError:
                pass  # the comparison meets the same error and reports it


# ---- the comparison -------------------------------------------------------------------------
@dataclass
class CompareResult:
    plan: Plan
    sums: ShardSums           # all shards added in shard order
    shards: int
    resumed: int              # shards loaded from the folder
    seconds: float
    rounds_requested: int | None
    until_width: float | None
    max_rounds: int
    notes: list[str] = field(default_factory=list)
    played_now: int = 0       # rounds played by this call (not loaded)
    build: str = ""           # the builds that play it (Plan.build)

    @property
    def rounds(self) -> int:
        """Round indices (deals) played by every rule set and seating."""
        return self.sums.count

    @property
    def rounds_played(self) -> int:
        return self.rounds * len(self.plan.rule_sets) * len(self.plan.seats)

    def target_reached(self) -> bool:
        """With --until-width: is every change's interval narrower than the target?"""
        return self.until_width is not None and \
            widest_half_width(self.plan, self.sums) < self.until_width


def shard_ranges(shard_size: int, rounds: int):
    """(start, count) of every shard, made as they are needed (a long comparison has many)."""
    return ((a, min(shard_size, rounds - a)) for a in range(0, rounds, shard_size))


def run(plan: Plan, out_dir: str | Path, rounds: int | None = None,
        until_width: float | None = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
        threads: int = 1, fresh: bool = False, progress=None, kernel: str = "auto",
        user=None, on_shard=None) -> CompareResult:
    """Play (or load) the shards of ``plan`` in ``out_dir/shards``: ``rounds`` round indices,
    or shards until every interval of a change is narrower than ``until_width`` (see
    ``widest_half_width``) or ``max_rounds`` is reached. ``progress(n)`` counts played rounds;
    ``on_shard(j, loaded)`` is called after every shard.

    Raises CompareError (a folder holding another comparison), runner.PolicyError, and
    KeyboardInterrupt (the finished shards stay on disk)."""
    if (rounds is None) == (until_width is None):
        raise CompareError("give either a number of rounds or a target interval width")
    store = ShardStore(out_dir)
    try:
        store.open(plan.manifest(), fresh=fresh)
    except ShardError as e:
        raise CompareError(str(e)) from None
    key = plan.key()
    total = ShardSums.zeros(len(plan.rule_sets), len(plan.columns))
    ranges = shard_ranges(plan.shard_size, rounds if rounds is not None else max_rounds)
    per_round = len(plan.rule_sets) * len(plan.seats)
    resumed = shards = played_now = 0
    t0 = time.perf_counter()
    player = None
    if cluster.active() is not None:   # --cluster: shards are tasks there, played ahead
        player = _RemotePlayer(plan, kernel, user, ranges, store, key)
        ranges = player.ranges()
    try:
        for j, (start, count) in enumerate(ranges):
            sums = store.load(j, key, start, count, len(plan.rule_sets), len(plan.columns))
            loaded = sums is not None
            if loaded:
                resumed += 1
                if progress is not None:
                    progress(count * per_round)
            else:
                if player is None:
                    player = _Player(plan, threads, kernel, user)
                sums = player.play(start, count, progress)
                store.save(j, key, sums)
                played_now += count * per_round
            total.add(sums)
            shards += 1
            if on_shard is not None:
                on_shard(j, loaded)
            if until_width is not None and widest_half_width(plan, total) < until_width:
                break
    finally:
        if player is not None:
            player.close()
    return CompareResult(plan, total, shards, resumed, time.perf_counter() - t0, rounds,
                         until_width, max_rounds, store.notes, played_now,
                         plan.build(kernel, user))


# ---- statistics -------------------------------------------------------------------------------
@dataclass
class Effect:
    """One (variant, quantity, group): baseline and variant values and the change."""
    variant: Variant
    quantity: str
    kind: str
    group: str
    baseline_n: int
    variant_n: int
    baseline: stats.Interval
    value: stats.Interval
    diff: stats.Interval          # paired where ``paired``, else the unpaired one
    unpaired: stats.Interval
    paired: bool


def effects(plan: Plan, sums: ShardSums) -> list[Effect]:
    """Every variant's effect on every observed quantity and group, then knocker's success."""
    n = sums.count
    base = stats.mean_interval(sums.x_sum[0], sums.x_sq[0], n)
    out = []
    for vi, variant in enumerate(plan.variants):
        r = vi + 1
        val = stats.mean_interval(sums.x_sum[r], sums.x_sq[r], n)
        paired = stats.paired_interval(sums.d_sum[vi], sums.d_sq[vi], n)
        unpaired = stats.unpaired_interval(sums.x_sum[0], sums.x_sq[0], n, sums.x_sum[r],
                                           sums.x_sq[r], n)
        for c, col in enumerate(plan.columns):
            out.append(Effect(variant, col.quantity, col.kind, col.group, n, n, _pick(base, c),
                              _pick(val, c), _pick(paired, c), _pick(unpaired, c), True))
    if sums.knocks.any():
        w_sum, w_sq = _knock_moments(sums)
        kb = int(sums.knocks[0])
        base_k = _scalar(stats.mean_interval(w_sum[0], w_sq[0], kb))
        for vi, variant in enumerate(plan.variants):
            r = vi + 1
            kv = int(sums.knocks[r])
            val = _scalar(stats.mean_interval(w_sum[r], w_sq[r], kv))
            unpaired = _scalar(stats.unpaired_interval(w_sum[0], w_sq[0], kb, w_sum[r],
                                                       w_sq[r], kv))
            out.append(Effect(variant, "knocker_success", "table", "table", kb, kv, base_k, val,
                              unpaired, unpaired, False))
    return out


def _knock_moments(sums: ShardSums) -> tuple[np.ndarray, np.ndarray]:
    """Per rule set, the sum of the knocker's win (1/k in a k-way tie) over knock rounds and
    the sum of its squares."""
    k = np.arange(1, K.MAX_PLAYERS + 1, dtype=float)
    w = sums.knock_wins.astype(float)
    return (w / k).sum(axis=1), (w / k ** 2).sum(axis=1)


def _scalar(iv: stats.Interval) -> stats.Interval:
    return stats.Interval(float(iv.mean), float(iv.se), float(iv.lo), float(iv.hi))


def _pick(iv: stats.Interval, c: int) -> stats.Interval:
    return stats.Interval(float(iv.mean[c]), float(iv.se[c]), float(iv.lo[c]), float(iv.hi[c]))


def effect_verdict(e: Effect, rounds: int) -> stats.Verdict:
    """Is the change clear at ``rounds`` deals, and if not, about how many would settle it:
    decided by the very interval the tables show (``e.diff``), so a verdict cannot disagree
    with its cell."""
    return stats.interval_verdict(e.diff, rounds, RESOLUTION[e.quantity])


def widest_half_width(plan: Plan, sums: ShardSums) -> float:
    """The largest half-width of the 95% interval of any change, in the unit the report shows
    it (score points, turns, percentage points for shares): the paired interval where there
    is one, the unpaired one for knocker's success. Infinite until every one is known."""
    widest = 0.0
    for e in effects(plan, sums):
        if e.quantity == "knocker_success" and min(e.baseline_n, e.variant_n) < 2:
            continue   # a side that (almost) never knocks has no knocker's success to narrow
        hw = QUANTITIES[e.quantity][2] * (e.diff.hi - e.diff.lo) / 2
        if not math.isfinite(hw):
            return math.inf
        widest = max(widest, hw)
    return widest


# ---- tables -----------------------------------------------------------------------------------
def frame(result: CompareResult) -> pl.DataFrame:
    """One row per (variant, quantity, group): baseline and variant values with 95% intervals,
    the change with its interval (paired unless ``paired`` is false) and the unpaired interval
    of the same change, and ``width_ratio`` = unpaired width / paired width. Shares are
    fractions (0..1). One column per varied option gives the variant's value in the option's
    type (Int64, Float64, Boolean, String; null for an option's "none"); ``seat`` (Int64) and
    ``strategy`` (String) say what a row groups by, null where it is not that kind (``group``
    and ``group_kind`` give the same as text)."""
    plan = result.plan
    rows = []
    for e in effects(plan, result.sums):
        paired_w = e.diff.hi - e.diff.lo
        ratio = (e.unpaired.hi - e.unpaired.lo) / paired_w if e.paired and paired_w > 0 \
            else math.nan
        v = effect_verdict(e, result.rounds)
        row = {"variant_index": e.variant.index, "variant": e.variant.label}
        row.update({v.option: option_value(v.option, val)
                    for v, val in zip(plan.varies, e.variant.values)})
        row.update({
            "quantity": e.quantity, "group": e.group, "group_kind": e.kind,
            "seat": int(e.group.split()[1]) if e.kind == "seat" else None,
            "strategy": e.group if e.kind == "strategy" else None,
            "rounds": result.rounds, "baseline_n": e.baseline_n, "variant_n": e.variant_n,
            "baseline": e.baseline.mean, "baseline_lo95": e.baseline.lo,
            "baseline_hi95": e.baseline.hi,
            "variant_value": e.value.mean, "variant_lo95": e.value.lo,
            "variant_hi95": e.value.hi,
            "diff": e.diff.mean, "paired": e.paired, "se_diff": e.diff.se,
            "diff_lo95": e.diff.lo, "diff_hi95": e.diff.hi,
            "se_unpaired": e.unpaired.se, "unpaired_lo95": e.unpaired.lo,
            "unpaired_hi95": e.unpaired.hi, "width_ratio": ratio,
            "verdict": v.kind, "deals_needed": v.needed,
        })
        rows.append(row)
    options = [v.option for v in plan.varies]
    schema = {}
    for c in FRAME_COLUMNS[:2] + tuple(options) + FRAME_COLUMNS[2:]:
        if c in options:
            schema[c] = option_dtype(c)
        elif c in ("variant_index", "rounds", "baseline_n", "variant_n", "deals_needed", "seat"):
            schema[c] = pl.Int64
        elif c == "paired":
            schema[c] = pl.Boolean
        elif c in ("variant", "quantity", "group", "group_kind", "strategy", "verdict"):
            schema[c] = pl.String
        else:
            schema[c] = pl.Float64
    return pl.DataFrame(rows, schema=schema, orient="row")


_OPTION_DTYPES = {"int": pl.Int64, "int | None": pl.Int64, "float": pl.Float64,
                  "float | None": pl.Float64, "bool": pl.Boolean, "str": pl.String}


def option_dtype(option: str):
    """The frame column type of a rule option's values (String for lists and tables)."""
    return _OPTION_DTYPES.get(str(OPTIONS[option].type), pl.String)


def option_value(option: str, value):
    """A rule option's value as its frame column holds it (option_dtype)."""
    if value is None or option_dtype(option) is not pl.String:
        return value
    return option_text(value)


def metadata(result: CompareResult, command: str, rules_file: str | None = None) -> dict:
    """Everything needed to reproduce the comparison, as Parquet key-value metadata."""
    plan = result.plan
    return {
        **rules_metadata("a golfsim compare (compare.parquet: one row per variant, quantity and "
                         "seat or strategy; the baseline is the rules below)", plan.baseline,
                         plan.preset, command, rules_file),
        "build": result.build,
        "vary": json.dumps([str(v) for v in plan.varies]),
        "design": plan.design,
        "variants": json.dumps([v.label for v in plan.variants]),
        "players": str(plan.players),
        "strategies": json.dumps(plan.specs),
        "seatings": json.dumps(["".join("ABCDEFGHIJKLMNOP"[x] for x in s) for s in plan.seats]),
        "seed": str(plan.seed),
        "rounds": str(result.rounds),
        "rounds_requested": "" if result.rounds_requested is None
        else str(result.rounds_requested),
        "until_width": "" if result.until_width is None else repr(result.until_width),
        "max_rounds": str(result.max_rounds),
        "shard_size": str(plan.shard_size),
        "shards": str(result.shards),
        "capped_rounds": json.dumps([int(x) for x in result.sums.capped]),
        "warnings": json.dumps(warnings(result)),
        "title": title(result),
        "complete": "true",
    }


def warnings(result: CompareResult) -> list[str]:
    """A warning for every rule set in which more than 1% of the rounds (all seatings) hit the
    turn cap (report.capped_warning)."""
    plan = result.plan
    out = []
    for r, rules in enumerate(plan.rule_sets):
        where = " of the baseline" if r == 0 else f" of the variant {plan.variants[r - 1].label}"
        w = report.capped_warning(int(result.sums.capped[r]), result.rounds * len(plan.seats),
                                  rules, plan.names, where)
        if w:
            out.append(w)
    return out


def title(result: CompareResult) -> str:
    """The baseline's rules, then what was played (report.title)."""
    plan = result.plan
    return report.title(plan.baseline, plan.preset,
                        f"{plan.players} players, {', '.join(plan.names)}, "
                        f"{result.rounds:,} deals per rule set, seed {plan.seed}")


def _cell(e: Effect, baseline: bool) -> str:
    """``value ± half-width`` in the unit the report shows (shares in percent, differences of
    shares, the changes and the first-player advantage itself, in percentage points)."""
    iv = e.baseline if baseline else e.diff
    if not math.isfinite(iv.mean):
        return "-"
    scale = QUANTITIES[e.quantity][2]
    hw = scale * (iv.hi - iv.lo) / 2
    if scale == 100.0:
        sign = "+" if not baseline or e.quantity == "first_player_advantage" else ""
        pct = "%" if baseline and e.quantity != "first_player_advantage" else ""
        return f"{100 * iv.mean:{sign}.2f}{pct} ± {hw:.2f}"
    return f"{iv.mean:{'' if baseline else '+'}.3f} ± {hw:.3f}"


def sections(result: CompareResult) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report's tables: (title, header, rows); the first row of each is the baseline."""
    plan = result.plan
    all_effects = effects(plan, result.sums)
    by_variant: dict[int, list[Effect]] = {}
    for e in all_effects:
        by_variant.setdefault(e.variant.index, []).append(e)
    sections = []
    for quantity in ("mean_score", "win_share"):
        title_, unit, _ = QUANTITIES[quantity]
        groups = [(c.kind, c.group) for c in plan.columns if c.quantity == quantity]
        header = ["rule change"] + [g for _, g in groups]
        rows = []
        for vi, variant in enumerate(plan.variants):
            es = {(e.kind, e.group): e for e in by_variant[variant.index]
                  if e.quantity == quantity}
            if vi == 0:
                rows.append(["baseline"] + [_cell(es[g], True) for g in groups])
            rows.append([variant.label] + [_cell(es[g], False) for g in groups])
        note = "baseline %, changes in percentage points" if unit == "percentage points" \
            else unit
        sections.append((f"{title_} ({note})", header, rows))
    table_q = [q for q in TABLE_QUANTITIES
               if any(e.quantity == q for e in all_effects)]
    header = ["rule change"] + [
        f"{QUANTITIES[q][0]} ({'pp' if QUANTITIES[q][2] == 100 else QUANTITIES[q][1]})"
        for q in table_q]
    rows = []
    for vi, variant in enumerate(plan.variants):
        es = {e.quantity: e for e in by_variant[variant.index] if e.kind == "table"}
        if vi == 0:
            rows.append(["baseline"] + [_cell(es[q], True) for q in table_q])
        rows.append([variant.label] + [_cell(es[q], False) for q in table_q])
    about = "the table (first-player advantage: seat 0's win share minus 1/players"
    if "knocker_success" in table_q:
        about += "; knocker's success: the share of knock rounds the knocker won, ties split, " \
                 "with an unpaired interval"
    sections.append((about + ")", header, rows))
    header = ["rule change", "strategy", "change", "paired ±95%", "unpaired ±95%",
              "unpaired / paired"]
    rows = []
    for variant in plan.variants:
        for e in by_variant[variant.index]:
            if e.quantity == "mean_score" and e.kind == "strategy":
                pw = (e.diff.hi - e.diff.lo) / 2
                uw = (e.unpaired.hi - e.unpaired.lo) / 2
                ratio = f"{uw / pw:.2f}x" if pw > 0 else "-"
                rows.append([variant.label, e.group, f"{e.diff.mean:+.3f}", f"{pw:.3f}",
                             f"{uw:.3f}", ratio])
    sections.append(("paired vs unpaired 95% intervals of the change in mean score (the same "
                     "number of rounds)", header, rows))
    return sections


_SHOWN = {"mean_score": (1.0, " points", 3), "round_length": (1.0, " turns", 3)}


def verdict_lines(result: CompareResult) -> list[str]:
    """One line per change of a strategy's or the table's figures: is it clear at the deals
    played, and if not, about how many deals would settle it (stats.verdict; the frame's
    ``verdict`` and ``deals_needed`` columns hold every row's, the seats' too)."""
    lines = []
    for e in effects(result.plan, result.sums):
        if e.kind == "seat":
            continue
        scale, unit, digits = _SHOWN.get(e.quantity, (100.0, " pp", 2))
        what = QUANTITIES[e.quantity][0] + (f" of {e.group}" if e.kind == "strategy" else "")
        text = effect_verdict(e, result.rounds).text(scale, unit, digits)
        lines.append(f"{e.variant.label}, {what}: {text}")
    return lines


def _verdict_heading(result: CompareResult) -> str:
    return (f"verdicts: is each change clear at {result.rounds:,} deals, and if not, about how "
            "many deals would settle it (to within its own size, or when nearer zero to within "
            f"{stats.RESOLUTION_POINTS:g} points, {100 * stats.RESOLUTION_SHARE:g} pp, "
            f"{stats.RESOLUTION_TURNS:g} turns)")


def _header_lines(result: CompareResult, threads: int | None = None) -> list[str]:
    plan = result.plan
    k = len(plan.seats)
    lines = [
        f"baseline: {describe(plan.baseline, plan.preset)}",
        f"varied ({plan.design}, {len(plan.variants)} variant(s)): "
        + "; ".join(str(v) for v in plan.varies),
        f"{plan.players} players; " + (
            f"strategy {plan.names[0]} in every seat" if k == 1 else
            f"strategies {', '.join(plan.names)} in {k} seatings (each holds every seat once)")
        + f"; seed {plan.seed}",
    ]
    played = f"{result.rounds:,} deals x {len(plan.rule_sets)} rule sets" + \
        (f" x {k} seatings" if k > 1 else "") + f" = {result.rounds_played:,} rounds"
    if threads is not None:
        rate = f" ({result.played_now / result.seconds:,.0f} rounds/s)" \
            if result.played_now and result.seconds > 0 else ""
        lines.append(f"{played} in {result.seconds:.2f} s on {report.ran_on(threads)}{rate}")
        shards = f"{result.shards} shard(s) of up to {plan.shard_size:,} deals"
        if result.resumed:
            shards += f"; {result.resumed} loaded from an earlier run"
        lines.append(shards)
    else:
        lines.append(played)
    if result.until_width is not None:
        reached = "reached" if result.target_reached() else \
            "not reached (stopped at --max-rounds)"
        lines.append(f"target: every change's 95% half-width below {result.until_width:g} "
                     f"(points, turns, percentage points): {reached}")
    capped = [int(x) for x in result.sums.capped]
    if any(capped):
        lines.append("rounds stopped by the turn cap per rule set: "
                     + ", ".join(f"{c:,}" for c in capped))
    return lines


def format_compare(result: CompareResult, threads: int) -> str:
    """The text printed by ``golfsim compare``."""
    lines = _header_lines(result, threads)
    lines.append("every rule set replays the same deals; a change is variant - baseline with "
                 "its paired 95% interval (±)")
    for heading, header, rows in sections(result):
        lines += ["", heading]
        lines += text_table(tuple(header), [tuple(r) for r in rows], left={0, 1}
                        if header[1] == "strategy" else {0})
    lines += ["", _verdict_heading(result)] + [f"  {v}" for v in verdict_lines(result)]
    return "\n".join(lines)


def markdown(result: CompareResult) -> str:
    """compare.md: the rule-effect tables in Markdown."""
    plan = result.plan
    lines = [f"# Rule effects: {title(result)}", ""]
    lines += [f"- {line}" for line in _header_lines(result)]
    lines += ["", "Each cell of a rule change is variant minus baseline with the half-width of "
              "its paired 95% interval (the same deals on both sides); the baseline row gives "
              "the baseline's value with its 95% interval. Shares are in percent, their "
              "changes in percentage points. Lower scores are better."]
    for heading, header, rows in sections(result):
        lines += ["", f"## {heading[0].upper()}{heading[1:]}", ""]
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "|".join("---" if i in (0, 1) and header[1] == "strategy" or i == 0
                                    else "---:" for i in range(len(header))) + "|")
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", f"## {_verdict_heading(result)[0].upper()}{_verdict_heading(result)[1:]}",
              ""] + [f"- {v}" for v in verdict_lines(result)]
    letters = "ABCDEFGHIJKLMNOP"
    legend = ", ".join(f"{letters[j]} = {n}" for j, n in enumerate(plan.names))
    lines += ["", "Seatings (seat 0 first): "
              + ", ".join("".join(letters[x] for x in s) for s in plan.seats)
              + f" ({legend}). golfsim {version()}.", ""]
    return "\n".join(lines)


__all__ = ["CompareError", "CompareResult", "DESIGNS", "Plan", "SHARD_DIR", "ShardStore",
           "ShardSums", "StrategyError", "Variant", "Vary", "build_variants", "effect_verdict",
           "effects", "verdict_lines", "warnings",
           "format_compare", "frame", "make_plan", "markdown", "metadata", "observe", "sections",
           "parse_vary", "run", "seatings", "split_strategies", "warm_up", "widest_half_width"]
