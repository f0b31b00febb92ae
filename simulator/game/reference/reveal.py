"""The opening reveal of a plain hole: how many cards each seat turns up and where, asked
one by one or answered as one set (codes.REVEAL_SET), and when they are shown."""

from __future__ import annotations

from .. import codes as K
from .decisions import NO_CARD, Decision, IllegalActionError


class Reveals:
    """The reveal steps of :class:`~simulator.game.reference.hole.Hole` (a mixin: it reads
    the hole's rules, state, log and ``ask``)."""

    def reveal_count(self) -> int:
        """Single-card reveal decisions per seat (-1 in the rules means a whole row)."""
        r = self.rules
        if r.initial_reveal_mode == "none":
            return 0
        return r.grid_cols if r.initial_reveal_count == -1 else r.initial_reveal_count

    def reveal_options(self, seat: int, chosen: list[int]) -> list[int]:
        """Positions ``seat`` may still flip or peek, given the ones it chose
        (docs/rules.md#initial_reveal_constraint). A position the seat already knows is not
        offered, as in the kernel, whatever the reveal mode (so with owner_view = all, used by
        the four-card family only, a flip reveal with these constraints flips nothing)."""
        st = self.state
        cols = st.cols
        centre = cols // 2
        con = self.rules.initial_reveal_constraint
        options = []
        for p in range(st.npos):
            cell = st.layouts[seat][p]
            if cell.face_up or seat in cell.known_to or p in chosen:
                continue
            c = p % cols
            if con == "nearest_row":
                ok = p // cols == st.rows - 1
            elif con == "same_column" and chosen:
                ok = c == chosen[0] % cols
            elif con == "different_columns":
                ok = all(q % cols != c for q in chosen)
            elif con == "centre_and_outer" and chosen:
                ok = (c == centre) != (chosen[0] % cols == centre)
            else:
                ok = True
            if ok:
                options.append(p)
        return options

    def whole_column_options(self, seat: int) -> list[int]:
        """constraint = whole_column (docs/rules.md#eight_card_whitnack): the columns whose
        cards are all face down, each named by its top-row position; whether the owner knows
        those cards does not matter, the flip is public."""
        st = self.state
        return [c for c in range(st.cols)
                if all(not st.layouts[seat][r * st.cols + c].face_up for r in range(st.rows))]

    def reveal(self, seat: int, p: int) -> None:
        if self.rules.initial_reveal_mode == "peek":
            self.state.peek(seat, p)
        else:
            self.state.turn_up(seat, p)

    def reveal_seat(self, seat: int, chosen: list[int], reveal_now: bool) -> None:
        """One seat's reveal decisions: ``reveal_count`` single positions, or with
        whole_column one decision for a whole column (turned top to bottom). The positions
        picked are appended to ``chosen``; with ``reveal_now`` each is revealed as soon as it
        is picked (sequential choice)."""
        if self.rules.initial_reveal_constraint == "whole_column":
            options = self.whole_column_options(seat)
            if not options:
                return
            c, _ = self.reveal_pick(seat, options, 0, 1)
            for r in range(self.state.rows):
                chosen.append(r * self.state.cols + c)
                if reveal_now:
                    self.reveal(seat, chosen[-1])
            return
        rest = 0
        for i in range(self.reveal_count()):
            options = self.reveal_options(seat, chosen)
            if not options:
                break
            p, rest = self.reveal_pick(seat, options, rest, self.reveal_count() if i == 0 else 0)
            chosen.append(p)
            if reveal_now:
                self.reveal(seat, p)
        if rest:
            raise IllegalActionError(f"seat {seat} chose {K.action_name(K.REVEAL_SET + rest)} "
                                     f"at REVEAL; no pick could reach them")

    def reveal_pick(self, seat: int, options: list[int], rest: int,
                    picks: int) -> tuple[int, int]:
        """The seat's next reveal pick among ``options``: the lowest of them in ``rest`` (what
        is left of a set it answered), else its answer, which may be a set of ``picks``
        positions (codes.REVEAL_SET). A pick from a set is logged as if asked. Returns (the
        position, what is left of the set)."""
        if not rest:
            self.reveal_picks = picks
            try:
                a = self.ask(seat, Decision.REVEAL, options)
            finally:
                self.reveal_picks = 0
            if not K.is_reveal_set(a):
                return a, 0
            rest = a - K.REVEAL_SET
            if bin(rest).count("1") != picks:
                raise IllegalActionError(f"seat {seat} chose {K.action_name(a)} at REVEAL; a "
                                         f"set names {picks} positions")
        reach = [p for p in sorted(options) if rest >> p & 1]
        if not reach:
            raise IllegalActionError(f"seat {seat} chose {K.action_name(K.REVEAL_SET + rest)} "
                                     f"at REVEAL; legal: {sorted(options)}")
        p = reach[0]
        self.log.append((self.state.turn, seat, int(Decision.REVEAL), p, NO_CARD))
        return p, rest & ~(1 << p)

    def initial_reveal(self) -> None:
        """The reveal before play, seat by seat from the first player. With sequential choice
        each card is seen before the next is chosen; otherwise a seat's cards (with
        simultaneous order: everyone's) are revealed once all are chosen. With
        ``flip_on_first_turn`` nothing happens here (see :meth:`first_turn_reveal`)."""
        mode = self.rules.initial_reveal_mode
        if mode in ("none", "flip_on_first_turn"):
            return
        simultaneous = self.rules.initial_reveal_order == "simultaneous"
        sequential = self.rules.initial_reveal_sequential and not simultaneous
        chosen: list[list[int]] = [[] for _ in range(self.players)]
        for seat in range(self.players):
            self.reveal_seat(seat, chosen[seat], reveal_now=sequential)
            if not sequential and not simultaneous:
                for p in chosen[seat]:
                    self.reveal(seat, p)
        if simultaneous:
            for seat in range(self.players):
                for p in chosen[seat]:
                    self.reveal(seat, p)
