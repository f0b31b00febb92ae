"""Experiments: cut a run of rounds into chunks, play them on threads, add up the sums.

Round ``i`` of a run with seed ``s`` is always the same deal and the same random choices,
whichever thread plays it and however the rounds are cut, and all sums are integers, so the
totals are identical for any thread count or chunk size.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace

import numpy as np

from ..game import codes as K
from strategies import compiled

from ..kernel import builds
from . import behind, policy_faults
from ..kernel import pick
from ..kernel.engine import (ERR_CONSERVATION, ERR_ILLEGAL_ACTION, ERR_LOG_FULL, ERR_NO_TURNS,
                             MATCH_SCRATCH, State, pack_rules, policy_table)
from ..kernel.tally import (ACC_ENDER, ACC_SCORE_SQ, ACC_SCORE_SUM, ACC_WIN_K0, HIST_BINS,
                            HIST_OFFSET, MACC_POT_SQ, MACC_POT_SUM, MACC_TOTAL_SQ, MACC_TOTAL_SUM,
                            MACC_WIN_K0, MTOT_HOLES_SQ, MTOT_HOLES_SUM, MTOT_MATCHES, N_ACC, N_MACC,
                            N_MTOT, N_TOT, TOT_CAPPED, TOT_ENDED, TOT_KNOCKER_WIN_K0, TOT_KNOCKS,
                            TOT_RESHUFFLES, TOT_ROUNDS, TOT_TURNS_SQ, TOT_TURNS_SUM)
from ..kernel.flow import rules_eligible
from ..kernel.located import located
from ..kernel.policy_api import (NO_USER_POLICY, inlinable, user_build, user_build_ready,
                                 user_kernel)
from ..kernel.lanes import GAIN_LIMIT
from ..kernel.policy_tools import cache_fits
from ..kernel.features import lacking, needed_from_ri
from ..game.rules import UNPLAYABLE, RuleArrays, RuleError, Rules, flatten

DEFAULT_CHUNK = 65536


class PolicyError(RuntimeError):
    """A policy returned an action that is not legal at that decision point (or raised an
    exception). ``round_index`` is the round (the match, in match play) where it happened,
    when known; ``seat`` the seat whose policy it was."""

    def __init__(self, message: str, round_index: int | None = None, seat: int | None = None):
        super().__init__(message)
        self.round_index = round_index
        self.seat = seat


# After a Ctrl-C the chunks in flight get this long to finish; one that does not is stuck in
# a policy that never returns (compiled code cannot be interrupted): the run then stops
# without it, and ``STUCK`` tells the command line to end the process without waiting for it.
STUCK_AFTER_S = 3.0
STUCK = threading.Event()


class _Sums:
    """Integer arrays that add up exactly, array by array: those ``shapes`` names, each
    made zero when not given. ``COUNT``: the array and slot counting the rounds (matches)
    summed; ``WINS``: the array and first column of each seat's wins in a k-way tie
    (column k-1)."""
    COUNT: tuple[str, int]
    WINS: tuple[str, int]

    def shapes(self) -> dict[str, tuple]:
        raise NotImplementedError

    def __post_init__(self):
        for name, shape in self.shapes().items():
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(shape, dtype=np.int64))

    def add(self, other: "_Sums") -> None:
        for name in self.shapes():
            mine = getattr(self, name)
            np.add(mine, getattr(other, name), out=mine)

    def count(self) -> int:
        name, slot = self.COUNT
        return int(getattr(self, name)[slot])

    def win_counts(self) -> np.ndarray:
        name, first = self.WINS
        return getattr(self, name)[:, first:first + K.MAX_PLAYERS]

    def win_share(self) -> np.ndarray:
        """Each seat's share of the wins (a k-way tie counts 1/k)."""
        return _share(self.win_counts(), self.count())

    def se_win(self) -> np.ndarray:
        return _share_se(self.win_counts(), self.count())


def _counted(slot: int, doc: str) -> property:
    """A count of Totals: slot ``slot`` of its ``tot``."""
    return property(lambda self: int(self.tot[slot]), doc=doc)


