"""The built-ins' cheaper searches answer as the searches they replace, on random states of
every pair scope, with and without face-up replacement and locked columns: ``guide``'s "pairs
a card it knows somewhere" from a mask of the card's key (against common.pairs_at_nb at every
replaceable position), and ``opponent-aware``'s choice of a place that feeds nobody, from one
pass over the columns of two rows (against its search position by position)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game.rules import Rules
from strategies.common import pairs_at_nb
from strategies.guide import pairs_somewhere_nb
from strategies.opponent_aware import _withhold_nb, collecting_nb, placement_gain_nb
from policy_states import card, Table

RANKS = "A23456789TJQK"
# (preset, options): every pair scope, a scope that pairs nothing, and the rules that make a
# position irreplaceable
RULE_SETS = [("six_card", {}), ("four_card", {}), ("four_card_in_hand", {}), ("nine_card", {}),
             ("nine_card_moraco", {}), ("ten_card", {}),
             ("six_card", {"pair_scope": "row_column_diagonal"}),
             ("six_card", {"lock_face_up_columns": True}),
             ("six_card", {"replace_face_up_allowed": False})]


def random_tables(rules: Rules, count: int, seed: int):
    """Random four-seat states: each position face down unknown, face down known to its owner,
    or face up; low ranks drawn often so that pairs are common."""
    rng = np.random.default_rng(seed)
    npos = rules.n_positions
    for _ in range(count):
        names = [r + s for r in RANKS for s in "SHDC"]
        order = sorted(names, key=lambda c: RANKS.index(c[0]) + 6 * rng.random())
        layouts = []
        for _seat in range(4):
            tokens = []
            for _p in range(npos):
                u = rng.random()
                tokens.append("?" if u < 0.3 else ("?" if u < 0.6 else "") + order.pop(0))
            layouts.append(" ".join(tokens))
        yield Table(rules, layouts, ["guide"] * 4, discard=(order.pop(),)), order


@pytest.mark.parametrize("preset,options", RULE_SETS,
                         ids=[p + "".join(f",{k}" for k in o) for p, o in RULE_SETS])
def test_pairs_somewhere_is_a_pair_at_some_replaceable_position(preset, options):
    rules = Rules.preset(preset, **options)
    seen = set()
    for t, left in random_tables(rules, 40, seed=7):
        for name in left[:6]:
            c = card(name)
            want = any(pairs_at_nb(t.g, t.rt, 0, p, c) for p in t.replaceable(0))
            assert pairs_somewhere_nb(t.g, t.rt, 0, c) == want, (preset, options, name)
            seen.add(want)
    # both answers come up wherever the scope pairs anything
    assert seen == ({False} if rules.pair_scope == "none" else {False, True})



def withhold_by_position(t, card, n, S, choice, care, may_discard):
    """opponent_aware._withhold_nb as its rule reads: each replaceable position in ascending
    order, the first of the largest gain wins."""
    g, rt = t.g, t.rt
    own = [int(g[t.known_at(0, 0, p)]) for p in range(t.rules.n_positions)]

    def feeds(c):
        return c >= 0 and collecting_nb(g, rt, 0, 1, rt[K.RT_KEY + c])

    if not feeds(card if choice == K.A_DISCARD else own[choice]):
        return choice
    base = 0 if choice == K.A_DISCARD else placement_gain_nb(g, rt, 0, choice, card, n, S)
    floor = base - care * n
    best, best_gain = -1, 0
    if may_discard and choice != K.A_DISCARD and 0 >= floor and not feeds(card):
        best = K.A_DISCARD
    for p in t.replaceable(0):
        if p == choice or feeds(own[p]):
            continue
        gain = placement_gain_nb(g, rt, 0, p, card, n, S)
        if gain >= floor and (best < 0 or gain > best_gain):
            best, best_gain = p, gain
    return best if best >= 0 else choice


@pytest.mark.parametrize("preset,options", RULE_SETS,
                         ids=[p + "".join(f",{k}" for k in o) for p, o in RULE_SETS])
def test_opponent_aware_withholds_as_position_by_position(preset, options):
    rules = Rules.preset(preset, **options)
    rng = np.random.default_rng(3)
    moved = 0
    for t, left in random_tables(rules, 40, seed=11):
        for name in left[:4]:
            c = card(name)
            choices = t.replaceable(0) + [K.A_DISCARD]
            choice = choices[rng.integers(len(choices))]
            care = float(rng.choice([0.5, 3.0, 12.0]))
            n, S = int(rng.integers(10, 60)), int(rng.integers(0, 300))
            may = bool(rng.random() < 0.7)
            want = withhold_by_position(t, c, n, S, choice, care, may)
            assert _withhold_nb(t.g, t.rt, 0, c, n, S, choice, care, may) == want
            moved += want != choice
    # the search is asked, and moves a card, wherever the scope pairs anything
    assert (moved == 0) == (rules.pair_scope == "none")
