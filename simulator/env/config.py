"""The arguments of golf_aec and golf_gym, checked once: the rule set, the table size, the
reward and the match length (docs/env.md)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import numpy as np

from simulator import api
from simulator.experiments.runner import check_policies
from simulator.game.rules import RuleError, Rules
from strategies import StrategyError, net, resolve, resolve_seats, user_policy
from strategies.reference import POLICIES

from .compiled_seat import builtin_id, is_user

REWARDS = ("score", "win")
# what golf_gym's opponents may play: the strategies the reference engine has in Python
PLAYABLE = tuple(POLICIES)


@dataclass(frozen=True)
class EnvConfig:
    rule_set: api.RuleSet
    players: int
    reward: str            # "score": minus the hole score; "win": the win share
    holes: int | None      # a match of this many holes, or
    target: int | None     # a match that ends when a total reaches this

    @property
    def rules(self) -> Rules:
        return self.rule_set.rules

    @property
    def match(self) -> bool:
        return bool(self.holes or self.target)


def make_config(preset, players, rules, reward, holes, target, options: dict) -> EnvConfig:
    """The checked arguments; a bad one raises GolfsimError naming it (one line)."""
    rs = api._rule_set(rules, preset, options or None, None)
    players = api._whole(players, "players")
    try:
        rs.rules.check_players(players)
    except RuleError as e:
        raise api.GolfsimError(str(e).replace("--players", "players", 1)) from None
    if reward not in REWARDS:
        raise api.GolfsimError(f"reward: {reward!r} is not one of "
                               f"{', '.join(repr(r) for r in REWARDS)}")
    holes = api._optional_count(holes, 1, api.MAX_HOLES, "holes")
    target = api._optional_count(target, 1, api.MAX_TARGET, "target")
    if holes and target:
        raise api.GolfsimError(f"holes={holes} and target={target}: a match ends by one or "
                               "the other; give one")
    api.check_match_length(rs, holes, target)
    return EnvConfig(rs, players, reward, holes, target)


def check_opponents(opponents, rules: Rules, players: int) -> list[str]:
    """golf_gym's opponents: one strategy for every other seat, or one per other seat, each a
    strategy the reference engine plays, a network, a compiled built-in (lookahead where
    golfsim plays it), or a user policy (its default: golfsim's default strategy)."""
    if opponents is None:
        opponents = [api.default_strategy(rules)]
    specs = [opponents] if isinstance(opponents, str) else list(opponents)
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise api.GolfsimError(f"opponents: {len(specs)} strategies for {players - 1} other "
                               "seats; give one (every other seat) or one per other seat")
    users = []
    for spec in specs:
        if not isinstance(spec, str):
            raise api.GolfsimError(f"opponents: {spec!r} is not a strategy name")
        if net.path_of(spec) is not None:
            check_net(spec, players)
            continue
        if is_user(spec):
            users.append(spec.strip())
            continue
        name = spec.strip().partition(":")[0]
        try:
            resolve(spec)
        except StrategyError as e:
            raise api.GolfsimError(f"opponents: {e}") from None
        if name not in PLAYABLE:
            check_compiled(spec, rules, players)
    if users:
        check_users(users)
    return [s.strip() for s in specs]


def check_users(specs: list[str]) -> None:
    """User policy opponents (``file.py:function[:k=v,...]``): one function for the table (as
    golfsim plays one a run), compiled here (compiled_seat.py UserSeat plays it)."""
    try:
        seats = resolve_seats(specs, len(specs))
        functions = sorted({s.user for s in seats})
        if len(functions) > 1:
            raise StrategyError("a table plays one user policy function, as one golfsim run "
                                "does; got " + ", ".join(f"{p}:{f}" for p, f in functions))
        user_policy(seats)
    except StrategyError as e:
        raise api.GolfsimError(f"opponents: {e}") from None


def check_compiled(spec: str, rules: Rules, players: int) -> None:
    """A compiled built-in opponent (heuristic, guide, ...): the env's seats play it from
    the reference engine's state (compiled_seat.py), in every rule set golfsim plays it in
    (lookahead: not those its rollouts' lean build lacks a feature of)."""
    spec = spec.strip()
    try:
        check_policies(rules, players, [builtin_id(spec)])
    except ValueError as e:
        raise api.GolfsimError(f"opponents: {spec!r}: {e}") from None


def check_net(spec: str, players: int) -> None:
    """A ``net:`` opponent: a network file for this table size."""
    try:
        found = net.load(net.path_of(spec))
    except net.NetError as e:
        raise api.GolfsimError(f"opponents: {spec.strip()}: {e}") from None
    if found.players != players:
        raise api.GolfsimError(f"opponents: {spec.strip()}: the network was made for "
                               f"{found.players} players, not {players}")


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or \
            not 0 <= seed <= api.MAX_SEED:
        raise api.GolfsimError(f"seed: {seed!r} is not allowed; expected a whole number from 0 "
                               f"to {api.MAX_SEED}")
    return int(seed)


class Seeding:
    """reset(seed=s) plays hole (or match) 0 of golfsim's seed s; each reset() without a
    seed the next one of the same seed (a seed drawn at random before any seeded reset)."""

    def __init__(self):
        self.seed = None
        self.index = 0

    def next(self, seed) -> tuple[int, int]:
        if seed is not None:
            self.seed, self.index = check_seed(seed), 0
        elif self.seed is None:
            self.seed, self.index = new_seed(), 0
        else:
            self.index += 1
        return self.seed, self.index


def new_seed() -> int:
    """A seed for a reset that names none before any seeded one."""
    return secrets.randbelow(api.MAX_SEED + 1)