@dataclass
class Totals(_Sums):
    """Integer sums over rounds; two Totals of disjoint rounds add up exactly."""
    players: int
    acc: np.ndarray = None
    tot: np.ndarray = None
    hist: np.ndarray = None
    COUNT, WINS = ("tot", TOT_ROUNDS), ("acc", ACC_WIN_K0)

    def shapes(self) -> dict[str, tuple]:
        return {"acc": (self.players, N_ACC), "tot": (N_TOT,),
                "hist": (self.players, HIST_BINS)}

    # ---- derived statistics ------------------------------------------------------------------
    @property
    def rounds(self) -> int:
        return self.count()

    def mean_score(self) -> np.ndarray:
        return self.acc[:, ACC_SCORE_SUM] / max(self.rounds, 1)

    def se_score(self) -> np.ndarray:
        return _se(self.acc[:, ACC_SCORE_SUM], self.acc[:, ACC_SCORE_SQ], self.rounds)

    def ender_share(self) -> np.ndarray:
        return self.acc[:, ACC_ENDER] / max(self.rounds, 1)

    def mean_turns(self) -> float:
        return float(self.tot[TOT_TURNS_SUM] / max(self.rounds, 1))

    def se_turns(self) -> float:
        return float(_se(self.tot[TOT_TURNS_SUM], self.tot[TOT_TURNS_SQ], self.rounds))

    capped = _counted(TOT_CAPPED, "Rounds stopped by the turn cap.")
    reshuffles = _counted(TOT_RESHUFFLES, "Discard piles shuffled into a new stock.")
    ended = _counted(TOT_ENDED, "Rounds with an ender.")
    knocks = _counted(TOT_KNOCKS, "Rounds ended by a knock.")

    def knocker_win_share(self) -> float:
        """Share of the knock rounds that the knocker won (k-way ties count 1/k)."""
        return float(_share(self.tot[TOT_KNOCKER_WIN_K0:TOT_KNOCKER_WIN_K0 + K.MAX_PLAYERS],
                            self.knocks))

    def se_knocker_win_share(self) -> float:
        return float(_share_se(self.tot[TOT_KNOCKER_WIN_K0:TOT_KNOCKER_WIN_K0 + K.MAX_PLAYERS],
                               self.knocks))

    def score_histogram(self) -> tuple[np.ndarray, np.ndarray]:
        """(scores, counts[seat, bin]) trimmed to the occupied range."""
        occupied = np.nonzero(self.hist.sum(axis=0))[0]
        if occupied.size == 0:
            return np.zeros(0, dtype=np.int64), self.hist[:, :0]
        lo, hi = occupied[0], occupied[-1] + 1
        return np.arange(lo, hi) - HIST_OFFSET, self.hist[:, lo:hi]


@dataclass
class MatchTotals(_Sums):
    """Integer sums over whole matches (match play); they add up like Totals."""
    players: int
    macc: np.ndarray = None
    mtot: np.ndarray = None
    # a match is won with the lowest total
    COUNT, WINS = ("mtot", MTOT_MATCHES), ("macc", MACC_WIN_K0)

    def shapes(self) -> dict[str, tuple]:
        return {"macc": (self.players, N_MACC), "mtot": (N_MTOT,)}

    @property
    def matches(self) -> int:
        return self.count()

    def _seat_mean(self, column: int) -> np.ndarray:
        return self.macc[:, column] / max(self.matches, 1)

    def _seat_se(self, column: int, square: int) -> np.ndarray:
        return _se(self.macc[:, column], self.macc[:, square], self.matches)

    def mean_total(self) -> np.ndarray:
        return self._seat_mean(MACC_TOTAL_SUM)

    def se_total(self) -> np.ndarray:
        return self._seat_se(MACC_TOTAL_SUM, MACC_TOTAL_SQ)

    def mean_pot(self) -> np.ndarray:
        """Each seat's mean pot balance at a match's end (winnings less antes and payments)."""
        return self._seat_mean(MACC_POT_SUM)

    def se_pot(self) -> np.ndarray:
        return self._seat_se(MACC_POT_SUM, MACC_POT_SQ)

    def mean_holes(self) -> float:
        return float(self.mtot[MTOT_HOLES_SUM] / max(self.matches, 1))

    def se_holes(self) -> float:
        return float(_se(self.mtot[MTOT_HOLES_SUM], self.mtot[MTOT_HOLES_SQ], self.matches))


def _win_sums(wins: np.ndarray):
    """(the sum of the shares, the sum of their squares) of win counts whose last axis is k-1
    for k-way ties, each of which counts 1/k."""
    k = np.arange(1, K.MAX_PLAYERS + 1)
    return (wins / k).sum(axis=-1), (wins / k ** 2).sum(axis=-1)


def _share(wins: np.ndarray, n: int):
    """The mean share of ``n`` rounds (or matches) from their win counts (_win_sums)."""
    return _win_sums(wins)[0] / max(n, 1)


def _share_se(wins: np.ndarray, n: int):
    return _se(*_win_sums(wins), n)


def _se(total, total_sq, n):
    """Standard error of the mean from a sum and a sum of squares."""
    if n < 2:
        return np.zeros_like(np.asarray(total, dtype=float))
    mean = np.asarray(total, dtype=float) / n
    var = (np.asarray(total_sq, dtype=float) - n * mean * mean) / (n - 1)
    return np.sqrt(np.maximum(var, 0.0) / n)


@dataclass
class PerRound:
    """Every played round's index, per-seat scores and turn count (only with --per-round)."""
    rounds: np.ndarray
    scores: np.ndarray
    turns: np.ndarray


@dataclass
class RunResult:
    rules: Rules
    players: int
    strategies: list
    seed: int
    totals: Totals
    seconds: float
    per_round: PerRound | None = None
    complete: bool = True
    error: str | None = None
    played: list = field(default_factory=list)   # (start, count) of every chunk summed
    match_totals: MatchTotals | None = None      # match play only
    holes: int = 0                               # match play: holes per match, or
    target: int = 0                              # the total that ends a match
    resumed: int = 0                             # rounds (matches) loaded from a store
    build: str = ""                              # the build that played (pick.build)


