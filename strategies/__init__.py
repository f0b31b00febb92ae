"""Strategies: the registry that turns a name such as ``greedy`` (or ``name:k=v,...``) into the
integer id and parameter row the compiled engine reads."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from simulator.game.cards import RANK_NAMES
from simulator.game.codes import N_PARAMS, POLICY_USER

from .builtin import (POLICY_EV, POLICY_FORGETFUL, POLICY_GREEDY, POLICY_GUIDE,
                      POLICY_HEURISTIC, POLICY_KNOCK_THRESHOLD, POLICY_OPPONENT_AWARE,
                      POLICY_RANDOM)
from . import net
from .common import ALL_RANKS
from .lookahead import POLICY_LOOKAHEAD, ROLLOUT_LAPS
from .race import MIN_DEALS as RACE_MIN_DEALS

RANK_SET_MAX = ALL_RANKS   # a set of ranks as bits (A=0 .. K=12, joker=13)
MAX_TURNS = 100_000        # the largest turn_cap a rule set may have
MAX_BUDGET = 1_000_000     # lookahead's deals per move (its cost grows linearly)
MAX_WIDTH = 16             # lookahead's positions per card: every one of the largest layout


@dataclass(frozen=True)
class Param:
    """A strategy parameter: its name, default, meaning and the values it accepts: a finite
    number in [lo, hi] (None: no bound on that side), a whole one when ``integer``. The one
    place the ranges live: ``allows`` (every --strategy, tune candidate and opponent goes
    through ``resolve``) and ``allowed_text`` (the error messages) read them."""
    name: str
    default: float
    doc: str
    lo: float | None = None
    hi: float | None = None
    integer: bool = False

    def allowed_text(self) -> str:
        if self.lo is not None and self.hi is not None:
            kind = "an integer" if self.integer else "a number"
            return f"{kind} from {_num(self.lo)} to {_num(self.hi)}"
        kind = "an integer" if self.integer else "a finite number"
        if self.lo is not None:
            return f"{kind} >= {_num(self.lo)}"
        if self.hi is not None:
            return f"{kind} <= {_num(self.hi)}"
        return kind

    def allows(self, value: float) -> bool:
        return (math.isfinite(value) and (self.lo is None or value >= self.lo) and
                (self.hi is None or value <= self.hi) and
                (not self.integer or float(value).is_integer()))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _rank_set(name, doc):
    return Param(name, float(ALL_RANKS), doc, 0, RANK_SET_MAX, integer=True)


# the guide's tables that overrule greedy's rule by rank, as (always, never) pairs, and what
# "always" does
GUIDE_SAYS = (("power_use", "power_skip", "a rank's power is always used"),
              ("snap_use", "snap_skip", "a rank is always snapped"),
              ("snap_opp_use", "snap_opp_skip", "a rank is always snapped"),
              ("match_use", "match_skip", "a rank is always matched"),
              ("blind_use", "blind_skip", "a rank is always matched blind"))


def _says_conflict(values: dict) -> str | None:
    """The guide's tables of powers, snaps and matches: a rank is always played, never
    played, or left to greedy's rule, so no rank may be in both tables of a pair."""
    for use, skip, always in GUIDE_SAYS:
        both = int(values[use]) & int(values[skip])
        if both:
            ranks = ", ".join(RANK_NAMES[r] for r in range(len(RANK_NAMES)) if (both >> r) & 1)
            return (f"parameters {use} and {skip} both hold {ranks}: {always} ({use}), "
                    f"never ({skip}) or left to greedy's rule (neither), not both")
    return None


def _no_rank_set(name, doc):
    """A rank set that starts empty (the guide's line and power tables: as greedy, no
    rank)."""
    return Param(name, 0.0, doc, 0, RANK_SET_MAX, integer=True)


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    policy_id: int
    summary: str
    params: tuple = ()  # Param, in the order of the policy's parameter row
    # what is wrong with its values taken together ({name: value} -> a message), or None
    conflict: Callable[[dict], str | None] | None = None


