"""Steps the compiled policies and scoring share, each written once: which lines of three a rule
set counts and their cells, one position's share of a layout estimate, the opponents' cards in
turn order with the shielded ones left out, a turn's fallback action, and the user policies'
fallback in policy_tools."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel import estimate as E
from simulator.kernel import layout as L
from simulator.kernel import policy_tools as T
from strategies import common
from strategies import powers as P
from strategies.examples import greedy_policy, rule_bot


@pytest.mark.parametrize("sets", K.LINE_SETS)
def test_the_lines_a_rule_set_counts_and_their_cells(sets):
    ri = np.zeros(K.RT_SIZE, dtype=np.int64)
    ri[K.R_LINE_SETS] = K.LINE_SETS.index(sets)
    # columns, then rows too, then the diagonals too
    want = {"none": 0, "columns": 3, "rows_and_columns": 6, "rows_columns_diagonals": 8}[sets]
    assert L.lines_counted_nb(ri) == want
    assert [L.line_mask_nb(ri, i) != 0 for i in range(8)] == [i < want for i in range(8)]
    for i, cells in enumerate(L.LINE_CELLS_3X3):
        assert list(cells) == sorted(cells) and len(cells) == 3
        assert sum(1 << p for p in cells) == L.LINES_3X3[i]


def test_one_positions_share_of_an_estimate():
    rt = np.zeros(K.RT_SIZE, dtype=np.int64)
    rt[K.RT_VALUE + 7] = 5
    n, S = 3, 20
    assert E.tally_nb(rt, 10, 0b0, 2, -1, -1, n, S) == (10 + S, 0b0)       # unknown: S
    assert E.tally_nb(rt, 10, 0b100, 2, 7, -1, n, S) == (10, 0b100)       # already paired
    assert E.tally_nb(rt, 10, 0b0, 2, 7, 4, n, S) == (10, 0b10000)        # pairs with 4
    assert E.tally_nb(rt, 10, 0b0, 2, 7, -1, n, S) == (10 + 5 * n, 0b0)   # its value, n times


def test_opponent_slots_in_turn_order_without_the_shielded():
    rng = random.Random(3)
    g = np.zeros(K.G_SIZE, dtype=np.int32)
    rt = np.zeros(K.RT_SIZE, dtype=np.int64)
    for _ in range(40):
        players = rng.randint(2, 6)
        me = rng.randrange(players)
        shielded = rng.randrange(1 << players)
        rt[K.R_PLAYERS] = players
        g[K.G_PUB + K.PUB_SHIELDED] = shielded
        want = [(-1 if (shielded >> s) & 1 else s, p)
                for k in range(1, players) for s in [(me + k) % players]
                for p in range(K.MAX_POS)]
        assert P.opponent_slots_nb(rt) == len(want)
        assert [P.opponent_slot_nb(g, rt, me, i) for i in range(len(want))] == want


@pytest.mark.parametrize("legal, action", [
    ({K.A_DRAW_STOCK, K.A_FLIP, K.A_TAKE_DISCARD}, K.A_DRAW_STOCK),
    ({K.A_FLIP, K.A_TAKE_DISCARD}, K.A_FLIP),
    ({K.A_KNOCK, K.A_TAKE_DISCARD}, min(K.A_KNOCK, K.A_TAKE_DISCARD)),
    (set(), -1),
])
def test_a_turn_that_takes_no_discard(legal, action):
    g = np.zeros(K.G_SIZE, dtype=np.int32)
    for a in legal:
        g[K.G_LEGAL + a] = 1
    assert common.draw_or_flip_nb(g) == action


def test_the_example_policies_fall_back_on_policy_tools_lowest_legal():
    assert greedy_policy.lowest_legal is T.lowest_legal
    assert rule_bot.lowest_legal is T.lowest_legal
    rng = np.random.default_rng(4)
    for _ in range(50):
        legal = (rng.random(K.N_ACTIONS) < 0.1).astype(np.int32)
        assert T.lowest_legal(legal) == (int(np.argmax(legal)) if legal.any() else -1)
