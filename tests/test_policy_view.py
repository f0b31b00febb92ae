"""A built-in policy decides from what its seat may see: scrambling everything else (the stock
order, other seats' face-down cards, unknown own cards, other seats' knowledge) never changes
its decision."""

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel.engine import (State, pack_rules, placement_mask_nb, policy_table,
                                     prefix_nb, turn_mask_nb)
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled
from simulator.game.rules import Rules, flatten
from strategies import resolve_seats, seat_arrays
from strategies.compiled import decide

PLAYERS = 4


def hidden_slots(g, seat, players, npos, held_index=None):
    """Indices of g holding a card the seat cannot see."""
    slots = [K.G_STOCK + i for i in range(g[K.G_PUB + K.PUB_STOCK_N]) if i != held_index]
    for owner in range(players):
        for p in range(npos):
            i = owner * K.MAX_POS + p
            known = g[K.G_KNOWN + (seat * K.MAX_PLAYERS + owner) * K.MAX_POS + p]
            if not g[K.G_UP + i] and known < 0:
                slots.append(K.G_LAY + i)
    return slots


def scrambled(g, seat, players, npos, rng, held_index=None):
    h = g.copy()
    slots = hidden_slots(g, seat, players, npos, held_index)
    cards = h[slots]
    h[slots] = cards[rng.permutation(len(cards))]
    for obs in range(players):  # what the others know is hidden too
        if obs != seat:
            base = K.G_KNOWN + obs * K.MAX_PLAYERS * K.MAX_POS
            block = h[base:base + K.MAX_PLAYERS * K.MAX_POS]
            h[base:base + K.MAX_PLAYERS * K.MAX_POS] = rng.permutation(block)
    return h


@pytest.mark.parametrize("policy", ["random", "greedy", "knock-threshold", "heuristic",
                                    "forgetful", "opponent-aware", "ev"])
@pytest.mark.parametrize("options", [{}, {"initial_reveal_mode": "peek",
                                          "initial_reveal_count": -1,
                                          "initial_reveal_constraint": "nearest_row"}])
def test_decisions_ignore_hidden_cards(policy, options):
    rules = Rules.preset("six_card", **options)
    arrays = flatten(rules, PLAYERS)
    rt = pack_rules(arrays)
    par = policy_table(*seat_arrays(resolve_seats([policy], PLAYERS)))
    table = compiled.table(par[:, 0])
    npos = rules.n_positions
    st = State(PLAYERS)
    g, rng_streams, log = st.g, st.rng, st.log
    shuffler = np.random.default_rng(5)
    checked = 0
    for round_index in range(60):
        seat = prefix_nb(3, round_index, rt, par, g, rng_streams, log, st.tmp, NO_USER_POLICY,
                         table, st.aux, int(shuffler.integers(0, 25)))
        if seat < 0:
            continue
        # decision at the start of a turn
        if turn_mask_nb(g, rt, seat) == 0:
            continue
        before = decide(K.DP_TURN, seat, -1, g.copy(), rt, rng_streams.copy(), par)
        for _ in range(3):
            h = scrambled(g, seat, PLAYERS, npos, shuffler)
            assert decide(K.DP_TURN, seat, -1, h, rt, rng_streams.copy(), par) == before
        # decision while holding a card drawn from the stock (the top of the stock)
        top = g[K.G_PUB + K.PUB_STOCK_N] - 1
        if top < 0:
            continue
        held = int(g[K.G_STOCK + top])
        placement_mask_nb(g, rt, seat)
        g[K.G_LEGAL + K.A_DISCARD] = 1
        before = decide(K.DP_PLACE_DRAWN, seat, held, g.copy(), rt, rng_streams.copy(), par)
        for _ in range(3):
            h = scrambled(g, seat, PLAYERS, npos, shuffler, held_index=top)
            after = decide(K.DP_PLACE_DRAWN, seat, held, h, rt, rng_streams.copy(), par)
            assert after == before
        checked += 1
    assert checked > 40
