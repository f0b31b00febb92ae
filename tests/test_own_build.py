"""A built-in's own build (simulator/kernel/flow with ``OWN``): the table build with every seat
playing one built-in, its entry point compiled into the loop instead of called through the
built-ins' table. It plays the very same rounds as the table build; a run takes it when it is
compiled, and when it is not, plays on the table build while a background process compiles it
(runner.build_of, simulator/experiments/behind.py).

Each own build compiles for a minute or more: the default tier compiles none (it checks the
pick and what a first run starts behind); the slow tier compiles every one."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.experiments import behind, runner, warm
from simulator.experiments.runner import OWN_BUILDS, make_job, run
from simulator.game import codes as K
from simulator.game.codes import G_KNOWN_N, G_OWN, G_SCRATCH, MAX_POS
from simulator.game.rules import PRESETS, Rules, flatten
from simulator.kernel import builds, features, flow, pick
from simulator.kernel import lean_policy as LP
from simulator.kernel.engine import pack_rules
from strategies import resolve_seats, seat_arrays
from test_random_rules import draw_rule_sets

SIX = Rules.preset("six_card")
PRESETS_TRIED = ("six_card", "four_card", "nine_card")
# every preset the table build (and so an own build) plays
TABLE_PRESETS = [p for p in PRESETS if flow.rules_eligible(
    flatten(Rules.preset(p), min(4, Rules.preset(p).players_max)).ri, "table")]
# the built-in whose own build the default tier compiles (the cheapest to compile)
CHEAPEST = "random"
MIXED = ["random", "heuristic", "random", "random"]


def _ids(specs, players=4):
    return seat_arrays(resolve_seats(specs, players))


def _assert_same_rounds(name: str, preset, rounds: int = 300, seed: int = 7,
                        players: int = 0, spec: str = "") -> None:
    """The own build of ``name`` and the table build play the very same rounds of ``preset``
    (a name, or Rules), every seat playing ``spec`` (``name`` with parameters; ``name``);
    rules a built-in's flow build lacks a feature of are refused by ``kernel = "own"``."""
    rules = Rules.preset(preset) if isinstance(preset, str) else preset
    players = players or min(4, rules.players_max)
    ids, params = _ids([spec or name], players)
    ri = flatten(rules, players).ri
    if name in features.BUILDS and not flow.rules_eligible(ri, name):
        assert flow.rules_eligible(ri, "table")
        with pytest.raises(ValueError, match=f"the own build of {name} lacks"):
            runner.build_of(flatten(rules, players), ids, "own")
        return
    kw = dict(rounds=rounds, seed=seed, per_round=True)
    own = run(rules, players, ids, params, kernel="own", **kw)
    table = run(rules, players, ids, params, kernel="table", **kw)
    assert (own.build, table.build) == (f"own:{name}", "table")
    assert own.complete and table.complete, (own.error, table.error)
    for part in ("acc", "tot", "hist"):
        assert np.array_equal(getattr(own.totals, part), getattr(table.totals, part)), part
    assert np.array_equal(own.per_round.scores, table.per_round.scores)
    assert np.array_equal(own.per_round.turns, table.per_round.turns)


@pytest.fixture
def unset(monkeypatch):
    """A user's environment: neither variable set (no waiting, own builds taken)."""
    monkeypatch.delenv(behind.WAIT_VARIABLE, raising=False)
    monkeypatch.delenv(behind.OWN_VARIABLE, raising=False)


@pytest.fixture
def starts(monkeypatch):
    """The background processes behind.py would start, recorded instead of started."""
    started = []

    class Process:
        def __init__(self, args, **kw):
            started.append((args, kw))

    monkeypatch.setattr(behind.subprocess, "Popen", Process)
    monkeypatch.setattr(behind, "_STARTED", {})
    return started


