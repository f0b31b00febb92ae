"""A compiled built-in (heuristic, guide, forgetful, opponent-aware, ev, ...) as a golf_gym
opponent at a reference table.

The reference engine asks ``policy.choose(obs)``; a built-in is a compiled function of the
engine's whole state array ``g`` (strategies/builtin.py). :class:`CompiledSeat` fills, before
each of its decisions, every slot of ``g`` a built-in reads from the reference hole's state
(the public slots with their counts and sums, the seat's knowledge row, the face-up flags, the
discard pile, the face-down counts, the legal mask, the match), keeps the seat's memory and
scratch across its decisions within the hole (zero at the hole's start, as the engine clears
them), and draws from golfsim's random stream of its turn position (the same state the kernel
keeps), so that it makes the decisions it makes in ``golfsim run`` with the same seed.

In the power-card games (simulator/game/powers/) it fills what the powers build publishes
besides (power_views.py: the effect asked about, its target seat, shields, the top discard's
unused power, the Dutch 8's two cards, the peek records, layouts of up to MAX_POS positions).

:class:`LookaheadSeat` plays ``lookahead`` in the rule sets golfsim plays it in: besides a
built-in's slots it fills what its deals and rollouts read of the engine's state
(strategies/lookahead.py ``_load_nb``): the true cards of every layout (it keeps those the
seat knows, and deals the others anew), what each seat knows of its own layout (a seat goes
on knowing, in a rollout, the card dealt where it knew one) and the policy table of the whole
table (its rollouts model each seat from its row). The rollouts' own state (g's spare flow
states) is rebuilt from those at every decision, and their stream is reseeded from the seat's.
In the power-card games (:class:`PowerLookaheadSeat`) its rollouts copy the powers build's
whole state (strategies/lookahead_powers.py ``_load_nb``), filled besides from the reference
state (power_views.fill_rollout_state).

:class:`UserSeat` plays a user policy (``path/to/file.py:function[:k=v,...]``,
docs/user_policies.md) the same way: the same state array filled, the same random stream, and
the policy called with the views the engine passes it (slices of that array: simulator/kernel/
flow/ask.py ``_ask``) and its seat's row of the policy table.
"""

from __future__ import annotations

import numpy as np

from simulator.api import GolfsimError
from simulator.game import codes as K
from simulator.game.rules import uses_power_engine
from simulator.game.streams import STREAM_SEAT0
from simulator.kernel.engine import policy_table
from simulator.kernel.rng import N_STREAMS
from simulator.kernel.policy_api import call_user
from strategies import net, resolve, resolve_seats, seat_arrays, user_policy
from strategies.compiled import ENTRIES, call_nb, entry

from . import power_views
from .observation import Views

ONCE = {"left": K.ONCE_LEFT, "spent": K.ONCE_SPENT, "seen": K.ONCE_SEEN}
N_SEAT = K.MAX_PLAYERS * K.MAX_POS


def is_user(spec: str) -> bool:
    """Is ``spec`` a user policy (``file.py:function``, maybe with parameters or an alias)?"""
    return ".py" in spec and net.path_of(spec) is None


def builtin_id(spec: str) -> int | None:
    """The policy id of ``spec`` when it is a compiled built-in (not a network or a policy
    file), else None."""
    if ".py" in spec or spec.strip().startswith("net:"):
        return None
    policy_id = int(resolve(spec).policy_id)
    return policy_id if policy_id in ENTRIES else None


