"""remove_cancelled (docs/rules.md#remove_cancelled, AMB-24): completed groups leave the layout for
the bottom of the discard pile, their value banked, their positions empty. Kernel and reference play
the same moves and end with the same cards, scores and knowledge; the kernel checks card
conservation after every turn."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import policy_maker, referee
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import RuleError, Rules, flatten
from tiers import sweep

SIX = Rules.preset("six_card", remove_cancelled="immediate")
NINE = Rules.preset("nine_card", line_sets="rows_columns_diagonals", block_2x2_value=-25,
                    remove_cancelled="immediate")
CASES = [
    ("six immediate", SIX),
    ("six optional", SIX.with_options(remove_cancelled="optional_to_discard_bottom")),
    ("six, reveal on trigger", SIX.with_options(reveal_on_trigger=True)),
    ("six, flip on first turn", SIX.with_options(initial_reveal_mode="flip_on_first_turn")),
    ("six, negative pairs keep value", SIX.with_options(negative_pairs_keep_value=True)),
    ("nine lines and blocks", NINE),
    ("nine optional", NINE.with_options(remove_cancelled="optional_to_discard_bottom")),
    ("fuchs", Rules.preset("nine_card_fuchs")),
]


def _empties(layouts):
    return int((np.asarray(layouts) >= K.EMPTY0).sum())


@pytest.mark.parametrize("name, rules", sweep(CASES, ids=[c[0] for c in CASES],
                                               keep={"six immediate", "six optional",
                                                     "nine lines and blocks", "fuchs"}),
                         ids=[c[0] for c in CASES])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_kernel_and_reference_agree(name, rules, spec):
    players = 3
    arrays = flatten(rules, players)
    removed = 0
    for rnd in range(50):   # a 3x3 line or block completes in 15-30% of holes
        k = play_logged_round(arrays, [{"random": 0, "greedy": 1}[spec]] * players,
                              np.zeros((players, 1)), 41, rnd)
        ref = referee.play_round(rules, players, [spec], 41, rnd)
        where = (name, spec, rnd)
        assert k["error"] == 0, where     # (check=True: conservation after every turn)
        assert [tuple(int(x) for x in row) for row in k["log"]] == \
            [tuple(row) for row in ref.log], where
        assert k["layouts"].tolist() == [list(x) for x in ref.layouts], where
        assert k["scores"].tolist() == list(ref.scores), where
        assert k["layout_values"].tolist() == list(ref.layout_values), where
        assert k["known"].tolist() == ref.known, where
        removed += _empties(k["layouts"])
        if "optional" in name and spec == "greedy":   # greedy always says yes
            asked = (k["log"][:, 2] == K.DP_REMOVE).sum()
            assert (k["log"][k["log"][:, 2] == K.DP_REMOVE][:, 3] == K.A_REMOVE).all()
            assert asked * (2 if name.startswith("six") else 3) <= _empties(k["layouts"])
    assert removed > 0, name      # removals do happen in these games


def test_removal_by_hand():
    """A pair-column completed by a placement: both cards go under the discard pile, lowest
    position at the very bottom; the positions are empty, face up, known to all, no longer
    replaceable; the pair value (0) is banked and the layout scores as the rest."""
    hole = R.Hole(SIX, 2, [policy_maker("greedy")], 1, 0)
    st = hole.state
    st.deal()
    cards = [C.card_id(*C.parse_card(t)) for t in ("7S", "KH", "3C", "7D", "4S", "9C")]
    for p, c in enumerate(cards):
        st.layouts[0][p] = R.Cell(c, face_up=True, known_to={0, 1})
    others = [c for c in st.table.deck if c not in cards]
    st.stock = others[6:10] + others[12:]
    st.discard = others[10:12]
    for p, c in enumerate(others[:6]):
        st.layouts[1][p] = R.Cell(c)
    below = list(st.discard)
    hole.remove_groups(0)
    assert st.discard == [cards[0], cards[3]] + below         # column 0: 7S over 7D
    assert [st.layouts[0][p].card for p in (0, 3)] == [K.EMPTY0, K.EMPTY0 + 3]
    assert all(st.layouts[0][p].face_up and st.layouts[0][p].known_to == {0, 1} for p in (0, 3))
    assert 0 not in st.replaceable_positions(0) and 3 not in st.replaceable_positions(0)
    assert st.bank == [0, 0]
    st.check_invariants()
    layout = [c.card for c in st.layouts[0]]
    assert R.score_layout(SIX, layout).value == 0 + (0 + 4) + (3 + 9)   # K = 0


def test_three_by_three_block_banks_its_value():
    rules = Rules.preset("nine_card", block_2x2_value=-25, remove_cancelled="immediate")
    hole = R.Hole(rules, 2, [policy_maker("greedy")], 1, 0)
    st = hole.state
    st.deal()
    fives = [c for c in st.table.deck if C.rank_of(c) == 4][:4]
    rest = [c for c in st.table.deck if c not in fives]
    layout = [fives[0], fives[1], rest[0], fives[2], fives[3], rest[1], rest[2], rest[3], rest[4]]
    for p, c in enumerate(layout):
        st.layouts[0][p] = R.Cell(c, face_up=True, known_to={0, 1})
    for p in range(9):
        st.layouts[1][p] = R.Cell(rest[5 + p])
    st.stock, st.discard = rest[14:-1], [rest[-1]]
    hole.remove_groups(0)
    assert st.bank[0] == -25 and st.discard[:4] == sorted(fives, key=layout.index)
    assert [p for p in range(9) if R.is_empty(st.layouts[0][p].card)] == [0, 1, 3, 4]
    st.check_invariants()


@pytest.mark.parametrize("options, fragment", [
    ({"pair_scope": "anywhere"}, "needs groups that stay where they are"),
    ({"quad_two_columns_value": -10}, "quad_two_columns_value"),
    ({"six_of_kind_value": -20}, "six_of_kind_value"),
    ({"one_eyed_jacks": "wild"}, "one_eyed_jacks = wild"),
    ({"pair_scope": "none"}, "needs groups that stay where they are"),
])
def test_rules_without_fixed_groups_are_refused(options, fragment):
    with pytest.raises(RuleError) as e:
        Rules.preset("six_card", remove_cancelled="immediate", **options)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_fuchs_removes_lines_as_formed():
    assert Rules.preset("nine_card_fuchs").remove_cancelled == "immediate"
    assert Rules.preset("nine_card").remove_cancelled == "never"