@dataclass
class Job:
    """What the kernel needs besides the round range."""
    arrays: RuleArrays
    rt: np.ndarray      # packed rules (engine.pack_rules)
    par: np.ndarray     # policy table (engine.policy_table)
    seed: int
    check: bool = False
    build: str = "general"   # the build that plays it (simulator/kernel/pick.py)
    user: object = None  # the compiled user policy (policy_api), or its no-op stand-in
    user_chunk: object = None  # the user build's chunk function (policy_api.user_kernel)
    own_chunk: object = None   # a built-in's own build's chunk function (own_kernel)
    policies: tuple = ()  # the general engine's table of compiled built-ins (strategies.compiled)
    explain: bool = True  # a user policy's fault is told by playing its round again (policy_error)

    @property
    def lean(self) -> bool:
        return self.build == "lean"

    @property
    def powers(self) -> bool:
        return self.build == "powers"

    def chunk(self, turns: bool = True):
        """The chunk function of the build that plays this job's single holes (``turns``
        False: to compile it, its turn loop apart, pick.module)."""
        if self.user_chunk is not None:
            return self.user_chunk
        if self.own_chunk is not None:
            return self.own_chunk
        return pick.module(self.build, turns, rt=self.rt, policy_ids=self.policy_ids).chunk_nb

    @property
    def policy_ids(self) -> list[int]:
        return [int(p) for p in self.par[:int(self.rt[K.R_PLAYERS]), 0]]

    @property
    def compiles(self) -> str | None:
        """The name under which this job's single holes are compiled (builds.compiling)."""
        return None if self.build == "user" else self.build   # (user_kernel tells its own)

    @property
    def match_build(self) -> str:
        """The name under which this job's match play is compiled (builds.compiling)."""
        return f"{self.build}:matches"

    def on_engine(self) -> Job:
        """This job on the general engine (its powers build for a power-card game), where a
        user policy runs under its guard."""
        ids = [int(p) for p in self.par[:, 0]]
        build = pick.build(self.arrays.ri, ids, "powers" if self.powers else "general")
        return replace(self, build=build, user_chunk=None, own_chunk=None,
                       policies=self.policies or compiled.table(ids, None, build == "powers"))


KERNELS = pick.KERNELS


def make_job(rules: Rules, players: int, policy_ids, params, seed: int, check=False,
             kernel: str = "auto", user=None, notify=None,
             arrays: RuleArrays | None = None) -> Job:
    """The job of a run: its rules, seats and seed, on the build pick.build chooses for
    ``kernel`` ("auto": the fastest that plays it exactly; "general", "lean", "powers": that
    build). ``arrays``: the rules as check_policies returned them, when the caller has
    checked them already (else they are flattened and checked here)."""
    if arrays is None:
        arrays = check_policies(rules, players, policy_ids)
    if user is not None and not cache_fits.py_func(arrays.ri):
        # no option allows such values today; a user policy's best_position would misplace
        # cards silently, so the run refuses instead
        raise ValueError(
            f"rules: {int(arrays.ri[K.R_NCARDS])} cards with values up to "
            f"{int(arrays.ri[K.R_MAX_ABS_VALUE])} overflow simulator.kernel.policy_tools' 32-bit "
            f"search (5 x cards x largest |value| must stay below {GAIN_LIMIT:,}); "
            f"user policies cannot play them")
    build = build_of(arrays, policy_ids, kernel, user, check, start_behind=True,
                     notify=notify)
    user_chunk = user_kernel(user, notify) if build == "user" else None
    own_chunk = own_kernel(build) if build.startswith("own:") else None
    policies = () if build in ("lean", "cabo", "user") or own_chunk is not None else \
        compiled.table(policy_ids, notify, build == "powers" or pick.powers(arrays.ri))
    return Job(arrays, pack_rules(arrays), policy_table(policy_ids, params), int(seed), check,
               build=build, user=NO_USER_POLICY if user is None else user,
               user_chunk=user_chunk, own_chunk=own_chunk, policies=policies)


# the built-ins with a build of their own (policy id -> NAME of "own:NAME"): all but lookahead,
# whose rollouts would compile the lean build into it
OWN_BUILDS = {p: compiled.build_name(p) for p in compiled.ENTRIES if p != K.POLICY_LOOKAHEAD}
# the ones ``auto`` takes (and compiles behind a first run): those their own build makes at
# least 1.15x as fast as the table build (docs/performance.md): random, forgetful,
# opponent-aware, guide and heuristic play on the lean flow there (1.6x for heuristic, to 4x).
OWN_WORTH = ("random", "forgetful", "opponent-aware", "guide", "ev", "heuristic")
OWN_AUTO = {p: n for p, n in OWN_BUILDS.items() if n in OWN_WORTH}


def _own_args(build: str) -> tuple[str, str]:
    """(name, build lines) of the built-in's own build ``build`` ("own:NAME"), as
    builds.flow_build takes them."""
    policy_id = next(p for p, n in OWN_BUILDS.items() if f"own:{n}" == build)
    return build, builds.own_lines(OWN_BUILDS[policy_id], *compiled.ENTRIES[policy_id])


def own_kernel(build: str):
    """The chunk function of the built-in's own build ``build`` ("own:NAME"), written into
    the cache folder when new (builds.flow_build), compiled on its first call."""
    return builds.flow_build(*_own_args(build)).chunk_nb


def own_file(build: str):
    """Where the built-in's own build ``build`` ("own:NAME") is written."""
    return builds.flow_build_file(*_own_args(build))


