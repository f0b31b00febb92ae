"""The compiled built-ins in power-card games, decision by decision against the reference
(strategies/reference/powers.py decide()), apart from the engine (tests/test_power_kernel.py
plays whole holes of both): each reference decision is turned into the view a compiled policy reads (codes.py's g, with the
power games' conventions: empty positions hold EMPTY0 + p face up and known to all), the
compiled entry is asked, and its answer must be the reference's. One g per seat is kept for
the whole hole so that the policies' memory (the power plan) carries over as in a game."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import referee
from simulator.game.powers import PowerHole
from simulator.game.rules import Rules, flatten
from simulator.kernel.engine import State, pack_rules, policy_table
from strategies import resolve_seats, seat_arrays
from strategies.common import MEM_FORGOTTEN, MEM_FORGOTTEN_OPP, MEM_LAST_TURN
from strategies.compiled import decide
from tests.tiers import sweep

PRESETS = ("power_malaysia", "power_pablo", "power_cumbia", "power_cabo", "power_cactus")


def rules_named(name: str) -> Rules:
    if name.startswith("dutch:"):
        return Rules.preset(name.split(":", 1)[1], power_set="dutch")
    return Rules.preset(name)


def fill_view(g: np.ndarray, hole: PowerHole, obs: R.Observation, rt: np.ndarray) -> None:
    """Everything but the seat's memory: what ``obs.seat`` may see, as the engine lays it
    out."""
    st, players, seat = hole.state, hole.players, obs.seat
    memory = g[K.G_MEMORY:K.G_MEMORY + K.MAX_PLAYERS * K.MEMORY_SLOTS].copy()
    g[:] = 0
    g[K.G_MEMORY:K.G_MEMORY + K.MAX_PLAYERS * K.MEMORY_SLOTS] = memory
    value = rt[K.RT_VALUE:K.RT_VALUE + K.N_CARD_TABLE]
    up_n = up_sum = 0
    g[K.G_LAY:K.G_LAY + K.MAX_PLAYERS * K.MAX_POS] = -1
    g[K.G_KNOWN:K.G_KNOWN + K.MAX_PLAYERS * K.MAX_PLAYERS * K.MAX_POS] = -1
    shielded = 0
    for s in range(players):
        row = st.layouts[s]
        down = 0
        for p in range(K.MAX_POS):
            i = s * K.MAX_POS + p
            if p < len(row):
                cell = row[p]
                card, up = cell.card, cell.face_up
                knowers = cell.known_to
                peeked = sum(1 << o for o in cell.peeked_by)
            else:
                card, up, knowers, peeked = K.EMPTY0 + p, True, range(players), 0
            if card >= K.EMPTY0:
                up, knowers = True, range(players)
            g[K.G_LAY + i] = card
            g[K.G_UP + i] = int(up)
            g[K.G_PEEKED + i] = peeked
            if up and card < K.EMPTY0:
                up_n += 1
                up_sum += int(value[card])
            if not up:
                down += 1
            for o in knowers:
                g[K.G_KNOWN + (o * K.MAX_PLAYERS + s) * K.MAX_POS + p] = card
        g[K.G_FACE_DOWN + s] = down
        if st.shielded[s]:
            shielded |= 1 << s
    for i, c in enumerate(st.discard):
        g[K.G_DISCARD + i] = c
    for i, c in enumerate(st.stock):
        g[K.G_STOCK + i] = c
    pub = K.G_PUB
    g[pub + K.PUB_TURN] = st.turn
    g[pub + K.PUB_ACTOR] = seat
    g[pub + K.PUB_STOCK_N] = len(st.stock)
    g[pub + K.PUB_DISCARD_N] = len(st.discard)
    g[pub + K.PUB_DISCARD_SUM] = sum(int(value[c]) for c in st.discard)
    g[pub + K.PUB_FACEUP_N] = up_n
    g[pub + K.PUB_FACEUP_SUM] = up_sum
    g[pub + K.PUB_ENDER] = -1 if st.ender is None else st.ender
    g[pub + K.PUB_FINAL_LEFT] = -1 if st.final_turns_left is None else st.final_turns_left
    g[pub + K.PUB_HELD_PUBLIC] = obs.held if obs.decision == R.Decision.PLACE_TAKEN else -1
    g[pub + K.PUB_RESHUFFLES] = st.reshuffles
    g[pub + K.PUB_KNOCKED] = int(st.knocked)
    g[pub + K.PUB_POWER] = obs.power
    g[pub + K.PUB_TARGET_SEAT] = obs.target_seat
    g[pub + K.PUB_CHOICE0] = obs.choices[0] if obs.choices else -1
    g[pub + K.PUB_CHOICE1] = obs.choices[1] if obs.choices else -1
    g[pub + K.PUB_SHIELDED] = shielded
    g[pub + K.PUB_TOP_POWER_UNUSED] = int(obs.top_power_unused)
    for a in obs.legal:
        g[K.G_LEGAL + a] = 1


class Mirror:
    """Wraps a reference policy: every answer it gives is also asked of the compiled policy
    ``spec`` on the same view, and both are recorded."""

    def __init__(self, hole: PowerHole, seat: int, policy, env: "Env"):
        self.hole, self.seat, self.policy, self.env = hole, seat, policy, env
        self.g = np.zeros(K.G_SIZE, dtype=np.int32)

    def choose(self, obs: R.Observation) -> int:
        want = int(self.policy.choose(obs))
        fill_view(self.g, self.hole, obs, self.env.rt)
        got = decide(int(obs.decision), self.seat, -1 if obs.held is None else obs.held,
                     self.g, self.env.rt, self.env.rng, self.env.par)
        self.env.asked.append((int(obs.decision), obs.power, want, got, obs))
        return want


class Env:
    def __init__(self, rules: Rules, players: int, specs: list[str]):
        self.rt = pack_rules(flatten(rules, players))
        ids, params = seat_arrays(resolve_seats(specs, players))
        self.par = policy_table(ids, params)
        self.rng = State(players).rng
        self.rng[:] = np.arange(1, self.rng.size + 1, dtype=np.uint64) * 977
        self.asked: list = []


def mirrored_hole(name: str, players: int, specs: list[str], seed: int,
                  compiled_specs: list[str] | None = None, grow: int = 0):
    """Plays one reference hole with ``specs`` (reference strategies), asking the compiled
    ``compiled_specs`` (default: the same) at every decision. Returns the Env (its
    ``asked``: (decision, power, reference answer, compiled answer, observation)). ``grow``:
    penalty cards added to every layout after the initial reveal, so that layouts grow
    beyond the grid (rare in play between these policies)."""
    rules = rules_named(name)
    hole = referee.make_hole(rules, players, specs, seed, 0)
    assert isinstance(hole, PowerHole)
    env = Env(rules, players, compiled_specs or specs)
    hole.policies = [pol if spec == "random" else Mirror(hole, s, pol, env)
                     for s, (pol, spec) in enumerate(zip(hole.policies, specs))]
    if grow:
        reveal = hole.initial_reveal

        def reveal_and_grow():
            reveal()
            for s in range(players):
                hole.state.add_penalty_cards(s, grow)
        hole.initial_reveal = reveal_and_grow
    hole.play()
    return env


def mismatches(env: Env) -> list:
    return [(K.DECISION_NAMES[d], K.POWER_NAMES.get(pw),
             K.action_name(w), K.action_name(c), o.seat, o.legal)
            for d, pw, w, c, o in env.asked if w != c]


SPECS = ("greedy", "knock-threshold", "mixed", "with-random")
CASES = [(name, players, spec, seed)
         for name in PRESETS + ("dutch:six_card",)
         for players in (2, 3, 4, 5)
         for spec in SPECS
         for seed in (1, 2)]
KEEP = [i for i, (name, players, spec, seed) in enumerate(CASES)
        if seed == 1 and (players, spec) in ((2, "greedy"), (3, "knock-threshold"), (4, "mixed"))]


def seat_specs(spec: str, players: int) -> list[str]:
    if spec == "mixed":
        return [("greedy", "knock-threshold")[s % 2] for s in range(players)]
    if spec == "with-random":   # random seats (not compared) make for more varied states
        return [("random", "greedy", "random", "knock-threshold")[s % 4] for s in range(players)]
    return [spec] * players


@pytest.mark.parametrize("name,players,spec,seed", sweep(CASES, KEEP))
def test_compiled_power_decisions_match_reference(name, players, spec, seed):
    try:
        env = mirrored_hole(name, players, seat_specs(spec, players), seed)
    except ValueError as e:   # a preset that does not seat this many players
        pytest.skip(str(e))
    assert env.asked
    assert not mismatches(env), mismatches(env)[:5]


GROWN = [(name, players, spec, seed) for name in PRESETS + ("dutch:six_card", "dutch:nine_card")
         for players in (2, 4) for spec in ("mixed", "with-random") for seed in (1, 2, 3)]


@pytest.mark.parametrize("name,players,spec,seed",
                         sweep(GROWN, [0, 13, 40]))
def test_grown_layouts_match_reference(name, players, spec, seed):
    """Layouts grown beyond the grid (penalty cards): placements, estimates and calls."""
    env = mirrored_hole(name, players, seat_specs(spec, players), seed, grow=3)
    npos = rules_named(name).n_positions
    assert any(len(o.known[o.seat]) > npos for *_, o in env.asked)
    assert not mismatches(env), mismatches(env)[:5]


@pytest.mark.parametrize("name", sweep(list(PRESETS) + ["dutch:six_card"],
                                       ["power_cabo", "dutch:six_card"]))
def test_forgetful_without_decay_is_knock_threshold(name):
    """forgetful at decay 0 answers every power decision as the reference knock-threshold."""
    env = mirrored_hole(name, 3, ["knock-threshold"] * 3, 3,
                        ["forgetful:T=8,decay=0"] * 3)
    assert not mismatches(env), mismatches(env)[:5]


def test_forgetful_forgets_opponents_cards():
    """With decay 1 it forgets, at the start of its turn, every face-down card it knew of the
    next seats too, and then names one of them again as a card to peek at."""
    from strategies.powers import peek_target_nb
    env = mirrored_hole("power_malaysia", 3, ["knock-threshold"] * 3, 5,
                        ["forgetful:T=8,decay=1"] * 3)
    assert env.asked and all(got in o.legal for _, _, _, got, o in env.asked)
    rules = rules_named("power_malaysia")
    hole = referee.make_hole(rules, 3, ["knock-threshold"] * 3, 5, 0)
    hole.state.deal()
    obs = hole.state.observe(0, R.Decision.TURN, [K.A_DRAW_STOCK], None)
    g = np.zeros(K.G_SIZE, dtype=np.int32)
    opp = hole.state.layouts[1]
    opp[0].known_to.add(0)           # seat 0 knows seat 1's first card
    hole.state.layouts[0][1].known_to.add(0)   # and its own second one
    fill_view(g, hole, obs, env.rt)
    assert peek_target_nb(g, env.rt, 0, False, True) != 1 + 1 * K.MAX_POS + 0
    mem = K.G_MEMORY
    g[mem + MEM_LAST_TURN] = 0
    decide(K.DP_TURN, 0, -1, g, env.rt, env.rng, env.par)
    assert g[mem + MEM_FORGOTTEN_OPP] & 1, "the opponent's card is forgotten"
    assert g[mem + MEM_FORGOTTEN] == 2, "and its own card"
    assert peek_target_nb(g, env.rt, 0, False, True) == 1 + 1 * K.MAX_POS + 0


# (lookahead's rollouts in the power-card games: tests/test_lookahead_powers.py)
OTHERS = ("heuristic", "opponent-aware", "ev", "guide")


@pytest.mark.parametrize("other", OTHERS)
@pytest.mark.parametrize("name", sweep(["power_cumbia", "power_cabo", "dutch:six_card",
                                        "power_pablo", "power_cactus", "power_malaysia"],
                                       ["power_cumbia", "dutch:six_card"]))
def test_other_builtins_answer_power_decisions(other, name):
    """Every other built-in answers every decision of a power game legally (greedy and
    knock-threshold seats drive the game); their power decisions go through the shared rule
    (strategies/powers.py others_power_nb)."""
    env = mirrored_hole(name, 3, ["greedy", "knock-threshold", "greedy"], 4, [other] * 3,
                        grow=1)
    assert env.asked
    wrong = [(d, K.action_name(got), o.legal) for d, _, _, got, o in env.asked
             if got not in o.legal]
    assert not wrong, wrong[:5]
    assert any(d >= K.DP_TARGET_SEAT for d, *_ in env.asked)
