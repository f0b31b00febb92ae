"""The compiled power-card games (the powers build of simulator/kernel/flow) against their
specification, the reference engine (simulator/game/powers/): with every seat random, the
same move log, scores, layout values, final layouts (grown positions included), turns, ender,
knock, cap and reshuffles, hole by hole, over every power preset and random power rule sets;
card conservation after every turn (check=True); what every seat knows and who was seen
peeking equal to the reference's, at the end of a hole and part way through; and the test
vectors of the power-card games scored by the compiled scorer. The powers build's compile is the
slow tier's (tests/conftest.py SLOW_BUILDS), so everything that plays a hole is there; the
default tier keeps what the compiled scorer and the rule data show."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import referee
from simulator.game.effects import effect_of
from simulator.game.powers import PowerHole
from simulator.game.rules import POWER_PRESETS, RuleError, Rules, flatten
from simulator.experiments.runner import play_logged_round, run
from simulator.kernel import scoring as S
from simulator.kernel import pick
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled, resolve_seats, seat_arrays
from test_powers import random_power_rules
from test_reference_parity import differences as parity_differences
from tiers import slow


def card(text: str) -> int:
    return C.card_id(C.RANK_JOKER, 0) if text == "JK" else C.card_id(*C.parse_card(text))


# ---- playing a hole both ways ---------------------------------------------------------------
def grown(layouts) -> list[list[int]]:
    """Reference layouts padded to MAX_POS with empty pseudo-cards, as the kernel keeps them."""
    return [list(row) + [K.EMPTY0 + p for p in range(len(row), K.MAX_POS)] for row in layouts]


def compiled_hole(rules: Rules, players: int, seed: int, round_index: int,
                  seats: list[str] | None = None) -> dict:
    arrays = flatten(rules, players)
    ids, params = seat_arrays(resolve_seats(seats or ["random"] * players, players))
    out = play_logged_round(arrays, ids, params, seed, round_index, check=True)
    assert out["error"] == 0 and out["ok"], f"kernel error {out['error']}"
    return out


def differences(rules: Rules, players: int, seed: int, round_index: int,
                seats: list[str] | None = None) -> list[str]:
    """test_reference_parity's comparison (move log, scores, layouts as the kernel pads them,
    turns, ender, ...) and, here, what every seat knows at the end of the hole."""
    seats = seats or ["random"] * players
    engine = compiled_hole(rules, players, seed, round_index, seats)
    ref = referee.play_round(rules, players, seats, seed, round_index)
    out = parity_differences(engine, dataclasses.replace(ref, layouts=grown(ref.layouts)))
    known = reference_known(ref)
    if engine["known"].tolist() != known:
        out.append(f"known: engine {engine['known'].tolist()} | reference {known}")
    return out


def reference_known(ref) -> list:
    """What each seat knows at the end of a reference hole, [observer][seat][pos], padded to
    MAX_POS positions as the kernel keeps it (an empty position is known to all)."""
    known = [[row + [-1] * (K.MAX_POS - len(row)) for row in obs] for obs in ref.known]
    for obs in range(len(ref.known)):
        for s, row in enumerate(ref.layouts):
            for p in range(len(row), K.MAX_POS):
                known[obs][s][p] = K.EMPTY0 + p
    return known


def assert_parity(cases, seats=None) -> None:
    """``seats``: a function of the player count giving the seats' strategies (all random
    when None)."""
    bad = []
    for rules, players, seed, round_index in cases:
        diff = differences(rules, players, seed, round_index,
                           seats(players) if seats else None)
        if diff:
            bad.append((rules, players, seed, round_index, diff))
    assert not bad, f"{len(bad)} of {len(cases)} holes differ; first: {bad[0][:4]}:\n  " + \
        "\n  ".join(bad[0][4])


# ---- random power rule sets -----------------------------------------------------------------
EXTRA = {   # options beyond test_powers.random_power_rules that the power turn also reads
    "placement_face": ["up", "down", "player_choice"],
    "flip_after_stock_discard": ["none", "mandatory", "mandatory_unless_one_face_down",
                                 "optional_in_endgame"],
    "flip_instead_of_draw": [True],
    "flip_all_to_end": [True],
    "reveal_on_trigger": [True],
    "non_caller_rule": ["zero_if_not_above_caller"],
    "ender_penalty": ["plus_highest_opponent", "plus_10"],
    "ender_bonus": ["fixed_minus_10"],
    "stock_empty": ["end_hole"],
    "initial_reveal_mode": ["none", "peek", "flip"],
    "end_triggers": [("call", "empty_layout"), ("call", "stock_exhausted"),
                     ("knock", "all_face_up"), ("stock_exhausted",)],
}


def power_rules(rng: random.Random) -> Rules:
    rules = random_power_rules(rng)
    for option in rng.sample(sorted(EXTRA), rng.randint(0, 3)):
        try:
            rules = dataclasses.replace(rules, **{option: rng.choice(EXTRA[option])})
        except (RuleError, TypeError, ValueError):
            rules = random_power_rules(rng)
    return rules


def random_cases(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rules = power_rules(rng)
        players = rng.randint(2, 6)
        try:
            rules.check_players(players)
        except RuleError:
            continue
        out.append((rules, players, seed * 10_000 + len(out), rng.randrange(50)))
    return out


@slow
# ================================================================================================
# Parity with the reference, all seats random
# ================================================================================================
@pytest.mark.parametrize("preset", POWER_PRESETS)
def test_every_power_preset_plays_as_the_reference(preset):
    rules = Rules.preset(preset)
    n = rules.players_min
    assert not pick.missing("powers", rules, n) and \
        pick.missing("general", rules, n) == ["powers"]
    assert_parity([(rules, players, 31 + players, i) for players in (2, 4, 6)
                   if rules.players_min <= players <= rules.players_max for i in range(8)])


@slow
@pytest.mark.parametrize("part", range(4))
def test_random_power_rule_sets_play_as_the_reference(part):
    assert_parity(random_cases(60, seed=100 + part))


# the built-ins that have a reference counterpart decide every power move as it does
SEATINGS = {
    "greedy": lambda n: ["greedy"] * n,
    "knock-threshold": lambda n: ["knock-threshold"] * n,
    "mixed": lambda n: (["greedy", "knock-threshold:T=4", "random"] * n)[:n],
}


@slow
@pytest.mark.parametrize("seating", sorted(SEATINGS))
@pytest.mark.parametrize("preset", POWER_PRESETS)
def test_built_in_seats_play_every_power_preset_as_the_reference(preset, seating):
    rules = Rules.preset(preset)
    assert_parity([(rules, players, 41 + players, i) for players in (2, 4)
                   if rules.players_min <= players <= rules.players_max for i in range(4)],
                  SEATINGS[seating])


@slow
@pytest.mark.parametrize("seating", sorted(SEATINGS))
def test_built_in_seats_play_random_power_rule_sets_as_the_reference(seating):
    assert_parity(random_cases(40, seed=300 + len(seating)), SEATINGS[seating])


@slow
@pytest.mark.parametrize("seating", sorted(SEATINGS))
@pytest.mark.parametrize("part", range(4))
def test_built_in_seats_sweep(seating, part):
    assert_parity(random_cases(400, seed=9500 + 10 * part + len(seating)), SEATINGS[seating])


@slow
@pytest.mark.parametrize("part", range(10))
def test_random_power_rule_sets_sweep(part):
    assert_parity(random_cases(500, seed=9000 + part))


@slow
@pytest.mark.parametrize("preset", POWER_PRESETS)
def test_power_preset_sweep(preset):
    rules = Rules.preset(preset)
    assert_parity([(rules, players, 77, i) for players in range(2, 7)
                   if rules.players_min <= players <= rules.players_max for i in range(150)])


@slow
@pytest.mark.parametrize("preset", ["power_cabo", "power_cactus"])
def test_the_span_covers_every_card(preset):
    """The span the built-ins' loops stop at (codes.PRIV_SPAN) reaches every card that ever
    lay in a layout: the kernel checks it after every turn (check=True), and at the end of a
    hole it covers the layouts as they are; penalty cards grow layouts beyond the grid, so
    the span grows too."""
    rules = Rules.preset(preset)
    npos = rules.n_positions
    widest = 0
    for i in range(150):
        out = compiled_hole(rules, 4, 5, i)
        cards = [p for row in out["layouts"].tolist() for p, c in enumerate(row) if c < K.EMPTY0]
        assert npos <= out["span"] <= K.MAX_POS
        assert max(cards, default=-1) < out["span"], i
        widest = max(widest, out["span"])
    assert widest > npos


# ================================================================================================
# What everyone knows and who was seen peeking, part way through a hole
# ================================================================================================
def compiled_state(rules: Rules, players: int, seed: int, round_index: int):
    arrays = flatten(rules, players)
    ids, params = seat_arrays(resolve_seats(["random"] * players, players))
    st = State(players, 8192)
    build = pick.module(pick.build(arrays.ri, ids, "general"))
    ok = build.round_nb(seed, round_index, pack_rules(arrays), policy_table(ids, params),
                        *st.arrays(), True, True, NO_USER_POLICY, compiled.table(ids, None),
                        st.aux)
    assert ok and st.out[K.OUT_ERROR] == 0
    return st.g


def reference_state(rules: Rules, players: int, seed: int, round_index: int):
    hole = referee.make_hole(rules, players, ["random"] * players, seed, round_index)
    assert isinstance(hole, PowerHole)
    hole.play()
    return hole.state


@slow
@pytest.mark.parametrize("preset", ["nine_card_fuchs", "eight_card_whitnack"])
def test_the_powers_build_plays_plain_rule_sets_as_the_general_build(preset):
    """The powers build's turn is the plain turn with the power steps added, so a plain rule
    set plays there as on the general build: groups leaving the layout (nine_card_fuchs), the
    first turn's reveals (eight_card_whitnack), round by round."""
    ids, params = seat_arrays(resolve_seats(["greedy", "random", "ev", "heuristic"], 4))
    played = [run(Rules.preset(preset), 4, ids, params, 150, seed=5, per_round=True,
                  kernel=kernel).per_round for kernel in ("powers", "general")]
    assert (played[0].scores == played[1].scores).all()
    assert (played[0].turns == played[1].turns).all()


