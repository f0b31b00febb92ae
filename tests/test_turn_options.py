"""Turn options checked on the compiled engine's own move log (docs/rules.md#turns, TV-D18)."""

import numpy as np
import pytest

from simulator.game import codes as K
from strategies.reference import referee
from simulator.kernel import scoring as S
from simulator.experiments.runner import play_logged_round
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled
from simulator.game.rules import Rules, flatten


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
    from simulator.kernel.engine import State, pack_rules, policy_table, prefix_nb
    rules = Rules.preset("four_card", reveal_on_trigger=reveal)
    rt = pack_rules(flatten(rules, 3))
    par = policy_table([2] * 3, np.full((3, 1), 8.0))
    table = compiled.table(par[:, 0])
    st = State(3)
    g = st.g
    knocks = 0
    for r in range(40):
        for turns in range(1, 200):   # the state right after the turn that knocked
            assert prefix_nb(4, r, rt, par, g, st.rng, st.log, st.tmp, NO_USER_POLICY, table,
                             st.aux, turns) >= 0
            if g[K.G_PUB + K.PUB_ENDER] >= 0:
                break
        knocker = g[K.G_PUB + K.PUB_ENDER]
        assert knocker >= 0 and g[K.G_PUB + K.PUB_KNOCKED] == 1
        knocks += 1
        up = g[K.G_UP:K.G_UP + 3 * K.MAX_POS].reshape(3, K.MAX_POS)[:, :4]
        others = [s for s in range(3) if s != knocker]
        assert up[knocker].sum() == 0  # four_card keeps the knocker's cards face down
        assert (up[others] == 1).all() == reveal
        assert (up[others].sum() == 0) == (not reveal)
    assert knocks == 40


# ---- replace_unseen_once and private_stock_draw (docs/rules.md#turns) ----------------------------
def _both(rules, players, spec, seed, rnd):
    """One round through the kernel and the reference; asserts they agree, knowledge included."""
    policy = {"random": 0, "greedy": 1}[spec]
    k = play_logged_round(flatten(rules, players), [policy] * players,
                          np.zeros((players, 1)), seed, rnd)
    ref = referee.play_round(rules, players, [spec], seed, rnd)
    assert k["error"] == 0
    assert [tuple(int(x) for x in row) for row in k["log"]] == [tuple(r) for r in ref.log]
    assert k["scores"].tolist() == list(ref.scores)
    assert k["known"].tolist() == ref.known
    return k


def _replacements(log, players, npos):
    """(seat, pos) -> replacements in the hole, and each seat's positions revealed before play
    (from the kernel's move log)."""
    placed = np.zeros((players, npos), dtype=int)
    seen = [set() for _ in range(players)]
    for turn, seat, point, action, _ in log:
        if point in (K.DP_PLACE_TAKEN, K.DP_PLACE_DRAWN) and action < npos:
            placed[seat, action] += 1
        if point == K.DP_REVEAL:
            seen[seat].add(int(action))
    return placed, seen


@pytest.mark.parametrize("preset", ["four_card", "four_card_strict", "six_card"])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_replace_unseen_once_parity_and_limit(preset, spec):
    rules = Rules.preset(preset, replace_unseen_once=True)
    npos = rules.n_positions
    twice_seen = 0
    for rnd in range(40):
        k = _both(rules, 3, spec, 17, rnd)
        placed, seen = _replacements(k["log"], 3, npos)
        for seat in range(3):
            for p in range(npos):
                if p not in seen[seat]:
                    assert placed[seat, p] <= 1, (preset, rnd, seat, p)
                elif placed[seat, p] >= 2:
                    twice_seen += 1
    if preset != "four_card_strict":   # strict: nothing is seen before play
        assert twice_seen > 0          # positions seen at the start keep no limit


def test_replace_unseen_once_changes_play():
    """Without the option some position nobody saw at the start is replaced twice."""
    rules = Rules.preset("four_card")
    arrays = flatten(rules, 3)
    twice = 0
    for rnd in range(40):
        k = play_logged_round(arrays, [0] * 3, np.zeros((3, 1)), 17, rnd)
        placed, seen = _replacements(k["log"], 3, rules.n_positions)
        twice += sum(placed[s, p] >= 2 for s in range(3) for p in range(rules.n_positions)
                     if p not in seen[s])
    assert twice > 0


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_public_stock_draws_are_known_to_everyone(spec):
    """private_stock_draw = false: a stock card placed face down is known to every seat; the
    card flow of random seats is unchanged, so the others know at least as much, and more."""
    players = 3
    more = 0
    for rnd in range(40):
        public = _both(Rules.preset("four_card", private_stock_draw=False), players, spec, 23,
                       rnd)
        private = _both(Rules.preset("four_card"), players, spec, 23, rnd)
        if spec != "random":
            continue
        assert public["log"].tolist() == private["log"].tolist()
        for obs in range(players):
            for seat in range(players):
                if obs == seat:
                    continue
                a, b = public["known"][obs, seat], private["known"][obs, seat]
                assert ((b < 0) | (a == b)).all()      # nothing known privately is lost
                more += int(((a >= 0) & (b < 0)).sum())
    if spec == "random":
        assert more > 0


@pytest.mark.parametrize("preset", ["four_card", "six_card", "four_card_strict"])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_looking_before_replacing(preset, spec):
    """blind_replacement = false: holding a card, a seat may look at one unknown face-down
    card first (A_PEEK, then DP_PEEK with the card held), and is asked where it goes again."""
    rules = Rules.preset(preset, blind_replacement=False)
    looks = 0
    for rnd in range(30):
        k = _both(rules, 3, spec, 29, rnd)
        log = k["log"]
        for i, (turn, seat, point, action, held) in enumerate(log):
            if point in (K.DP_PLACE_DRAWN, K.DP_PLACE_TAKEN) and action == K.A_PEEK:
                looks += 1
                look, again = log[i + 1], log[i + 2]
                assert look[2] == K.DP_PEEK and look[4] == held and look[3] < K.MAX_POS
                assert again[2] == point and again[4] == held and again[3] != K.A_PEEK
    assert looks > 0


def test_greedy_looks_only_where_it_would_replace_an_unknown_card():
    rules = Rules.preset("four_card", blind_replacement=False)
    arrays = flatten(rules, 3)
    for rnd in range(30):
        log = play_logged_round(arrays, [1] * 3, np.zeros((3, 1)), 29, rnd)["log"]
        blind = play_logged_round(flatten(Rules.preset("four_card"), 3), [1] * 3,
                                  np.zeros((3, 1)), 29, rnd)["log"]
        if K.A_PEEK not in log[:, 3].tolist():
            assert log.tolist() == blind.tolist()   # no look: the very same hole