def build_of(arrays: RuleArrays, policy_ids, kernel: str = "auto", user=None,
             check: bool = False, start_behind: bool = False, notify=None) -> str:
    """The build a job of these seats plays on (pick.build). A policy's own build not
    compiled yet (a user policy's, or a built-in's unless ``kernel`` is "own"): the build
    that plays it through its pointer or the built-ins' table (the table build, or the
    general one), so that a first run does not wait minutes for it (with ``start_behind``,
    that build's compile starts in the background and ``notify`` is told)."""
    own = OWN_BUILDS if kernel == "own" else OWN_AUTO if behind.own_taken() else None
    user_inline = user is not None and inlinable(user)
    build = pick.build(arrays.ri, policy_ids, kernel, user_inline, check, own)
    if build == "user" and not (behind.waits() or user_build_ready(user)):
        if start_behind:
            behind.compile_behind(*user_build(user), notify)
        build = pick.build(arrays.ri, policy_ids, kernel, False, check, own)
    if build.startswith("own:") and kernel != "own" and not (
            behind.own_waits() or builds.flow_build_compiled(own_file(build))):
        if start_behind:
            behind.compile_own_behind(build, own_file(build), notify)
        build = pick.build(arrays.ri, policy_ids, kernel, user_inline, check)
    return build


def builds_text(names) -> str:
    """The metadata's ``build`` of a command that plays several jobs: every build named in
    ``names`` (each a name or such a text) once, sorted, comma-separated; a command that
    plays on one build records its name, as a run does."""
    return ",".join(sorted({n for name in names for n in name.split(",") if n}))


def refuse_powers(arrays: RuleArrays) -> None:
    """Rules that need a feature neither the general build nor its powers build has
    (simulator/kernel/features.py) are refused in one line instead of being played without
    it. The powers build has every feature, so today this never refuses; it stays so that a
    feature added later without a build refuses instead of playing wrong."""
    need = needed_from_ri(arrays.ri)
    if lacking("general", need) and lacking("powers", need):
        raise RuleError(UNPLAYABLE)


def check_policies(rules: Rules, players: int, policy_ids) -> RuleArrays:
    """Refuse rules no build plays and strategies that cannot play these rules (ValueError
    with the reason); returns the rules flattened (the tables a run's job is made of)."""
    arrays = flatten(rules, players)
    refuse_powers(arrays)
    ri = arrays.ri
    # in the power-card games lookahead's rollouts play a powers build of their own
    # (strategies/lookahead_powers.py), else the lean build
    if any(int(p) == K.POLICY_LOOKAHEAD for p in policy_ids) and not pick.powers(ri) and \
            not rules_eligible(ri, "lean"):
        lacks = lacking("lean", needed_from_ri(ri))
        raise ValueError(
            "strategy lookahead: its rollouts run on the lean kernel, which does not play "
            "these rules (" + (f"it lacks {', '.join(lacks)}" if lacks else
                               "the layout or the card values are beyond its bounds") + ")")
    return arrays


def new_state(job: Job, players: int):
    """Scratch arrays for one thread playing ``job``."""
    return State(players)


def play_chunk(job: Job, start: int, count: int, state: State | None = None,
               per_round: bool = False, layouts: bool = False):
    """Play rounds [start, start+count) and return (Totals, per-round arrays or None, played).
    Raises PolicyError when a policy chose an illegal action. ``count`` 0 compiles (or loads)
    the build's chunk, without its turn loop (pick.module)."""
    players = int(job.arrays.ri[K.R_PLAYERS])
    st = state or new_state(job, players)
    t = Totals(players)
    pr_scores = np.zeros((count if per_round else 0, players), dtype=np.int64)
    pr_turns = np.zeros(count if per_round else 0, dtype=np.int64)
    pr_lay = np.zeros((count if layouts else 0, players, K.MAX_POS), dtype=np.int16)
    try:
        with located():   # every build of the game flow takes the same arguments
            played = job.chunk(count > 0)(
                job.seed, start, count, job.rt, job.par, *st.arrays(), t.acc, t.tot, t.hist,
                pr_scores, pr_turns, pr_lay, job.check, job.user, job.policies, st.aux)
    except Exception:   # noqa: BLE001 - an exception of the user's policy, re-found below
        if job.user_chunk is None:
            raise
        # A policy's own build inlines it unguarded (a guarded call costs a third of its
        # speed), so an exception it raises leaves the build without a round or a decision.
        # The general engine plays the same rounds with the policy under its guard
        # (policy_api) and says where.
        return play_chunk(job.on_engine(), start, count, None, per_round, layouts)
    extra = (pr_scores, pr_turns, pr_lay)
    if played < count:
        r = start + played
        raise policy_error(job, st.out, r, "round", lambda again: play_chunk(again, r, 1))
    return t, extra, played


def play_match_chunk(job: Job, start: int, count: int, holes: int, target: int,
                     state: State | None = None):
    """Play matches [start, start+count); returns (hole Totals, MatchTotals, played)."""
    players = int(job.arrays.ri[K.R_PLAYERS])
    st = state or State(players)
    t = Totals(players)
    mt = MatchTotals(players)
    par_rot = job.par.copy()
    match_total = np.zeros(MATCH_SCRATCH, dtype=np.int64)
    with located():
        played = pick.module(job.build, count > 0, rt=job.rt,
                             policy_ids=job.policy_ids).play_matches_nb(
            job.seed, start, count, holes, target, job.rt, job.par, par_rot, *st.arrays(),
            t.acc, t.tot, t.hist, match_total, mt.macc, mt.mtot, job.check, job.user,
            job.policies, st.aux)
    if played < count:
        m = start + played
        raise policy_error(job, st.out, m, "match",
                           lambda again: play_match_chunk(again, m, 1, holes, target))
    return t, mt, played


