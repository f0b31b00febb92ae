"""The reference engine's built-in policies (simulator/game/reference/): ``random``, and
``greedy`` and ``knock-threshold`` of the workloads W1 and W2 (docs/benchmarks.md), in plain
Python: the specification that the compiled policies of strategies/ must match move for move
(the parity tests)."""

from __future__ import annotations

from dataclasses import replace as with_fields
from fractions import Fraction

from simulator.game import codes as K
from simulator.game.reference import (Action, CardTable, Decision, Observation, match_key,
                                      related)
from simulator.game.rules import Rules
from simulator.game.streams import PyStream


class RandomPolicy:
    """Uniform over the legal actions: k = below(count) on the seat's own stream, then the k-th
    legal action in ascending order."""

    def __init__(self, rules: Rules, table: CardTable, seat: int, stream: PyStream):
        self.stream = stream

    def choose(self, obs: Observation) -> int:
        k = self.stream.below(len(obs.legal))
        return obs.legal[k]


class UnseenPool:
    """W1's U (docs/benchmarks.md#w1): every card of the deck that is not face up in a layout,
    not in the discard pile and not the card the seat has just drawn. n = |U|, S = sum of its
    values."""

    def __init__(self, obs: Observation, table: CardTable, drawn: int | None):
        self._count(table, {card for row in obs.face_up for card in row if card is not None},
                    obs, drawn)

    def _count(self, table: CardTable, seen: set, obs: Observation, hand: int | None) -> None:
        """n and S of the deck less ``seen``, the discard pile and the card in ``hand``."""
        seen.update(obs.discard)
        if hand is not None:
            seen.add(hand)
        unseen = [card for card in table.deck if card not in seen]
        self.n = len(unseen)
        self.S = sum(table.value[card] for card in unseen)


class MemoryPool(UnseenPool):
    """W2's U (docs/benchmarks.md#w2, the memory game): every card of the deck except the
    discard pile, the seat's own known cards (peeked, placed by itself, or face up) and the
    card it holds. Other players' cards stay in U even when face up or known to everybody."""

    def __init__(self, obs: Observation, table: CardTable, held: int | None):
        self._count(table, {card for card in obs.own if card is not None}, obs, held)


