"""The kinds of moves a power-card hole holds (tests/test_power_moves.py): a compiled hole's
move log is followed by the reference engine (as simulator/experiments/replay.py does), which
says at each decision what it resolves and who knows which card, so that every answer is named
as a kind of move ("power:shuffle_opponent", "snap:opponent", "match:unknown", ...).
``expected_kinds`` names every kind a rule set allows."""

from __future__ import annotations

from collections import Counter

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.effects import COMBINABLE, effect_of
from simulator.game.powers import PowerHole
from simulator.game.reference import CardTable, Decision, IllegalActionError
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import play_logged_round
from strategies.reference import policy_maker

TURN_KINDS = {K.A_DRAW_STOCK: "draw", K.A_TAKE_DISCARD: "take_discard", K.A_KNOCK: "call",
              K.A_DISCARD_POWER: "discard_power"}
HELD_KINDS = {K.A_DISCARD: "discard", K.A_MATCH: "match"}
# effects whose use has two kinds, by who or what it targets
SPLIT = {K.POW_PEEK_ANY: ("peek_any:own", "peek_any:opponent"),
         K.POW_GIVE_OR_REMOVE: ("ace:remove", "ace:give"),
         K.POW_PEEK_BOTH_SWAP: ("jack_swap:swap", "jack_swap:pass")}


def power_kind(effect: int) -> str:
    return "power:" + K.POWER_NAMES[effect]


class MoveCounter(PowerHole):
    """A reference hole whose answers are read from a compiled hole's move log, each counted
    by its kind (``kinds``; ``seat``: only that seat's moves)."""

    def __init__(self, rules: Rules, players: int, seed: int, round_index: int, log,
                 seat: int | None = None):
        super().__init__(rules, players, [policy_maker("random")], seed, round_index)
        self.seat = seat
        self.rows = [tuple(int(x) for x in row) for row in log]
        self.next_row = 0
        self.kinds: Counter = Counter()
        self.combined = 0

    def ask(self, seat: int, decision: Decision, legal: list[int], held: int | None = None) -> int:
        turn, s, point, action, _ = self.rows[self.next_row]
        self.next_row += 1
        if (turn, s, point) != (self.state.turn, seat, int(decision)) or action not in legal:
            raise IllegalActionError(f"the log's row {self.next_row - 1} is not this hole's")
        kind = self.kind(seat, int(decision), action)
        if kind and self.seat in (None, seat):
            self.kinds[kind] += 1
        self.log.append(self.rows[self.next_row - 1])
        return action

    def kind(self, seat: int, point: int, action: int) -> str | None:
        st = self.state
        power, target = st.pub_power, st.pub_target
        if point in (K.DP_TURN, K.DP_KNOCK):
            return TURN_KINDS.get(action)
        if point in (K.DP_PLACE_DRAWN, K.DP_PLACE_TAKEN):
            if action == K.A_POWER:
                self.combined = 0
                return power_kind(power)
            return "place" if action < K.MAX_POS else HELD_KINDS.get(action)
        if point == K.DP_NOMINATE and action != K.A_PASS:
            owner = seat if target < 0 else target
            return "match:known" if seat in st.layouts[owner][action].known_to else \
                "match:unknown"
        if point == K.DP_TARGET_SEAT and power in (K.POW_PEEK_ANY, K.POW_GIVE_OR_REMOVE):
            return SPLIT[power][0 if action == seat else 1]
        if point == K.DP_SWAP:
            return SPLIT[K.POW_PEEK_BOTH_SWAP][0 if action == K.A_SWAP else 1]
        if point == K.DP_TARGET_POS and power == K.CTX_SNAP:
            return "snap:own" if target == seat else "snap:opponent"
        if point == K.DP_CHOOSE_POWER and action != K.A_PASS:
            self.combined += 1
            if self.combined == 2 and self.seat in (None, seat):
                self.kinds["combine:two"] += 1
            return "combine:" + C.RANKS[action]
        return None


def hole_kinds(rules: Rules, players: int, ids, params, seed: int, round_index: int,
               seat: int | None = None) -> Counter:
    """The kinds of moves of one compiled hole (seats' policy ids and parameters); ``seat``:
    only that seat's."""
    out = play_logged_round(flatten(rules, players), ids, params, seed, round_index,
                            check=False)
    assert out["error"] == 0, f"kernel error {out['error']}"
    counter = MoveCounter(rules, players, seed, round_index, out["log"], seat)
    counter.play()
    assert counter.next_row == len(counter.rows), "the reference stopped before the log's end"
    return counter.kinds


def expected_kinds(rules: Rules, players: int) -> set[str]:
    """Every kind of move the rule set allows (docs/policies.md#power-cards)."""
    kinds = {"draw", "take_discard", "place", "discard"}
    if "call" in rules.end_triggers:
        kinds.add("call")
    effects = {effect_of(rules, c) for c in CardTable(rules, players).deck} - {K.POW_NONE}
    if rules.layout_mode == "hand":
        effects.discard(K.POW_SWAP_LINE)
    for effect in effects:
        kinds.add(power_kind(effect))
        kinds.update(SPLIT.get(effect, ()))
    if K.POW_COMBINE in effects:
        kinds.update("combine:" + name for name in COMBINABLE if name in rules.dutch_powers)
        kinds.add("combine:two")
    if rules.power_source == "stock_or_unused_discard":
        kinds.add("discard_power")
    if rules.snap_mode != "none":
        kinds.add("snap:own")
    if rules.snap_mode == "cumbia":
        kinds.add("snap:opponent")
    if rules.turn_match_mode != "none":
        kinds.update(("match", "match:known"))
    if rules.turn_match_mode == "cabo_match":
        kinds.add("match:unknown")
    return kinds
