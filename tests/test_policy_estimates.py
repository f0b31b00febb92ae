"""The shortcuts ``ev`` and ``heuristic`` take through their layout estimates
(strategies/common.py) give what the full estimate gives, on random states of every pair
scope (a column of two and of three rows, row or column, anywhere, orthogonal neighbours,
none), with negative pairs keeping their value and with empty positions:

- ``estimate_nb`` (its partner search over the relation's bits) is the same float, bit for
  bit;
- ``component_share_nb`` (ev) is n times the share of a placement's component, an integer:
  a gain from that component alone is exactly n times the full estimate's gain;
- ``unseen_types_of_key_nb`` and ``unseen_pool_nb`` (without a branch) count what a scan of
  the deck, the discard pile and every known card counts;
- heuristic's ``_may_wait_nb`` (over the relation's bits) and ``_grow_ages_nb`` (a slot's ages
  at once) answer as the position-by-position loops they replace;
- ``ev``'s best placement and draw value from those integers decide as the float estimates
  compared within EPS do.

The oracle is a plain-Python copy of the full estimate (a float sum in position order)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game.rules import Rules, flatten
from simulator.kernel.engine import pack_rules
from simulator.kernel.layout import can_replace_nb
from strategies import common as CM
from strategies import ev as EV

RULE_SETS = [
    ("six_card", {}),                                           # columns of two
    ("ten_card", {"negative_pairs_keep_value": True, "jokers_per_deck": 2}),
    ("nine_card", {"pair_scope": "column", "line_sets": "none"}),   # columns of three
    ("nine_card", {}),                                          # no pairs
    ("four_card", {}),                                          # row or column
    ("four_card_in_hand", {}),                                  # anywhere
    ("nine_card_moraco", {}),                                   # orthogonal neighbours
    ("nine_card_fuchs", {}),                                    # empty positions
    ("eight_card_whitnack", {"negative_pairs_keep_value": True}),
    ("six_card", {"remove_cancelled": "immediate"}),            # columns of two, emptied
]
PLAYERS = 3


def _own(seat, owner):
    return K.G_KNOWN + (seat * K.MAX_PLAYERS + owner) * K.MAX_POS


def reference_estimate(g, rt, seat, at, card, u):
    """The full estimate, as a plain float sum over the positions in order."""
    own = _own(seat, seat)
    npos = int(rt[K.R_NPOS])
    keep = rt[K.R_NEG_PAIRS_KEEP] != 0
    cards = [card if p == at else int(g[own + p]) for p in range(npos)]
    total = u * 0   # 0.0, or a Fraction's 0 for an exact sum
    used = 0
    for p, x in enumerate(cards):
        if x < 0:
            total += u
            continue
        if (used >> p) & 1:
            continue
        vx = int(rt[K.RT_VALUE + x])
        partner = -1
        if rt[K.R_PAIR_SCOPE] != K.PAIR_NONE:
            free = int(rt[K.RT_REL + p]) & ~used
            partner = next((q for q in range(p + 1, npos) if (free >> q) & 1 and cards[q] >= 0
                            and rt[K.RT_KEY + cards[q]] == rt[K.RT_KEY + x]), -1)
        if partner >= 0:
            used |= 1 << partner
            vy = int(rt[K.RT_VALUE + cards[partner]])
            if keep and vx < 0 and vy < 0:
                total += vx + vy
        else:
            total += vx
    return total


def random_state(rules, rng):
    """(g, rt, deck): every seat's layout partly known to seat 0, some empty positions where
    the rules remove cards, a discard pile; the rest unseen."""
    arrays = flatten(rules, PLAYERS)
    rt = pack_rules(arrays)
    npos = rules.n_positions
    deck = [int(c) for c in arrays.deck]
    rng.shuffle(deck)
    g = np.zeros(K.G_SIZE, dtype=np.int32)
    g[K.G_KNOWN:K.G_KNOWN + K.MAX_PLAYERS * K.MAX_PLAYERS * K.MAX_POS] = -1
    empties = rules.remove_cancelled != "none"
    for s in range(PLAYERS):
        for p in range(npos):
            c = deck.pop()
            g[K.G_LAY + s * K.MAX_POS + p] = c
            g[K.G_UP + s * K.MAX_POS + p] = rng.random() < 0.4
            if empties and rng.random() < 0.15:
                g[K.G_LAY + s * K.MAX_POS + p] = g[_own(0, s) + p] = K.EMPTY0 + p
            elif rng.random() < (0.7 if s == 0 else 0.3):
                g[_own(0, s) + p] = c
    discard = [deck.pop() for _ in range(rng.randrange(1, 15))]
    g[K.G_DISCARD:K.G_DISCARD + len(discard)] = discard
    g[K.G_PUB + K.PUB_DISCARD_N] = len(discard)
    g[K.G_PUB + K.PUB_DISCARD_SUM] = sum(int(rt[K.RT_VALUE + c]) for c in discard)
    g[K.G_PUB + K.PUB_ENDER] = -1
    return g, rt, arrays.deck


def states(preset, options, count):
    rules = Rules.preset(preset, **options)
    rng = random.Random(f"{preset}{sorted(options.items())}")
    for _ in range(count):
        g, rt, deck = random_state(rules, rng)
        cards = sorted({int(rt[K.RT_TYPE_CARD + t]) for t in range(rt[K.RT_TYPE_N])})
        yield rules.n_positions, g, rt, deck, cards


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_the_estimate_is_the_full_float(preset, options):
    rng = random.Random(1)
    for npos, g, rt, _, cards in states(preset, options, 40):
        u = rng.uniform(0, 10) * (1 + rng.random())
        assert CM.estimate_nb(g, rt, 0, -1, -1, u) == reference_estimate(g, rt, 0, -1, -1, u)
        for at in range(npos):
            for card in cards:
                assert CM.estimate_nb(g, rt, 0, at, card, u) == \
                    reference_estimate(g, rt, 0, at, card, u), (preset, at, card)


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_a_component_gain_is_n_times_the_full_gain(preset, options):
    rng = random.Random(2)
    for npos, g, rt, _, cards in states(preset, options, 40):
        n, S = rng.randrange(1, 100), rng.randrange(0, 600)
        every = (1 << npos) - 1
        u = Fraction(S, n)
        for at in range(npos):
            comp = CM.component_nb(rt, at)
            assert (comp >> at) & 1 and comp & ~every == 0
            before = CM.component_share_nb(g, rt, 0, comp, -1, -1, n, S)
            for card in cards:
                full = n * (reference_estimate(g, rt, 0, -1, -1, u)
                            - reference_estimate(g, rt, 0, at, card, u))
                assert before - CM.component_share_nb(g, rt, 0, comp, at, card, n, S) == full
    if preset == "six_card":   # a column of two is its own component; with no pairs, a cell
        assert [CM.component_nb(rt, p) for p in range(6)] == [9, 18, 36, 9, 18, 36]
    if options == {} and preset == "nine_card":
        assert [CM.component_nb(rt, p) for p in range(9)] == [1 << p for p in range(9)]


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_heuristics_gain_from_a_component_is_the_full_gain(preset, options):
    """heuristic weighs a placement from its component (counted in integers, the unknown
    cards then weighed u): the exact gain, and the full float estimates' within rounding."""
    from strategies.heuristic import _gain_nb
    rng = random.Random(3)
    for npos, g, rt, _, cards in states(preset, options, 40):
        u = rng.uniform(0, 10) * (1 + rng.random())
        for at in range(npos):
            for card in cards:
                exact = Fraction(reference_estimate(g, rt, 0, -1, -1, Fraction(u))
                                 - reference_estimate(g, rt, 0, at, card, Fraction(u)))
                gain = _gain_nb(g, rt, 0, at, card, u)
                assert abs(Fraction(gain) - exact) <= Fraction(1, 10 ** 12), (preset, at, card)
                full = CM.estimate_nb(g, rt, 0, -1, -1, u) - \
                    CM.estimate_nb(g, rt, 0, at, card, u)
                assert abs(gain - full) < 1e-12


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_heuristics_column_gain_is_its_component_gain(preset, options):
    """Under a column scope of two rows heuristic weighs a placement from the column in closed
    form: the very float the component's walk gives."""
    from strategies.heuristic import _column_gain_nb, _gain_nb
    rules = Rules.preset(preset, **options)
    if not (rules.pair_scope == "column" and rules.grid_rows == 2):
        pytest.skip("not a column scope of two rows")
    rng = random.Random(4)
    keep = rules.negative_pairs_keep_value
    for npos, g, rt, _, cards in states(preset, options, 40):
        u = rng.uniform(0, 10) * (1 + rng.random())
        for at in range(npos):
            for card in cards:
                assert _column_gain_nb(g, rt, _own(0, 0), at, card, u, rules.grid_cols, keep) == \
                    _gain_nb(g, rt, 0, at, card, u), (preset, at, card)


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_unseen_counts_by_key(preset, options):
    for npos, g, rt, deck, cards in states(preset, options, 10):
        CM.unseen_types_nb(g, rt, 0)
        seen = [int(c) for c in g[K.G_DISCARD:K.G_DISCARD + g[K.G_PUB + K.PUB_DISCARD_N]]]
        seen += [int(g[_own(0, s) + p]) for s in range(PLAYERS) for p in range(npos)
                 if g[_own(0, s) + p] >= 0]
        for card in cards:
            key = rt[K.RT_KEY + card]
            expected = sum(rt[K.RT_KEY + c] == key for c in deck) - \
                sum(rt[K.RT_KEY + c] == key for c in seen)
            assert CM.unseen_types_of_key_nb(g, rt, key) == expected