STRATEGIES = {
    "random": StrategyInfo("random", POLICY_RANDOM,
                           "uniform over the legal actions at every decision"),
    "greedy": StrategyInfo("greedy", POLICY_GREEDY,
                           "W1's policy (docs/benchmarks.md#w1): counts unseen cards, takes "
                           "the best one-step placement gain, otherwise draws"),
    "knock-threshold": StrategyInfo(
        "knock-threshold", POLICY_KNOCK_THRESHOLD,
        "W2's policy (docs/benchmarks.md#w2): knocks when its estimated score is at most T, "
        "otherwise plays greedy's placement rule with the cards it has not seen",
        params=(Param("T", 8.0, "knock when the estimated score is at most T"),)),
    "heuristic": StrategyInfo(
        "heuristic", POLICY_HEURISTIC,
        "a parametric rule-of-thumb player: takes low or pairing discards, replaces known "
        "cards only for a clear gain, keeps a card a while for its pair, ends the round only "
        "when its estimate is low enough",
        params=(Param("take_max", 4.0, "take the discard when its value is at most this (or "
                      "it makes a pair) and it has a placement"),
                Param("replace_min", 1.0, "replace a known card only when the estimated score "
                      "drops by at least this"),
                Param("hold", 3.0, "own turns a known unpaired card is kept waiting for its "
                      "pair", 0, MAX_TURNS, integer=True),
                Param("knock_at", 10.0, "knock, flip all, or turn up its last face-down card "
                      "only when its estimated score is at most this"),
                Param("aggression", 0.0, "0..1: an unknown card counts (1 + aggression) times "
                      "the mean unseen value when it decides whether to replace it", 0, 1))),
    "forgetful": StrategyInfo(
        "forgetful", POLICY_FORGETFUL,
        "knock-threshold with an imperfect memory: each own face-down card it knows is "
        "forgotten with probability decay per own turn (decay = 0: knock-threshold exactly)",
        params=(Param("T", 8.0, "knock when the estimated score is at most T"),
                Param("decay", 0.1, "probability per own turn of forgetting each remembered "
                      "face-down card of its own", 0, 1))),
    "opponent-aware": StrategyInfo(
        "opponent-aware", POLICY_OPPONENT_AWARE,
        "greedy that watches the next seat: it does not leave on the discard pile a card of a "
        "rank that seat is collecting when placing it otherwise costs at most care points "
        "(care = 0: greedy exactly)",
        params=(Param("care", 3.0, "points of estimated gain it gives up rather than feed "
                      "the next seat", 0),)),
    "lookahead": StrategyInfo(
        "lookahead", POLICY_LOOKAHEAD,
        "determinised Monte Carlo: tries knocking, drawing and the `width` best placements "
        "on up to `budget` random deals of the cards it has not seen (consistent with what it "
        "knows), plays each round on (`laps` laps, or to its end) with built-in models of "
        "every seat, and keeps the move with the best mean margin",
        params=(Param("T", 8.0, "knock games: its model of itself in rollouts knocks at an "
                      "estimated score of at most T"),
                Param("budget", 24.0, "deals a candidate move is tried on, at most (cost grows "
                      "linearly)", 1, MAX_BUDGET, integer=True),
                Param("width", 3.0, "positions tried for a card: the best ones by greedy's "
                      "estimate", 1, MAX_WIDTH, integer=True),
                Param("race", 2.0, f"after {RACE_MIN_DEALS} deals, stop trying a move once its "
                      "mean margin is this many standard errors worse than the best's "
                      "(paired, on the same deals); 0: every move on every deal", 0, 10),
                Param("laps", -1.0, "laps (a turn of each player) a rollout plays before it "
                      f"is scored; 0: to the end of the round; -1: {ROLLOUT_LAPS} where no knock "
                      "or call can end the round, else to its end", -1, 10000, integer=True),
                Param("expect", 1.0, "1: score a rollout's end with the cards nobody has seen "
                      "at their expectation, where layouts score sums or columns of pairs; "
                      "0: as dealt", 0, 1, integer=True))),
    "ev": StrategyInfo(
        "ev", POLICY_EV,
        "a card counter that compares expected values: takes the discard when it gains at "
        "least what drawing is expected to gain, ends the round only when well placed",
        params=(Param("T", 6.0, "end the round (knock, flip all, go out) only with an "
                      "estimated score of at most T"),
                Param("margin", 2.0, "... and at least this far below every opponent's "
                      "estimated score"))),
    "guide": StrategyInfo(
        "guide", POLICY_GUIDE,
        "follows a strategy guide's tables (`golfsim guide` writes them): greedy's counting "
        "and placement, with which discards to take and which drawn cards to keep looked up "
        "by rank and situation (pairs a card it knows; else early, late, last turn), the "
        "cards it builds lines of three with (where lines score), and thresholds for going "
        "out and knocking; the defaults play exactly as greedy",
        params=(_rank_set("take_pair", "ranks (bit r: A=0 .. K=12, joker=13) of a discard "
                          "it takes (when it has a placement) that pairs a card it knows"),
                _rank_set("take_early", "... that pairs none, early in the round (more than "
                          "a third of its cards unknown to it)"),
                _rank_set("take_late", "... that pairs none, later"),
                _rank_set("take_last", "... that pairs none, on its last turn (someone has "
                          "gone out)"),
                _rank_set("keep_pair", "ranks of a drawn card it keeps (else discards) when "
                          "it pairs a card it knows"),
                _rank_set("keep_early", "... pairing none, early"),
                _rank_set("keep_late", "... pairing none, later"),
                _rank_set("keep_last", "... pairing none, on its last turn"),
                Param("out", 1000.0, "the highest estimated score it goes out with (turning "
                      "its last face-down card up)"),
                Param("knock", -1000.0, "knock when its estimated score is at most this"),
                Param("reveal", 0.0, "initial reveal: 0 as greedy (lowest positions), 1 in "
                      "different columns, 2 in the same column", 0, 2, integer=True),
                Param("down", 0.0, "ranks of a kept card pairing nothing that it puts over its "
                      "first unknown face-down card (when below the mean of the unseen) "
                      "rather than where greedy's estimate gains most", 0, RANK_SET_MAX,
                      integer=True),
                _no_rank_set("take_line3", "in games scoring lines of three (line_sets): "
                             "ranks of a discard it takes to complete a line (two known cards "
                             "of the line match it), putting it there; it never breaks a "
                             "complete line of a rank in take_line3 or keep_line3"),
                _no_rank_set("take_line2", "... ranks of a discard it takes to join a line "
                             "holding one card that matches it (both other places of the "
                             "line open), over the place whose card is worth more"),
                _no_rank_set("keep_line3", "... ranks of a drawn card it keeps to complete a "
                             "line"),
                _no_rank_set("keep_line2", "... ranks of a drawn card it keeps to join a "
                             "line"),
                _no_rank_set("power_use", "in power-card games: ranks of a card drawn from "
                             "the stock that it does not keep whose power it always uses "
                             "(when it has a target)"),
                _no_rank_set("power_skip", "... whose power it never uses (the card is "
                             "discarded unused); a rank in neither: greedy's rule"),
                _no_rank_set("snap_use", "in games with snaps: ranks of a new top discard "
                             "it always snaps when it knows an own card of its key (even one "
                             "worth 0 or less)"),
                _no_rank_set("snap_skip", "... it never snaps with an own card; a rank in "
                             "neither: greedy's rule (an own card worth more than 0)"),
                _no_rank_set("snap_opp_use", "snap_mode cumbia: ranks of a new top discard "
                             "it always snaps when it knows an opponent's card of its key "
                             "(and snaps no card of its own)"),
                _no_rank_set("snap_opp_skip", "... it never snaps with an opponent's card; "
                             "neither: greedy's rule (when it knows an own card worth more "
                             "than 0 to give back)"),
                _no_rank_set("match_use", "in games with turn matches: ranks it always "
                             "matches when it knows cards of the key (Cabo: of the held card; "
                             "Pablo: of two or more own cards the held card replaces, "
                             "whatever they total)"),
                _no_rank_set("match_skip", "... it never matches; neither: greedy's rule"),
                _no_rank_set("blind_use", "turn_match_mode cabo_match: ranks of a held card "
                             "it does not place, knowing no card of its key, that it always "
                             "matches blind (when a card of the key is unseen)"),
                _no_rank_set("blind_skip", "... that it never matches blind; neither: "
                             "greedy's rule")),
        conflict=_says_conflict),
}