def test_pick_takes_a_builtins_own_build_only_when_every_seat_plays_it():
    ri = flatten(SIX, 4).ri
    heuristic, greedy = _ids(["heuristic"])[0], _ids(["greedy"])[0]
    assert pick.build(ri, heuristic, own=OWN_BUILDS) == "own:heuristic"
    assert pick.build(ri, heuristic, "own", own=OWN_BUILDS) == "own:heuristic"
    assert pick.build(ri, heuristic) == "table"   # own builds not offered
    assert pick.build(ri, greedy, own=OWN_BUILDS) == "lean"
    assert pick.build(ri, greedy, "own", own=OWN_BUILDS) == "own:greedy"
    assert pick.build(ri, _ids(MIXED)[0], own=OWN_BUILDS) == "table"
    assert pick.build(ri, _ids(["lookahead"])[0], own=OWN_BUILDS) == "table"
    assert pick.build(ri, heuristic, "table", own=OWN_BUILDS) == "table"
    assert pick.build(ri, heuristic, "general", own=OWN_BUILDS) == "general"
    assert pick.build(ri, heuristic, check=True, own=OWN_BUILDS) == "general"
    power = flatten(Rules.preset("power_cabo"), 4).ri
    assert pick.build(power, heuristic, own=OWN_BUILDS) == "powers"
    for ri_, ids in ((ri, _ids(MIXED)[0]), (power, heuristic), (ri, _ids(["lookahead"])[0])):
        with pytest.raises(ValueError, match="kernel = 'own'"):
            pick.build(ri_, ids, "own", own=OWN_BUILDS)


def test_a_first_run_plays_on_the_table_build_while_the_own_build_compiles_behind(
        unset, starts, monkeypatch, tmp_path):
    # forgetful's own build not compiled: written where nothing was ever compiled
    monkeypatch.setattr(runner, "own_file", lambda build: tmp_path / f"{build[4:]}.py")
    told = []
    job = make_job(SIX, 4, *_ids(["forgetful"]), 1, notify=told.append)
    assert job.build == "table" and job.own_chunk is None and job.policies
    assert len(starts) == 1 and starts[0][0][-1] == "own:forgetful"
    assert starts[0][0][-3:-1] == ["-m", "simulator.experiments.warm"]
    assert starts[0][1]["env"][behind.OWN_VARIABLE] == "wait"
    assert any("background" in m and "forgetful" in m for m in told), told
    assert make_job(SIX, 4, *_ids(["forgetful"]), 2).build == "table"
    assert len(starts) == 1   # one background compile per build, however many runs start


def test_rules_an_own_build_lacks_play_on_the_table_build_and_compile_nothing_behind(
        unset, starts, monkeypatch, tmp_path):
    """heuristic's own build is the lean flow, which never asks the face of a placed card:
    with placement_face = player_choice a run plays on the table build (no background compile
    for nothing), and ``kernel = "own"`` says what its build lacks."""
    choice = SIX.with_options(placement_face="player_choice")
    ids, params = _ids(["heuristic"])
    assert "heuristic" in runner.OWN_WORTH
    assert make_job(choice, 4, ids, params, 1).build == "table"
    assert not starts
    with pytest.raises(ValueError, match="the own build of heuristic lacks face_choice"):
        runner.build_of(flatten(choice, 4), ids, "own")
    assert runner.build_of(flatten(SIX, 4), ids, "own") == "own:heuristic"
    # on six_card, its build not compiled (written where nothing was ever compiled): the
    # table build while it compiles behind
    monkeypatch.setattr(runner, "own_file", lambda build: tmp_path / f"{build[4:]}.py")
    assert make_job(SIX, 4, ids, params, 1).build == "table"
    assert len(starts) == 1 and starts[0][0][-1] == "own:heuristic"


def test_a_mixed_table_plays_on_the_table_build_and_compiles_nothing_behind(unset, starts):
    assert make_job(SIX, 4, *_ids(MIXED), 1).build == "table"
    assert not starts


@pytest.mark.slow   # compiles random's own build (40 s): the default tier's 5 minutes are spent
def test_the_own_build_plays_the_table_builds_rounds_and_is_taken_once_compiled(
        monkeypatch, starts):
    for preset in PRESETS_TRIED:
        _assert_same_rounds(CHEAPEST, preset)
    ids, params = _ids([CHEAPEST])
    # compiled now: a user's run takes it, and golfsim warm loads it
    monkeypatch.delenv(behind.WAIT_VARIABLE, raising=False)
    monkeypatch.delenv(behind.OWN_VARIABLE, raising=False)
    job = make_job(SIX, 4, ids, params, 1)
    assert job.build == f"own:{CHEAPEST}" and job.own_chunk is not None and not job.policies
    assert run(SIX, 4, ids, params, rounds=50, seed=3).build == f"own:{CHEAPEST}"
    assert warm.warm_one(f"own:{CHEAPEST}") >= 0 and builds.is_compiled(f"own:{CHEAPEST}")
    assert not starts
    # the forced builds and GOLFSIM_OWN_BUILD=no keep the others
    assert make_job(SIX, 4, ids, params, 1, kernel="table").build == "table"
    assert make_job(SIX, 4, ids, params, 1, kernel="general").build == "general"
    assert make_job(SIX, 4, ids, params, 1, check=True).build == "general"
    monkeypatch.setenv(behind.OWN_VARIABLE, "no")
    assert make_job(SIX, 4, ids, params, 1).build == "table"


