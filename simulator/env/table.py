"""golfsim's reference engine played one decision at a time, for the environments.

The reference engine (simulator/game/reference/, the power games' simulator/game/powers/)
asks a seat's policy deep inside its own calls (``policy.choose(obs)``); an environment is
told each action from outside (``step(action)``). The hole therefore runs in a greenlet: a seat
the env plays answers its question by switching back to the env's caller with the question,
and the caller's ``act(action)`` switches back in with the answer. A switch there and back
costs about a microsecond; a thread per table with two semaphores costs tens of them
(docs/env.md#speed).

The seats the env does not play (golf_gym's opponents) are the reference engine's own
strategies, networks (NetSeat), golfsim's compiled built-ins and user policies
(compiled_seat.CompiledSeat, UserSeat), played inside the hole without leaving it. The holes
are golfsim's: hole ``index`` of seed ``seed`` deals the cards golfsim's round ``index`` of
that seed deals, and a match is reference.play_match's match ``index`` (its holes rounds
``index * 1000 + h``).
"""

from __future__ import annotations

import operator
from fractions import Fraction

import greenlet

from simulator.api import GolfsimError
from simulator.game import codes as K
from simulator.game.reference import RoundRecord, play_match
from simulator.game.streams import STREAM_SEAT0, PyStream
from strategies.reference import POLICIES, policy_maker
from strategies.reference.referee import make_hole

from strategies import net

from .compiled_seat import seat_for
from .config import EnvConfig
from .observation import Views


class EnvSeat:
    """The policy of a seat the env plays: its question goes out of the game's greenlet to
    the env's caller, and the caller's answer comes back."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, obs) -> int:
        return greenlet.getcurrent().parent.switch((self.seat, obs))


class NetSeat:
    """A ``net:`` opponent at a reference table: the network's decision from the views of
    its seat, encoded as the env encodes an observation (the decision it takes on the
    compiled engine)."""

    def __init__(self, player: net.Net, game: "Game", position: int):
        self.player = player
        self.game = game
        self.position = position
        self.views = Views(game.config.rules, game.players)

    def choose(self, obs) -> int:
        x = self.views.observation(self.game.hole.state, self.position, self.position, obs)
        return self.player.decide(x, self.views.legal)


class Game:
    """One hole, or one match, as it is played: what the observation and the rewards read.

    Seats are physical seats (``player_k`` is seat k); in a match the hole's turn positions
    rotate, ``order[i]`` being the seat that plays at turn position i of the current hole.
    The game's greenlet holds the Game and never the Table, so that a Table dropped in the
    middle of a hole frees its greenlet (a suspended greenlet in a reference cycle is never
    collected)."""

    def __init__(self, config: EnvConfig, strategies: list[str], env_seats, seed: int,
                 index: int):
        self.config = config
        self.players = config.players
        self.strategies = strategies
        self.env_seats = env_seats
        self.seed, self.index = seed, index
        self.hole = None          # the reference Hole being played (or the last one)
        self.hole_round = 0       # its round index (golfsim's seed streams are per round)
        self.order = list(range(self.players))
        self.position = list(range(self.players))   # [seat]: its turn position in the hole
        self.holes: list[tuple[list[int], RoundRecord]] = []   # each finished hole
        self.match = None         # the MatchRecord once a match is over

    def play(self) -> None:
        c = self.config
        if c.match:
            self.match = play_match(c.rules, self.players, self.seed, self.index, c.holes or 0,
                                    c.target or 0, self.play_hole)
        else:
            self.play_hole(list(range(self.players)), self.index)

    def play_hole(self, order: list[int], round_index: int) -> dict:
        self.order = list(order)
        for i, seat in enumerate(order):
            self.position[seat] = i
        specs = [self.strategies[s] for s in order]
        nets = {i: net.load(net.path_of(spec)) for i, spec in enumerate(specs)
                if net.path_of(spec) is not None}
        compiled = {i for i, spec in enumerate(specs) if i not in nets and
                    order[i] not in self.env_seats and spec.partition(":")[0] not in POLICIES}
        hole = make_hole(self.config.rules, self.players,
                         ["random" if i in nets or i in compiled else spec
                          for i, spec in enumerate(specs)], self.seed, round_index)
        self.hole = hole
        for i, seat in enumerate(order):
            if seat in self.env_seats:
                hole.policies[i] = EnvSeat(seat)
            elif i in nets:
                hole.policies[i] = NetSeat(nets[i], self, i)
            elif i in compiled:
                stream = PyStream(self.seed, round_index, STREAM_SEAT0 + i)
                hole.policies[i] = seat_for(specs[i], self, i, stream)
        self.hole_round = round_index
        record = hole.play()
        self.holes.append((self.order, record))
        return {"scores": record.scores, "layout_values": record.layout_values,
                "ender": record.ender, "knocked": record.knocked, "layouts": record.layouts}

    def policy(self, seat: int, spec: str):
        """The reference strategy ``spec`` at ``seat``'s place in the current hole, drawing
        from golfsim's random stream of that place: ``policy.choose(decision)`` is the move
        golfsim's strategy makes there."""
        position = self.position[seat]
        stream = PyStream(self.seed, self.hole_round, STREAM_SEAT0 + position)
        return self.hole.new_policy(policy_maker(spec), position, stream)


