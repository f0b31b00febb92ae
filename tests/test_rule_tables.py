"""The tables engine.pack_rules derives once per rule set, which policies read instead of
recomputing: the pair relation (codes.RT_REL) must say what layout.related_nb says, and the
card types (codes.RT_TYPE*) must group the deck by (key, value) in deck order."""

from __future__ import annotations

import pytest

from simulator.game import codes as K
from simulator.kernel.engine import pack_rules
from simulator.kernel.layout import related_nb
from simulator.game.rules import PRESETS, Rules, flatten


def _relation_cases():
    """Every preset under every pair scope it accepts (some presets refuse some scopes)."""
    for preset in sorted(PRESETS):
        for scope in K.PAIR_SCOPES:
            try:
                yield preset, scope, Rules.preset(preset, pair_scope=scope)
            except ValueError:
                continue


def test_pair_relation_table_is_related_nb():
    covered = set()
    for preset, scope, rules in _relation_cases():
        arrays = flatten(rules, 2)
        rt = pack_rules(arrays)
        npos, cols = int(arrays.ri[K.R_NPOS]), int(arrays.ri[K.R_COLS])
        code = int(arrays.ri[K.R_PAIR_SCOPE])
        pairs = 0
        for p in range(npos):
            for q in range(npos):
                expected = related_nb(p, q, code, cols)   # the compiled function
                assert bool((rt[K.RT_REL + p] >> q) & 1) == expected, (preset, scope, p, q)
                pairs += expected
            assert rt[K.RT_REL + p] >> npos == 0
        if scope == "none":
            assert pairs == 0
        elif scope == "anywhere":
            assert pairs == npos * npos
        else:   # at least every position with itself and one other
            assert pairs > npos
        covered.add((scope, rules.grid_rows, rules.grid_cols))
    assert {s for s, _, _ in covered} == set(K.PAIR_SCOPES)
    assert {(r, c) for _, r, c in covered} >= {(2, 2), (2, 3), (2, 4), (3, 3), (2, 5)}


@pytest.mark.parametrize("options, players", [
    ({}, 4),
    ({"jokers_per_deck": 2}, 4),
    ({"jokers_per_deck": 2, "decks": 3}, 6),
    ({"bonus_card": "one_eyed_jacks"}, 4),
])
def test_card_types_group_the_deck_by_key_and_value(options, players):
    try:
        rules = Rules.preset("six_card", **options)
    except ValueError as e:
        pytest.skip(str(e))
    arrays = flatten(rules, players)
    rt = pack_rules(arrays)
    deck = [int(c) for c in arrays.deck]
    kind = [(int(arrays.card_key[c]), int(arrays.card_value[c])) for c in deck]
    first = list(dict.fromkeys(kind))          # the distinct (key, value), in deck order
    assert rt[K.RT_TYPE_N] == len(first)
    for c, k in zip(deck, kind):
        t = rt[K.RT_TYPE + c]
        assert first[t] == k
        rep = rt[K.RT_TYPE_CARD + t]
        assert deck.index(rep) == kind.index(k)  # the type's first card in the deck
    for t, k in enumerate(first):
        assert rt[K.RT_TYPE_COPIES + t] == kind.count(k)
        # the ring of its key's types: each once, then back to it
        ring, u = [t], rt[K.RT_TYPE_NEXT + t]
        while u != t:
            ring.append(u)
            u = rt[K.RT_TYPE_NEXT + u]
        assert sorted(ring) == [s for s, other in enumerate(first) if other[0] == k[0]]
    assert sum(rt[K.RT_TYPE_COPIES + t] for t in range(len(first))) == len(deck)
    # cards in no deck (the empty-position pseudo-cards among them) have no type
    in_deck = set(deck)
    assert all(rt[K.RT_TYPE + c] == -1 for c in range(K.N_CARD_TABLE) if c not in in_deck)