def float_best(g, rt, card, u, npos):
    """ev's best placement as the full float estimates pick it (no ending in sight)."""
    before = reference_estimate(g, rt, 0, -1, -1, u)
    best, best_gain = -1, 0.0
    for p in range(npos):
        if can_replace_nb(g, rt, 0, p):
            gain = before - reference_estimate(g, rt, 0, p, card, u)
            if best < 0 or gain > best_gain + CM.EPS:
                best, best_gain = p, gain
    return best, best_gain


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_ev_decides_from_integers_as_from_floats(preset, options):
    par = np.zeros((PLAYERS, 32))
    for npos, g, rt, _, cards in states(preset, options, 25):
        n, S = CM.unseen_pool_nb(g, rt, 0, -1)
        u = S / n
        CM.unseen_types_nb(g, rt, 0)
        counts = [int(g[K.G_SCRATCH + t]) for t in range(rt[K.RT_TYPE_N])]
        draw = 0.0
        for t, count in enumerate(counts):
            if count > 0:
                p, gain = float_best(g, rt, int(rt[K.RT_TYPE_CARD + t]), u, npos)
                draw += count * (0.0 if p < 0 or gain < 0.0 else gain)
        draw /= n
        befores = K.G_SCRATCH + rt[K.RT_TYPE_N]
        free = EV._ev_befores_nb(g, rt, 0, n, S, befores)
        drawn = EV._ev_draw_value_nb(g, rt, 0, n, S, par, False, free, befores, True, 1 << 62)
        assert drawn == pytest.approx(draw * n * n, abs=1e-6)
        for beat in (-1, 0, drawn // 2, drawn - 1, drawn):
            # stopped once past ``beat``: the same answer to "does the draw beat it?"
            early = EV._ev_draw_value_nb(g, rt, 0, n, S, par, False, free, befores, True, beat)
            assert (early > beat) == (drawn > beat) and early <= drawn
        for card in cards:
            p, gain = EV._ev_best_nb(g, rt, 0, card, n, S, par, True)
            fp, fgain = float_best(g, rt, card, u, npos)
            assert p == fp and gain == pytest.approx(fgain * n, abs=1e-6)
            assert (gain * n >= drawn) == (fgain >= draw - CM.EPS)


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_unseen_pool(preset, options):
    rng = random.Random(4)
    for npos, g, rt, deck, cards in states(preset, options, 10):
        known = [int(g[_own(0, s) + p]) for s in range(PLAYERS) for p in range(npos)]
        known = [c for c in known if 0 <= c < K.EMPTY0]
        discard = [int(c) for c in g[K.G_DISCARD:K.G_DISCARD + g[K.G_PUB + K.PUB_DISCARD_N]]]
        unseen = list(deck)
        for c in discard + known:
            unseen.remove(c)
        held = rng.choice([-1] + unseen)
        if held >= 0:
            unseen.remove(held)
        expected = (len(unseen), sum(int(rt[K.RT_VALUE + c]) for c in unseen))
        assert CM.unseen_pool_nb(g, rt, 0, held) == expected


def _may_wait_by_position(g, rt, seat, p, hold):
    """heuristic's rule for keeping a card waiting, position by position in order."""
    from simulator.kernel.layout import rel_nb
    if hold <= 0 or CM.age_nb(g, seat, p) >= hold or rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return -1
    own = _own(seat, seat)
    x = int(g[own + p])
    if x < 0 or rt[K.RT_VALUE + x] <= 0:
        return -1
    key = int(rt[K.RT_KEY + x])
    open_slot = False
    for q in range(int(rt[K.R_NPOS])):
        if q == p or not rel_nb(rt, p, q):
            continue
        y = int(g[own + q])
        if y >= 0 and rt[K.RT_KEY + y] == key:
            return -1
        open_slot = open_slot or can_replace_nb(g, rt, seat, q)
    return key if open_slot else -1


@pytest.mark.parametrize("preset, options", RULE_SETS)
def test_heuristics_waiting_and_ages(preset, options):
    from strategies.heuristic import _grow_ages_nb, _may_wait_nb
    rng = random.Random(5)
    waits = 0
    for npos, g, rt, _, _ in states(preset, options, 30):
        ages = [rng.choice([0, 1, 2, 3, 14, 15]) for _ in range(K.MAX_POS)]
        for p in range(npos):
            CM.reset_age_nb(g, 0, p)
            g[K.G_MEMORY + CM.MEM_AGE + p // CM.AGE_PER_SLOT] += ages[p] << (4 * (p % 7))
        for p in range(npos, 3 * CM.AGE_PER_SLOT):   # bits no position of these rules owns
            g[K.G_MEMORY + CM.MEM_AGE + p // CM.AGE_PER_SLOT] |= rng.randrange(16) << (4 * (p % 7))
        for p in range(npos):
            for hold in (0, 2, 3, 16):
                expected = _may_wait_by_position(g, rt, 0, p, hold)
                assert _may_wait_nb(g, rt, 0, p, hold) == expected
                waits += expected >= 0
        slots = g[K.G_MEMORY + CM.MEM_AGE:K.G_MEMORY + CM.MEM_AGE + 3].copy()
        _grow_ages_nb(g, rt, 0)
        assert [CM.age_nb(g, 0, p) for p in range(npos)] == \
            [min(a + 1, CM.AGE_MAX) for a in ages[:npos]]
        # the bits past the last position's age are left as they were
        for k in range(3):
            rest = max(0, npos - k * CM.AGE_PER_SLOT)
            high = ~((1 << (4 * min(rest, CM.AGE_PER_SLOT))) - 1)
            assert g[K.G_MEMORY + CM.MEM_AGE + k] & high == slots[k] & high
    if rt[K.R_PAIR_SCOPE] != K.PAIR_NONE:
        assert waits > 0   # the rule keeps some card waiting