@slow
@pytest.mark.parametrize("part", range(3))
def test_knowledge_and_peeks_match_the_reference_part_way(part):
    """A hole cut at turn N (turn_cap = N) is the same hole up to there: its G_KNOWN and
    G_PEEKED equal every Cell's known_to and peeked_by."""
    rng = random.Random(500 + part)
    for n in range(40):
        rules = power_rules(rng)
        players = rng.randint(2, 5)
        rules = dataclasses.replace(rules, turn_cap=rng.randint(1, 30))
        seed = 700 + n
        g = compiled_state(rules, players, seed, 0)
        st = reference_state(rules, players, seed, 0)
        for s in range(players):
            for p in range(K.MAX_POS):
                cell = st.layouts[s][p] if p < len(st.layouts[s]) else None
                card_there = K.EMPTY0 + p if cell is None else cell.card
                everyone = set(range(players))
                knowers = everyone if cell is None else cell.known_to
                peekers = set() if cell is None else cell.peeked_by
                assert g[K.G_LAY + s * K.MAX_POS + p] == card_there, (n, s, p)
                assert g[K.G_UP + s * K.MAX_POS + p] == (1 if cell is None else
                                                         int(cell.face_up)), (n, s, p)
                seen = {o for o in range(players)
                        if g[K.G_KNOWN + (o * K.MAX_PLAYERS + s) * K.MAX_POS + p] >= 0}
                assert seen == knowers, (n, s, p, seen, knowers)
                assert all(g[K.G_KNOWN + (o * K.MAX_PLAYERS + s) * K.MAX_POS + p] == card_there
                           for o in seen)
                mask = int(g[K.G_PEEKED + s * K.MAX_POS + p])
                assert {o for o in range(players) if mask >> o & 1} == peekers, (n, s, p)
        assert int(g[K.G_PUB + K.PUB_SHIELDED]) == sum(1 << s for s in range(players)
                                                       if st.shielded[s])
        assert int(g[K.G_PUB + K.PUB_STOCK_N]) == len(st.stock)
        assert [int(c) for c in g[K.G_DISCARD:K.G_DISCARD + len(st.discard)]] == st.discard
        assert int(g[K.G_PUB + K.PUB_DISCARD_N]) == len(st.discard)
        assert int(g[K.G_PUB + K.PUB_TOP_POWER_UNUSED]) == int(st.top_power_unused)