def play_logged_round(arrays, policy_ids, params, seed: int, round_index: int,
                      check: bool = True, log_cap: int = 8192, user=None,
                      notify=None, match=None, kernel: str = "general") -> dict:
    """Play one round through the compiled kernel with its move log (for parity tests and
    debugging). Log rows are (turn, seat, decision point, action, held card). ``match``:
    (hole, holes, target, each seat's total before the hole in turn order) when the round is
    a hole of a match, as the policies see it (codes.PUB_HOLE ...). ``kernel`` "cabo": on
    the Cabo build (its rules and seats only; no invariant checks), else the general one."""
    name = pick.build(arrays.ri, policy_ids, "cabo" if kernel == "cabo" else "general")
    players = int(arrays.ri[K.R_PLAYERS])
    st = State(players, log_cap)
    rt = pack_rules(arrays)
    if name == "cabo":
        with builds.compiling(name, notify), located():
            st.g[K.G_PRIV + K.PRIV_LOG_N] = 0
            pick.module(name).round_nb(seed, round_index, rt, st.g, st.rng, st.log, st.out,
                                       st.scores, st.L, st.quads, st.extra, st.tmp)
        out = _logged_round(st, True, players, K.MAX_POS)
        span = out["span"]   # (beyond it the build keeps no knowledge: every position empty)
        out["known"][:, :, span:] = K.EMPTY0 + np.arange(span, K.MAX_POS)
        return out
    powers = name == "powers"
    if match is not None:
        st.show_match(*match)
    par = policy_table(policy_ids, params)
    user = NO_USER_POLICY if user is None else user
    policies = compiled.table(policy_ids, notify, powers)
    with builds.compiling(name, notify), located():
        build = pick.module(name, notify=notify, rt=rt, policy_ids=policy_ids, log=True)
        ok = build.round_nb(seed, round_index, rt, par, *st.arrays(), True, check, user,
                            policies, st.aux)
    # a power-card game's layouts may grow beyond the grid: all positions
    return _logged_round(st, ok, players, K.MAX_POS if powers else int(arrays.ri[K.R_NPOS]))


def _logged_round(st: State, ok, players: int, npos: int) -> dict:
    """play_logged_round's answer from the state the round left, its layouts and what each
    seat knows cut to ``npos`` positions."""
    n = max(int(st.out[K.OUT_LOG_N]), 0)
    lay = st.g[K.G_LAY:K.G_LAY + players * K.MAX_POS].reshape(players, K.MAX_POS)[:, :npos]
    known = st.g[K.G_KNOWN:K.G_KNOWN + K.MAX_PLAYERS * K.MAX_PLAYERS * K.MAX_POS].reshape(
        K.MAX_PLAYERS, K.MAX_PLAYERS, K.MAX_POS)[:players, :players, :npos]
    return {"ok": bool(ok), "log": st.log[:n].copy(), "scores": st.scores.copy(),
            "known": known.astype(np.int16),   # [observer, seat, pos] at the end: card or -1
            "layout_values": st.L.copy(), "layouts": lay.astype(np.int16),
            "turns": int(st.out[K.OUT_TURNS]), "ender": int(st.out[K.OUT_ENDER]),
            "capped": bool(st.out[K.OUT_CAPPED]), "reshuffles": int(st.out[K.OUT_RESHUFFLES]),
            "knocked": bool(st.out[K.OUT_KNOCKED]), "error": int(st.out[K.OUT_ERROR]),
            "span": int(st.g[K.G_PRIV + K.PRIV_SPAN]), "out": st.out.copy()}


def policy_error(job: Job, out: np.ndarray, index: int, unit: str, play_again) -> PolicyError:
    """The PolicyError of the fault ``out`` reports at round (or, with unit "match", match)
    ``index`` of ``job``. A user policy's fault is told from playing that round (match)
    again, ``play_again(job)``, with the policy's inputs recorded (policy_faults): the
    message of the exception it raised, or its answer with all its bits."""
    fault = None
    if job.explain and int(out[K.OUT_ERROR]) == ERR_ILLEGAL_ACTION:
        fault = _user_fault(job, out, play_again)
    return PolicyError(describe_error(out, index, unit, fault), index, int(out[K.OUT_ERR_SEAT]))


def _user_fault(job: Job, out: np.ndarray, play_again) -> str | None:
    """policy_faults.explain of the fault in ``out``, or None when no user policy plays."""
    recorder = policy_faults.recorder(job.user)
    if recorder is None:
        return None
    again = replace(job.on_engine(), rt=policy_faults.with_tail(job.rt), user=recorder,
                    explain=False)
    try:
        play_again(again)
    except PolicyError:
        pass   # the same fault, its inputs recorded this time
    return policy_faults.explain(job.user, again.rt, out)