def _table_rule_sets(n: int, seed: int):
    """``n`` random rule sets (tests/test_random_rules.py) that the table build plays."""
    out = []
    for _, _, rules, players in draw_rule_sets(800, seed=seed):
        if flow.rules_eligible(flatten(rules, players).ri, "table"):
            out.append((rules, players))
        if len(out) == n:
            return out
    raise AssertionError(f"only {len(out)} of {n} rule sets for the table build")


# random's own build is the lean flow, with no views: each of its decisions (the reveal, the
# turn, where a card goes or whether it is discarded, the face of a placed card) draws from the
# seat's stream over a bit mask the lean flow computes itself
RANDOM_RULES = _table_rule_sets(30, 47) + [
    (Rules.preset("six_card").with_options(placement_face="player_choice",
                                      initial_reveal_mode="peek"), 3),
    (Rules.preset("four_card").with_options(placement_face="player_choice",
                                       stock_draw_may_be_discarded=False), 2)]


def test_the_random_rule_sets_reach_every_decision_of_randoms_own_build():
    ri = [flatten(rules, players).ri for rules, players in RANDOM_RULES]
    assert any(r[K.R_PLACEMENT_FACE] == K.FACE_CHOICE for r in ri)
    assert any(r[K.R_REVEAL_MODE] == K.REVEAL_PEEK for r in ri)
    assert any(r[K.R_REVEAL_MODE] == K.REVEAL_FLIP for r in ri)
    assert any(r[K.R_STOCK_MAY_DISCARD] == 0 for r in ri)
    assert any(r[K.R_END_TRIGGERS] & K.END_KNOCK for r in ri)


@pytest.mark.slow
@pytest.mark.parametrize("preset", TABLE_PRESETS)
def test_randoms_own_build_plays_the_table_builds_rounds_on_every_preset(preset):
    _assert_same_rounds(CHEAPEST, preset, rounds=1000, seed=5)


@pytest.mark.slow
@pytest.mark.parametrize("i", range(len(RANDOM_RULES)))
def test_randoms_own_build_plays_the_table_builds_rounds_on_random_rule_sets(i):
    rules, players = RANDOM_RULES[i]
    _assert_same_rounds(CHEAPEST, rules, rounds=300, seed=100 + i, players=players)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(OWN_BUILDS.values()) - {CHEAPEST}))
def test_every_builtins_own_build_plays_the_table_builds_rounds(name):
    for preset in PRESETS_TRIED[:2]:
        _assert_same_rounds(name, preset, rounds=200, seed=11)


# forgetful's, opponent-aware's, guide's and heuristic's own builds are the lean flow too,
# from its cache of what each seat knows of its own cards: forgetful unlearns what it forgets
# (lean_policy.unlearn), opponent-aware reads what every seat knows of the next seat's cards
# from G_SEEN_ALL (face up, or put there in sight of all: the random rule sets place cards
# face down, some from a private stock draw), the guide is asked from what its build keeps
# (its own cards, their faces, the counters, the legal actions), and so is heuristic, which
# counts the cards it has seen from G_SEEN_ALL and the cards in sight by type
# (codes.G_PUBLIC_TYPES). Each with its defaults and with other parameters: the guide's tables
# with ranks left out in every situation, going out and knocking limits, both reveals, the
# "down" rule and (nine_card and 4 of the random rule sets score lines of three) its line
# tables; heuristic keeping cards for a pair longer or never, bolder or more careful.
GUIDE_TABLES = ("guide:take_pair=8191,take_early=1023,take_late=255,take_last=16383,"
                "keep_pair=16383,keep_early=2047,keep_late=127,keep_last=16383,out=4,knock=6,"
                "reveal=1,down=6")
GUIDE_LINES = "guide:reveal=2,take_line3=16383,take_line2=8191,keep_line3=16383,keep_line2=4095"
LEAN_OWN = [("forgetful", "forgetful"), ("forgetful", "forgetful:decay=0.4,T=6"),
            ("opponent-aware", "opponent-aware"), ("opponent-aware", "opponent-aware:care=8"),
            ("guide", "guide"), ("guide", GUIDE_TABLES), ("guide", GUIDE_LINES),
            ("heuristic", "heuristic"),
            ("heuristic", "heuristic:aggression=0.35,replace_min=1.5,hold=6,take_max=5"),
            ("heuristic", "heuristic:aggression=0.8,replace_min=0.5,hold=0,knock_at=14")]