# ================================================================================================
# Rule data and the compiled scorer
# ================================================================================================
@pytest.mark.parametrize("rules", [Rules.preset(p) for p in POWER_PRESETS] + [
    Rules.preset("six_card", power_set="dutch"),
    Rules.preset("four_card", power_set="dutch", dutch_powers=("K", "2", "8")),
    Rules.preset("power_malaysia", powers_off=("J",))], ids=lambda r: r.power_set)
def test_each_cards_power_reaches_the_kernel_as_data(rules):
    rt = pack_rules(flatten(rules, 3))
    for c in range(K.MAX_IDS):
        assert rt[K.RT_EFFECT + c] == effect_of(rules, c), C.card_name(c)
    assert all(rt[K.RT_EFFECT + K.EMPTY0 + p] == 0 for p in range(K.MAX_POS))


def compiled_layout_value(rules: Rules, layout: list[int], players: int = 2) -> int:
    """The compiled scorer's value of one seat's layout (positions beyond the grid scored
    unpaired, as the powers build scores a grown layout)."""
    arrays = flatten(rules, players)
    rt = pack_rules(arrays)
    cards = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
    for s in range(players):
        row = grown([layout])[0]
        cards[s * K.MAX_POS:(s + 1) * K.MAX_POS] = row
    L = np.zeros(players, dtype=np.int64)
    quads = np.zeros(players, dtype=np.int64)
    tmp = np.zeros(max(K.MAX_IDS, S.TMP_SIZE), dtype=np.int64)
    S.layout_values_nb(cards, 0, rt, players, L, quads, tmp)
    S.grown_values_nb(cards, 0, rt, players, L)
    return int(L[0])


