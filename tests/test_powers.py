"""The power-card games in the reference engine (simulator/game/powers/): the test vectors of
docs/rules.md#test-vectors that concern them, worked examples of every kind of move played on
set-up states, and a contract over random power rule sets: every card in exactly one place
after every decision, scores equal to a recount, every hole ends, and what every seat knows
equal to a replay of the log of who saw what."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import policy_maker, referee
from simulator.game.effects import effect_of
from simulator.game.powers import PowerCell, PowerHole, layout_value_grown
from simulator.game.reference import Action, Decision
from simulator.game.rules import POWER_PRESETS, RuleError, Rules
from tiers import slow


def card(text: str) -> int:
    return C.card_id(*C.parse_card(text))


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


# ================================================================================================
# Test vectors
# ================================================================================================
@pytest.mark.parametrize("preset, layout, value", [
    ("power_cumbia", "2D KH KC QS", -3),
    ("power_cabo", "KD KS JC 7H", 31),
    ("power_malaysia", "JK KC 3D AS", 24),
    ("power_pablo", "JK KC 3D AS", 9),
    ("power_cactus", "KC QD 2S AH", 13),
])
def test_tv_d15_power_values(preset, layout, value):
    rules = Rules.preset(preset)
    ids = [C.card_id(C.RANK_JOKER, 0) if t == "JK" else card(t) for t in layout.split()]
    assert R.layout_value(rules, ids) == value


def test_tv_s10_cumbia_matches_by_value():
    rules = Rules.preset("power_cumbia")
    key = lambda t: R.match_key(rules, card(t))   # noqa: E731
    assert key("KH") != key("KS")
    assert key("2D") != key("2C")
    assert key("7S") == key("7H")


def test_tv_s11_cabo_kings_all_match():
    rules = Rules.preset("power_cabo")
    assert R.match_key(rules, card("KD")) == R.match_key(rules, card("KC"))
    assert R.card_value(rules, card("KD")) == 0 and R.card_value(rules, card("KC")) == 13


@pytest.mark.parametrize("L, expected", [
    ([7, 7, 12], [7, 7, 12]),       # TV-S14: a tie for lowest changes nothing
    ([5, 7, 12], [-10, 7, 12]),     # lowest: -10
    ([8, 7, 12], [20, 7, 12]),      # not lowest: plus the highest opponent
])
def test_tv_s14_pablo_caller(L, expected):
    assert R.hole_scores(Rules.preset("power_pablo"), L, 0, knocked=True) == expected


@pytest.mark.parametrize("L, expected", [
    ([3, 7, 12], [0, 7, 12]),       # strictly lowest: 0
    ([7, 7, 12], [17, 0, 12]),      # a tie: the caller loses it (+10), the other scores 0
    ([9, 4, 12], [19, 0, 12]),      # not lowest: +10; a non-caller at or below the caller 0
])
def test_cactus_caller_and_non_callers(L, expected):
    assert R.hole_scores(Rules.preset("power_cactus"), L, 0, knocked=True) == expected


# ================================================================================================
# Set-up states and scripted moves
# ================================================================================================
class Script:
    """A seat that plays given (decision, action) pairs and fails on anything else."""

    def __init__(self, moves):
        self.moves = list(moves)
        self.seen: list[R.Observation] = []

    def choose(self, obs):
        assert self.moves, f"seat {obs.seat} asked {obs.decision.name} beyond its script"
        decision, action = self.moves.pop(0)
        assert obs.decision == decision, (obs.decision.name, decision.name, obs.legal)
        assert action in obs.legal, (obs.decision.name, action, obs.legal)
        self.seen.append(obs)
        return action


def setup(rules: Rules, layouts: list[str], stock_top: str = "", discard: str = "",
          scripts=(), known=None) -> PowerHole:
    """A hole whose layouts, discard pile and top stock cards (last = top) are as given, the
    rest of the deck below them in deck order; ``known[seat]`` lists (seat, pos) it knows."""
    players = len(layouts)
    hole = PowerHole(rules, players, [policy_maker("random")], seed=1, round_index=0)
    st = hole.state
    st.deal()
    rows = [cards(text) for text in layouts]
    top, pile = cards(stock_top), cards(discard)
    used = set(c for row in rows for c in row) | set(top) | set(pile)
    st.layouts = [[PowerCell(c) for c in row] for row in rows]
    st.stock = [c for c in st.table.deck if c not in used] + top
    st.discard = pile
    st.top_power_unused = bool(pile)
    for seat, places in enumerate(known or [[]] * players):
        for s, p in places:
            st.layouts[s][p].known_to.add(seat)
    hole.policies = [Script(m) for m in scripts] + \
        [Script([]) for _ in range(players - len(scripts))]
    st.check_invariants()
    return hole


def played(hole: PowerHole, seat: int = 0) -> PowerHole:
    hole.play_turn(seat)
    hole.state.check_invariants()
    for policy in hole.policies:
        assert not policy.moves, f"unplayed moves: {policy.moves}"
    return hole


D, T = Decision, Action


def test_peek_own_and_opponent_are_public_positions():
    rules = Rules.preset("power_cabo")
    hole = played(setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="9C",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.TARGET_SEAT, 1), (D.TARGET_POS, 2), (D.KNOCK, T.PASS)]]))
    cell = hole.state.layouts[1][2]
    assert cell.known_to == {0} and cell.peeked_by == {0}
    assert hole.state.discard[-1] == card("9C") and not hole.state.top_power_unused
    assert hole.policies[0].seen[2].power == K.POW_PEEK_OPP
    assert hole.policies[0].seen[3].target_seat == 1


def test_blind_swap_moves_knowledge_with_the_cards():
    rules = Rules.preset("power_malaysia")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H", "AD 2D 3D 4D"], stock_top="KC",
                 known=[[(0, 0)], [(1, 3)], [(0, 0), (1, 3)]],
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                           (D.TARGET_SEAT, 1), (D.TARGET_POS, 3), (D.TARGET_POS, 0)]])
    played(hole)
    lay = hole.state.layouts
    assert lay[0][0].card == card("4H") and lay[1][3].card == card("AS")
    assert lay[0][0].known_to == {1, 2} and lay[1][3].known_to == {0, 2}


def test_shield_keeps_powers_off_a_layout():
    rules = Rules.preset("four_card", power_set="dutch")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H", "AD 2D 3D 4D"], stock_top="10C",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                           (D.TARGET_SEAT, 2), (D.TARGET_POS, 0)]])
    hole.state.shielded[1] = True
    played(hole)
    assert hole.policies[0].seen[2].legal == (2,)      # seat 1 is shielded


def test_shuffle_makes_face_down_cards_unknown_to_everyone():
    rules = Rules.preset("power_malaysia")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="JK",
                 known=[[(1, 0), (1, 1)], [(1, 0), (1, 1)]],
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                           (D.TARGET_SEAT, 1)]])
    hole.state.stock[-1] = C.card_id(C.RANK_JOKER, 0)
    hole.state.turn_up(1, 3)                     # a face-up card is not shuffled
    before = sorted(c.card for c in hole.state.layouts[1][:3])
    played(hole)
    row = hole.state.layouts[1]
    assert sorted(c.card for c in row[:3]) == before and row[3].card == card("4H")
    assert all(c.known_to == set() and not c.peeked_by for c in row[:3])
    assert row[3].known_to == {0, 1}
    assert hole.state.events[-1][0] == "shuffle"


def test_cumbia_snap_hit_from_an_opponent_gives_a_card_back():
    rules = Rules.preset("power_cumbia")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 9H 3H 4H", "AD 2D 3D 4D"], stock_top="9C",
                 known=[[], [], [(1, 1), (2, 0)]],
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.DISCARD),
                           (D.KNOCK, T.PASS)],
                          [(D.SNAP, T.PASS)],
                          [(D.SNAP, T.SNAP), (D.TARGET_SEAT, 1), (D.TARGET_POS, 1),
                           (D.TARGET_POS, 0)]])
    played(hole)
    st = hole.state
    assert st.discard[-2:] == [card("9C"), card("9H")]
    assert st.layouts[1][1].card == card("AD") and st.layouts[1][1].known_to == {2}
    assert R.is_empty(st.layouts[2][0].card) and st.penalty == [0, 0, 0]


def test_cumbia_snap_miss_on_an_opponent_costs_ten_and_shows_the_card():
    rules = Rules.preset("power_cumbia")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 8H 3H 4H"], stock_top="9C",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.DISCARD),
                           (D.SNAP, T.PASS), (D.KNOCK, T.PASS)],
                          [(D.SNAP, T.SNAP), (D.TARGET_SEAT, 0), (D.TARGET_POS, 2)]])
    played(hole)
    st = hole.state
    assert st.penalty == [0, 10] and st.layouts[0][2].known_to == {0, 1}
    assert st.layouts[0][2].card == card("3S") and not st.layouts[0][2].face_up


def test_cactus_snap_miss_draws_two_penalty_cards():
    rules = Rules.preset("power_cactus")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 8H 3H 4H"], stock_top="5C 6C 9C", discard="KD",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.DISCARD),
                           (D.SNAP, T.PASS), (D.KNOCK, T.PASS)],
                          [(D.SNAP, T.SNAP), (D.TARGET_POS, 0)]])
    played(hole)
    row = hole.state.layouts[1]
    assert [c.card for c in row] == cards("AH 8H 3H 4H 6C 5C")
    assert row[4].known_to == set() and row[0].known_to == {0, 1}


def test_pablo_multi_replace_success_and_failure():
    rules = Rules.preset("power_pablo")
    hole = played(setup(rules, ["5S 5H 3S 4S", "AH 2H 3H 4H"], stock_top="2C",
                        known=[[(0, 0), (0, 1)], []],
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.MATCH),
                                  (D.NOMINATE, 0), (D.NOMINATE, 1), (D.NOMINATE, T.PASS),
                                  (D.KNOCK, T.PASS)]]))
    row = hole.state.layouts[0]
    assert row[0].card == card("2C") and R.is_empty(row[1].card)
    assert hole.state.discard[-2:] == cards("5S 5H")
    # failure: the cards stay, shown to all, and the held card is added as a fifth
    hole = played(setup(rules, ["5S 6H 3S 4S", "AH 2H 3H 4H"], stock_top="2C",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.MATCH),
                                  (D.NOMINATE, 0), (D.NOMINATE, 1), (D.NOMINATE, T.PASS),
                                  (D.KNOCK, T.PASS)]]))
    row = hole.state.layouts[0]
    assert [c.card for c in row] == cards("5S 6H 3S 4S 2C")
    assert row[0].known_to == row[1].known_to == {0, 1} and row[4].known_to == {0}
    assert not row[0].face_up


def test_cabo_match_replaces_an_opponents_card_and_draws_a_penalty():
    rules = Rules.preset("power_cabo")          # TV-S11: K♦ matches K♣
    hole = played(setup(rules, ["AS 2S 3S 4S", "KC 2H 3H 4H"], stock_top="7D KD",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.MATCH),
                                  (D.TARGET_SEAT, 1), (D.NOMINATE, 0),
                                  (D.TARGET_SEAT, 1), (D.NOMINATE, 1),
                                  (D.TARGET_SEAT, T.PASS), (D.TARGET_POS, 3),
                                  (D.KNOCK, T.PASS)]]))
    st = hole.state
    assert st.discard[-2:] == cards("KC KD")
    assert st.layouts[1][0].card == card("4S")          # given blind in the K♣'s place
    assert st.layouts[1][1].known_to == {0, 1}          # the miss was shown
    # the penalty card for the miss fills the position the given card left, unseen
    assert [c.card for c in st.layouts[0]] == cards("AS 2S 3S 7D")
    assert st.layouts[0][3].known_to == set()


def test_cabo_match_penalty_card_fills_the_emptied_position():
    rules = Rules.preset("power_cabo")
    hole = played(setup(rules, ["AS 2S 3S 4S", "KC 2H 3H 4H"], stock_top="7D KD",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.MATCH),
                                  (D.TARGET_SEAT, 0), (D.NOMINATE, 1),
                                  (D.TARGET_SEAT, T.PASS), (D.KNOCK, T.PASS)]]))
    row = hole.state.layouts[0]
    assert [c.card for c in row] == cards("AS 2S 3S 4S 7D")
    assert row[4].known_to == set() and row[1].known_to == {0, 1}


def test_tv_s12_cactus_discard_power_once_only():
    rules = Rules.preset("power_cactus")
    hole = setup(rules, ["JS 5S 6S 4S", "AH 9H 3H 4H", "AD 2D 3D 4D"], stock_top="2C",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, 0), (D.SNAP, T.PASS),
                           (D.KNOCK, T.PASS)],
                          [(D.SNAP, T.PASS), (D.TURN, T.DISCARD_POWER), (D.TARGET_SEAT, 0),
                           (D.TARGET_POS, 1), (D.KNOCK, T.PASS)],
                          [(D.SNAP, T.PASS)]])
    hole.play_turn(0)   # A places the 2♣ and discards the jack, its power unused
    assert hole.state.discard[-1] == card("JS") and hole.state.top_power_unused
    hole.play_turn(1)   # B looks at one of A's cards with it; no snap: the top is the same
    st = hole.state
    assert all(not policy.moves for policy in hole.policies)
    assert st.layouts[0][1].known_to == {1} and st.discard[-1] == card("JS")
    assert not st.top_power_unused
    legal = hole.turn_options(2)
    assert Action.DISCARD_POWER not in legal        # C may not use it again


def test_black_king_cancels_a_final_lap():
    rules = Rules.preset("four_card", power_set="dutch")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="KS",
                 scripts=[[], [(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER)]])
    st = hole.state
    st.start_end(0)
    st.knocked = True
    played(hole, 1)
    assert st.ender is None and st.final_turns_left is None and not st.knocked
    assert st.discard[-1] == card("KS")


def test_layout_full_takes_no_more_cards():
    rules = Rules.preset("power_cactus")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 8H 3H 4H"], stock_top="5C 6C 9C", discard="KD")
    st = hole.state
    for p in range(4, K.MAX_POS):
        st.put(1, p, st.stock.pop(0), False, set())
    assert st.room(1) is None
    n = len(st.stock)
    st.add_penalty_cards(1, 2)
    assert len(st.stock) == n and len(st.layouts[1]) == K.MAX_POS
    st.check_invariants()


def test_grown_layouts_score_their_extra_cards_unpaired():
    rules = Rules.preset("six_card", power_set="dutch")
    value = R.CardTable(rules, 2).value
    ids = cards("5S 2S 3S 5H 2H 4S 5D")        # column 0 pairs; the extra 5♦ does not
    assert layout_value_grown(rules, value, ids) == (0 + 0 + 7 + 5, 0)


def test_effects_of_the_dutch_table_follow_dutch_powers():
    rules = Rules.preset("six_card", power_set="dutch", dutch_powers=("K", "8"))
    assert effect_of(rules, card("KS")) == K.POW_CANCEL_FINAL
    assert effect_of(rules, card("KH")) == K.POW_NONE         # red kings: a value only
    assert effect_of(rules, card("8D")) == K.POW_DRAW_TWO
    assert effect_of(rules, card("JD")) == K.POW_NONE


def test_powers_off_switches_one_card_of_a_named_set_to_an_ordinary_card():
    rules = Rules.preset("power_malaysia", powers_off="j")
    assert rules.powers_off == ("J",)
    assert effect_of(rules, card("JS")) == K.POW_NONE
    assert effect_of(rules, card("QS")) == K.POW_PEEK_OPP
    assert effect_of(Rules.preset("power_malaysia"), card("JS")) == K.POW_PEEK_OWN
    # the switched-off jack is never offered as a power in play
    for seed in range(3):
        hole = PowerHole(rules, 3, [policy_maker("greedy")], seed, 0)
        record = hole.play()
        for _, _, point, action, held in record.log:
            if action == K.A_POWER:
                assert C.rank_of(held) != C.RANKS.index("J")
    for bad, said in (("A", "gives A no power; cards with powers: J, Q, K, Joker"),
                      ("X", "expected ranks from A, 2,")):
        with pytest.raises(RuleError, match=said):
            Rules.preset("power_malaysia", powers_off=bad)
    with pytest.raises(RuleError, match="needs a named power_set"):
        Rules.preset("six_card", power_set="dutch", powers_off="J")


def test_bad_combinations_are_refused_in_one_line():
    for overrides in ({"snap_penalty_cards": 2}, {"end_triggers": ("knock", "call")},
                      {"end_triggers": ("stock_exhausted",)}, {"call_name": "Pablo"},
                      {"dutch_powers": ("K",)}, {"power_set": "dutch", "dutch_powers": ("Q",)},
                      {"power_set": "cabo", "remove_cancelled": "immediate"}):
        with pytest.raises(RuleError) as e:
            Rules.preset("four_card", **overrides)
        assert "\n" not in str(e.value)


@pytest.mark.slow
# every command plays the power-card games (the compiled powers build)
@pytest.mark.parametrize("command", [
    ["run", "--preset", "power_cabo", "--rounds", "300"],
    ["run", "--preset", "six_card", "--set", "power_set=dutch", "--rounds", "300"],
    ["tune", "--preset", "power_pablo", "--strategy", "knock-threshold", "--param",
     "T=2,8", "--symmetric", "--rounds", "800"],
    ["tournament", "--preset", "power_cumbia", "--strategy", "greedy", "--strategy",
     "forgetful:decay=0.3", "--rounds", "200"],
    ["guide", "--preset", "power_cactus", "--deals", "100", "--check-rounds", "100",
     "--compare-rounds", "100"]])
def test_every_command_plays_power_rules(command, tmp_path):
    from simulator.cli import cli
    result = CliRunner().invoke(cli, command + ["--threads", "1", "--quiet", "--out",
                                                str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "rules: " + (command[2] if command[2] != "six_card" else "six_card") in \
        result.output or command[0] == "guide", result.output
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert any(name.endswith(".parquet") for name in written), written


def test_the_guide_of_a_call_game_measures_when_to_call(tmp_path):
    from simulator.experiments import guide as G
    rules = Rules.preset("power_cabo")
    assert G.applicable(rules, 4)["knock"] and ("knock",) in G.steps(rules, 4)
    assert "called Cabo" in G.ending(rules)


@pytest.mark.slow
def test_compare_plays_power_rules_on_the_powers_build(tmp_path):
    from simulator.cli import cli
    result = CliRunner().invoke(cli, ["compare", "--preset", "four_card", "--vary",
                                      "snap_mode=none,cactus", "--strategy", "random",
                                      "--rounds", "50", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output


# ================================================================================================
# The contract over random power rule sets
# ================================================================================================
def replay_knowledge(events, players):
    """What every seat knows, rebuilt from the log of who saw what alone: {(seat, pos):
    (card, face_up, knowers)}."""
    everyone = frozenset(range(players))
    at: dict[tuple[int, int], tuple[int, bool, frozenset]] = {}
    for e in events:
        kind = e[0]
        if kind == "put":
            _, s, p, c, up, seen = e
            at[s, p] = (c, up, everyone if up else frozenset(seen))
        elif kind == "empty":
            at[e[1], e[2]] = (K.EMPTY0 + e[2], True, everyone)
        elif kind == "see":
            c, up, who = at[e[2], e[3]]
            at[e[2], e[3]] = (c, up, who | {e[1]})
        elif kind in ("show", "up"):
            c, up, _ = at[e[1], e[2]]
            at[e[1], e[2]] = (c, up or kind == "up", everyone)
        elif kind == "swap":
            a, b = (e[1], e[2]), (e[3], e[4])
            at[a], at[b] = at[b], at[a]
        elif kind == "move":
            a, b = (e[1], e[2]), (e[3], e[4])
            at[b] = at[a]
            at[a] = (K.EMPTY0 + e[2], True, everyone)
        elif kind == "shuffle":
            for p, c in zip(e[2], e[3]):
                at[e[1], p] = (c, False, frozenset())
    return at


def random_power_rules(rng: random.Random) -> Rules:
    presets = list(POWER_PRESETS) + ["six_card+dutch", "four_card+dutch"]
    name = rng.choice(presets)
    if name.endswith("+dutch"):
        base = {"power_set": "dutch", "value_red_king": -1}
        name = name.split("+")[0]
        if rng.random() < 0.5:
            base["dutch_powers"] = tuple(rng.sample(K.DUTCH_POWER_CARDS, rng.randint(1, 6)))
    else:
        base = {}
    switches = {
        "power_card_placeable": [True, False],
        "snap_mode": ["none", "cumbia", "cactus"],
        "turn_match_mode": ["none", "pablo_multi_replace", "cabo_match"],
        "power_source": ["stock_only", "stock_or_unused_discard"],
        "stock_draw_may_be_discarded": [True, False],
        "final_turns": ["none", "each_other_player_once", "complete_lap"],
        "knock_timing": ["instead_of_turn", "end_of_own_turn", "any_time_in_turn"],
        "jack_discard_skips_next": [False, True],
        "pay_to_peek": [None, 1],
        "private_stock_draw": [True, False],
    }
    for option in rng.sample(sorted(switches), rng.randint(0, 4)):
        base[option] = rng.choice(switches[option])
    if base.get("snap_mode") == "cactus":
        base["snap_penalty_cards"] = rng.randint(0, 3)
    if base.get("snap_mode") == "cumbia":
        base["snap_penalty_opponent_miss"] = rng.choice([0, 10])
    if base.get("turn_match_mode") == "cabo_match":
        base["match_fail_penalty_cards"] = rng.randint(0, 2)
    for opt in ("snap_penalty_cards", "snap_penalty_opponent_miss", "match_fail_penalty_cards"):
        if opt not in base and Rules.preset(name).__getattribute__(opt):
            mode = {"snap_penalty_cards": ("snap_mode", "cactus"),
                    "snap_penalty_opponent_miss": ("snap_mode", "cumbia"),
                    "match_fail_penalty_cards": ("turn_match_mode", "cabo_match")}[opt]
            if base.get(mode[0], getattr(Rules.preset(name), mode[0])) != mode[1]:
                base[opt] = 0
    base["turn_cap"] = 120
    return Rules.preset(name, **base)


def check_hole(rules: Rules, players: int, strategies, seed: int) -> R.RoundRecord:
    hole = referee.make_hole(rules, players, strategies, seed, 0)
    assert isinstance(hole, PowerHole)
    asked = hole.ask

    def checked_ask(seat, decision, legal, held=None):
        hole.state.check_invariants()   # every card in one place before each decision
        return asked(seat, decision, legal, held)
    hole.ask = checked_ask
    rec = hole.play()
    st = hole.state
    st.check_invariants()
    assert rec.turns <= rules.turn_cap
    if st.ender is not None and not st.over and not rec.capped and \
            not (rules.stock_empty == "end_hole" and not st.stock) and \
            rules.final_turns == "each_other_player_once":
        assert rec.turns - 1 - st.end_turn == players - 1   # every other seat played once more
    # the scores, recounted from the final layouts
    value = st.table.value
    L = []
    for row in rec.layouts:
        grid, extra = row[:rules.n_positions], row[rules.n_positions:]
        base = sum(value[c] for c in grid) if rules.pair_scope == "none" else \
            R.score_layout(rules, grid).value
        L.append(base + sum(value[c] for c in extra))
    assert rec.layout_values == L
    assert rec.scores == R.hole_scores(rules, L, rec.ender, rec.knocked, extra=st.penalty)
    # what every seat knows, replayed from the log of who saw what
    at = replay_knowledge(st.events, players)
    for s, row in enumerate(st.layouts):
        for p, cell in enumerate(row):
            c, up, who = at[s, p]
            assert (c, up, set(who)) == (cell.card, cell.face_up, cell.known_to), (s, p)
    return rec


def _contract_cases(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        rules = random_power_rules(rng)
        players = rng.randint(2, 5)
        strategies = [rng.choice(["random", "greedy", "knock-threshold"])
                      for _ in range(players)]
        out.append((rules, players, strategies, 1000 + i))
    return out


CONTRACT = _contract_cases(120, seed=20261203)


@pytest.mark.parametrize("case", range(0, len(CONTRACT), 4))
def test_contract_random_power_rule_sets(case):
    for rules, players, strategies, seed in CONTRACT[case:case + 4]:
        check_hole(rules, players, strategies, seed)


def test_every_power_preset_plays_with_every_reference_strategy():
    ends = set()
    for preset in list(POWER_PRESETS) + ["six_card", "four_card"]:
        extra = {} if preset in POWER_PRESETS else {"power_set": "dutch"}
        rules = Rules.preset(preset, **extra)
        for strategy in ("random", "greedy", "knock-threshold"):
            for seed in range(3):
                rec = check_hole(rules, 3, [strategy], seed)
                ends.add((preset, rec.ender >= 0))
    assert ("power_malaysia", False) in ends and ("power_pablo", True) in ends


@slow
def test_contract_sweep():
    for rules, players, strategies, seed in _contract_cases(1500, seed=7):
        check_hole(rules, players, strategies, seed)


@pytest.mark.parametrize("preset", sorted(POWER_PRESETS))
def test_power_matches_are_played_by_the_reference(preset):
    rules = Rules.preset(preset, turn_cap=150)

    def play_hole(order, round_index):
        rec = referee.play_round(rules, 3, ["knock-threshold"], 5, round_index)
        return {"scores": rec.scores, "layout_values": rec.layout_values, "ender": rec.ender,
                "knocked": rec.knocked, "layouts": rec.layouts}
    result = R.play_match(rules, 3, 5, 0, holes=3, target=0, play_hole=play_hole)
    assert result.holes >= 3 and sum(result.wins) == 1


def test_cactus_winner_plays_first_and_the_caller_loses_ties():
    rules = Rules.preset("power_cactus")
    hole = {"layout_values": [4, 4, 9], "ender": 0, "scores": [14, 0, 9]}
    assert R.hole_winner(rules, hole, hole["scores"]) == 1
    hole = {"layout_values": [3, 4, 9], "ender": 0, "scores": [0, 4, 9]}
    assert R.hole_winner(rules, hole, hole["scores"]) == 0


# ---- the Dutch table, one card at a time (four_card + power_set dutch: knock instead of a turn,
# so no call is asked after the turn) ------------------------------------------------------------
DUTCH = Rules.preset("four_card", power_set="dutch", value_red_king=-1)


def test_dutch_8_draws_two_and_keeps_one():
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="5C 9D 8S",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.KEEP, 1), (D.PLACE_DRAWN, 0)]]))
    st = hole.state
    assert hole.policies[0].seen[2].choices == tuple(cards("9D 5C"))
    assert st.layouts[0][0].card == card("5C") and st.layouts[0][0].known_to == {0}
    assert st.discard[-3:] == cards("8S 9D AS")


def test_dutch_9_exchanges_itself_for_an_opponents_card():
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "KH QH 3H 4H"], stock_top="9S",
                        known=[[], [(1, 1)]],
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.TARGET_SEAT, 1), (D.TARGET_POS, 1), (D.PLACE_TAKEN, 2)]]))
    st = hole.state
    assert st.layouts[1][1].card == card("9S") and st.layouts[1][1].known_to == {0}
    assert st.layouts[0][2].card == card("QH") and st.layouts[0][2].known_to == {0, 1}
    assert st.discard[-1] == card("3S")


def test_dutch_7_swaps_a_column_with_the_same_column_of_an_opponent():
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="7S",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.TARGET_SEAT, 1), (D.TARGET_POS, 2)]]))   # 2: column 0
    lay = hole.state.layouts
    assert [c.card for c in lay[0]] == cards("AH 2S 3H 4S")
    assert [c.card for c in lay[1]] == cards("AS 2H 3S 4H")


def test_dutch_ace_removes_an_own_card_or_gives_the_top_stock_card():
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="AC",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.TARGET_SEAT, 0), (D.TARGET_POS, 3)]]))
    st = hole.state
    assert R.is_empty(st.layouts[0][3].card) and st.discard[-2:] == cards("4S AC")
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="6D AC",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.TARGET_SEAT, 1)]]))
    row = hole.state.layouts[1]
    assert len(row) == 5 and row[4].card == card("6D") and row[4].known_to == set()


def test_dutch_2_combines_two_powers():
    jack, ten = C.RANKS.index("J"), C.RANKS.index("10")
    hole = played(setup(DUTCH, ["AS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="2C",
                        scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                                  (D.CHOOSE_POWER, jack), (D.TARGET_POS, 1),
                                  (D.CHOOSE_POWER, ten), (D.TARGET_SEAT, 1),
                                  (D.TARGET_POS, 0)]]))
    st = hole.state
    assert st.layouts[0][1].known_to == {0} and st.layouts[1][0].known_to == {0}
    assert jack not in hole.policies[0].seen[4].legal      # two different powers
    assert st.discard[-1] == card("2C")


def test_dutch_4_turning_up_a_black_king_cancels_the_final_lap():
    hole = setup(DUTCH, ["KS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="4D",
                 scripts=[[], [(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                               (D.TARGET_SEAT, 0), (D.TARGET_POS, 0)]])
    hole.state.start_end(0)
    played(hole, 1)
    st = hole.state
    assert st.layouts[0][0].face_up and st.ender is None


def test_an_emptied_layout_ends_the_hole_at_once():
    rules = Rules.preset("power_cabo")
    hole = setup(rules, ["KS 2S 3S 4S", "AH 2H 3H 4H"], stock_top="KD",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.MATCH),
                           (D.TARGET_SEAT, 0), (D.NOMINATE, 0), (D.TARGET_SEAT, T.PASS)]])
    st = hole.state
    for p in (1, 2, 3):
        st.discard.append(st.take(0, p))
    played(hole)          # no call is asked: the hole is over
    assert st.over and st.ender == 0 and st.final_turns_left == 0


def test_the_last_stock_card_ends_malaysia_after_the_action():
    rules = Rules.preset("power_malaysia")
    hole = setup(rules, ["AS 2S 3S 4S", "AH 2H 3H 4H"],
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.DISCARD)]])
    st = hole.state
    st.discard = st.stock[:-1] + st.discard
    st.stock = st.stock[-1:]
    played(hole)
    assert st.over and not st.stock and st.ender is None


def test_a_power_round_is_the_same_every_time():
    for preset in sorted(POWER_PRESETS):
        rules = Rules.preset(preset)
        a = referee.play_round(rules, 4, ["random", "greedy", "knock-threshold", "random"], 11, 3)
        b = referee.play_round(rules, 4, ["random", "greedy", "knock-threshold", "random"], 11, 3)
        assert a == b and a.log
        assert all(0 <= dp < K.N_DECISION_POINTS and 0 <= action < K.N_ACTIONS
                   for _, _, dp, action, _ in a.log)


def test_greedy_calls_rather_than_stall():
    """Greedy's stall rule in power games: once the stock has been reshuffled
    GREEDY_STALL_RESHUFFLES times it calls. These Cactus holes (seed 1) reached the turn cap
    without it, the players never knowing all their cards after penalty cards."""
    rules = Rules.preset("power_cactus")
    for i in (62, 70, 131, 165):
        rec = referee.play_round(rules, 4, ["greedy"], 1, i)
        assert not rec.capped and rec.ender >= 0 and rec.knocked, i
        assert rec.reshuffles == K.GREEDY_STALL_RESHUFFLES, (i, rec.reshuffles)


# ---- issue 39's rule decisions -------------------------------------------------------------
def test_the_dutch_table_scores_a_red_king_minus_one_unless_told_otherwise():
    from simulator.game.rules import card_values
    six = Rules.preset("six_card")
    for rules, red in ((six.with_options(power_set="dutch"), -1),
                       (six.with_options(power_set="dutch", value_red_king=0), 0),
                       (six.with_options(power_set="dutch", value_red_king=-5), -5),
                       (six, 0)):
        table = card_values(rules, 1)
        assert table[card("KH")] == table[card("KD")] == red, rules.diff()
        assert table[card("KS")] == table[card("KC")] == 0
        assert R.card_value(rules, card("KH")) == red      # the reference agrees


def test_a_dutch_4_on_an_opponents_last_face_down_card_lets_the_owner_go_out_on_its_turn():
    rules = Rules.preset("six_card", power_set="dutch")
    hole = setup(rules, ["AS 2S 3S 4S 5S 6S", "AH 2H 3H 9H 5H 6H"], stock_top="8C 4D",
                 scripts=[[(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.POWER),
                           (D.TARGET_SEAT, 1), (D.TARGET_POS, 3)],
                          [(D.TURN, T.DRAW_STOCK), (D.PLACE_DRAWN, T.DISCARD)]])
    st = hole.state
    for p in (0, 1, 2, 4, 5):
        st.layouts[1][p].face_up = True
        st.layouts[1][p].known_to = {0, 1}
    hole.play_turn(0)
    hole.check_end(0)
    assert not hole.policies[0].moves
    assert st.layouts[1][3].face_up and st.face_down_count(1) == 0
    assert st.ender is None                 # turning it up ends nothing at once
    played(hole, 1)
    hole.check_end(1)
    assert st.ender == 1                    # its own turn ends with every card face up


def test_ender_clamp_off_scores_pablo_as_written():
    pablo = Rules.preset("power_pablo")
    literal = pablo.with_options(ender_clamp=False)
    # lowest at -12: clamped keeps -12, as written -10
    assert R.ender_score(pablo, [-12, 3, 5], 0) == -12
    assert R.ender_score(literal, [-12, 3, 5], 0) == -10
    # not lowest, the highest opponent negative: clamped keeps 4, as written 4 + (-1)
    assert R.ender_score(pablo, [4, -3, -1], 0) == 4
    assert R.ender_score(literal, [4, -3, -1], 0) == 3