class StrategyError(ValueError):
    pass


# ``name=SPEC``: a short name for a strategy in every table and figure (a user policy's
# otherwise shows its whole path); a path whose first part holds "=" is written "./..."
_ALIAS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*=(.*)$", re.S)


def split_alias(spec: str) -> tuple[str | None, str]:
    """``mybot=path.py:decide`` -> ('mybot', 'path.py:decide'); a spec without an alias ->
    (None, spec). ``knock-threshold:T=8`` has none: an alias comes before any ":"."""
    m = _ALIAS.match(spec)
    if m is None or ":" in m.group(1):
        return None, spec
    return m.group(1), m.group(2).strip()


def label_of(spec: str) -> str:
    """What tables and figures call the strategy ``spec``: its alias, else the spec."""
    alias, rest = split_alias(spec)
    return alias or spec.strip()


@dataclass(frozen=True)
class Strategy:
    """A resolved strategy for one seat. ``spec`` is the text given (its alias included, so
    that it resolves again to the same strategy); ``label`` names it in tables and figures."""
    spec: str
    policy_id: int
    params: tuple
    user: tuple | None = None   # (file, function) of a user policy
    alias: str | None = None

    @property
    def label(self) -> str:
        return self.alias or self.spec

    @property
    def key(self) -> tuple:
        """What makes two strategies the same, whatever they are called."""
        return self.policy_id, self.params, self.user

    def param_row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        row[:len(self.params)] = self.params
        return row


