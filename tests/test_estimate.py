"""simulator/kernel/estimate.py: the placement search by key groups finds exactly the position that
estimating the whole layout before and after each placement finds (the rule as W1's greedy
states it), for every pair scope and layout shape, on layouts crowded with equal ranks."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel.engine import pack_rules
from simulator.kernel.estimate import best_scan_nb, estimate_cards_nb
from simulator.game.rules import Rules, flatten
from tiers import sweep

CASES = [("six_card", scope) for scope in K.PAIR_SCOPES] + [
    ("four_card", "row_or_column"), ("four_card", "row_column_diagonal"),
    ("four_card_in_hand", "anywhere"), ("nine_card_moraco", "orthogonal_adjacent"),
    ("nine_card_moraco", "anywhere"), ("nine_card_moraco", "row_column_diagonal"),
    ("ten_card", "row_or_column"), ("eight_card_basic", "anywhere"),
]


def _by_whole_estimates(cards, up, hide, rt, replaceable, card, n, S):
    """The rule written out: estimate the layout as it is and with the card at each p."""
    own = [-1 if (hide >> p) & 1 and up[p] == 0 else int(cards[p])
           for p in range(int(rt[K.R_NPOS]))]
    before = estimate_cards_nb(cards, 0, up, 0, hide, rt, -1, -1, n, S)
    best, best_gain = -1, 0
    for p, x in enumerate(own):
        if not (replaceable >> p) & 1:
            continue
        gain = before - estimate_cards_nb(cards, 0, up, 0, hide, rt, p, card, n, S)
        if gain >= (n if x >= 0 else 0) and (best < 0 or gain > best_gain):
            best, best_gain = p, gain
    return best


@pytest.mark.parametrize("preset, scope",
                         sweep(CASES, keep={("six_card", "column"), ("four_card", "row_or_column"),
                                            ("nine_card_moraco", "anywhere")}))
def test_search_by_key_groups_equals_whole_estimates(preset, scope):
    rules = Rules.preset(preset, pair_scope=scope)
    rt = pack_rules(flatten(rules, 2))
    npos = int(rt[K.R_NPOS])
    deck = rt[K.RT_DECK:K.RT_DECK + int(rt[K.R_NCARDS])]
    keys = rt[K.RT_KEY + deck]
    rng = np.random.default_rng(npos * 31 + K.PAIR_SCOPES.index(scope))
    found = set()
    for _ in range(3000):
        # cards of two to four keys only, so that most layouts hold several of one key
        chosen = rng.choice(np.unique(keys), size=rng.integers(2, 5), replace=False)
        pool = rng.permutation(deck[np.isin(keys, chosen)])
        cards = np.full(K.MAX_POS, -1, np.int64)
        known = rng.random(npos) < 0.7
        cards[:npos][known] = pool[:npos][known]
        card = int(pool[npos])
        up = np.zeros(K.MAX_POS, np.int64)
        up[:npos] = rng.random(npos) < 0.5
        hide = int(rng.integers(0, 1 << npos)) if rng.random() < 0.3 else 0
        replaceable = int(rng.integers(1, 1 << npos))
        n = int(rng.integers(1, 40))
        S = int(rng.integers(-10, 12 * n))
        got = best_scan_nb(cards, 0, up, 0, hide, rt, replaceable, card, n, S)
        assert got == _by_whole_estimates(cards, up, hide, rt, replaceable, card, n, S)
        found.add(got)
    # the layouts were varied enough to choose every position, and sometimes none
    assert found == set(range(-1, npos))