def describe_error(out: np.ndarray, round_index: int, unit: str = "round",
                   fault: str | None = None) -> str:
    """The kernel's error in ``out`` at round (or, with unit "match", match) ``round_index``;
    ``fault``: what the policy did, when known better than ``out`` says (policy_error)."""
    from ..game.codes import DECISION_NAMES, action_name
    code = int(out[K.OUT_ERROR])
    where = f"{unit} {round_index}"
    if code == ERR_ILLEGAL_ACTION:
        action = int(out[K.OUT_ERR_ACTION])
        policy = f"{where}: the policy of seat {int(out[K.OUT_ERR_SEAT])}"
        point = f"decision point '{DECISION_NAMES[int(out[K.OUT_ERR_POINT])]}'"
        if fault is None and action == K.ACTION_RAISED:
            return (f"{policy} raised an exception at {point} (an error in its code, such as "
                    "an index out of range; run its function in plain Python on that "
                    "decision to see it)")
        if fault is None and not (0 <= action < K.N_ACTIONS or K.is_reveal_set(action)):
            fault = policy_faults.out_of_range(action)
        if fault is not None:
            return f"{policy}, at {point}, {fault}"
        return f"{policy} chose {action_name(action)}, which is not legal at {point}"
    if code == ERR_CONSERVATION:
        return f"{where}: card conservation or counter invariant broken"
    if code == ERR_LOG_FULL:
        return f"{where}: the move log is full"
    if code == ERR_NO_TURNS:
        return (f"{where}: the build played before its turn loop was loaded (a build's module "
                "is taken from simulator.kernel.pick.module, which loads it)")
    return f"{where}: engine error {code}"


def wait_all(futures, cancel=None) -> None:
    """Wait for every future; if any ends with an exception, cancel those not yet started,
    wait for the running ones, and raise the exception of the earliest submitted future that
    ended with one. A pool starts its futures in the order they were submitted, so every
    future submitted before that one has been played: the error raised (a policy error's
    round, say) is the first in submission order whichever thread met it first. The wait
    wakes every quarter second so that the main thread stays responsive to Ctrl-C; on an
    interruption the futures not yet started are cancelled, ``cancel()`` is called (the
    running ones that wait for a cluster then end at once: cluster.cancel) and the running
    ones waited for before it propagates."""
    futures = list(futures)
    pending = set(futures)
    failed = False
    try:
        while pending and not failed:
            done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            failed = any(f.exception() is not None for f in done)
    except BaseException:
        for f in pending:
            f.cancel()
        if cancel is not None:
            cancel()
        wait(pending)
        raise
    if failed:
        for f in pending:
            f.cancel()
        wait(pending)
        for f in futures:
            if not f.cancelled() and f.exception() is not None:
                raise f.exception()


CHECKPOINT_SECONDS = 1.0   # a run with a store saves its state at most this often


def run(rules: Rules, players: int, policy_ids, params, rounds: int, seed: int,
        threads: int = 1, chunk_size: int = DEFAULT_CHUNK, per_round: bool = False,
        progress=None, strategies=None, check: bool = False, holes: int = 0,
        target: int = 0, kernel: str = "auto", user=None, store=None,
        executor=None, arrays: RuleArrays | None = None) -> RunResult:
    """Play ``rounds`` rounds on ``threads`` threads; ``progress(n)`` is called as chunks end.
    With ``holes`` or ``target`` each unit is a whole match instead (``rounds`` matches).
    ``user`` is the compiled user policy (policy_api.compile_policy) played by the seats whose
    policy id is policy_api.POLICY_USER.

    Chunks are handed out a few at a time, so a Ctrl-C stops the run after the chunks in
    flight. On a policy error or an interruption the chunks already summed are kept and the
    result is marked incomplete with the reason, so whatever was computed can be written.

    ``store`` (shards.RunStore, opened) keeps the state on disk: every CHECKPOINT_SECONDS,
    and when the run ends or stops, the sums of the chunks finished and which rounds they
    are (and, with ``per_round``, their rounds). A run given the store of a killed or
    interrupted one plays only the rounds missing there; the sums are integers, so the result
    is the uninterrupted run's. Writing the state may raise OSError (report.WriteError).

    ``executor`` plays the chunks elsewhere (cluster.executor: each a task of a Dask
    cluster); None plays them on this process's threads. It has ``threads()`` (how many
    chunks it plays at once), ``job(rules, players, policy_ids, params, seed, check,
    kernel, user)`` (what it needs to make the job where it plays), ``play(job, start,
    count, per_round, holes, target)`` (Totals, MatchTotals or None, scores, turns; raises
    PolicyError as play_chunk does) and ``cancel()`` (stop waiting for the chunks in
    flight). ``arrays``: the rules as check_policies returned them, when already checked."""
    match_mode = holes > 0 or target > 0
    # whole matches run through the general engine only
    kernel = "general" if match_mode else kernel
    job = make_job(rules, players, policy_ids, params, seed, check, kernel, user,
                   arrays=arrays)
    chunk_size = max(1, min(chunk_size, rounds)) if rounds else 1
    r = _Run(job, players, rounds, per_round, holes, target, strategies, progress, store)
    if executor is not None:   # every chunk is played there; more of them in flight than
        # it has threads, so that none waits for the next
        r.executor = executor
        r.remote = executor.job(rules, players, policy_ids, params, seed, check, kernel, user)
        threads = 2 * executor.threads()
    interrupted, stuck = _drive(remaining(rounds, chunk_size, r.loaded), threads, r.work,
                                r.errors, r.checkpoint, r.cancel)
    if store is not None and r.unsaved:
        r.save()
    return r.result(rules, strategies, seed, interrupted, stuck)