def _parse_params(name: str, declared, arg_text: str) -> tuple:
    """``k=v,k2=v2`` against the declared parameters (``Param``, or a user policy's (name,
    default, doc) tuples), in declared order. A built-in's value must lie in its parameter's
    range; a user policy's may be anything but NaN."""
    specs = {p.name: p for p in (_as_param(d) for d in declared)}
    values = {k: p.default for k, p in specs.items()}
    if arg_text:
        for item in arg_text.split(","):
            k, eq, v = item.partition("=")
            if not eq or k not in values:
                allowed = ", ".join(f"{k} ({p.allowed_text()})"
                                    for k, p in specs.items()) or "none"
                raise StrategyError(f"strategy {name}: unknown parameter {item!r} "
                                    f"(parameters: {allowed})")
            spec = specs[k]
            try:
                x = float(v)
            except ValueError:
                raise StrategyError(f"strategy {name}: parameter {k} = {v!r} is not a number; "
                                    f"expected {spec.allowed_text()}") from None
            if not spec.allows(x):
                raise StrategyError(f"strategy {name}: parameter {k} = {v.strip()}: expected "
                                    f"{spec.allowed_text()}")
            values[k] = x
    return tuple(values[k] for k in specs)


def _as_param(declared) -> Param:
    """A user policy's (name, default, doc) declaration as a Param: any number but NaN."""
    if isinstance(declared, Param):
        return declared
    return _UserParam(declared[0], declared[1], declared[2] if len(declared) > 2 else "")


class _UserParam(Param):
    """A user policy's parameter: the policy decides what its values mean, so only NaN
    (which no comparison can use) is refused; infinities are allowed."""

    def allowed_text(self) -> str:
        return "any number but NaN"

    def allows(self, value: float) -> bool:
        return not math.isnan(value)


