"""The Cabo build (simulator/kernel/cabo): power_cabo's rules with every seat ``greedy``, played
as the reference engine (simulator/game/powers/, strategies/reference/) and the powers build
play them.

Default tier: hole by hole against the reference, the same move log, scores, layout values,
final layouts (grown positions included), turns, ender, call and what every seat knows at the
end, on power_cabo with 2 to 6 players and on rule sets that vary every option the build
reads as data; every card in exactly one place after each of a chunk's rounds; which runs
``auto`` plays there, and the refusals of ``kernel="cabo"``. Slow tier: the same per-round
scores and turns as the powers build over many rounds, and the same sums."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from simulator.experiments.runner import play_logged_round, run
from simulator.game import codes as K
from simulator.game.rules import RuleError, Rules, flatten
from simulator.kernel import cabo, pick
from simulator.kernel.engine import State, pack_rules
from simulator.kernel.flow.base import known_at
from strategies import resolve_seats, seat_arrays
from strategies.reference import referee
from test_power_kernel import grown, reference_known
from test_reference_parity import differences
from tiers import slow

# the options the Cabo build plays as data (cabo.DATA), with values to vary them by
VARIED = {
    "match_fail_penalty_cards": [0, 2, 3],
    "private_stock_draw": [True],
    "final_turns": ["none", "complete_lap"],
    "knock_timing": ["instead_of_turn", "end_of_own_turn"],
    "end_triggers": [("call",), ("call", "empty_layout"), ("call", "stock_exhausted"),
                     ("empty_layout", "stock_exhausted")],
    "stock_draw_may_be_discarded": [False],
    "draw_from_discard": [False],
    "power_card_placeable": [False],
    "initial_discard": ["none"],
    "initial_reveal_count": [0, 1, 3],
    "knock_min_laps": [2],
    "final_stock_only": [True],
    "grid_cols": [3],
    "decks": [2],
    "value_king_of_diamonds": [13],
    "ender_penalty": ["plus_10"],
}


def varied_rules(rng: random.Random) -> Rules:
    """power_cabo with one to four of VARIED's options changed (a combination the rules
    refuse is drawn again)."""
    while True:
        changes = {o: rng.choice(VARIED[o]) for o in rng.sample(sorted(VARIED), rng.randint(1, 4))}
        try:
            return dataclasses.replace(Rules.preset("power_cabo"), **changes)
        except (RuleError, TypeError, ValueError):
            continue


def reference_differences(rules: Rules, players: int, seed: int, round_index: int) -> list:
    arrays = flatten(rules, players)
    ids, params = seat_arrays(resolve_seats(["greedy"], players))
    engine = play_logged_round(arrays, ids, params, seed, round_index, kernel="cabo")
    ref = referee.play_round(rules, players, ["greedy"], seed, round_index)
    out = differences(engine, dataclasses.replace(ref, layouts=grown(ref.layouts)))
    if engine["known"].tolist() != reference_known(ref):
        out.append("known: engine and reference differ")
    return out


def assert_like_reference(cases) -> None:
    bad = [(case, diff) for case in cases if (diff := reference_differences(*case))]
    assert not bad, f"{len(bad)} of {len(cases)} holes differ; first {bad[0][0][1:]}:\n  " + \
        "\n  ".join(bad[0][1])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_power_cabo_as_the_reference_plays_it(players):
    assert_like_reference([(Rules.preset("power_cabo"), players, 11, i) for i in range(40)])


def test_varied_rules_as_the_reference_plays_them():
    rng = random.Random(5)
    cases = []
    while len(cases) < 120:
        rules, players = varied_rules(rng), rng.randint(2, 5)
        if cabo.plays(flatten(rules, players).ri, [K.POLICY_GREEDY] * players):
            cases.append((rules, players, 23, len(cases)))
    assert_like_reference(cases)


def recount(g, rt, players: int) -> list[str]:
    """What the Cabo build keeps as cards move (cabo.cells), against a count from scratch:
    every card of the deck in exactly one place, each seat's positions with a card, the
    pile's cards by type, what each seat knows of each layout."""
    from simulator.kernel.cabo import cells as C
    out = []
    span = int(g[K.G_PRIV + K.PRIV_SPAN])
    lay = g[K.G_LAY:K.G_LAY + players * K.MAX_POS].reshape(players, K.MAX_POS)
    stock = g[K.G_STOCK:K.G_STOCK + int(g[K.G_PUB + K.PUB_STOCK_N])]
    pile = g[K.G_DISCARD:K.G_DISCARD + int(g[K.G_PUB + K.PUB_DISCARD_N])]
    cards = sorted([int(c) for c in lay.ravel() if c < K.EMPTY0] + list(stock) + list(pile))
    if cards != sorted(int(c) for c in rt[K.RT_DECK:K.RT_DECK + int(rt[K.R_NCARDS])]):
        out.append("the cards are not each in one place")
    if (lay[:, span:] < K.EMPTY0).any():
        out.append("a card beyond the span")
    for s in range(players):
        if int(g[C.MASK + s]) != sum(1 << p for p in range(K.MAX_POS) if lay[s, p] < K.EMPTY0):
            out.append(f"seat {s}'s positions with a card")
    types = np.zeros(int(rt[K.RT_TYPE_N]), dtype=np.int64)
    for c in pile:
        types[rt[K.RT_TYPE + c]] += 1
    if (g[C.PILE_TYPES:C.PILE_TYPES + types.size] != types).any():
        out.append("the pile's types")
    if int(g[K.G_PUB + K.PUB_DISCARD_SUM]) != int(sum(rt[K.RT_VALUE + c] for c in pile)):
        out.append("the pile's sum")
    for o in range(players):
        known_types = np.zeros(types.size, dtype=np.int64)
        for s in range(players):
            seen = [int(g[known_at.py_func(o, s, p)]) for p in range(span)]
            if any(c >= 0 and c != lay[s, p] for p, c in enumerate(seen)):
                out.append(f"seat {o} knows a card that is not at its place")
            real = [c for c in seen if 0 <= c < K.EMPTY0]
            for c in real:
                known_types[rt[K.RT_TYPE + c]] += 1
            if int(g[C.SEAT_KNOWN + o * K.MAX_PLAYERS + s]) != len(real) or \
                    int(g[C.SEAT_SUM + o * K.MAX_PLAYERS + s]) != \
                    int(sum(rt[K.RT_VALUE + c] for c in real)):
                out.append(f"what seat {o} knows of seat {s}'s cards, counted")
        if (g[C.KNOWN_TYPES + o * K.MAX_IDS:][:types.size] != known_types).any():
            out.append(f"the types seat {o} knows")
    return out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_state_kept_matches_a_recount(players):
    """Round after round on one state, the kept counts equal a recount at every round's end;
    and after penalty cards given at a round's end to a seat whose layout is full, so that
    the span grows (greedy's play seldom grows a layout) and the next round starts on what
    that left beyond its span, and grows it again with another seat."""
    from simulator.kernel.cabo import cells as C
    from simulator.kernel.cabo import round as R
    rules = Rules.preset("power_cabo").with_text_options(["match_fail_penalty_cards=2"])
    arrays = flatten(rules, players)
    rt = pack_rules(arrays)
    npos = int(rt[K.R_NPOS])
    st = State(players)
    st.g[K.G_PRIV + K.PRIV_LOG_N] = -1
    grew = 0
    for i in range(300):
        R.round_nb(3, i, rt, st.g, st.rng, st.log, st.out, st.scores, st.L, st.quads,
                   st.extra, st.tmp)
        wrong = recount(st.g, rt, players)
        assert not wrong, f"round {i}: {wrong}"
        full = [s for s in range(players) if st.g[C.MASK + s] == (1 << npos) - 1]
        if full and st.g[K.G_PUB + K.PUB_STOCK_N] >= 2:
            C.penalty_cards(st.g, rt, full[i % len(full)], 2)
            grew += 1
            assert st.g[K.G_PRIV + K.PRIV_SPAN] == npos + 2
            wrong = recount(st.g, rt, players)
            assert not wrong, f"round {i}, after penalty cards: {wrong}"
    assert grew > 50


