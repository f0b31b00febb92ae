"""Strategies: the registry that turns a name such as ``greedy`` (or ``name:k=v,...``) into the
integer id and parameter row the compiled engine reads."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .builtin import (ALL_RANKS, POLICY_EV, POLICY_FORGETFUL, POLICY_GREEDY, POLICY_GUIDE,
                      POLICY_HEURISTIC, POLICY_KNOCK_THRESHOLD, POLICY_OPPONENT_AWARE,
                      POLICY_RANDOM)
from .lookahead import POLICY_LOOKAHEAD

N_PARAMS = 12


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    policy_id: int
    summary: str
    params: tuple = ()  # (name, default, doc)


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
        params=(("T", 8.0, "knock when the estimated score is at most T"),)),
    "heuristic": StrategyInfo(
        "heuristic", POLICY_HEURISTIC,
        "a parametric rule-of-thumb player: takes low or pairing discards, replaces known "
        "cards only for a clear gain, keeps a card a while for its pair, ends the round only "
        "when its estimate is low enough",
        params=(("take_max", 4.0, "take the discard when its value is at most this (or it "
                 "makes a pair) and it has a placement"),
                ("replace_min", 1.0, "replace a known card only when the estimated score "
                 "drops by at least this"),
                ("hold", 3.0, "own turns a known unpaired card is kept waiting for its pair"),
                ("knock_at", 10.0, "knock, flip all, or turn up its last face-down card only "
                 "when its estimated score is at most this"),
                ("aggression", 0.0, "0..1: an unknown card counts (1 + aggression) times the "
                 "mean unseen value when it decides whether to replace it"))),
    "forgetful": StrategyInfo(
        "forgetful", POLICY_FORGETFUL,
        "knock-threshold with an imperfect memory: each own face-down card it knows is "
        "forgotten with probability decay per own turn (decay = 0: knock-threshold exactly)",
        params=(("T", 8.0, "knock when the estimated score is at most T"),
                ("decay", 0.1, "probability per own turn of forgetting each remembered "
                 "face-down card of its own"))),
    "opponent-aware": StrategyInfo(
        "opponent-aware", POLICY_OPPONENT_AWARE,
        "greedy that watches the next seat: it does not leave on the discard pile a card of a "
        "rank that seat is collecting when placing it otherwise costs at most care points "
        "(care = 0: greedy exactly)",
        params=(("care", 3.0, "points of estimated gain it gives up rather than feed the "
                 "next seat"),)),
    "lookahead": StrategyInfo(
        "lookahead", POLICY_LOOKAHEAD,
        "determinised Monte Carlo: tries knocking, drawing and the `width` best placements "
        "on `budget` random deals of the cards it has not seen (consistent with what it "
        "knows), plays each round out with built-in models of every seat, and keeps the move "
        "with the best mean margin",
        params=(("T", 8.0, "knock games: its model of itself in rollouts knocks at an "
                 "estimated score of at most T"),
                ("budget", 24.0, "deals tried per candidate move (cost grows linearly)"),
                ("width", 3.0, "positions tried for a card: the best ones by greedy's "
                 "estimate"))),
    "ev": StrategyInfo(
        "ev", POLICY_EV,
        "a card counter that compares expected values: takes the discard when it gains at "
        "least what drawing is expected to gain, ends the round only when well placed",
        params=(("T", 6.0, "end the round (knock, flip all, go out) only with an estimated "
                 "score of at most T"),
                ("margin", 2.0, "... and at least this far below every opponent's "
                 "estimated score"))),
    "guide": StrategyInfo(
        "guide", POLICY_GUIDE,
        "follows a strategy guide's tables (`golfsim guide` writes them): greedy's counting "
        "and placement, with which discards to take and which drawn cards to keep looked up "
        "by rank and situation (pairs a card it knows; else early, late, last turn), and "
        "thresholds for going out and knocking; the defaults play exactly as greedy",
        params=(("take_pair", float(ALL_RANKS), "ranks (bit r: A=0 .. K=12, joker=13) of a "
                 "discard it takes (when it has a placement) that pairs a card it knows"),
                ("take_early", float(ALL_RANKS), "... that pairs none, early in the round "
                 "(more than a third of its cards face down)"),
                ("take_late", float(ALL_RANKS), "... that pairs none, later"),
                ("take_last", float(ALL_RANKS), "... that pairs none, on its last turn "
                 "(someone has gone out)"),
                ("keep_pair", float(ALL_RANKS), "ranks of a drawn card it keeps (else "
                 "discards) when it pairs a card it knows"),
                ("keep_early", float(ALL_RANKS), "... pairing none, early"),
                ("keep_late", float(ALL_RANKS), "... pairing none, later"),
                ("keep_last", float(ALL_RANKS), "... pairing none, on its last turn"),
                ("out", 1000.0, "the highest estimated score it goes out with (turning its "
                 "last face-down card up)"),
                ("knock", -1000.0, "knock when its estimated score is at most this"),
                ("reveal", 0.0, "initial reveal: 0 as greedy (lowest positions), 1 in "
                 "different columns, 2 in the same column"),
                ("down", 0.0, "ranks of a kept card pairing nothing that it puts over its "
                 "first unknown face-down card (when below the mean of the unseen) rather "
                 "than where greedy's estimate gains most"))),
}


class StrategyError(ValueError):
    pass


@dataclass(frozen=True)
class Strategy:
    """A resolved strategy for one seat."""
    spec: str
    policy_id: int
    params: tuple
    user: tuple | None = None   # (file, function) of a user policy

    def param_row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        row[:len(self.params)] = self.params
        return row


def _parse_params(name: str, declared, arg_text: str) -> tuple:
    """``k=v,k2=v2`` against the declared (name, default, doc) parameters, in declared order."""
    values = {p[0]: p[1] for p in declared}
    if arg_text:
        for item in arg_text.split(","):
            k, eq, v = item.partition("=")
            if not eq or k not in values:
                allowed = ", ".join(values) or "none"
                raise StrategyError(f"strategy {name}: unknown parameter {item!r} "
                                    f"(parameters: {allowed})")
            try:
                values[k] = float(v)
            except ValueError:
                raise StrategyError(f"strategy {name}: parameter {k} = {v!r} is not a number") \
                    from None
    return tuple(values[p[0]] for p in declared)


def resolve(spec: str) -> Strategy:
    """``greedy``, ``name:k=v,k2=v2``, or a user policy ``path/to/file.py:function[:k=v,...]``
    (docs/user_policies.md); unknown names and parameters are clear errors."""
    spec = spec.strip()
    if ".py:" in spec or spec.endswith(".py"):
        return _resolve_user(spec)
    name, _, arg_text = spec.partition(":")
    info = STRATEGIES.get(name)
    if info is None:
        raise StrategyError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)} "
                            "(or a policy file: path/to/file.py:function)")
    return Strategy(spec, info.policy_id, _parse_params(name, info.params, arg_text))


def _resolve_user(spec: str) -> Strategy:
    from simulator.kernel.policy_api import POLICY_USER, UserPolicyError, load_function
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


def resolve_seats(specs: list[str], players: int) -> list[Strategy]:
    """One spec for every seat, or exactly one per seat."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise StrategyError(f"--strategy was given {len(specs)} times for {players} players: "
                            "give it once (all seats) or once per seat")
    return [resolve(s) for s in specs]


def seat_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([s.policy_id for s in strategies], dtype=np.int64)
    params = np.stack([s.param_row() for s in strategies])
    return ids, params
