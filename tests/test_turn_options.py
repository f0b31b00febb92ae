"""Turn options checked on the compiled engine's own move log (RULES.md §3.3, TV-D18)."""

import numpy as np
import pytest

from simulator import codes as K
from simulator import scoring as S
from simulator.engine import play_logged_round
from simulator.policy_api import NO_USER_POLICY
from simulator.rules import Rules, flatten


def test_pay_to_peek_vector():
    """TV-D18: pay_to_peek = 1, layout 10, three peeks -> hole score 13."""
    rules = Rules.preset("four_card", pay_to_peek=1)
    arrays = flatten(rules, 2)
    out = np.zeros(2, dtype=np.int64)
    S.hole_scores_nb(np.array([10, 12]), np.zeros(2, dtype=np.int64), -1, False, 2, arrays.ri,
                     np.array([3, 0]), out)
    assert out.tolist() == [13, 12]


@pytest.mark.parametrize("cost", [1, 3])
def test_every_peek_is_paid_for_and_only_unknown_cards_are_peeked(cost):
    rules = Rules.preset("four_card", pay_to_peek=cost)
    arrays = flatten(rules, 3)
    peeks_seen = 0
    for r in range(150):
        res = play_logged_round(arrays, [0, 0, 0], np.zeros((3, 1)), 11, r)
        assert res["error"] == 0
        log = res["log"]
        peeks = np.bincount(log[log[:, 2] == K.DP_PEEK][:, 1], minlength=3)
        assert ((res["scores"] - res["layout_values"]) == cost * peeks).all()
        # a peek is always preceded by choosing A_PEEK at the turn decision
        choose = (log[:, 2] == K.DP_TURN) & (log[:, 3] == K.A_PEEK)
        assert choose.sum() == peeks.sum()
        # each seat peeks a position at most once per hole (a known card cannot be peeked)
        for seat in range(3):
            pos = log[(log[:, 2] == K.DP_PEEK) & (log[:, 1] == seat)][:, 3]
            assert len(set(pos.tolist())) == len(pos)
        peeks_seen += peeks.sum()
    assert peeks_seen > 100


def test_knock_min_laps_delays_the_knock():
    rules = Rules.preset("four_card", knock_min_laps=2)
    arrays = flatten(rules, 4)
    for r in range(100):
        res = play_logged_round(arrays, [0] * 4, np.zeros((4, 1)), 5, r)
        log = res["log"]
        knocks = log[(log[:, 2] == K.DP_TURN) & (log[:, 3] == K.A_KNOCK)]
        assert (knocks[:, 0] >= 8).all()  # two laps of four turns


@pytest.mark.parametrize("reveal", [False, True])
def test_reveal_on_trigger_turns_every_other_layout_up(reveal):
    from simulator.engine import (State, _deal_nb, _initial_reveal_nb, _play_turn_nb,
                                  pack_rules, policy_table)
    rules = Rules.preset("four_card", reveal_on_trigger=reveal)
    rt = pack_rules(flatten(rules, 3))
    par = policy_table([2] * 3, np.full((3, 1), 8.0))
    st = State(3)
    g = st.g
    knocks = 0
    for r in range(40):
        g[K.G_PRIV + K.PRIV_LOG_N] = -1
        _deal_nb(g, rt, st.rng, 4, r)
        assert _initial_reveal_nb(g, rt, st.rng, par, st.log, NO_USER_POLICY, st.aux)
        seat = 0
        while g[K.G_PUB + K.PUB_ENDER] < 0 and g[K.G_PUB + K.PUB_TURN] < 200:
            assert _play_turn_nb(g, rt, st.rng, par, st.log, NO_USER_POLICY, st.aux, seat) == 1
            g[K.G_PUB + K.PUB_TURN] += 1
            seat = (seat + 1) % 3
        knocker = g[K.G_PUB + K.PUB_ENDER]
        assert knocker >= 0 and g[K.G_PUB + K.PUB_KNOCKED] == 1
        knocks += 1
        up = g[K.G_UP:K.G_UP + 3 * K.MAX_POS].reshape(3, K.MAX_POS)[:, :4]
        others = [s for s in range(3) if s != knocker]
        assert up[knocker].sum() == 0  # four_card keeps the knocker's cards face down
        assert (up[others] == 1).all() == reveal
        assert (up[others].sum() == 0) == (not reveal)
    assert knocks == 40
