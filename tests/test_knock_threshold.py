"""W2's ``knock-threshold`` (docs/benchmarks.md#w2) in the reference engine, decision by decision,
on hand-made observations whose numbers are worked out here from the W2 text (the parity tests then
hold the compiled policy to the reference).

W2 rules: four_card without pairs, one 52-card deck, basic values (A 1, 2..10 face, J Q 10,
K 0), so the deck is worth 4 * (55 + 20) = 300. A seat's pool U is the deck minus the discard
pile, its own known cards and the card it holds; n = |U|, S = sum of U; an unknown position is
worth S/n. It knocks when E <= T, otherwise it takes the discard when it has an eligible
placement (G >= 1 over a known card, G >= 0 over an unknown one), else draws.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from simulator.game import cards as C
from simulator.game import reference as R
from simulator.game.reference import Action, Decision
from simulator.game.rules import Rules
from strategies import reference as P

W2 = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row")
DECK_SUM = 300
TURN_LEGAL = (Action.DRAW_STOCK, Action.TAKE_DISCARD, Action.KNOCK)
PLACE_DRAWN_LEGAL = (0, 1, 2, 3, Action.DISCARD)


def card(text: str) -> int:
    rank, suit = C.parse_card(text)
    return C.card_id(rank, suit)


def observation(own, discard, decision=Decision.TURN, legal=TURN_LEGAL, held=None,
                others_face_up=None, players=4):
    own = tuple(None if c is None else card(c) for c in own)
    face_up = [tuple(None for _ in range(4)) for _ in range(players)]
    if others_face_up:
        for seat, cards in others_face_up.items():
            face_up[seat] = tuple(None if c is None else card(c) for c in cards)
    return R.Observation(seat=0, decision=decision, legal=tuple(sorted(legal)),
                         held=None if held is None else card(held), own=own,
                         replaceable=tuple(range(len(own))),  # W2: every position, always
                         face_up=tuple(face_up), discard=tuple(card(c) for c in discard),
                         stock_count=30, turn=0, ender=None)


def policy(T=8.0, rules=W2, players=4):
    cls, params = P.parse_strategy(f"knock-threshold:T={T}")
    return cls(rules, R.CardTable(rules, players), 0, None, **params)


def test_strategy_specs():
    assert P.parse_strategy("knock-threshold") == (P.KnockThresholdPolicy, {"T": 8.0})
    assert P.parse_strategy("knock-threshold:T=12") == (P.KnockThresholdPolicy, {"T": 12.0})
    assert P.parse_strategy("greedy") == (P.GreedyPolicy, {})
    assert P.parse_strategy("random") == (P.RandomPolicy, {})
    for bad in ("knock-threshold:X=3", "knock-threshold:T", "nope"):
        with pytest.raises(ValueError):
            P.parse_strategy(bad)


def test_pool_is_what_the_seat_remembers():
    # own known K and 3, discard 5: n = 52 - 3 = 49, S = 300 - 5 - 3 = 292; face-up cards of
    # other seats stay in U (W2: "other players' grid cards ... are in U")
    obs = observation((None, None, "K♣", "3♥"), ["5♦"], others_face_up={1: ("Q♠", None, None,
                                                                            None)})
    pool = P.MemoryPool(obs, R.CardTable(W2, 4), held=None)
    assert (pool.n, pool.S) == (49, 292)
    pool = P.MemoryPool(obs, R.CardTable(W2, 4), held=card("4♣"))
    assert (pool.n, pool.S) == (48, 288)


def test_no_knock_takes_discard_to_lowest_unknown_position():
    # n E = 2 S + (0 + 3) n = 584 + 147 = 731 > 8 n = 392: no knock.
    # 5 at an unknown position: n G = S - 5 n = 292 - 245 = 47 >= 0 (positions 0 and 1 tie:
    # the lowest wins); over K or 3 the gain is negative.
    p = policy()
    assert p.choose(observation((None, None, "K♣", "3♥"), ["5♦"])) == Action.TAKE_DISCARD
    assert p.choose(observation((None, None, "K♣", "3♥"), ["5♦"],
                                decision=Decision.PLACE_TAKEN, legal=(0, 1, 2, 3),
                                held="5♦")) == 0


def test_draws_when_the_discard_has_no_eligible_placement():
    # a queen: n G = 292 - 490 < 0 over unknown cards, negative over K and 3
    assert policy().choose(observation((None, None, "K♣", "3♥"), ["Q♦"])) == Action.DRAW_STOCK


@pytest.mark.parametrize("T,expected", [(8, Action.KNOCK), (6, Action.KNOCK),
                                        (5.99, Action.DRAW_STOCK)])
def test_knock_when_everything_is_known(T, expected):
    # A + 2 + K + 3 = 6 (a 2 is +2 in W2); the 9 on the discard pile helps nowhere
    obs = observation(("A♠", "2♥", "K♣", "3♥"), ["9♣"])
    assert policy(T).choose(obs) == expected


def test_knock_threshold_is_inclusive():
    # A + 2 + K + 5 = 8 <= 8
    assert policy(8).choose(observation(("A♠", "2♥", "K♣", "5♥"), ["9♣"])) == Action.KNOCK
    assert policy(7.5).choose(observation(("A♠", "2♥", "K♣", "5♥"), ["9♣"])) != Action.KNOCK


@pytest.mark.parametrize("T,expected", [(7, Action.DRAW_STOCK), (7.02, Action.DRAW_STOCK),
                                        (7.03, Action.KNOCK), (8, Action.KNOCK)])
def test_knock_compares_exactly(T, expected):
    # own ? A K K, discard Q: n = 48, S = 300 - 10 - 1 = 289; n E = 289 + 48 = 337, so
    # E = 337/48 = 7.0208...: above 7.02, at most 7.03
    obs = observation((None, "A♠", "K♣", "K♦"), ["Q♠"])
    assert policy(T).choose(obs) == expected


def test_knock_at_exactly_e():
    obs = observation((None, "A♠", "K♣", "K♦"), ["Q♠"])
    p = policy()
    p.T = Fraction(337, 48)
    assert p.choose(obs) == Action.KNOCK
    p.T = Fraction(337, 48) - Fraction(1, 10**9)
    assert p.choose(obs) == Action.DRAW_STOCK


def test_threshold_is_the_decimal_typed():
    # 7.1 * 50 is 355 exactly (the binary float 7.1 times 50 is a hair below 355)
    assert policy(7.1).T * 50 == 355
    assert policy(8).T == 8


def test_knock_only_when_legal():
    obs = observation(("A♠", "2♥", "K♣", "3♥"), ["9♣"],
                      legal=(Action.DRAW_STOCK, Action.TAKE_DISCARD))
    assert policy().choose(obs) == Action.DRAW_STOCK


def test_place_drawn_card():
    # drawn 4: n = 48, S = 288; unknown position 0: n G = 288 - 192 = 96 >= 0; over the 3:
    # (3 - 4) n < 0
    obs = observation((None, None, "K♣", "3♥"), ["5♦"], decision=Decision.PLACE_DRAWN,
                      legal=PLACE_DRAWN_LEGAL, held="4♣")
    assert policy().choose(obs) == 0
    # drawn queen: worse than the estimate everywhere -> discard
    obs = observation((None, None, "K♣", "3♥"), ["5♦"], decision=Decision.PLACE_DRAWN,
                      legal=PLACE_DRAWN_LEGAL, held="Q♣")
    assert policy().choose(obs) == Action.DISCARD
    # drawn ace over a known 3: n G = 2 n >= n; over an unknown card: S - n = 240 is larger
    obs = observation(("7♠", None, "K♣", "3♥"), ["5♦"], decision=Decision.PLACE_DRAWN,
                      legal=PLACE_DRAWN_LEGAL, held="A♣")
    # n = 52 - 1 - 3 - 1 = 47, S = 300 - 5 - 10 - 1 = 284: over the 7: 6 n = 282; over the
    # unknown: 284 - 47 = 237; over the 3: 2 n = 94 -> the 7
    assert policy().choose(obs) == 0


def test_known_cards_pair_in_the_estimate():
    # four_card (row_or_column): two known nines in a row count 0, so E = 2 S / n
    rules = Rules.preset("four_card")
    obs = observation(("9♠", "9♥", None, None), ["Q♦"])
    p = policy(rules=rules)
    pool = p.pool(obs, None)
    assert (pool.n, pool.S) == (49, 300 - 10 - 18)
    assert p.free_estimate(obs.own, pool) == 2 * pool.S
    # on a diagonal they do not pair under row_or_column, but do under row_column_diagonal
    obs = observation(("9♠", None, None, "9♥"), ["Q♦"])
    assert p.free_estimate(obs.own, pool) == 2 * pool.S + 18 * pool.n
    p = policy(rules=Rules.preset("four_card", pair_scope="row_column_diagonal"))
    assert p.free_estimate(obs.own, pool) == 2 * pool.S


def test_other_decisions():
    p = policy()
    assert p.choose(observation((None,) * 4, ["5♦"], decision=Decision.REVEAL,
                                legal=(2, 3))) == 2
    assert p.choose(observation((None,) * 4, ["5♦"], decision=Decision.FLIP,
                                legal=(0, 1, Action.PASS))) == Action.PASS
    assert p.choose(observation((None,) * 4, ["5♦"], decision=Decision.FACE,
                                legal=(Action.FACE_UP, Action.FACE_DOWN))) == Action.FACE_UP