class CompiledSeat:
    """Turn position ``position`` of the current hole played by built-in ``spec``, drawing
    from ``stream`` (golfsim's stream of that position in this round)."""

    def __init__(self, spec: str, game, position: int, stream):
        rules, players = game.config.rules, game.players
        self.game = game
        self.position = position
        self.stream = stream
        self.views = Views(rules, players)
        self.rt = self.views.rules
        strategies = resolve_seats([spec], players)
        ids, params = seat_arrays(strategies)
        self.par = policy_table(ids, params)
        self.powers = uses_power_engine(rules)
        self.fn = self.compiled(strategies)
        self.value = self.rt[K.RT_VALUE:K.RT_VALUE + K.N_CARD_TABLE]
        self.g = np.zeros(K.G_SIZE, dtype=np.int32)   # memory and scratch: zero, kept
        self.g[K.G_KNOWN:K.G_KNOWN + K.MAX_PLAYERS * N_SEAT] = -1
        self.rng = np.zeros(N_STREAMS, dtype=np.uint64)
        self.aux = np.zeros(K.POLICY_SCRATCH, dtype=np.int64)
        # the knowledge row's slots beyond the table (seats not playing; in a plain round the
        # positions past the layout), which the engine leaves as its state array starts them
        at = np.arange(N_SEAT)
        self.beyond = at // K.MAX_POS >= players
        if not self.powers:
            self.beyond |= at % K.MAX_POS >= self.rt[K.R_NPOS]

    def compiled(self, strategies):
        """The compiled function the seat calls (its built-in's entry point; in a power-card
        game, the one it plays them with)."""
        return entry(int(self.par[self.position, 0]), powers=self.powers)

    def choose(self, obs) -> int:
        me = self.position
        point, held = self.fill(obs)
        s = STREAM_SEAT0 + me
        self.rng[s] = self.stream.state
        action = self.decide(point, held)
        self.stream.state = int(self.rng[s])
        return action

    def decide(self, point: int, held: int) -> int:
        """The compiled decision on the filled state (the stream in ``rng``)."""
        return int(call_nb(self.fn, point, self.position, held, self.g, self.rt, self.rng,
                           self.par, self.aux))

    def fill(self, obs) -> tuple[int, int]:
        """Every slot of ``g`` the built-ins read, from the reference hole's state."""
        st, me, v, g = self.game.hole.state, self.position, self.views, self.g
        point, held = v.fill(st, me, me, obs)
        pub = v.public
        if self.powers:
            power_views.fill_public(pub, st, obs)
        else:
            pub[K.PUB_TARGET_SEAT] = 0      # a plain round never sets it
        pub[K.PUB_FINAL_LEFT] = -1 if st.final_turns_left is None else st.final_turns_left
        pub[K.PUB_DISCARD_SUM] = self.value[v.discard[:len(st.discard)]].sum()
        # the layouts as the views' mirror holds them (brought up to st by v.fill)
        cards = v.cards
        up = cards[(v.up != 0) & (cards >= 0) & (cards < K.EMPTY0)]
        pub[K.PUB_FACEUP_N], pub[K.PUB_FACEUP_SUM] = up.size, self.value[up].sum()
        pub[K.PUB_HELD_PUBLIC] = held if held >= 0 and power_views.held_public(
            st, obs, self.game.config.rules.private_stock_draw) else -1
        g[K.G_PUB:K.G_PUB + pub.size] = pub
        m = obs.match
        g[K.G_PUB + K.PUB_HOLE], g[K.G_PUB + K.PUB_HOLES] = m.hole, m.holes
        g[K.G_PUB + K.PUB_TARGET] = m.target
        g[K.G_PUB + K.PUB_REVEAL_PICKS] = obs.reveal_picks
        totals = g[K.G_PUB + K.PUB_TOTAL0:K.G_PUB + K.PUB_TOTAL0 + K.MAX_PLAYERS]
        totals[:] = 0
        totals[:len(m.totals)] = m.totals
        g[K.G_LEGAL:K.G_LEGAL + K.N_ACTIONS] = v.legal
        g[K.G_UP:K.G_UP + N_SEAT] = v.faceup
        row = K.G_KNOWN + me * N_SEAT
        g[row:row + N_SEAT] = v.known
        g[row:row + N_SEAT][self.beyond] = 0   # never written by the engine: zero
        g[K.G_DISCARD:K.G_DISCARD + K.MAX_IDS] = v.discard
        # G_LAY tells an empty position from a card only: no hidden card is copied there
        g[K.G_LAY:K.G_LAY + N_SEAT] = np.where(cards >= K.EMPTY0, cards, -1)
        for i, cells in enumerate(st.layouts):   # (a slice per layout: numpy's slot writes cost)
            at = i * K.MAX_POS
            g[K.G_ONCE + at:K.G_ONCE + at + len(cells)] = [ONCE[cell.once] for cell in cells]
        if self.powers:
            power_views.fill_cells(g, st, me, self.game.players)
        return point, held


