"""The guide in the power-card games: the `guide` strategy's power tables (power_use,
power_skip) decide whether the power of a drawn card it does not keep is used, a rank in
neither being greedy's rule; a rank in both is refused."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.experiments.runner import run
from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.powers import effect_of
from simulator.game.rules import Rules
from strategies import ALL_RANKS, StrategyError, resolve, resolve_seats, seat_arrays
from cli_errors import assert_one_line_error
from policy_states import Table, card

CABO = Rules.preset("power_cabo")
CUMBIA = Rules.preset("power_cumbia")
HIDDEN = "? ? / ? ?"


def mask(ranks) -> int:
    return sum(1 << r for r in ranks)


# ---- the strategy ----------------------------------------------------------------------------
def holes(rules: Rules, spec: str, rounds: int = 400, seed: int = 7):
    """Every hole's scores and length, ``spec`` in seat 0 against two greedy players."""
    ids, par = seat_arrays(resolve_seats([spec, "greedy", "greedy"], 3))
    r = run(rules, 3, ids, par, rounds, seed, kernel="general", per_round=True).per_round
    return r.scores, r.turns


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_power_tables_change_play_and_neither_is_greedys_rule():
    base = holes(CABO, "guide")
    # the ranks without a power have no power to use: in either table they change nothing
    plain = ALL_RANKS & ~mask(range(6, 12))   # 7 to Q have powers in Cabo
    assert same(holes(CABO, f"guide:power_use={plain}"), base)
    assert same(holes(CABO, f"guide:power_skip={plain}"), base)
    assert not same(holes(CABO, f"guide:power_use={ALL_RANKS}"), base)
    assert not same(holes(CABO, f"guide:power_skip={ALL_RANKS}"), base)
    # greedy's rule always uses Cumbia's jack (look at two cards, swap them if it gains)
    jack = 1 << C.RANK_JACK
    cumbia = holes(CUMBIA, "guide")
    assert same(holes(CUMBIA, f"guide:power_use={jack}"), cumbia)
    assert not same(holes(CUMBIA, f"guide:power_skip={jack}"), cumbia)


def cabo(layout: str, spec: str) -> Table:
    """A power_cabo table; the positions beyond the 2x2 grid hold the empty positions'
    pseudo-cards, as the power engine keeps them."""
    t = Table(CABO, [layout, HIDDEN, HIDDEN], [spec, "greedy", "greedy"])
    for s in range(3):
        for p in range(CABO.n_positions, K.MAX_POS):
            t.g[K.G_LAY + s * K.MAX_POS + p] = K.EMPTY0 + p
            t.g[K.G_UP + s * K.MAX_POS + p] = 1
            for obs in range(3):
                t.g[t.known_at(obs, s, p)] = K.EMPTY0 + p
    return t


def drawn(t: Table, held: str) -> int:
    """The answer to a drawn power card that may be placed, discarded or used."""
    c = card(held)
    t.g[K.G_PUB + K.PUB_POWER] = effect_of(CABO, c)
    return t.decide(K.DP_PLACE_DRAWN, 0, t.replaceable(0) + [K.A_DISCARD, K.A_POWER], c)


def test_the_power_tables_decide_a_drawn_card_that_is_not_kept():
    known = "?AS ?2H / ?2S ?AH"    # every own card known and low: a 7 is not kept
    seven, ten = 1 << 6, 1 << 9
    assert drawn(cabo(known, "guide"), "7C") == K.A_DISCARD    # nothing of its own to look at
    assert drawn(cabo(known, f"guide:power_use={seven}"), "7C") == K.A_POWER
    assert drawn(cabo(known, f"guide:power_use={ten}"), "7C") == K.A_DISCARD
    assert drawn(cabo(known, "guide"), "10C") == K.A_POWER     # the opponents' cards unknown
    assert drawn(cabo(known, f"guide:power_skip={ten}"), "10C") == K.A_DISCARD
    # a card it keeps is kept, whatever the power tables say
    high = "?KS ?KH / ?QS ?QH"
    assert drawn(cabo(high, f"guide:power_use={ALL_RANKS}"), "7C") in range(4)


def test_a_rank_in_both_power_tables_is_refused():
    with pytest.raises(StrategyError, match="power_use and power_skip both hold 7, J"):
        resolve(f"guide:power_use={mask([6, 10, 11])},power_skip={mask([6, 10])}")
    assert resolve(f"guide:power_use={mask([6])},power_skip={mask([7])}").params[-2:] == \
        (64.0, 128.0)
    from simulator.cli import cli
    args = ["run", "--preset", "power_cabo", "--strategy", "guide:power_use=64,power_skip=64",
            "--rounds", "10", "--out", "unused"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          ["strategy guide", "power_use and power_skip", "7"])