def _ids(strategy: str, players: int = 4):
    return seat_arrays(resolve_seats([strategy], players))[0]


def test_auto_plays_greedy_power_cabo_there():
    ri = flatten(Rules.preset("power_cabo"), 4).ri
    greedy = _ids("greedy")
    assert pick.build(ri, greedy) == "cabo"
    assert pick.build(ri, greedy, "cabo") == "cabo"
    assert pick.build(ri, greedy, check=True) == "powers"   # invariant checks: the engine
    assert pick.build(ri, greedy, "general") == "powers"
    assert pick.build(ri, list(greedy[:3]) + [_ids("knock-threshold")[0]]) != "cabo"
    for preset in ("power_cactus", "power_pablo", "six_card"):
        assert not cabo.plays(flatten(Rules.preset(preset), 4).ri, greedy)
    snaps = Rules.preset("power_cabo").with_text_options(["snap_mode=cactus"])
    assert not cabo.plays(flatten(snaps, 4).ri, greedy)
    with pytest.raises(ValueError, match="kernel = 'cabo'"):
        pick.build(flatten(Rules.preset("six_card"), 4).ri, greedy, "cabo")
    with pytest.raises(ValueError, match="kernel = 'cabo'"):
        pick.build(ri, _ids("random"), "cabo")