class Table:
    """A :class:`Game` played to its end one decision of the env's seats at a time."""

    def __init__(self, config: EnvConfig):
        self.config = config
        self.players = config.players
        self.assign(range(self.players), {})
        self.game = None          # the Game being played (or the last one)
        self.pending = None       # (seat, Observation) of the decision the table waits for
        self.over = True
        self._paid = 0            # finished holes whose rewards were taken
        self._paid_match = False
        self._greenlet = None

    def assign(self, env_seats, opponents: dict[int, str]) -> None:
        """The seats the env plays from the next start on; ``opponents[seat]``: the reference
        strategy of every other seat."""
        self.env_seats = frozenset(env_seats)
        # the env's seats get a placeholder that EnvSeat replaces in every hole
        self.strategies = [opponents.get(s, "random") for s in range(self.players)]

    # ---- driving ------------------------------------------------------------------------------
    def start(self, seed: int, index: int) -> None:
        """Deal hole (or match) ``index`` of ``seed`` and play up to the first decision of an
        env seat, or to the end when none comes."""
        self.game = Game(self.config, self.strategies, self.env_seats, seed, index)
        self._paid = 0
        self._paid_match = False
        self.over = False
        self._greenlet = greenlet.greenlet(self.game.play)
        self._resume(self._greenlet.switch())

    def act(self, action) -> None:
        """The pending decision's answer; the table plays on to the next one (or the end)."""
        seat, obs = self.pending
        try:
            action = operator.index(action)
        except TypeError:
            action = None
        if action not in obs.legal:
            raise GolfsimError(
                f"action: {action} ({K.action_name(action) if action is not None else 'none'})"
                f" is not legal for player_{seat} at {K.DECISION_NAMES[obs.decision]}; legal: "
                f"{', '.join(f'{int(a)} ({K.action_name(a)})' for a in obs.legal)}")
        self._resume(self._greenlet.switch(action))

    def stop(self) -> None:
        """End the episode where it stands (the hole is dropped unfinished)."""
        self.pending = None
        self.over = True
        self._greenlet = None

    def _resume(self, asked) -> None:
        self.pending = asked
        if asked is None:
            self.over = True
            self._greenlet = None

    @property
    def decision(self):
        """The reference engine's Observation of the pending decision (None when none)."""
        return None if self.pending is None else self.pending[1]

    # ---- results -------------------------------------------------------------------------------
    def take_rewards(self) -> list[float] | None:
        """[seat]: the rewards of the holes finished since the last call, and of the match
        once it is over; None when there are none (most steps)."""
        if self._paid == len(self.game.holes) and (self._paid_match or not self.over):
            return None
        total = [0.0] * self.players
        while self._paid < len(self.game.holes):
            total = [a + b for a, b in zip(total, self.hole_rewards(self._paid))]
            self._paid += 1
        if self.over and self.game.match is not None and not self._paid_match:
            total = [a + b for a, b in zip(total, self.match_rewards())]
            self._paid_match = True
        return total

    def hole_rewards(self, k: int) -> list[float]:
        """[seat]: the reward of finished hole k (minus its score, or its win share)."""
        order, record = self.game.holes[k]
        scores = [0] * self.players
        for i, seat in enumerate(order):
            scores[seat] = record.scores[i]
        if self.config.reward == "score":
            return [float(-s) for s in scores]
        if self.config.match:
            return [0.0] * self.players   # a match's win is paid at its end
        return [float(x) for x in win_shares(scores)]

    def match_rewards(self) -> list[float]:
        """[seat]: the reward paid at the end of a match on top of its holes' rewards."""
        if self.config.reward == "score":
            return [0.0] * self.players
        return [float(w) for w in self.game.match.wins]


def win_shares(scores: list[int]) -> list[Fraction]:
    """A hole's win: the lowest score, shared by the seats that tie for it."""
    low = min(scores)
    n = scores.count(low)
    return [Fraction(int(s == low), n) for s in scores]
