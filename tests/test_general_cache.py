"""The general build plays a round from the lean cache (no views kept, the seats decided as
the lean build decides them) exactly when nothing needs the views: every seat greedy or
knock-threshold, rules the cache covers, no move log, no caller reading the views after.
tests/test_lean.py checks that those rounds are the very rounds the views give; here, which
rounds take it, and matches played either way."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator.experiments.runner import make_job, play_match_chunk
from simulator.game import codes as K
from simulator.game.rules import Rules, flatten
from simulator.kernel import engine
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import builtin, compiled

G, KT, RANDOM = builtin.POLICY_GREEDY, builtin.POLICY_KNOCK_THRESHOLD, builtin.POLICY_RANDOM
W1 = Rules.preset("six_card")


def _mode(rules, ids, log_on=False, prefix=False):
    """PRIV_CACHE after the general build played round 3 (or, ``prefix``, its first turns)."""
    rt = pack_rules(flatten(rules, len(ids)))
    par = policy_table(ids, [[5.0]] * len(ids))
    st = State(len(ids), 8192)   # (room for a move log)
    general = engine.build("general")
    table = compiled.table(ids)
    if prefix:
        general.prefix_nb(7, 3, rt, par, st.g, st.rng, st.log, st.tmp, NO_USER_POLICY, table,
                          st.aux, 6)
        return int(st.g[K.G_PRIV + K.PRIV_CACHE])
    ok = general.round_nb(7, 3, rt, par, *st.arrays(), log_on, False, NO_USER_POLICY, table,
                          st.aux)
    assert ok
    return int(st.g[K.G_PRIV + K.PRIV_CACHE])


@pytest.mark.parametrize("rules, ids, log_on, prefix, cached", [
    (W1, [G] * 4, False, False, 1),
    (W1, [G, KT, KT, G], False, False, 1),
    (Rules.preset("nine_card"), [KT] * 3, False, False, 1),
    (W1, [G, G, RANDOM, G], False, False, 0),     # a seat that reads the views
    (W1, [G] * 4, True, False, 0),                # a move log
    (W1, [G] * 4, False, True, 0),                # prefix_nb leaves the views published
    (W1.with_options(jack_discard_skips_next=True), [G] * 4, False, False, 0),  # not covered
])
def test_the_general_build_plays_from_the_cache_only_where_nothing_reads_the_views(
        rules, ids, log_on, prefix, cached):
    assert _mode(rules, ids, log_on, prefix) == cached


def test_the_rules_the_cache_covers_are_the_lean_builds():
    from simulator.kernel import flow
    for rules in (W1, Rules.preset("four_card"), W1.with_options(jack_discard_skips_next=True),
                  W1.with_options(flip_instead_of_draw=True)):
        ri = flatten(rules, 4).ri
        assert pack_rules(flatten(rules, 4))[K.RT_CACHE_RULES] == int(flow.rules_eligible(ri))


@pytest.mark.parametrize("holes, target", [(9, 0), (0, 60)])
def test_matches_from_the_cache_equal_matches_with_the_views(holes, target):
    ids, params = [G, KT, G, KT], [[0.0], [9.0], [0.0], [6.0]]
    job = make_job(W1, 4, ids, params, 5, kernel="general")
    views = dataclasses.replace(job, rt=job.rt.copy())
    views.rt[K.RT_CACHE_RULES] = 0
    a, ma, na = play_match_chunk(job, 0, 60, holes, target)
    b, mb, nb = play_match_chunk(views, 0, 60, holes, target)
    assert na == nb == 60
    for x, y in ((a.acc, b.acc), (a.tot, b.tot), (a.hist, b.hist), (ma.macc, mb.macc),
                 (ma.mtot, mb.mtot)):
        assert np.array_equal(x, y)
    assert a.rounds >= 60 * (holes or 2)


def test_a_run_compiles_only_the_rounds_it_plays():
    """A general-build run of greedy-family seats on covered rules needs the cache build's
    rounds and not the views' turn loop; any other run (another seat, a move log, rules the
    cache does not cover) the loop and not the cache build."""
    rt = pack_rules(flatten(W1, 4))
    assert engine.slot_parts("general", rt, [G, KT, G, G]) == ["general:cache"]
    assert engine.slot_parts("general", rt, [G, KT, G, G], log=True) == ["general:turns"]
    assert engine.slot_parts("general", rt, [G, RANDOM, G, G]) == ["general:turns"]
    other = pack_rules(flatten(W1.with_options(jack_discard_skips_next=True), 4))
    assert engine.slot_parts("general", other, [G] * 4) == ["general:turns"]
    assert engine.slot_parts("general") == ["general:turns", "general:cache"]
    assert engine.slot_parts("powers", rt, [G] * 4) == ["powers:turns"]
    assert engine.slot_parts("table", rt, [G] * 4) == []