def test_a_run_says_it_played_there():
    ids, params = seat_arrays(resolve_seats(["greedy"], 3))
    res = run(Rules.preset("power_cabo"), 3, ids, params, rounds=3000, seed=4, threads=2,
              chunk_size=700)
    assert res.build == "cabo" and res.complete
    one = run(Rules.preset("power_cabo"), 3, ids, params, rounds=3000, seed=4, threads=1,
              chunk_size=3000)   # the same sums whatever the chunks and threads
    assert (res.totals.acc == one.totals.acc).all() and (res.totals.hist == one.totals.hist).all()
    assert 10 < res.totals.mean_turns() < 40


# ---- slow: the powers build's very rounds ---------------------------------------------------
def powers_differences(rules: Rules, players: int, rounds: int, seed: int) -> str:
    ids, params = seat_arrays(resolve_seats(["greedy"], players))
    there = run(rules, players, ids, params, rounds, seed=seed, threads=2, per_round=True)
    engine = run(rules, players, ids, params, rounds, seed=seed, threads=2, per_round=True,
                 kernel="powers")
    assert there.build == "cabo" and engine.build == "powers"
    a, b = there.per_round, engine.per_round
    bad = np.nonzero((a.scores != b.scores).any(axis=1) | (a.turns != b.turns))[0]
    if len(bad):
        return f"{len(bad)} of {rounds} rounds differ, the first {bad[0]}"
    if (there.totals.acc != engine.totals.acc).any() or \
            (there.totals.hist != engine.totals.hist).any():
        return "the sums differ"
    return ""


@slow
def test_the_powers_builds_rounds():
    assert powers_differences(Rules.preset("power_cabo"), 4, 30_000, 8) == ""


@slow
def test_the_powers_builds_rounds_on_varied_rules():
    rng = random.Random(9)
    bad = []
    played = 0
    for k in range(12):
        rules, players = varied_rules(rng), rng.randint(2, 6)
        if cabo.plays(flatten(rules, players).ri, _ids("greedy", players)):
            played += 1
            diff = powers_differences(rules, players, 2_000, 100 + k)
            if diff:
                bad.append(f"{rules} ({players} players): {diff}")
    assert not bad, "\n".join(bad)
    assert played >= 9
