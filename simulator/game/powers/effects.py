"""The effects of power cards in the reference engine: who and what each may target, and how
each resolves (the package's docstring, "Effects", is the specification)."""

from __future__ import annotations

from .. import cards as C
from .. import codes as K
from ..effects import COMBINABLE, DUTCH_EFFECTS, is_black_king
from ..reference import Action, Decision, InvariantError


class PowerEffects:
    """The targets and effects of power cards: a part of :class:`PowerHole`, playing on its
    state and asking its seats."""

    # ---- targets ----------------------------------------------------------------------------
    def opponents(self, seat: int) -> list[int]:
        """Opponents a power may target: not shielded."""
        st = self.state
        return [s for s in range(self.players) if s != seat and not st.shielded[s]]

    def face_down_cards(self, seat: int) -> list[int]:
        st = self.state
        return [p for p in st.cards_at(seat) if not st.layouts[seat][p].face_up]

    def usable(self, seat: int, effect: int) -> bool:
        """Has the effect a target now (is POWER offered)?"""
        st, r = self.state, self.rules
        opps = self.opponents(seat)
        if effect == K.POW_PEEK_OWN:
            return bool(self.face_down_cards(seat))
        if effect in (K.POW_PEEK_OPP, K.POW_FLIP_OPP, K.POW_SHUFFLE_OPP):
            return any(self.face_down_cards(s) for s in opps)
        if effect == K.POW_PEEK_ANY:
            return any(self.face_down_cards(s) for s in opps + [seat])
        if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP,
                      K.POW_PEEK_BOTH_SWAP):
            return bool(st.cards_at(seat)) and any(st.cards_at(s) for s in opps)
        if effect == K.POW_SWAP_ANY_TWO:
            return sum(len(st.cards_at(s)) for s in opps + [seat]) >= 2
        if effect == K.POW_SWAP_LINE:
            return r.layout_mode != "hand" and bool(opps)
        if effect == K.POW_DRAW_TWO:
            return st.can_draw()
        if effect == K.POW_SHIELD:
            return True
        if effect == K.POW_GIVE_OR_REMOVE:
            return bool(self.give_or_remove_seats(seat))
        if effect == K.POW_CANCEL_FINAL:
            return st.ender is not None
        if effect == K.POW_COMBINE:
            return bool(self.combinable(seat, ()))
        if effect == K.POW_EXCHANGE_THIS:
            return bool(st.replaceable_positions(seat)) and any(st.cards_at(s) for s in opps)
        return False

    def give_or_remove_seats(self, seat: int) -> list[int]:
        st = self.state
        seats = [s for s in self.opponents(seat) if st.can_draw() and st.room(s) is not None]
        if st.cards_at(seat):
            seats.append(seat)
        return sorted(seats)

    def combinable(self, seat: int, chosen: tuple) -> list[int]:
        """DP_CHOOSE_POWER's actions: the rank index of each enabled power from the black
        king down to the 3 not chosen yet and usable now."""
        out = []
        for name in COMBINABLE:
            rank = C.RANKS.index(name)
            if name in self.rules.dutch_powers and rank not in chosen and \
                    self.usable(seat, DUTCH_EFFECTS[name]):
                out.append(rank)
        return sorted(out)

    # ---- effects ----------------------------------------------------------------------------
    def resolve(self, seat: int, effect: int, card: int) -> bool:
        """Resolve one effect for ``seat``, holding ``card``; True when the effect disposed of
        the card itself (the Dutch 8 and 9), else the caller discards it, power used."""
        st = self.state
        opps = self.opponents(seat)
        if effect == K.POW_PEEK_OWN:
            p = self.ask_pos(seat, seat, self.face_down_cards(seat), effect)
            st.peek(seat, p, seat)
        elif effect in (K.POW_PEEK_OPP, K.POW_PEEK_ANY):
            seats = [s for s in opps + ([seat] if effect == K.POW_PEEK_ANY else [])
                     if self.face_down_cards(s)]
            s = self.ask_seat(seat, sorted(seats), effect)
            p = self.ask_pos(seat, s, self.face_down_cards(s), effect)
            st.peek(s, p, seat)
        elif effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP):
            s = self.ask_seat(seat, [x for x in opps if st.cards_at(x)], effect)
            q = self.ask_pos(seat, s, st.cards_at(s), effect)
            if effect == K.POW_SWAP_AFTER_PEEK_OPP:
                st.peek(s, q, seat)
            p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
            st.swap(seat, p, s, q)
        elif effect == K.POW_SWAP_ANY_TWO:
            self._swap_any_two(seat, effect)
        elif effect == K.POW_PEEK_BOTH_SWAP:
            self._peek_both_swap(seat, effect)
        elif effect == K.POW_SHUFFLE_OPP:
            s = self.ask_seat(seat, [x for x in opps if self.face_down_cards(x)], effect)
            st.shuffle_layout(s)
        elif effect == K.POW_FLIP_OPP:
            s = self.ask_seat(seat, [x for x in opps if self.face_down_cards(x)], effect)
            p = self.ask_pos(seat, s, self.face_down_cards(s), effect)
            st.turn_up(s, p)
            if is_black_king(st.layouts[s][p].card) and self.rules.power_set == "dutch" and \
                    "K" in self.rules.dutch_powers and st.ender is not None:
                st.cancel_end()
        elif effect == K.POW_SWAP_LINE:
            s = self.ask_seat(seat, opps, effect)
            rows, cols = self.rules.grid_rows, self.rules.grid_cols
            k = self.ask_pos(seat, s, list(range(rows + cols)), effect)
            cells = [k * cols + c for c in range(cols)] if k < rows else \
                [r * cols + (k - rows) for r in range(rows)]
            for p in cells:
                st.swap(seat, p, s, p)
        elif effect == K.POW_DRAW_TWO:
            st.held = None
            st.discard_used(seat, card)
            self.draw_two(seat)
            return True
        elif effect == K.POW_SHIELD:
            st.shielded[seat] = True
        elif effect == K.POW_GIVE_OR_REMOVE:
            s = self.ask_seat(seat, self.give_or_remove_seats(seat), effect)
            if s == seat:
                p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
                st.put_on_discard(seat, st.take(seat, p))
            else:
                st.put(s, st.room(s), st.draw_card(), False, set())
        elif effect == K.POW_CANCEL_FINAL:
            st.cancel_end()
        elif effect == K.POW_COMBINE:
            return self._combine(seat, card, effect)
        elif effect == K.POW_EXCHANGE_THIS:
            self._exchange_this(seat, card, effect)
            return True
        else:
            raise InvariantError(f"no effect {effect}")
        return False

    def _swap_any_two(self, seat: int, effect: int) -> None:
        """Any two cards of the table (two seats' or one seat's) change places."""
        st = self.state
        seats = sorted(self.opponents(seat) + [seat])
        s1 = self.ask_seat(seat, [x for x in seats if st.cards_at(x)], effect)
        p1 = self.ask_pos(seat, s1, st.cards_at(s1), effect)

        def others(x):
            return [p for p in st.cards_at(x) if (x, p) != (s1, p1)]
        s2 = self.ask_seat(seat, [x for x in seats if others(x)], effect)
        p2 = self.ask_pos(seat, s2, others(s2), effect)
        st.swap(s1, p1, s2, p2)

    def _peek_both_swap(self, seat: int, effect: int) -> None:
        """A look at an own card and an opponent's, then the choice to swap them."""
        st = self.state
        p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
        st.peek(seat, p, seat)
        s = self.ask_seat(seat, [x for x in self.opponents(seat) if st.cards_at(x)], effect)
        q = self.ask_pos(seat, s, st.cards_at(s), effect)
        st.peek(s, q, seat)
        if self.ask_about(seat, Decision.SWAP, [Action.SWAP, Action.PASS], effect) == \
                Action.SWAP:
            st.swap(seat, p, s, q)

    def _combine(self, seat: int, card: int, effect: int) -> bool:
        """The Dutch 2: up to two other powers of the table, one after the other; True when
        one of them disposed of the card."""
        chosen: tuple = ()
        for _ in range(2):
            options = self.combinable(seat, chosen)
            if not options:
                break
            rank = self.ask_about(seat, Decision.CHOOSE_POWER, options + [Action.PASS], effect)
            if rank == Action.PASS:
                break
            chosen += (rank,)
            if self.resolve(seat, DUTCH_EFFECTS[C.RANKS[rank]], card):
                return True
        return False

    def _exchange_this(self, seat: int, card: int, effect: int) -> None:
        """The Dutch 9: the held card for an opponent's, which then goes into the own layout
        (its card there to the discard pile)."""
        st = self.state
        s = self.ask_seat(seat, [x for x in self.opponents(seat) if st.cards_at(x)], effect)
        q = self.ask_pos(seat, s, st.cards_at(s), effect)
        cell = st.layouts[s][q]
        taken, knew, face_up = cell.card, set(cell.known_to) | {seat}, cell.face_up
        st.put(s, q, card, face_up, {seat})
        st.held = taken
        p = self.ask_about(seat, Decision.PLACE_TAKEN, st.replaceable_positions(seat),
                           effect, held=taken)
        old = st.layouts[seat][p].card
        st.held = None
        face = self.rules.placement_face == "up" or st.layouts[seat][p].face_up
        st.put(seat, p, taken, face, knew)
        st.put_on_discard(seat, old)

    def draw_two(self, seat: int) -> None:
        """Dutch 8 after the 8 is discarded: draw up to two, keep one, discard the other."""
        st, r = self.state, self.rules
        drawn: list[int] = []
        for _ in range(2):
            card = st.draw_card()
            if card is not None:
                drawn.append(card)
                st.drawn_pair = list(drawn)
        st.drawn_pair = []
        if not drawn:
            return
        keep = 0
        if len(drawn) == 2:
            st.pub_choices = tuple(drawn)
            st.drawn_pair = list(drawn)
            try:
                keep = self.ask_about(seat, Decision.KEEP, [0, 1], K.POW_DRAW_TWO)
            finally:
                st.pub_choices = ()
                st.drawn_pair = []
            st.put_on_discard(seat, drawn[1 - keep])
        card = drawn[keep]
        st.held = card
        legal = st.replaceable_positions(seat) \
            if r.power_card_placeable or not self.is_power_card(card) else []
        legal.append(Action.DISCARD)
        if self.match_possible(seat):
            legal.append(Action.MATCH)
        choice = self.ask_about(seat, Decision.PLACE_DRAWN, legal, K.POW_DRAW_TWO, held=card)
        if choice == Action.DISCARD:
            st.held = None
            st.put_on_discard(seat, card)
        elif choice == Action.MATCH:
            self.turn_match(seat, card, public=False)
        else:
            self.place(seat, choice, card, public=not r.private_stock_draw)