class _Run:
    """What one run sums as its chunks end, on any thread: the totals, the per-round scores,
    the chunks played, the policy errors; and its store's state (run)."""

    def __init__(self, job: Job, players: int, rounds: int, per_round: bool, holes: int,
                 target: int, strategies, progress, store):
        self.job, self.players, self.per_round = job, players, per_round
        self.holes, self.target, self.progress, self.store = holes, target, progress, store
        self.names = list(strategies or [])
        self.match_mode = holes > 0 or target > 0
        self.totals = Totals(players)
        self.match_totals = MatchTotals(players) if self.match_mode else None
        self.pr_scores = np.zeros((rounds if per_round else 0, players), dtype=np.int64)
        self.pr_turns = np.zeros(rounds if per_round else 0, dtype=np.int64)
        self.local = threading.local()
        self.lock = threading.Lock()
        self.errors: list[tuple[int, str]] = []   # (round of the policy error, its message)
        self.played: list[tuple[int, int]] = []
        self.unsaved: list[tuple[int, int]] = []  # chunks finished since the store's last save
        self.executor = self.remote = None
        self.loaded, self.before = [], 0.0
        if store is not None:
            self.loaded, self.before = _resume(store, rounds, players, self.totals,
                                               self.match_totals,
                                               self.pr_scores if per_round else None,
                                               self.pr_turns)
            self.played.extend(self.loaded)
            if progress is not None and self.loaded:
                progress(sum(n for _, n in self.loaded))
        self.t0 = self.last_save = time.perf_counter()

    def _state(self) -> State:
        st = getattr(self.local, "state", None)
        if st is None:
            st = self.local.state = new_state(self.job, self.players)
        return st

    def cancel(self) -> None:   # the chunks waiting for the executor's answer end at once
        if self.executor is not None:
            self.executor.cancel()

    def _play(self, start: int, count: int):
        if self.remote is not None:
            return self.executor.play(self.remote, start, count, self.per_round, self.holes,
                                      self.target)
        if self.match_mode:
            t, mt, _ = play_match_chunk(self.job, start, count, self.holes, self.target,
                                        self._state())
            return t, mt, None, None
        t, (s, tr, _), _ = play_chunk(self.job, start, count, self._state(),
                                      per_round=self.per_round)
        return t, None, s, tr

    def work(self, start: int, count: int) -> None:
        with self.lock:   # after a policy error only the rounds before it are played
            if self.errors and min(self.errors)[0] < start:
                return
        try:
            t, mt, s, tr = self._play(start, count)
        except PolicyError as e:
            message = str(e)
            if e.seat is not None and 0 <= e.seat < len(self.names):   # name the policy too
                seat = f"the policy of seat {e.seat}"
                message = message.replace(seat, f"{seat} ({self.names[e.seat]})", 1)
            with self.lock:
                self.errors.append((start if e.round_index is None else e.round_index,
                                    message))
            return
        with self.lock:
            self.totals.add(t)
            if self.match_mode:
                self.match_totals.add(mt)
            self.played.append((start, count))
            self.unsaved.append((start, count))
            if self.per_round:
                self.pr_scores[start:start + count] = s
                self.pr_turns[start:start + count] = tr
        if self.progress is not None:
            self.progress(count)

    def save(self) -> None:
        """The store's state: the sums and the rounds of every chunk finished so far."""
        with self.lock:
            arrays = {"acc": self.totals.acc.copy(), "tot": self.totals.tot.copy(),
                      "hist": self.totals.hist.copy()}
            if self.match_mode:
                arrays.update(macc=self.match_totals.macc.copy(),
                              mtot=self.match_totals.mtot.copy())
            done = merged(self.played)
            taken = len(self.unsaved)
            new = sorted(self.unsaved)
        new_rounds = None
        if self.per_round and new:   # those slices are written once, before being listed
            idx = np.concatenate([np.arange(a, a + n) for a, n in new])
            new_rounds = (np.array(new, dtype=np.int64), self.pr_scores[idx],
                          self.pr_turns[idx])
        self.store.save_state(arrays, done, self.before + time.perf_counter() - self.t0,
                              new_rounds)
        with self.lock:   # saved: chunks are only ever appended, so these are the first ones
            del self.unsaved[:taken]

    def checkpoint(self) -> None:
        """The store's state saved when CHECKPOINT_SECONDS have passed since the last."""
        if self.store is not None and self.unsaved and \
                time.perf_counter() - self.last_save >= CHECKPOINT_SECONDS:
            self.save()
            self.last_save = time.perf_counter()

    def result(self, rules, strategies, seed: int, interrupted: bool,
               stuck: bool) -> RunResult:
        seconds = self.before + time.perf_counter() - self.t0
        result = RunResult(rules, self.players, list(strategies or []), seed, self.totals,
                           seconds, played=sorted(self.played),
                           match_totals=self.match_totals, holes=self.holes,
                           target=self.target, resumed=sum(n for _, n in self.loaded),
                           build=self.job.build)
        if self.per_round:
            idx = np.concatenate([np.arange(a, a + n) for a, n in result.played]) \
                if self.played else np.zeros(0, dtype=np.int64)
            result.per_round = PerRound(idx, self.pr_scores[idx], self.pr_turns[idx])
        if self.errors or interrupted:
            result.complete = False
            # the first round that failed, by number: chunks are handed out in order and
            # every one handed out is finished, so no earlier round can have failed unseen
            result.error = min(self.errors)[1] if self.errors else "interrupted (Ctrl-C)"
            if stuck:
                result.error += (f"; a policy was still deciding {STUCK_AFTER_S:g} s later "
                                 "(it may never return), so the rounds it was playing are "
                                 "not kept")
        return result