def resolve(spec: str) -> Strategy:
    """``greedy``, ``name:k=v,k2=v2``, or a user policy ``path/to/file.py:function[:k=v,...]``
    (docs/user_policies.md), each optionally named ``alias=...`` for the tables and figures;
    unknown names and parameters are clear errors."""
    spec = spec.strip()
    alias, rest = split_alias(spec)
    if alias is not None:
        if not rest:
            raise StrategyError(f"strategy {spec!r}: the alias {alias} names no strategy; "
                                f"write {alias}=SPEC, e.g. {alias}=path/to/file.py:decide")
        return replace(resolve(rest), spec=spec, alias=alias)
    if net.path_of(spec) is not None:
        return _resolve_net(spec)
    if ".py:" in spec or spec.endswith(".py"):
        return _resolve_user(spec)
    name, _, arg_text = spec.partition(":")
    info = STRATEGIES.get(name)
    if info is None:
        raise StrategyError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)} "
                            "(or a policy file: path/to/file.py:function)")
    params = _parse_params(name, info.params, arg_text)
    wrong = info.conflict(dict(zip((p.name for p in info.params), params))) \
        if info.conflict is not None else None
    if wrong:
        raise StrategyError(f"strategy {name}: {wrong}")
    return Strategy(spec, info.policy_id, params)


def _resolve_user(spec: str) -> Strategy:
    from simulator.kernel.policy_api import UserPolicyError, load_function
    path, _, rest = spec.partition(".py")
    path += ".py"
    function, _, arg_text = rest.lstrip(":").partition(":")
    if not function:
        raise StrategyError(f"strategy {spec!r}: name the function, as in {path}:decide")
    try:
        _, declared = load_function(path, function)
    except UserPolicyError as e:
        raise StrategyError(str(e)) from None
    params = _parse_params(f"{path}:{function}", declared, arg_text)
    if len(params) > N_PARAMS - 1:
        raise StrategyError(f"{path}: at most {N_PARAMS - 1} parameters")
    return Strategy(spec, POLICY_USER, params, user=(path, function))


def _resolve_net(spec: str) -> Strategy:
    """``net:path.npz``: a network file (strategies/net.py), played as a user policy whose
    parameters name the loaded network."""
    path = net.path_of(spec)
    if not path:
        raise StrategyError(f"strategy {spec!r}: name the network file, as in net:model.npz")
    try:
        found = net.load(path)
    except net.NetError as e:
        raise StrategyError(f"strategy {spec}: {e}") from None
    return Strategy(spec, POLICY_USER, found.param_row(),
                    user=(net.POLICY_FILE, net.POLICY_FUNCTION))


def check_net_players(strategies: list[Strategy], players: int) -> None:
    """A network plays only the table size its input is laid out for."""
    for s in strategies:
        path = net.path_of(split_alias(s.spec)[1])
        if path is not None and net.load(path).players != players:
            raise StrategyError(f"strategy {s.spec}: the network was made for "
                                f"{net.load(path).players} players, not {players}")


def user_policy(strategies: list[Strategy]):
    """The compiled user policy the seats share (None if no seat plays one). One run plays at
    most one user function (its seats may differ in parameters)."""
    from simulator.kernel.policy_api import UserPolicyError, compile_policy
    users = {s.user for s in strategies if s.user is not None}
    if not users:
        return None
    if len(users) > 1:
        raise StrategyError("one run can play one user policy function; got "
                            + ", ".join(f"{p}:{f}" for p, f in sorted(users)))
    try:
        return compile_policy(*users.pop())
    except UserPolicyError as e:
        raise StrategyError(str(e)) from None


def check_labels(strategies: list[Strategy]) -> None:
    """Raise StrategyError when one label (an alias, or a spec) names two different
    strategies: the tables could not tell them apart."""
    named: dict[str, Strategy] = {}
    for s in strategies:
        other = named.setdefault(s.label, s)
        if other.key != s.key:
            raise StrategyError(f"--strategy {s.spec}: the name {s.label} is already "
                                f"--strategy {other.spec}; give each strategy its own name")


def resolve_seats(specs: list[str], players: int) -> list[Strategy]:
    """One spec for every seat, or exactly one per seat."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise StrategyError(f"--strategy was given {len(specs)} times for {players} players: "
                            "give it once (all seats) or once per seat")
    seats = [resolve(s) for s in specs]
    check_labels(seats)
    check_net_players(seats, players)
    return seats


def seat_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([s.policy_id for s in strategies], dtype=np.int64)
    params = np.stack([s.param_row() for s in strategies])
    return ids, params