def test_the_random_rule_sets_reach_what_the_lean_own_builds_keep():
    ri = [flatten(rules, players).ri for rules, players in RANDOM_RULES]
    scopes = {(int(r[K.R_PAIR_SCOPE]), int(r[K.R_ROWS])) for r in ri}
    assert (K.PAIR_COLUMN, 2) in scopes and (K.PAIR_NONE, 3) in scopes   # the vector cache
    assert len(scopes - {(K.PAIR_COLUMN, 2)} - {(K.PAIR_NONE, r) for r in (2, 3)}) >= 2
    assert any(r[K.R_PLACEMENT_FACE] == K.FACE_DOWN and r[K.R_PRIVATE_STOCK] for r in ri)
    assert any(r[K.R_END_TRIGGERS] & K.END_KNOCK for r in ri)


def test_unlearning_a_card_leaves_the_cache_as_if_it_was_never_seen():
    """lean_policy.unlearn undoes learn: knowledge, counts and every field of the cache (the
    knock estimate's too) as unknown_layout wrote them, whatever else the seat knows."""
    rng = np.random.default_rng(3)
    for preset, change in (("six_card", {}), ("six_card", {"negative_pairs_keep_value": True}),
                           ("nine_card", {}), ("four_card", {"pair_scope": "none"}),
                           ("six_card", {"pair_scope": "anywhere"})):
        rules = Rules.preset(preset).with_options(end_triggers=["knock"], **change)
        ri = flatten(rules, 2).ri
        rt = pack_rules(flatten(rules, 2))
        npos = int(ri[K.R_NPOS])
        for _ in range(20):
            g = np.zeros(G_SCRATCH, dtype=np.int64)
            LP.unknown_layout(g, rt, 1)
            known = rng.permutation(npos)[:rng.integers(1, npos + 1)]
            cards = rng.permutation(int(ri[K.R_NCARDS]))[:npos]
            for p in known[1:]:
                LP.learn(g, rt, 1, p, cards[p])
            before = g.copy()
            LP.learn(g, rt, 1, known[0], cards[known[0]])
            assert g[G_KNOWN_N + 1] == len(known)
            LP.unlearn(g, rt, 1, known[0])
            assert g[G_OWN + MAX_POS + known[0]] == -1
            assert np.array_equal(g, before), (preset, change)


@pytest.mark.slow
@pytest.mark.parametrize("name,spec", LEAN_OWN)
@pytest.mark.parametrize("preset", TABLE_PRESETS)
def test_the_lean_own_builds_play_the_table_builds_rounds_on_every_preset(name, spec, preset):
    _assert_same_rounds(name, preset, rounds=1000, seed=5, spec=spec)


@pytest.mark.slow
@pytest.mark.parametrize("name,spec", LEAN_OWN)
@pytest.mark.parametrize("i", range(len(RANDOM_RULES)))
def test_the_lean_own_builds_play_the_table_builds_rounds_on_random_rule_sets(name, spec, i):
    rules, players = RANDOM_RULES[i]
    _assert_same_rounds(name, rules, rounds=300, seed=200 + i, players=players, spec=spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec,plain", [("forgetful", "knock-threshold:T=8"),
                                        ("opponent-aware", "greedy"), (GUIDE_TABLES, "greedy")])
def test_the_lean_own_builds_rules_act(spec, plain):
    """Forgetting, withholding and the guide's tables change rounds (so the parity above tests
    them): not the rounds of the player each is built on, on the lean build. (Peeked cards
    stay face down: something to forget; six_card's turn every card it knows face up.)"""
    rules = SIX.with_options(initial_reveal_mode="peek")
    ids, params = _ids([spec])
    kw = dict(rounds=300, seed=9, per_round=True)
    own = run(rules, 4, ids, params, kernel="own", **kw)
    base = run(rules, 4, *_ids([plain]), kernel="lean", **kw)
    changed = (own.per_round.scores != base.per_round.scores).any(axis=1).sum()
    assert own.build == f"own:{spec.split(':')[0]}" and base.build == "lean"
    assert changed >= 30, changed