class GreedyPolicy:
    """``greedy`` of W1 (docs/benchmarks.md#w1), generalised as in strategies/greedy.py: a
    position the seat knows (face up, peeked, or placed face down by itself) needs G >= 1, an
    unknown one G >= 0; PASS when a flip may be skipped; FACE_UP when the face is a choice.

    Estimates are kept multiplied by n = |U| so that every comparison is exact integer
    arithmetic: an unknown card is worth S/n, i.e. S in these units."""

    # its answer at a power-card game's decisions (powers, snaps, matches and calls), or None
    # to play the plain rule: strategies.reference.powers.decide in the power-card games
    power_rule = None

    def __init__(self, rules: Rules, table: CardTable, seat: int, stream: PyStream):
        self.rules = rules
        self.table = table
        self.seat = seat
        self.planned_position = 0  # where a taken discard goes, decided before taking it
        self.look_at = 0           # blind_replacement = false: the card it looks at first

    def pool(self, obs: Observation, held: int | None) -> UnseenPool:
        """The unseen pool U at this decision (``held``: the card just drawn, if any)."""
        return UnseenPool(obs, self.table, drawn=held)

    def choose(self, obs: Observation) -> int:
        if self.power_rule is not None:   # docs/policies.md#power-cards
            action = self.power_rule(obs)
            if action is not None:
                return action
        d = obs.decision
        if d == Decision.TURN:
            return self.choose_turn(obs, self.pool(obs, None))
        return self.choose_after_turn(obs)

    def choose_arrange(self, obs: Observation) -> int:
        """Next to a settled face-up card it pairs with, else spread out, else the lowest."""
        r = self.rules
        cols = r.grid_cols
        key = match_key(r, obs.held)
        settled = [q for q in range(r.n_positions)
                   if q not in obs.legal and obs.face_up[obs.seat][q] is not None]
        for q in obs.legal:
            if any(r.pair_scope != "none" and related(r.pair_scope, q, s, cols) and
                   match_key(r, obs.own[s]) == key for s in settled):
                return q
        for q in obs.legal:
            if not any(q % cols == s % cols or
                       (r.pair_scope != "none" and related(r.pair_scope, q, s, cols))
                       for s in settled):
                return q
        return obs.legal[0]

    def choose_turn(self, obs: Observation, pool: UnseenPool) -> int:
        """Take the top discard when it has an eligible placement, otherwise draw."""
        legal = obs.legal
        if Action.TAKE_DISCARD in legal:
            top = obs.discard[-1]
            p = self.best_placement(obs, top, pool) if pool.n > 0 else None
            if p is not None:
                self.planned_position = p
                return Action.TAKE_DISCARD
        if Action.DRAW_STOCK in legal:
            return Action.DRAW_STOCK
        return legal[0]

    def choose_after_turn(self, obs: Observation) -> int:
        d = obs.decision
        legal = obs.legal
        if d == Decision.ARRANGE:
            return self.choose_arrange(obs)
        if d == Decision.REMOVE:  # a removed group scores what it scored in place
            return Action.REMOVE
        if d in (Decision.PLACE_DRAWN, Decision.PLACE_TAKEN) and Action.PEEK in legal:
            # blind_replacement = false: where it would put the card blind; over a card it
            # does not know it looks first, and is asked again knowing it
            blind = with_fields(obs, legal=tuple(a for a in legal if a != Action.PEEK))
            choice = self.choose_after_turn(blind)
            if choice < K.MAX_POS and obs.own[choice] is None:
                self.look_at = choice
                return Action.PEEK
            return choice
        if d == Decision.PEEK and obs.held is not None:
            return self.look_at
        if d == Decision.KNOCK:   # greedy never knocks
            return Action.PASS
        if d == Decision.PLACE_TAKEN:
            if self.planned_position in legal:
                return self.planned_position
            return min(a for a in legal if a < K.MAX_POS)
        if d == Decision.PLACE_DRAWN:
            pool = self.pool(obs, obs.held)
            p = self.best_placement(obs, obs.held, pool) if pool.n > 0 else None
            if p is not None:
                return p
            unknown = [a for a in legal if a < K.MAX_POS and obs.own[a] is None]
            if self.stalled(obs) and unknown:
                return unknown[0]
            if Action.DISCARD in legal:
                return Action.DISCARD
            return min(a for a in legal if a < K.MAX_POS)
        if d == Decision.FLIP and Action.PASS in legal:
            return Action.PASS
        if d == Decision.FACE:
            return Action.FACE_UP
        # the initial reveal (W1: positions 0 and 1), forced flips and pay_to_peek looks (the
        # lowest unknown position; greedy only peeks when A_PEEK is its only turn action)
        return legal[0]

    def stalled(self, obs: Observation) -> bool:
        """The stall rule (docs/policies.md#greedy): in a face-up game whose stock has been
        reshuffled GREEDY_STALL_RESHUFFLES times this hole, a drawn card with no eligible
        place goes over the lowest face-down position the seat has not seen."""
        return obs.reshuffles >= K.GREEDY_STALL_RESHUFFLES and \
            "all_face_up" in self.rules.end_triggers

    def best_placement(self, obs: Observation, card: int, pool: UnseenPool) -> int | None:
        """The eligible position with the largest gain G(p) = E now - E with ``card`` at p;
        ties to the lowest position; None when no position is eligible."""
        n = pool.n
        now = self.estimate(obs.own, pool)
        best, best_gain = None, 0
        for p in obs.replaceable:
            after = list(obs.own)
            after[p] = card
            gain = now - self.estimate(after, pool)          # n * G(p)
            need = n if obs.own[p] is not None else 0         # G >= 1 over a known card
            if gain >= need and (best is None or gain > best_gain):
                best, best_gain = p, gain
        return best

    def estimate(self, own: list[int | None] | tuple, pool: UnseenPool) -> int:
        """n * E, the estimated layout score. Positions beyond the grid (a layout grown in a
        power-card game) pair with nothing: their values, S/n when unknown, are added."""
        rules = self.rules
        if len(own) > rules.n_positions:
            extra = sum(pool.S if x is None else self.table.value[x] * pool.n
                        for x in own[rules.n_positions:])
            return self.estimate(own[:rules.n_positions], pool) + extra
        if rules.pair_scope == "column" and rules.grid_rows == 2:
            cols = rules.grid_cols
            return sum(self.column_estimate(own[c], own[c + cols], pool) for c in range(cols))
        return self.free_estimate(own, pool)

    def column_estimate(self, a: int | None, b: int | None, pool: UnseenPool) -> int:
        """n * the estimated score of one column: two known cards of equal key count 0 (or
        their sum, when negative pairs keep their value), otherwise their sum; an unknown card
        counts S/n and pairs with nothing."""
        value, key = self.table.value, self.table.key
        n, S = pool.n, pool.S
        if a is not None and b is not None:
            if key[a] == key[b]:
                if self.rules.negative_pairs_keep_value and value[a] < 0 and value[b] < 0:
                    return (value[a] + value[b]) * n
                return 0
            return (value[a] + value[b]) * n
        if a is not None:
            return value[a] * n + S
        if b is not None:
            return value[b] * n + S
        return 2 * S

    def free_estimate(self, own, pool: UnseenPool) -> int:
        """Every pair scope but 2-row columns (strategies/greedy.py's generic estimate): unknown cards
        count S/n; each known card, in position order, pairs with the first later unpaired
        known card of the same key that the pair scope relates to it (the pair counts 0),
        otherwise counts its value. A greedy approximation of step (c), not the exact
        matching: it only has to be the same in both engines."""
        value, key = self.table.value, self.table.key
        scope = self.rules.pair_scope
        cols = self.rules.grid_cols
        total = 0
        paired: set[int] = set()
        for p, x in enumerate(own):
            if x is None:
                total += pool.S
                continue
            if p in paired:
                continue
            partner = None
            if scope != "none":
                for q in range(p + 1, len(own)):
                    y = own[q]
                    if y is not None and q not in paired and key[y] == key[x] and \
                            related(scope, p, q, cols):
                        partner = q
                        break
            if partner is not None:
                paired.add(partner)
            else:
                total += value[x] * pool.n
        return total


