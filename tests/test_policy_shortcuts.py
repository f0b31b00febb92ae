"""The built-ins' cheaper searches answer as the searches they replace: ``guide``'s "pairs a
card it knows somewhere" from a mask of the card's key (against common.pairs_at_nb at every
replaceable position), on random states of every pair scope, with and without face-up
replacement and locked columns."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game.rules import Rules
from strategies.common import pairs_at_nb
from strategies.common import pairs_somewhere_nb
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


