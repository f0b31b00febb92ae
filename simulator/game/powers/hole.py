"""The referee of one power-card hole (the package's docstring is its specification)."""

from __future__ import annotations

from .. import codes as K
from ..effects import effect_of
from ..reference import Action, Decision, Hole, RoundRecord, hole_scores, twenty_one_zero
from ..rules import Rules
from ..streams import STREAM_DEAL, PyStream
from .effects import PowerEffects
from .matches import PowerMatches
from .state import PowerState, layout_value_grown


class PowerHole(PowerEffects, PowerMatches, Hole):
    """One hole of a power-card game (the package's docstring is its specification)."""

    def __init__(self, rules: Rules, players: int, policies: list, seed: int,
                 round_index: int):
        super().__init__(rules, players, policies, seed, round_index)
        self.state = PowerState(rules, players, PyStream(seed, round_index, STREAM_DEAL))

    # ---- asking -----------------------------------------------------------------------------
    def ask_about(self, seat: int, decision: Decision, legal: list[int], power: int,
                  target: int = -1, held: int | None = None) -> int:
        st = self.state
        st.pub_power, st.pub_target = power, target
        try:
            return self.ask(seat, decision, legal, held)
        finally:
            st.pub_power, st.pub_target = K.POW_NONE, -1

    def ask_seat(self, seat: int, seats: list[int], power: int) -> int:
        return self.ask_about(seat, Decision.TARGET_SEAT, seats, power)

    def ask_pos(self, seat: int, target: int, positions: list[int], power: int) -> int:
        return self.ask_about(seat, Decision.TARGET_POS, positions, power, target)

    # ---- phases -----------------------------------------------------------------------------
    def play(self) -> RoundRecord:
        st = self.state
        st.deal()
        st.check_invariants()
        self.initial_reveal()
        st.check_invariants()
        self.play_turns()
        return self.score()

    def may_knock(self) -> bool:
        st, r = self.state, self.rules
        return bool({"knock", "call"} & set(r.end_triggers)) and st.ender is None and \
            not st.over and st.turn >= r.knock_min_laps * self.players

    def turn_options(self, seat: int) -> list[int]:
        st, r = self.state, self.rules
        options = super().turn_options(seat)
        if Action.TAKE_DISCARD in options and not r.power_card_placeable and \
                effect_of(r, st.discard[-1]) != K.POW_NONE:
            options.remove(Action.TAKE_DISCARD)
        if r.power_source == "stock_or_unused_discard" and st.discard and st.top_power_unused:
            effect = effect_of(r, st.discard[-1])
            if effect != K.POW_NONE and self.usable(seat, effect):
                options.append(Action.DISCARD_POWER)
        return options

    def play_turns(self) -> None:
        """Turns seat by seat from seat 0, as in the plain game; the hole also ends at once
        when an empty_layout or stock_exhausted trigger fired (``state.over``), and a final
        lap cancelled by a black king stops counting final turns."""
        st = self.state
        seat = 0
        while True:
            if st.skip_next_turn[seat]:
                st.skip_next_turn[seat] = False
                st.shielded[seat] = False
            elif not self.play_turn(seat):
                break
            st.turn += 1
            st.check_invariants()
            if st.over:
                break
            if st.ender is not None and st.end_turn < st.turn - 1:
                st.final_turns_left -= 1          # a final turn was played
            elif st.ender is None:
                self.check_end(seat)
                if st.ender is not None:   # triggered by the turn just played
                    st.end_turn = st.turn - 1
            if st.ender is not None and st.final_turns_left <= 0:
                break
            if self.rules.stock_empty == "end_hole" and not st.stock:
                break
            if st.turn >= self.rules.turn_cap:
                st.capped = True
                break
            seat = (seat + 1) % self.players

    def play_turn(self, seat: int) -> bool:
        st, r = self.state, self.rules
        st.shielded[seat] = False
        st.top_new = False
        action = self.turn_action(seat)
        if action is None:
            return False
        if action == Action.DRAW_STOCK:
            card = st.draw_from_stock()
            self.play_held(seat, card, Decision.PLACE_DRAWN, effect_of(r, card), public=False)
        elif action == Action.TAKE_DISCARD:
            card = st.take_discard()
            self.play_held(seat, card, Decision.PLACE_TAKEN, K.POW_NONE, public=True)
        elif action == Action.DISCARD_POWER:
            self.use_discard_power(seat)
        else:
            self.flip_or_knock(seat, action)
        if self.check_over(seat):
            return True
        self.snap_window(seat)
        if self.check_over(seat):
            return True
        self.knock_after_turn(seat)
        return True

    def check_over(self, seat: int) -> bool:
        """Step 5: empty_layout (the first seat from ``seat`` on with no card left becomes the
        ender unless there is one) or stock_exhausted end the hole now."""
        st = self.state
        if "empty_layout" in self.rules.end_triggers:
            for k in range(self.players):
                s = (seat + k) % self.players
                if not st.cards_at(s):
                    st.over = True
                    if st.ender is None:
                        st.ender = s
                        st.final_turns_left = 0
                        st.end_turn = st.turn
                    break
        return st.over

    # ---- the held card -------------------------------------------------------------------------
    def is_power_card(self, card: int) -> bool:
        return effect_of(self.rules, card) != K.POW_NONE

    def play_held(self, seat: int, card: int, decision: Decision, effect: int,
                  public: bool) -> None:
        """Steps 1-3: the held card is placed, discarded, used for its power or matched."""
        st, r = self.state, self.rules
        legal: list[int] = []
        if r.power_card_placeable or not self.is_power_card(card):
            legal += st.replaceable_positions(seat)
        if decision == Decision.PLACE_DRAWN and r.stock_draw_may_be_discarded:
            legal.append(Action.DISCARD)
        if effect != K.POW_NONE and self.usable(seat, effect):
            legal.append(Action.POWER)
        if self.match_possible(seat):
            legal.append(Action.MATCH)
        if not legal:
            legal.append(Action.DISCARD)
        choice = self.ask_about(seat, decision, legal, effect, held=card)
        if choice == Action.DISCARD:
            st.held = None
            st.put_on_discard(seat, card)
            self.flip_after_discard(seat)
        elif choice == Action.POWER:
            if not self.resolve(seat, effect, card):
                st.held = None
                st.discard_used(seat, card)
        elif choice == Action.MATCH:
            self.turn_match(seat, card, public)
        else:
            self.place(seat, choice, card, public=public or not r.private_stock_draw)

    def use_discard_power(self, seat: int) -> None:
        """Step 4 (Cactus): the top discard's power, then it goes back, spent."""
        st = self.state
        card = st.discard.pop()
        st.held = card
        if not self.resolve(seat, effect_of(self.rules, card), card):
            st.held = None
            st.discard.append(card)   # back where it was: not a new discard, no jack skip
            st.top_power_unused = False
        st.top_new = False

    # ---- scoring ----------------------------------------------------------------------------
    def score(self) -> RoundRecord:
        st = self.state
        layouts = [[cell.card for cell in row] for row in st.layouts]
        values = [layout_value_grown(self.rules, st.table.value, cards) for cards in layouts]
        L = twenty_one_zero(self.rules, [v for v, _ in values])
        ender = -1 if st.ender is None else st.ender
        scores = hole_scores(self.rules, L, ender, st.knocked, [c for _, c in values],
                             extra=list(st.penalty))
        known = [[[cell.card if obs in cell.known_to else -1 for cell in row]
                  for row in st.layouts] for obs in range(self.players)]
        return RoundRecord(log=self.log, scores=scores, layout_values=L, layouts=layouts,
                           turns=st.turn, ender=ender, knocked=st.knocked, capped=st.capped,
                           reshuffles=st.reshuffles, known=known)