class KnockThresholdPolicy(GreedyPolicy):
    """``knock-threshold`` of W2 (docs/benchmarks.md#w2) with parameter T, generalised like
    greedy.

    The seat counts only what it remembers: U is the deck minus the discard pile, its own
    known cards and the card it holds (:class:`MemoryPool`). At the start of a turn it knocks
    when knocking is legal and its estimated score E (:meth:`GreedyPolicy.free_estimate`, kept
    as n * E) is at most T, compared exactly (n * E <= T * n). Otherwise it plays greedy's
    rule with this pool."""

    def __init__(self, rules: Rules, table: CardTable, seat: int, stream: PyStream,
                 T: float = 8):
        super().__init__(rules, table, seat, stream)
        # T as the decimal the user typed ("T=7.1" is 71/10, not the nearest binary float), so
        # that n * E <= T * n is exact; the kernel's float product T * n rounds to the same
        # result for any T with a few decimals
        self.T = Fraction(repr(T)) if isinstance(T, float) else Fraction(T)

    def pool(self, obs: Observation, held: int | None) -> UnseenPool:
        return MemoryPool(obs, self.table, held=held)

    def stalled(self, obs: Observation) -> bool:
        return False   # greedy's stall rule is greedy's own

    def knocks(self, obs: Observation) -> bool:
        pool = self.pool(obs, None)
        return Action.KNOCK in obs.legal and pool.n > 0 and \
            self.free_estimate(obs.own, pool) <= self.T * pool.n

    def choose(self, obs: Observation) -> int:
        if obs.decision in (Decision.TURN, Decision.KNOCK) and self.knocks(obs):
            return Action.KNOCK   # before any power (Cactus's turn on the top discard's)
        if self.power_rule is not None:   # docs/policies.md#power-cards
            action = self.power_rule(obs)
            if action is not None:
                return action
        if obs.decision not in (Decision.TURN, Decision.KNOCK):
            return self.choose_after_turn(obs)
        if obs.decision == Decision.KNOCK:
            return Action.PASS
        return self.choose_turn(obs, self.pool(obs, None))
