"""simulator.kernel.policy_tools: the cached vector search gives the plain scan's answer on every
two-row column layout, across random rule sets, layouts that change between calls (the cache
must follow), face-up cards and locked columns; and the scan scores pairs, ties and negative
pairs that keep their value as the built-ins do."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from simulator.game import codes as K
from simulator.kernel import policy_tools as T
from simulator.kernel.engine import pack_rules
from simulator.game.rules import Rules, flatten
from test_random_rules import draw_rule_sets


@njit
def _both(seat, card, known, faceup, memory, rules, n, S):
    return (T.best_position(seat, card, known, faceup, memory, rules, n, S),
            T.best_position_scan(seat, card, known, faceup, rules, n, S),
            T.cache_fits(rules))


def _column_rule_sets():
    out = []
    for _, _, rules, players in draw_rule_sets(400, seed=77):
        # the searches read positions c and c + cols as a column on any layout
        out.append((rules, players))
    base = Rules.preset("six_card")
    out += [(base, 4), (base.with_options(negative_pairs_keep_value=True, jokers_per_deck=2), 4),
            (base.with_options(lock_face_up_columns=True), 3),
            (base.with_options(replace_face_up_allowed=False), 2)]
    return out


def test_cached_search_equals_the_scan():
    rng = random.Random(5)
    covered = 0
    for rules, players in _column_rule_sets():
        arrays = flatten(rules, players)
        rt = pack_rules(arrays)
        npos = 2 * int(rt[K.R_COLS])
        deck = [int(c) for c in arrays.deck]
        known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
        faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
        memory = np.zeros((players, K.MEMORY_SLOTS), dtype=np.int32)
        empties = rules.remove_cancelled != "never"
        for _ in range(60):
            seat = rng.randrange(players)
            own = seat * K.MAX_POS
            # a few positions change between calls, as play would change them
            for p in rng.sample(range(npos), rng.randint(0, min(3, npos))):
                r = rng.random()
                if r < 0.3:
                    known[own + p], faceup[own + p] = -1, 0
                elif r < 0.4 and empties:
                    known[own + p], faceup[own + p] = K.EMPTY0 + p, 1
                else:
                    known[own + p] = rng.choice(deck)
                    faceup[own + p] = rng.random() < 0.6
            card = rng.choice(deck)
            n = rng.randint(1, len(deck))
            S = rng.randint(-2 * n, 13 * n)
            fast, plain, covers = _both(seat, card, known, faceup, memory[seat], rt, n, S)
            assert fast == plain, (str(rules), seat, card, n, S, known[own:own + npos])
            # a fresh (zeroed) memory gives the same answer: nothing depends on past calls
            fresh = np.zeros(K.MEMORY_SLOTS, dtype=np.int32)
            assert _both(seat, card, known, faceup, fresh, rt, n, S)[0] == plain
            covered += covers
        # the policy's own slots are left alone
        assert not memory[:, :T.CACHE_FIRST].any()
    assert covered > 20000


def test_scan_prefers_pairs_and_lowest_ties():
    rt = pack_rules(flatten(Rules.preset("six_card"), 2))
    known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
    faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
    memory = np.zeros(K.MEMORY_SLOTS, dtype=np.int32)
    # seat 1: columns (K, unknown), (9, unknown), (unknown, unknown); a 9 pairs with the 9
    own = K.MAX_POS
    known[own + 0], known[own + 1] = 12, 8      # king (0 points), nine
    faceup[own + 0] = faceup[own + 1] = 1
    nine = 13 + 8
    n, S = 40, 40 * 6
    fast, plain, covers = _both(1, nine, known, faceup, memory, rt, n, S)
    assert covers and fast == plain == 4        # under the known nine: the column pairs
    # an ace (1 point) replaces the known nine: 8 points better, where covering an unknown
    # card (worth 6 on average) gains 5
    fast, plain, _ = _both(1, 0, known, faceup, memory, rt, n, S)
    assert fast == plain == 1
    # a queen (10 points) gains nowhere: the mean unseen card is worth 6
    fast, plain, _ = _both(1, 11, known, faceup, memory, rt, n, S)
    assert fast == plain == -1
    # without the nine, the ace gains 5 on every unknown card (and on the king's partner):
    # the lowest of those positions
    known[own + 1], faceup[own + 1] = -1, 0
    fast, plain, _ = _both(1, 0, known, faceup, memory, rt, n, S)
    assert fast == plain == 1
    assert (rt[K.RT_VALUE + 12], rt[K.RT_VALUE + 0], rt[K.RT_VALUE + 8],
            rt[K.RT_VALUE + 11]) == (0, 1, 9, 10)


def test_negative_pairs_that_keep_their_value():
    base = Rules.preset("six_card").with_options(jokers_per_deck=2)
    known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
    faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
    # columns (joker, unknown), (five, unknown), (queen, queen); another joker to place
    known[0], known[1], known[2], known[5] = 52, 4, 11, 24
    faceup[0] = faceup[1] = faceup[2] = faceup[5] = 1
    n, S = 40, 40 * 6
    answers = []
    for keep in (False, True):
        rt = pack_rules(flatten(base.with_options(negative_pairs_keep_value=keep), 4))
        assert (rt[K.RT_VALUE + 52], rt[K.RT_VALUE + 53]) == (-2, -2)
        memory = np.zeros(K.MEMORY_SLOTS, dtype=np.int32)
        fast, plain, covers = _both(0, 53, known, faceup, memory, rt, n, S)
        assert covers and fast == plain
        answers.append(fast)
    # cancelling, the jokers would score 0: the five's partner gains more (-2 against 5 + 6);
    # keeping -4, the joker's partner gains as much, and it comes first
    assert answers == [4, 3]


def test_every_rule_set_the_options_allow_fits_the_lanes():
    """The bound ``best_position`` assumes holds at the options' extremes: the most decks and
    jokers, and the largest |value| any option or value table can give a card."""
    import dataclasses

    from simulator.kernel.lanes import GAIN_LIMIT
    from simulator.game.rules import SCHEME_TABLES

    fields = {f.name: f.metadata for f in dataclasses.fields(Rules)}
    values = [abs(v) for table in SCHEME_TABLES.values() for v in table if v is not None]
    for name, meta in fields.items():
        if name.startswith("value_") and name != "value_scheme":
            values += [abs(v) if isinstance(v, int) else 15 for v in meta["allowed"]]
    most_cards = fields["decks"]["hi"] * (52 + max(fields["jokers_per_deck"]["allowed"]))
    assert 5 * most_cards * max(values) < GAIN_LIMIT
    rt = pack_rules(flatten(Rules.preset("six_card").with_options(
        decks=fields["decks"]["hi"], jokers_per_deck=2, value_queen_of_spades=40), 4))
    assert rt[K.R_MAX_ABS_VALUE] == 40 and T.cache_fits.py_func(rt)


def test_a_run_with_a_user_policy_refuses_rules_beyond_the_lanes(monkeypatch):
    import pytest

    from simulator.experiments import runner
    from simulator.kernel.policy_api import POLICY_USER

    real = runner.flatten

    def huge(rules, players):
        arrays = real(rules, players)
        arrays.ri[K.R_MAX_ABS_VALUE] = 10 ** 6
        return arrays

    monkeypatch.setattr(runner, "flatten", huge)
    rules = Rules.preset("six_card")
    with pytest.raises(ValueError, match="overflow simulator.kernel.policy_tools"):
        runner.make_job(rules, 2, [POLICY_USER] * 2, [[0.0]] * 2, 1, kernel="general",
                        user=object())
    # built-in strategies do not use the search: the same rules still play
    assert runner.make_job(rules, 2, [0, 0], [[0.0]] * 2, 1, kernel="general").user is not None
