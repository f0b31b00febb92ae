"""The worked port of docs/user_policies.md: strategies/examples/rule_bot.py, compiled, answers
every question as the plain-Python bot it was ported from (tests/policies/rule_bot_original.py)
on random six_card situations, with the card helpers and the float memory of policy_tools; and
it plays whole games under its alias."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import simulator.api as golf
from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.rules import Rules, flatten
from simulator.kernel.engine import pack_rules
from simulator.kernel.policy_api import load_function
from simulator.kernel.policy_tools import (card_rank, card_suit, card_value, float_memory,
                                           is_joker)
from tests.policies.rule_bot_original import RuleBot

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "strategies" / "examples" / "rule_bot.py"


@njit
def _helpers(cards, rules, memory):
    out = np.empty((cards.size, 4), dtype=np.int64)
    for i in range(cards.size):
        out[i, 0] = card_rank(cards[i])
        out[i, 1] = card_suit(cards[i])
        out[i, 2] = is_joker(cards[i])
        out[i, 3] = card_value(cards[i], rules)
    f = float_memory(memory, 2, 3)
    f[1] = 0.25
    f[2] += 1.5
    return out, f[1] + f[2]


def test_card_helpers_and_float_memory():
    rules = Rules.preset("power_cabo")
    arrays = flatten(rules, 4)
    rt = pack_rules(arrays)
    deck = arrays.deck.astype(np.int64)
    memory = np.zeros(K.MEMORY_SLOTS, dtype=np.int32)
    got, total = _helpers(deck, rt, memory)
    assert [tuple(r) for r in got] == [
        (C.rank_of(c), C.suit_of(c), C.rank_of(c) == C.RANK_JOKER, arrays.card_value[c])
        for c in deck]
    kings = {(C.suit_of(c), v) for c, (_, _, _, v) in zip(deck, got) if C.rank_of(c) == 12}
    assert (C.DIAMONDS, 0) in kings and (C.SPADES, 13) in kings   # Cabo's K♦ apart
    assert total == 1.75 and memory[3:5].view(np.float32).tolist() == [0.25, 1.5]
    assert not memory[:3].any() and not memory[5:].any()


def _situation(rng, rules, rt, deck):
    """Seat 0 of two in a six_card game: a random deal, random cards face up, a discard pile."""
    cards = list(rng.permutation(deck))
    lay = [cards[:6], cards[6:12]]
    pile = cards[12:12 + int(rng.integers(1, 12))]
    stock = cards[12 + len(pile):]
    up = [rng.random(6) < rng.random(), rng.random(6) < 0.5]
    value = rt[K.RT_VALUE:K.RT_VALUE + K.MAX_IDS]
    known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
    faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
    for s in range(2):
        for p in range(6):
            if up[s][p]:
                known[s * K.MAX_POS + p] = lay[s][p]
                faceup[s * K.MAX_POS + p] = 1
    public = np.zeros(K.N_PUB_SLOTS + K.MAX_PLAYERS, dtype=np.int32)
    shown = [lay[s][p] for s in range(2) for p in range(6) if up[s][p]]
    public[K.PUB_DISCARD_N] = len(pile)
    public[K.PUB_DISCARD_SUM] = sum(int(value[c]) for c in pile)
    public[K.PUB_FACEUP_N] = len(shown)
    public[K.PUB_FACEUP_SUM] = sum(int(value[c]) for c in shown)
    public[K.PUB_STOCK_N] = len(stock)
    discard = np.full(len(deck), -1, dtype=np.int32)
    discard[:len(pile)] = pile
    mine = [lay[0][p] if up[0][p] else None for p in range(6)]
    return known, faceup, public, discard, mine, shown + pile, stock[0]


def test_the_port_answers_as_the_original():
    rules = Rules.preset("six_card")
    rt = pack_rules(flatten(rules, 2))
    deck = [int(c) for c in flatten(rules, 2).deck]
    value = {c: int(rt[K.RT_VALUE + c]) for c in deck}
    fn, declared = load_function(str(BOT), "decide")
    decide = njit(fn)
    params = np.array([0.0] + [d[1] for d in declared])
    rng = np.random.default_rng(7)
    rng_state = np.ones(4, dtype=np.uint64)
    kinds = {"discard": 0, "stock": 0, "kept": 0, "discarded": 0}
    for _ in range(3000):
        known, faceup, public, discard, mine, seen, drawn = _situation(rng, rules, rt, deck)
        memory = np.zeros(K.MEMORY_SLOTS, dtype=np.int32)
        bot = RuleBot(value)
        legal = np.zeros(K.N_ACTIONS, dtype=np.int32)
        legal[[K.A_DRAW_STOCK, K.A_TAKE_DISCARD]] = 1
        top = int(discard[public[K.PUB_DISCARD_N] - 1])
        source = bot.start_turn(mine, top, deck, seen)
        a = decide(K.DP_TURN, 0, -1, public, legal, known, faceup, discard, memory, rt,
                   rng_state, params)
        assert a == {"discard": K.A_TAKE_DISCARD, "stock": K.A_DRAW_STOCK}[source]
        kinds[source] += 1
        legal[:] = 0
        legal[:6] = 1
        held, point = top, K.DP_PLACE_TAKEN
        if source == "stock":
            held, point = drawn, K.DP_PLACE_DRAWN
            legal[K.A_DISCARD] = 1
        where = bot.place(mine, held, source == "stock")
        a = decide(point, 0, held, public, legal, known, faceup, discard, memory, rt,
                   rng_state, params)
        assert a == (K.A_DISCARD if where is None else where)
        kinds["discarded" if where is None else "kept"] += source == "stock"
    assert min(kinds.values()) > 100   # every branch was asked often


def test_the_port_plays_under_its_alias():
    res = golf.run("six_card", players=2, strategy=[f"bot={BOT}:decide", "greedy"], rounds=2000,
                   seed=3, kernel="general", progress=False)
    s = res.summary
    assert s["strategy"].to_list() == ["bot", "greedy"]
    assert 0.2 < s["win_share"][0] < 0.8 and s["mean_score"][0] < 20