def merged(ranges) -> list[tuple[int, int]]:
    """(start, count) ranges of rounds as the fewest disjoint ones covering the same rounds,
    in order."""
    out: list[list[int]] = []
    for a, n in sorted(ranges):
        if out and a <= out[-1][0] + out[-1][1]:
            out[-1][1] = max(out[-1][1], a + n - out[-1][0])
        else:
            out.append([a, n])
    return [(a, n) for a, n in out]


def remaining(rounds: int, chunk_size: int, done):
    """(start, count) chunks of at most ``chunk_size`` rounds covering [0, rounds) but the
    ranges in ``done``, in order (made as they are needed: a long run has many)."""
    pos = 0
    for a, n in merged(done) + [(rounds, 0)]:
        while pos < min(a, rounds):
            count = min(chunk_size, a - pos)
            yield pos, count
            pos += count
        pos = max(pos, a + n)


def _drive(chunks, threads: int, work, errors: list, checkpoint,
           cancel) -> tuple[bool, bool]:
    """Hand ``chunks`` to ``work`` on ``threads`` threads, twice as many in flight, until
    they are played or a policy error is met (``errors`` not empty), ``checkpoint()`` after
    each wait. Returns (interrupted, stuck). After a Ctrl-C the chunks not started never
    start, ``cancel()`` ends the waits for an executor's answers, and those in flight get
    STUCK_AFTER_S to end (one that does not is stuck: ``STUCK``). A crash (an exception of
    ``work`` or of ``checkpoint``, not a policy error) stops everything and is raised, never
    hidden."""
    interrupted, crash, stuck = False, None, False
    pool = ThreadPoolExecutor(max_workers=max(1, threads))
    pending: set = set()
    try:
        try:
            while True:
                while not errors and len(pending) < 2 * threads:
                    chunk = next(chunks, None)
                    if chunk is None:
                        break
                    pending.add(pool.submit(work, *chunk))
                if not pending:
                    break
                # a short timeout keeps the main thread responsive to Ctrl-C
                done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                crash = next((f.exception() for f in done if f.exception() is not None), None)
                if crash is not None:
                    break
                checkpoint()
        except KeyboardInterrupt:
            interrupted = True
            for f in pending:   # those not started yet never start
                f.cancel()
            cancel()
            stuck = bool(wait(pending, timeout=STUCK_AFTER_S).not_done)
        except Exception as e:   # the state could not be saved: stop as after a crash
            crash = e
            for f in pending:
                f.cancel()
            cancel()
            wait(pending)
    finally:
        if crash is not None:
            cancel()
        pool.shutdown(wait=not stuck, cancel_futures=True)
    if stuck:
        STUCK.set()
    if crash is not None:
        raise crash
    return interrupted, stuck


def _resume(store, rounds: int, players: int, totals: Totals, match_totals, pr_scores,
            pr_turns) -> tuple[list[tuple[int, int]], float]:
    """Add the state kept in ``store`` to the sums (and rounds); returns the ranges it holds
    and the seconds spent on them. Anything that does not fit is noted and played again."""
    shapes = {"acc": totals.acc.shape, "tot": totals.tot.shape, "hist": totals.hist.shape}
    if match_totals is not None:
        shapes.update(macc=match_totals.macc.shape, mtot=match_totals.mtot.shape)
    state = store.load_state(shapes)
    if state is None:
        return [], 0.0
    done = merged(state["played"])
    if any(a < 0 or n < 1 or a + n > rounds for a, n in done):
        store.notes.append("the kept run state names rounds beyond --rounds; playing the whole "
                           "run again")
        store.reset()
        return [], 0.0
    if pr_scores is not None:
        covered = []
        for seq in state["rounds_files"]:
            got = store.load_rounds(seq, players)
            if got is None:
                store.reset()
                return [], 0.0
            ranges, scores, turns = got
            at = 0
            for a, n in ranges:
                a, n = int(a), int(n)
                if a < 0 or a + n > rounds:
                    break
                pr_scores[a:a + n] = scores[at:at + n]
                pr_turns[a:a + n] = turns[at:at + n]
                at += n
                covered.append((a, n))
        if merged(covered) != done:
            store.notes.append("the kept rounds do not match the kept run state; playing the "
                               "whole run again")
            store.reset()
            return [], 0.0
    totals.acc += state["acc"]
    totals.tot += state["tot"]
    totals.hist += state["hist"]
    if match_totals is not None:
        match_totals.macc += state["macc"]
        match_totals.mtot += state["mtot"]
    return done, state["seconds"]