class UserSeat(CompiledSeat):
    """Turn position ``position`` played by user policy ``spec`` (``file.py:function``, with
    its parameters): the state array filled as for a built-in, and the policy called with the
    engine's views of it, as the engine calls it (ask.py ``_ask``)."""

    def __init__(self, spec: str, game, position: int, stream):
        super().__init__(spec, game, position, stream)
        self.spec = spec
        me, g = position, self.g
        known = K.G_KNOWN + me * N_SEAT
        memory = K.G_MEMORY + me * K.MEMORY_SLOTS
        s = STREAM_SEAT0 + me
        # views of g (slices share its memory): the fill writes them, the policy reads them
        self.args = (g[K.G_PUB:K.G_PUB + K.N_PUBLIC], g[K.G_LEGAL:K.G_LEGAL + K.N_ACTIONS],
                     g[known:known + N_SEAT], g[K.G_UP:K.G_UP + N_SEAT],
                     g[K.G_DISCARD:K.G_DISCARD + K.MAX_IDS],
                     g[memory:memory + K.MEMORY_SLOTS], self.rt, self.rng[s:s + 1],
                     self.par[me])

    def compiled(self, strategies):
        return user_policy(strategies)

    def decide(self, point: int, held: int) -> int:
        a = int(call_user(self.fn, point, self.position, held, *self.args))
        if not self.allowed(point, a):
            raise GolfsimError(self.fault(point, a))
        return a

    def allowed(self, point: int, a: int) -> bool:
        """Would the engine take answer ``a`` (ask.py ``_checked``)?"""
        g = self.g
        if 0 <= a < K.N_ACTIONS and g[K.G_LEGAL + a]:
            return True
        return point == K.DP_REVEAL and K.REVEAL_SET < a < 2 * K.REVEAL_SET and \
            g[K.G_PUB + K.PUB_REVEAL_PICKS] > 0

    def fault(self, point: int, a: int) -> str:
        """The one line an answer the engine refuses is reported in (runner.describe_error)."""
        seat = self.game.order[self.position]
        where = (f"opponents: {self.spec} at player_{seat}, round {self.game.hole_round}, "
                 f"decision point '{K.DECISION_NAMES[point]}'")
        if a == K.ACTION_RAISED:
            return (f"{where}: the policy raised an exception (an error in its code, such as "
                    "an index out of range; run its function in plain Python on that decision "
                    "to see it)")
        return f"{where}: the policy chose {K.action_name(a)}, which is not legal"


class LookaheadSeat(CompiledSeat):
    """Turn position ``position`` played by ``lookahead`` (with its parameters) in a plain
    rule set: the state array filled as for a built-in, and what its rollouts read besides."""

    def __init__(self, spec: str, game, position: int, stream):
        super().__init__(spec, game, position, stream)
        self.par = table_par(game)

    def fill(self, obs) -> tuple[int, int]:
        point, held = super().fill(obs)
        st, g, me = self.game.hole.state, self.g, self.position
        for i, cells in enumerate(st.layouts):
            at = i * K.MAX_POS
            g[K.G_LAY + at:K.G_LAY + at + len(cells)] = [cell.card for cell in cells]
            if i != me:   # (its own row is the seat's views, filled above)
                own = K.G_KNOWN + (i * K.MAX_PLAYERS + i) * K.MAX_POS
                g[own:own + len(cells)] = [cell.card if i in cell.known_to else -1
                                           for cell in cells]
        return point, held


class PowerLookaheadSeat(LookaheadSeat):
    """``lookahead`` in a power-card game: its powers entry, and the powers build's state its
    rollouts copy (power_views.fill_rollout_state)."""

    def fill(self, obs) -> tuple[int, int]:
        point, held = super().fill(obs)
        power_views.fill_rollout_state(self.g, self.game.hole.state, self.game.players)
        return point, held


def table_par(game) -> np.ndarray:
    """The policy table of the hole's turn positions as golfsim run has it: each opponent's
    strategy, and ``greedy`` for a seat the env plays (what the tests' golfsim run seats
    there; lookahead models every seat but knock-threshold and lookahead as greedy)."""
    specs = ["greedy" if seat in game.env_seats else game.strategies[seat]
             for seat in game.order]
    return policy_table(*seat_arrays([resolve(s) for s in specs]))


def seat_for(spec: str, game, position: int, stream) -> CompiledSeat:
    """The compiled seat that plays ``spec``: a user policy's, lookahead's or a built-in's."""
    if is_user(spec):
        return UserSeat(spec, game, position, stream)
    if builtin_id(spec) == K.POLICY_LOOKAHEAD:
        powers = uses_power_engine(game.config.rules)
        return (PowerLookaheadSeat if powers else LookaheadSeat)(spec, game, position, stream)
    return CompiledSeat(spec, game, position, stream)
