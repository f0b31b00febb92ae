"""Turn matches (Pablo, Cabo) and snaps (Cumbia, Cactus) in the reference engine (the
package's docstring, steps 3 and 6 of a turn, is the specification)."""

from __future__ import annotations

from .. import codes as K
from ..reference import Action, Decision


class PowerMatches:
    """Turn matches and snaps: a part of :class:`PowerHole`, playing on its state and asking
    its seats."""

    # ---- turn matches -----------------------------------------------------------------------
    def match_possible(self, seat: int) -> bool:
        st, mode = self.state, self.rules.turn_match_mode
        if mode == "pablo_multi_replace":
            return len(st.cards_at(seat)) >= 2
        if mode == "cabo_match":
            return any(st.cards_at(s) for s in range(self.players))
        return False

    def turn_match(self, seat: int, card: int, public: bool) -> None:
        """Step 3: Pablo's multi-replace or Cabo's match with the held ``card``."""
        st, r = self.state, self.rules
        seen_by = set(range(self.players)) if public else {seat}
        nominated: list[tuple[int, int]] = []
        if r.turn_match_mode == "pablo_multi_replace":
            while True:
                left = [p for p in st.cards_at(seat) if (seat, p) not in nominated]
                if not left:
                    break
                legal = left + ([Action.PASS] if len(nominated) >= 2 else [])
                a = self.ask_about(seat, Decision.NOMINATE, legal, K.CTX_NOMINATE, seat)
                if a == Action.PASS:
                    break
                nominated.append((seat, a))
            for s, p in nominated:
                st.show(s, p)
            keys = {st.table.key[st.layouts[s][p].card] for s, p in nominated}
            st.held = None
            if len(keys) == 1:
                for s, p in nominated:
                    st.put_on_discard(seat, st.take(s, p))
                face = r.placement_face == "up"
                st.put(seat, nominated[0][1], card, face, seen_by)
            else:
                p = st.room(seat)
                if p is None:
                    st.put_on_discard(seat, card)
                else:
                    st.put(seat, p, card, r.placement_face == "up", seen_by)
            return
        # cabo_match
        while True:
            seats = [s for s in range(self.players)
                     if any((s, p) not in nominated for p in st.cards_at(s))]
            if not seats:
                break
            legal = seats + ([Action.PASS] if nominated else [])
            s = self.ask_about(seat, Decision.TARGET_SEAT, legal, K.CTX_NOMINATE)
            if s == Action.PASS:
                break
            left = [p for p in st.cards_at(s) if (s, p) not in nominated]
            p = self.ask_about(seat, Decision.NOMINATE, left, K.CTX_NOMINATE, s)
            nominated.append((s, p))
        for s, p in nominated:
            st.show(s, p)
        key = st.table.key[card]
        hits = [(s, p) for s, p in nominated if st.table.key[st.layouts[s][p].card] == key]
        misses = len(nominated) - len(hits)
        for s, p in hits:
            st.put_on_discard(seat, st.take(s, p))
        for s, p in hits:
            if s != seat and st.cards_at(seat):
                g = self.ask_pos(seat, seat, st.cards_at(seat), K.CTX_GIVE)
                st.move(seat, g, s, p)
        st.add_penalty_cards(seat, misses * r.match_fail_penalty_cards)
        st.held = None
        st.put_on_discard(seat, card)

    # ---- snaps ------------------------------------------------------------------------------
    def snap_window(self, actor: int) -> None:
        """Step 6."""
        st, r = self.state, self.rules
        if r.snap_mode == "none" or not st.top_new or not st.discard:
            return
        key = st.table.key[st.discard[-1]]
        for k in range(1, self.players + 1):
            s = (actor + k) % self.players
            if r.snap_mode == "cactus":
                seats = [s] if st.cards_at(s) else []
            else:
                seats = [x for x in range(self.players) if st.cards_at(x)]
            if not seats:
                continue
            if self.ask_about(s, Decision.SNAP, [Action.SNAP, Action.PASS], K.CTX_SNAP) == \
                    Action.PASS:
                continue
            t = s if r.snap_mode == "cactus" else self.ask_seat(s, seats, K.CTX_SNAP)
            p = self.ask_pos(s, t, st.cards_at(t), K.CTX_SNAP)
            if st.table.key[st.layouts[t][p].card] == key:
                st.put_on_discard(s, st.take(t, p))
                if t != s and st.cards_at(s):
                    g = self.ask_pos(s, s, st.cards_at(s), K.CTX_GIVE)
                    st.move(s, g, t, p)
                return
            st.show(t, p)
            if r.snap_mode == "cumbia" and t != s:
                st.penalty[s] += r.snap_penalty_opponent_miss
            if r.snap_mode == "cactus":
                st.add_penalty_cards(s, r.snap_penalty_cards)
            if st.over:
                return
