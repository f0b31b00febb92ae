"""One contract for everything that plays a round (issue 25, item 6).

Every build (the general engine, the lean kernel, the user-policy kernel, the lookahead
strategy) x every preset x several seat mixes, plus randomly drawn rule sets, is held to the
same five checks, each a small function that can be pointed at any build's output:

* ``check_conservation``: every card of the deck is in exactly one place (the general engine
  verifies it after every turn with ``check=True``; at the end the final layouts must hold
  distinct deck cards, and an emptied position only its own pseudo-card);
* ``check_knowledge``: what a seat knows of a card is never a card it has not seen: every known
  entry is the real card there, and a face-up card is known to every seat;
* ``check_termination``: the round ends within the turn cap, the capped flag agrees, turns
  rotate seat by seat;
* ``check_scores``: layout values and hole scores equal a recount from the final layouts by the
  reference's scoring;
* ``check_log_parity``: the move log, scores, layouts, knowledge and flags equal the reference
  engine's round (``strategies.reference.referee.play_round``, which plays random, greedy and
  knock-threshold seats).

Seats the reference cannot play (heuristic, ev, forgetful, ..., user policies, lookahead) are
held to the reference through ``replay``: the engine's move log is fed, decision by decision,
to the reference referee (``reference.Hole`` with scripted seats). The referee deals the same
cards, refuses an action it does not find legal, checks conservation after every turn, and
ends with its own final layouts, knowledge, face-up flags, scores and flags, which must equal
the engine's. The lean and user-policy kernels keep no log: their per-round scores, turns and
final layouts must equal the general engine's for the same seed and round index.

The final knowledge is all a logged round shows of what the seats knew. What a policy is shown
at each decision is checked by seats of tests/policies/view_check_policy.py, which answer an
illegal action (an engine error) whenever their view contradicts itself: a card known at two
positions, a known layout card also on the discard pile or in the hand, a face-up card unknown.

The default tier plays three rounds per case of the general and lean builds (the user kernel,
compiled around a policy for minutes, is in the slow tier with its cases); ``-m slow`` plays
25 rounds per preset case and 8 on each of 420 more random rule sets.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel import flow
from simulator.game import reference as R
from strategies.reference import POLICIES, referee
from simulator.experiments.runner import play_logged_round
from simulator.kernel.policy_api import compile_policy
from simulator.game.rules import POWER_PRESETS, PRESETS, Rules, flatten

# the power presets play on the powers build: their cases are below ("the power-card games")
COMPILED_PRESETS = [p for p in PRESETS if p not in POWER_PRESETS]
from simulator.experiments.runner import make_job, play_chunk
from strategies import resolve_seats, seat_arrays
from test_power_kernel import random_cases as power_random_cases
from test_random_rules import draw_rule_sets
from test_reference_parity import differences

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "strategies" / "examples" / "greedy_policy.py")
VIEW_CHECK = str(ROOT / "tests" / "policies" / "view_check_policy.py")

# ---- seat mixes ----------------------------------------------------------------------------------
# seats take the mix's strategies in turn; a mix longer than the table is cut
MIXES = {
    "greedy": ("greedy",),
    "greedy-kt": ("greedy", "knock-threshold:T=10"),            # the lean kernel's seats
    "ref-mixed": ("random", "knock-threshold:T=8", "greedy"),   # all three reference policies
    "mixed": ("random", "greedy", "knock-threshold:T=12", "heuristic", "ev"),
    "memory": ("forgetful:decay=0.3", "opponent-aware", "guide"),
}
ALL_BUILTINS = ("random", "greedy", "knock-threshold", "heuristic", "ev", "forgetful",
                "opponent-aware", "guide")
LOOKAHEAD = "lookahead:budget=3,width=2"


def seat_specs(mix: tuple[str, ...], players: int, shift: int = 0) -> list[str]:
    return [mix[(seat + shift) % len(mix)] for seat in range(players)]


def reference_plays(specs) -> bool:
    return all(s.partition(":")[0] in POLICIES for s in specs)


def deck_of(rules: Rules, players: int) -> list[int]:
    return list(R.CardTable(rules, players).deck)


# ---- the checks (each raises AssertionError with the reason) -------------------------------------
def check_conservation(layouts, deck, result: dict | None = None) -> None:
    """``layouts[seat][pos]`` are final card ids; ``result`` a logged round of the general engine,
    whose own after-every-turn check must have passed."""
    if result is not None:
        assert result["ok"] and result["error"] == 0, f"engine error {result['error']}"
    deck_set = set(deck)
    cards = []
    for seat, row in enumerate(layouts):
        for p, c in enumerate(row):
            c = int(c)
            if c >= K.EMPTY0:   # remove_cancelled: an emptied position holds EMPTY0 + its index
                assert c == K.EMPTY0 + p, f"seat {seat} pos {p}: pseudo-card {c} out of place"
                continue
            assert c in deck_set, f"seat {seat} pos {p}: card {c} is not in the deck"
            cards.append(c)
    assert len(set(cards)) == len(cards), \
        f"a card is in two places: {sorted(c for c in set(cards) if cards.count(c) > 1)}"


def check_knowledge(known, layouts, face_up=None) -> None:
    """``known[obs][seat][pos]``: the card ``obs`` knows there, or -1. A known entry must be the
    card really there (else the seat's view holds a card it never saw there); with ``face_up``
    flags, a face-up card is known to every observer."""
    known = np.asarray(known)
    players, _, npos = known.shape
    for obs in range(players):
        for seat in range(players):
            for p in range(npos):
                k, real = int(known[obs, seat, p]), int(layouts[seat][p])
                assert k == -1 or k == real, \
                    f"seat {obs} believes seat {seat} pos {p} holds {k}; it holds {real}"
                if face_up is not None and face_up[seat][p]:
                    assert k == real, f"face-up seat {seat} pos {p} unknown to seat {obs}"


def check_termination(rules: Rules, players: int, turns: int, capped: bool, ender: int = -1,
                      log=None) -> None:
    cap = rules.turn_cap
    assert 0 <= turns <= cap, f"{turns} turns, cap {cap}"
    if capped:
        assert turns == cap, f"capped after {turns} turns, cap {cap}"
    assert -1 <= ender < players
    if log is not None:
        rows = [tuple(int(x) for x in row) for row in log]
        assert [r[0] for r in rows] == sorted(r[0] for r in rows), "turn numbers go back"
        assert all(r[0] <= turns for r in rows), "a decision after the last turn"
        assert all(r[1] == r[0] % players for r in rows if r[2] == K.DP_TURN), \
            "a turn played out of seat order"


def check_scores(rules: Rules, layouts, layout_values, scores, ender: int, knocked: bool,
                 bank=None, extra=None) -> None:
    """Recount from the final layouts. ``bank`` (groups removed by remove_cancelled) and
    ``extra`` (pay_to_peek costs) are not visible in a layout: they come from the referee's
    replay of the move log."""
    players = len(layouts)
    bank = bank or [0] * players
    parts = [R.score_layout(rules, [int(c) for c in row]) for row in layouts]
    # (twenty_one_scores_zero: a layout worth 21 counts as 0 from the start of the hole rules)
    L = R.twenty_one_zero(rules, [part.value + b for part, b in zip(parts, bank)])
    assert L == [int(x) for x in layout_values], f"layout values {list(layout_values)}, recount {L}"
    recount = R.hole_scores(rules, L, ender, knocked, [part.couples for part in parts],
                            extra=extra)
    assert recount == [int(x) for x in scores], f"scores {list(scores)}, recount {recount}"


def check_log_parity(result: dict, record: R.RoundRecord) -> None:
    """The engine's round equals the reference's (or the referee's replay of it) in everything
    both report."""
    diff = differences(result, record)
    if result["known"].tolist() != record.known:
        diff.append("known: the seats' knowledge differs")
    assert not diff, "\n  ".join(diff)


# ---- the reference referee replaying an engine's move log ----------------------------------------
class _Scripted:
    """A reference seat that answers what the engine's log says, after checking that the referee
    asks the same seat the same question holding the same card."""

    def __init__(self, rows, cursor: list[int]):
        self.rows, self.cursor = rows, cursor

    def choose(self, obs: R.Observation) -> int:
        i = self.cursor[0]
        assert i < len(self.rows), f"the referee asks seat {obs.seat} more than the engine logged"
        turn, seat, point, action, held = self.rows[i]
        asked = (seat, point, R.NO_CARD if obs.held is None else obs.held)
        assert asked == (obs.seat, int(obs.decision), held), \
            f"log row {i}: engine {(seat, point, held)}, referee asks {asked}"
        self.cursor[0] += 1
        return action


def replay(rules: Rules, players: int, seed: int, round_index: int, log):
    """Play the engine's move log through the reference referee (the power engine's for
    power rules); returns (hole, record)."""
    rows = [tuple(int(x) for x in row) for row in log]
    hole = referee.make_hole(rules, players, ["random"], seed, round_index)
    cursor = [0]
    hole.policies = [_Scripted(rows, cursor) for _ in range(players)]
    record = hole.play()
    assert cursor[0] == len(rows), f"the referee used {cursor[0]} of {len(rows)} log rows"
    return hole, record


# ---- one round of the general engine, every check ------------------------------------------------
def engine_round(rules, players, ids, params, seed, i, user=None):
    return play_logged_round(flatten(rules, players), ids, params, seed, i, check=True,
                             user=user)


def check_general_round(rules: Rules, players: int, specs, ids, params, seed: int, i: int,
                        user=None, deck=None) -> dict:
    res = engine_round(rules, players, ids, params, seed, i, user)
    where = f"seed {seed} round {i}"
    try:
        check_conservation(res["layouts"], deck or deck_of(rules, players), res)
        check_termination(rules, players, res["turns"], res["capped"], res["ender"], res["log"])
        hole, rec = replay(rules, players, seed, i, res["log"])
        check_log_parity(res, rec)
        face_up = [[cell.face_up for cell in row] for row in hole.state.layouts]
        check_knowledge(res["known"], res["layouts"], face_up)
        check_scores(rules, res["layouts"], res["layout_values"], res["scores"], res["ender"],
                     res["knocked"], hole.state.bank, hole.state.penalty)
        if reference_plays(specs):
            check_log_parity(res, referee.play_round(rules, players, specs, seed, i))
    except (AssertionError, R.IllegalActionError) as e:
        raise AssertionError(f"{where}, {players} players {specs}, rules {rules}: "
                             f"{type(e).__name__}: {e}") from None
    return res


def run_general(rules, players, specs, seed, rounds, user=None):
    ids, params = seat_arrays(resolve_seats(specs, players))
    deck = deck_of(rules, players)
    return [check_general_round(rules, players, specs, ids, params, seed, i, user, deck)
            for i in range(rounds)]


# ---- the kernels without a log: the same rounds as the general engine ----------------------------
def check_same_rounds(rules, players, ids, params, seed, rounds, kernel, user=None,
                      logged=None) -> None:
    """Per-round scores, turns and final layouts of ``kernel`` ("lean", or "user": the
    user-policy kernel) equal the general engine's, through the runner and through the logged
    rounds ``logged`` (already checked against the reference)."""
    npos = rules.n_positions
    job = make_job(rules, players, ids, params, seed, kernel="lean" if kernel == "lean" else
                   "auto", user=user)
    assert job.lean if kernel == "lean" else job.user_chunk is not None, f"{kernel} not taken"
    general = make_job(rules, players, ids, params, seed, kernel="general", user=user)
    _, (s_a, t_a, l_a), _ = play_chunk(job, 0, rounds, per_round=True, layouts=True)
    _, (s_b, t_b, l_b), _ = play_chunk(general, 0, rounds, per_round=True, layouts=True)
    deck = deck_of(rules, players)
    for i in range(rounds):
        where = f"{kernel} kernel, seed {seed} round {i}, {players} players, rules {rules}"
        lay = l_a[i, :, :npos].tolist()
        check_conservation(lay, deck)
        check_termination(rules, players, int(t_a[i]), False)
        assert (s_a[i].tolist(), int(t_a[i]), lay) == \
            (s_b[i].tolist(), int(t_b[i]), l_b[i, :, :npos].tolist()), \
            f"{where}: differs from the general engine's runner"
        if logged is not None:
            res = logged[i]
            assert (s_a[i].tolist(), int(t_a[i]), lay) == \
                (res["scores"].tolist(), res["turns"], res["layouts"].tolist()), \
                f"{where}: differs from the general engine's logged round"


# ---- the cases ---------------------------------------------------------------------------------
def _players(rules: Rules, want: int) -> int:
    return max(rules.players_min, min(want, rules.players_max))


TABLE = {"greedy": 4, "greedy-kt": 3, "ref-mixed": 3, "mixed": 5, "memory": 3}


def preset_cases():
    """(id, build, preset, players, specs): every build that can play the preset."""
    cases = []
    for n, preset in enumerate(COMPILED_PRESETS):
        rules = Rules.preset(preset)
        for mix, mix_specs in MIXES.items():
            players = _players(rules, TABLE[mix])
            specs = seat_specs(mix_specs, players, shift=n)
            cases.append((f"general-{preset}-{mix}", "general", preset, players, specs))
            ids, _ = seat_arrays(resolve_seats(specs, players))
            if flow.eligible(flatten(rules, players).ri, ids):
                cases.append((f"lean-{preset}-{mix}", "lean", preset, players, specs))
        players = _players(rules, 2 + n % 4)
        if flow.rules_eligible(flatten(rules, players).ri):
            cases.append((f"user-{preset}", "user", preset, players,
                          [EXAMPLE + ":decide"] * players))
    return cases


PRESET_CASES = preset_cases()
ROUNDS = 3


def test_every_build_and_preset_is_covered():
    builds = {(b, p) for _, b, p, _, _ in PRESET_CASES}
    assert {p for b, p in builds if b == "general"} == set(COMPILED_PRESETS)
    # the lean and user kernels play at least the benchmark presets
    for build in ("lean", "user"):
        assert {"six_card", "four_card"} <= {p for b, p in builds if b == build}, build


_USER = {}


def compiled(path: str):
    if path not in _USER:
        _USER[path] = compile_policy(path, "decide")
    return _USER[path]


def play_case(build: str, rules: Rules, players: int, specs, seed: int, rounds: int) -> None:
    if build == "general":
        run_general(rules, players, specs, seed, rounds)
        return
    user = compiled(EXAMPLE) if build == "user" else None
    logged = run_general(rules, players, specs, seed, rounds, user)
    ids, params = seat_arrays(resolve_seats(specs, players))
    check_same_rounds(rules, players, ids, params, seed, rounds, build, user, logged)


def _tier(build: str):
    """The user kernel is compiled around each user policy, for minutes: the slow tier."""
    return pytest.mark.slow if build == "user" else ()


@pytest.mark.parametrize("build,preset,players,specs",
                         [pytest.param(*c[1:], id=c[0], marks=_tier(c[1]))
                          for c in PRESET_CASES])
def test_contract_presets(build, preset, players, specs):
    play_case(build, Rules.preset(preset), players, specs, seed=2500 + len(preset), rounds=ROUNDS)


# random rule sets: the general engine with seats drawn from every built-in strategy, and the
# lean and user kernels on those they play
def random_cases(n_general: int, n_kernel: int, seed: int):
    rng = random.Random(seed)
    cases, kernel_counts = [], {"lean": 0, "user": 0}
    # about half the drawn rule sets are ones the lean and user kernels play
    drawn = draw_rule_sets(max(n_general, 5 * n_kernel) + 40, seed=seed)
    for k, (preset, overrides, rules, players) in enumerate(drawn):
        ri = flatten(rules, players).ri
        if len([c for c in cases if c[1] == "general"]) < n_general:
            specs = [rng.choice(ALL_BUILTINS) for _ in range(players)]
            cases.append((f"general-{k}-{preset}", "general", rules, players, specs))
        if flow.rules_eligible(ri):
            for build in ("lean", "user"):
                if kernel_counts[build] < n_kernel and rng.random() < 0.5:
                    kernel_counts[build] += 1
                    specs = ([EXAMPLE + ":decide"] * players if build == "user" else
                             [rng.choice(MIXES["greedy-kt"]) for _ in range(players)])
                    cases.append((f"{build}-{k}-{preset}", build, rules, players, specs))
        if len(cases) >= n_general + 2 * n_kernel and all(
                v == n_kernel for v in kernel_counts.values()):
            break
    return cases


RANDOM_CASES = random_cases(25, 6, seed=2025)


@pytest.mark.parametrize("case", [pytest.param(i, id=c[0], marks=_tier(c[1]))
                                  for i, c in enumerate(RANDOM_CASES)])
def test_contract_random_rule_sets(case):
    _, build, rules, players, specs = RANDOM_CASES[case]
    play_case(build, rules, players, specs, seed=4000 + case, rounds=ROUNDS)


@pytest.mark.slow
def test_contract_lookahead():
    """The lookahead strategy (rollouts on the lean kernel inside the general engine) is slow:
    one small table, next to a greedy seat."""
    run_general(Rules.preset("six_card"), 2, [LOOKAHEAD, "greedy"], seed=5, rounds=2)


# the views policies decide from, at every decision: seats of a policy that checks its own view
# (tests/policies/view_check_policy.py) next to built-in seats, on the general engine
def view_check_specs(players: int, shift: int) -> list[str]:
    others = ("greedy", "heuristic", "random", "ev", "knock-threshold", "guide")
    return [VIEW_CHECK + ":decide" if seat % 2 == 0 else others[(seat + shift) % len(others)]
            for seat in range(players)]


@pytest.mark.parametrize("preset", COMPILED_PRESETS)
def test_contract_views(preset):
    rules = Rules.preset(preset)
    players = _players(rules, 3 + len(preset) % 3)
    run_general(rules, players, view_check_specs(players, len(preset)), seed=77, rounds=ROUNDS,
                user=compiled(VIEW_CHECK))


# ---- the large sweep -----------------------------------------------------------------------------
SLOW_RANDOM_CASES = random_cases(300, 60, seed=2026)


@pytest.mark.slow
@pytest.mark.parametrize("build,preset,players,specs",
                         [pytest.param(*c[1:], id=c[0]) for c in PRESET_CASES])
def test_contract_presets_sweep(build, preset, players, specs):
    play_case(build, Rules.preset(preset), players, specs, seed=6000 + len(preset), rounds=25)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(SLOW_RANDOM_CASES)),
                         ids=[c[0] for c in SLOW_RANDOM_CASES])
def test_contract_random_rule_sets_sweep(case):
    _, build, rules, players, specs = SLOW_RANDOM_CASES[case]
    play_case(build, rules, players, specs, seed=8000 + case, rounds=8)


VIEW_RULE_SETS = draw_rule_sets(60, seed=2027)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(VIEW_RULE_SETS)))
def test_contract_views_sweep(case):
    _, _, rules, players = VIEW_RULE_SETS[case]
    run_general(rules, players, view_check_specs(players, case), seed=9000 + case, rounds=4,
                user=compiled(VIEW_CHECK))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["six_card", "four_card"])
def test_contract_lookahead_sweep(preset):
    rules = Rules.preset(preset)
    run_general(rules, 3, [LOOKAHEAD, "knock-threshold", "greedy"], seed=9, rounds=4)


# ---- the power-card games: the powers build, lookahead's rollouts on it -------------------------
# Their layouts grow and shrink, so the final layouts hold all MAX_POS positions (an empty one
# its pseudo-card), and the referee (replay) is the power engine. The powers build
# and lookahead's are compiled for the slow tier only (tests/conftest.py SLOW_BUILDS).
LOOKAHEAD_POWERS = "lookahead:budget=2,width=2"
POWER_MIXES = {
    "built-ins": ALL_BUILTINS,
    "lookahead": (LOOKAHEAD_POWERS, "greedy", "random"),
}


def padded(rows) -> list[list[int]]:
    return [list(row) + [K.EMPTY0 + p for p in range(len(row), K.MAX_POS)] for row in rows]


def check_power_round(rules: Rules, players: int, specs, ids, params, seed: int, i: int):
    res = engine_round(rules, players, ids, params, seed, i)
    try:
        check_conservation(res["layouts"], deck_of(rules, players), res)
        check_termination(rules, players, res["turns"], res["capped"], res["ender"], res["log"])
        hole, rec = replay(rules, players, seed, i, res["log"])
        differ = differences(res, dataclasses.replace(rec, layouts=padded(rec.layouts)))
        assert not differ, "\n  ".join(differ)
        # an empty position, within the layout or beyond it, is face up and known to all
        face_up = [[cell.face_up for cell in row] + [True] * (K.MAX_POS - len(row))
                   for row in hole.state.layouts]
        check_knowledge(res["known"], res["layouts"], face_up)
        layouts = [[int(c) for c in row if int(c) < K.EMPTY0] for row in res["layouts"]]
        assert [len(r) for r in layouts] == \
            [sum(1 for c in row if not R.is_empty(c.card)) for row in hole.state.layouts]
    except (AssertionError, R.IllegalActionError) as e:
        raise AssertionError(f"seed {seed} round {i}, {players} players {specs}, rules {rules}: "
                             f"{type(e).__name__}: {e}") from None


def play_power_case(rules: Rules, players: int, specs, seed: int, rounds: int) -> None:
    ids, params = seat_arrays(resolve_seats(specs, players))
    for i in range(rounds):
        check_power_round(rules, players, specs, ids, params, seed, i)


def power_cases():
    cases = []
    for n, preset in enumerate(list(POWER_PRESETS) + ["six_card+dutch"]):
        rules = Rules.preset("six_card", power_set="dutch") if preset == "six_card+dutch" \
            else Rules.preset(preset)
        for mix, mix_specs in POWER_MIXES.items():
            players = _players(rules, 3 + n % 2)
            cases.append((f"powers-{preset}-{mix}", preset, rules, players,
                          seat_specs(mix_specs, players, shift=n)))
    rng = random.Random(2039)
    for k, (rules, players, _, _) in enumerate(power_random_cases(12, seed=2039)):
        cases.append((f"powers-random-{k}", "random", rules, players,
                      [rng.choice(ALL_BUILTINS) for _ in range(players)]))
    return cases


POWER_CASES = power_cases()


def test_every_power_preset_is_covered_by_both_builds():
    covered = {(preset, mix) for _, preset, _, _, specs in POWER_CASES
               for mix in ("lookahead",) if any(s.startswith("lookahead") for s in specs)}
    assert {p for p, _ in covered} == set(POWER_PRESETS) | {"six_card+dutch"}
    assert {p for _, p, _, _, _ in POWER_CASES} >= set(POWER_PRESETS) | {"random"}


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(POWER_CASES)), ids=[c[0] for c in POWER_CASES])
def test_contract_power_games(case):
    _, _, rules, players, specs = POWER_CASES[case]
    play_power_case(rules, players, specs, seed=5100 + case,
                    rounds=2 if any(s.startswith("lookahead") for s in specs) else 6)


# ---- the contract has teeth ----------------------------------------------------------------------
def _good_round():
    rules = Rules.preset("six_card", initial_reveal_mode="peek")
    specs = ["greedy", "random", "knock-threshold"]
    res = run_general(rules, 3, specs, seed=3, rounds=1)[0]
    return rules, specs, res


def _copy(res: dict) -> dict:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in res.items()}


def test_checks_catch_corrupted_rounds():
    """Corrupted copies of a good round, fed to the same checks, fail them."""
    rules, specs, res = _good_round()
    players, deck = 3, deck_of(rules, 3)
    hole, rec = replay(rules, players, 3, 0, res["log"])
    face_up = [[cell.face_up for cell in row] for row in hole.state.layouts]

    # a face-up card of seat 0 swapped with a card of another value of seat 1: still
    # conserved, but the knowledge, the recount and the reference disagree
    value = R.CardTable(rules, players).value
    lay = res["layouts"]
    p0 = next(p for p in range(6) if face_up[0][p])
    p1 = next(p for p in range(6) if value[lay[1, p]] != value[lay[0, p0]])
    bad = _copy(res)
    bad["layouts"][0, p0], bad["layouts"][1, p1] = lay[1, p1], lay[0, p0]
    check_conservation(bad["layouts"], deck)
    with pytest.raises(AssertionError, match="holds"):
        check_knowledge(bad["known"], bad["layouts"], face_up)
    with pytest.raises(AssertionError, match="layout values"):
        check_scores(rules, bad["layouts"], bad["layout_values"], bad["scores"], bad["ender"],
                     bad["knocked"])
    with pytest.raises(AssertionError, match="layouts"):
        check_log_parity(bad, rec)

    # a card duplicated, one not from the deck
    bad = _copy(res)
    bad["layouts"][2, 5] = bad["layouts"][1, 2]
    with pytest.raises(AssertionError, match="two places"):
        check_conservation(bad["layouts"], deck)
    bad["layouts"][2, 5] = max(deck) + 1
    with pytest.raises(AssertionError, match="not in the deck"):
        check_conservation(bad["layouts"], deck)
    bad = _copy(res)
    bad["error"], bad["ok"] = 1, False
    with pytest.raises(AssertionError, match="engine error"):
        check_conservation(bad["layouts"], deck, bad)

    # a seat that believes a wrong card, or does not see a face-up one
    bad = _copy(res)
    seat, p = next((s, p) for s in range(3) for p in range(6) if not face_up[s][p])
    bad["known"][(seat + 1) % 3, seat, p] = res["layouts"][(seat + 2) % 3, 0]
    with pytest.raises(AssertionError, match="believes"):
        check_knowledge(bad["known"], bad["layouts"], face_up)
    with pytest.raises(AssertionError, match="known"):
        check_log_parity(bad, rec)
    bad = _copy(res)
    up = next((s, p) for s in range(3) for p in range(6) if face_up[s][p])
    bad["known"][2, up[0], up[1]] = -1
    with pytest.raises(AssertionError, match="unknown"):
        check_knowledge(bad["known"], bad["layouts"], face_up)

    # a wrong score or layout value
    for key, seat_delta in (("scores", 1), ("layout_values", -1)):
        bad = _copy(res)
        bad[key][seat_delta % 3] += 1
        with pytest.raises(AssertionError):
            check_scores(rules, bad["layouts"], bad["layout_values"], bad["scores"],
                         bad["ender"], bad["knocked"])
        with pytest.raises(AssertionError, match=key):
            check_log_parity(bad, rec)

    # past the cap, capped early, a turn out of order
    with pytest.raises(AssertionError):
        check_termination(rules, 3, rules.turn_cap + 1, False)
    with pytest.raises(AssertionError):
        check_termination(rules, 3, res["turns"], True)
    log = res["log"].copy()
    turn_rows = np.nonzero(log[:, 2] == K.DP_TURN)[0]
    log[turn_rows[3], 1] = (log[turn_rows[3], 1] + 1) % 3
    with pytest.raises(AssertionError, match="seat order"):
        check_termination(rules, 3, res["turns"], res["capped"], res["ender"], log)

    # a log that differs in one placement: the referee refuses it, or replays it to other
    # final layouts than the engine reported
    log = res["log"].copy()
    row = next(j for j in range(len(log)) if log[j, 2] == K.DP_PLACE_DRAWN and log[j, 3] < 6)
    log[row, 3] = (log[row, 3] + 1) % 6
    bad = _copy(res)
    bad["log"] = log
    with pytest.raises((AssertionError, R.IllegalActionError)):
        check_log_parity(bad, replay(rules, players, 3, 0, log)[1])
    with pytest.raises(AssertionError, match="log row"):
        check_log_parity(bad, rec)


def test_view_check_policy_catches_inconsistent_views():
    """The view-checking seats refuse (answer an illegal action on) a view that holds a card its
    seat cannot have seen there."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("contract_view_check", VIEW_CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    consistent = module.view_is_consistent
    players, npos = 2, 4
    rules = np.zeros(64, np.int64)
    rules[K.R_PLAYERS], rules[K.R_NPOS] = players, npos
    public = np.zeros(K.N_PUB_SLOTS + K.MAX_PLAYERS, np.int32)
    public[K.PUB_DISCARD_N] = 1
    public[K.N_PUB_SLOTS:K.N_PUB_SLOTS + players] = npos - 1
    known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, np.int32)
    faceup = np.zeros_like(known)
    discard = np.zeros(64, np.int32)
    discard[0] = 40
    for s in range(players):
        known[s * K.MAX_POS], faceup[s * K.MAX_POS] = 10 + s, 1
    known[1] = 20   # an own face-down card it peeked
    args = lambda: (K.DP_PLACE_DRAWN, 30, public, known, faceup, discard, rules)  # noqa: E731
    assert consistent(*args())
    for slot, card in ((1, 40), (1, 11), (1, 30)):   # on the pile, known twice, in the hand
        saved = known[slot]
        known[slot] = card
        assert not consistent(*args()), card
        known[slot] = saved
    known[K.MAX_POS] = -1           # a face-up card it does not know
    assert not consistent(*args())
    known[K.MAX_POS] = 11
    public[K.N_PUB_SLOTS] = npos    # face-down counts that disagree with the flags
    assert not consistent(*args())