@pytest.mark.parametrize("preset, layout, value", [   # TV-D15
    ("power_cumbia", "2D KH KC QS", -3),
    ("power_cabo", "KD KS JC 7H", 31),
    ("power_malaysia", "JK KC 3D AS", 24),
    ("power_pablo", "JK KC 3D AS", 9),
    ("power_cactus", "KC QD 2S AH", 13),
])
def test_tv_d15_power_values_compiled(preset, layout, value):
    assert compiled_layout_value(Rules.preset(preset), [card(t) for t in layout.split()]) == \
        value


def test_grown_layouts_are_scored_unpaired_by_the_compiled_scorer():
    rules = Rules.preset("six_card", power_set="dutch")
    layout = [card(t) for t in "5S 5H 3D 4C 5D 6S 5C".split()]   # one card beyond the grid
    layout[2] = K.EMPTY0 + 2                                       # and an emptied one
    from simulator.game.powers import layout_value_grown
    ref = layout_value_grown(rules, R.CardTable(rules, 2).value, layout)[0]
    assert compiled_layout_value(rules, layout) == ref


def test_tv_s10_s11_keys_reach_the_kernel():
    cumbia = pack_rules(flatten(Rules.preset("power_cumbia"), 3))
    key = lambda rt, t: rt[K.RT_KEY + card(t)]   # noqa: E731
    assert key(cumbia, "KH") != key(cumbia, "KS")       # TV-S10: by point value
    assert key(cumbia, "2D") != key(cumbia, "2C")
    assert key(cumbia, "7S") == key(cumbia, "7H")
    cabo = pack_rules(flatten(Rules.preset("power_cabo"), 3))
    assert key(cabo, "KD") == key(cabo, "KC")           # TV-S11: every king matches
    assert cabo[K.RT_VALUE + card("KD")] == 0 and cabo[K.RT_VALUE + card("KC")] == 13


def compiled_hole_scores(rules: Rules, L: list[int], ender: int, knocked: bool) -> list[int]:
    players = len(L)
    ri = flatten(rules, players).ri
    out = np.zeros(players, dtype=np.int64)
    S.hole_scores_nb(np.array(L, dtype=np.int64), np.zeros(players, dtype=np.int64), ender,
                     knocked, players, ri, np.zeros(players, dtype=np.int64), out)
    return [int(x) for x in out]


@pytest.mark.parametrize("L, expected", [
    ([7, 7, 12], [7, 7, 12]),       # TV-S14: a tie for lowest changes nothing
    ([5, 7, 12], [-10, 7, 12]),     # lowest: -10
    ([8, 7, 12], [20, 7, 12]),      # not lowest: plus the highest opponent
])
def test_tv_s14_pablo_caller_compiled(L, expected):
    assert compiled_hole_scores(Rules.preset("power_pablo"), L, 0, True) == expected


@pytest.mark.parametrize("L, expected", [
    ([3, 7, 12], [0, 7, 12]),
    ([7, 7, 12], [17, 0, 12]),
    ([9, 4, 12], [19, 0, 12]),
])
def test_cactus_caller_and_non_callers_compiled(L, expected):
    assert compiled_hole_scores(Rules.preset("power_cactus"), L, 0, True) == expected
