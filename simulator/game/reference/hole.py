"""The referee of one plain hole: asks the seats' policies, moves the cards, keeps the log."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as with_fields

from .. import codes as K
from ..rules import Rules
from ..streams import STREAM_DEAL, STREAM_SEAT0, PyStream
from .decisions import NO_CARD, Action, Decision, IllegalActionError
from .hole_scoring import hole_scores, twenty_one_zero
from .layout_scoring import pair_value, score_layout
from .reveal import Reveals
from .state import GameState, MatchView


@dataclass
class RoundRecord:
    log: list[tuple[int, int, int, int, int]]   # (turn, seat, decision point, action, held)
    scores: list[int]
    layout_values: list[int]
    layouts: list[list[int]]                    # final card ids per seat, row-major
    turns: int
    ender: int                                  # -1 when nobody ended the hole
    knocked: bool                               # the ender knocked
    capped: bool
    reshuffles: int
    known: list[list[list[int]]]                # [observer][seat][pos] at the end: card or -1


class Hole(Reveals):
    """The referee of one hole: asks the policies, moves the cards, keeps the log.

    ``policies``: one policy maker per seat, or one for every seat: a callable
    ``maker(rules, table, seat, stream)`` returning the seat's policy (an object whose
    ``choose(observation)`` answers each decision), which draws its random choices from
    ``stream``. The built-in ones are strategies/reference's (``policy_maker``)."""

    def __init__(self, rules: Rules, players: int, policies: list, seed: int,
                 round_index: int):
        rules.check_players(players)
        if len(policies) == 1:
            policies = list(policies) * players
        if len(policies) != players:
            raise ValueError(f"{len(policies)} strategies for {players} players")
        if any(isinstance(p, str) for p in policies):
            raise TypeError(f"policies = {list(policies)}: a reference hole seats policy makers; "
                            "strategies.reference.referee.make_hole seats strategy names")
        self.rules = rules
        self.players = players
        self.state = GameState(rules, players, PyStream(seed, round_index, STREAM_DEAL))
        self.policies = [self.new_policy(maker, seat, PyStream(seed, round_index,
                                                               STREAM_SEAT0 + seat))
                         for seat, maker in enumerate(policies)]
        self.log: list[tuple[int, int, int, int, int]] = []
        self.first_turn_done: set[int] = set()   # seats that began their first turn
        self.match = MatchView()   # what the seats see of their match (play_match's view)
        self.reveal_picks = 0      # while a reveal offers a set: how many positions it names

    def new_policy(self, maker, seat: int, stream: PyStream):
        """The policy ``maker`` makes for ``seat`` in this hole, drawing from ``stream``."""
        return maker(self.rules, self.state.table, seat, stream)

    # ---- asking -----------------------------------------------------------------------------
    def ask(self, seat: int, decision: Decision, legal: list[int], held: int | None = None) -> int:
        """The seat's answer; at a reveal offering a set (``reveal_picks`` > 0), a set
        (codes.REVEAL_SET) is returned unlogged: reveal_pick logs its positions."""
        legal = sorted(legal)
        obs = with_fields(self.state.observe(seat, decision, legal, held), match=self.match,
                          reveal_picks=self.reveal_picks)
        action = int(self.policies[seat].choose(obs))
        if self.reveal_picks > 0 and K.is_reveal_set(action):
            return action
        if action not in legal:
            raise IllegalActionError(f"seat {seat} chose {K.action_name(action)} at "
                                     f"{decision.name}; legal: {legal}")
        self.log.append((self.state.turn, seat, int(decision), action,
                         NO_CARD if held is None else held))
        return action

    # ---- phases -----------------------------------------------------------------------------
    def play(self) -> RoundRecord:
        st = self.state
        st.deal()
        st.check_invariants()
        self.initial_reveal()
        if self.rules.rearrange_after_reveal:
            self.arrange()
        if self.rules.replace_unseen_once:   # what each owner saw before play has no limit
            for seat, row in enumerate(st.layouts):
                for cell in row:
                    if seat in cell.known_to:
                        cell.once = "seen"
        for seat in range(self.players):      # groups the initial flips completed
            self.remove_groups(seat)
        st.check_invariants()
        self.play_turns()
        return self.score()

    def arrange(self) -> None:
        """rearrange_after_reveal: seat by seat, each face-up card (lowest position first)
        goes where the seat says among the positions not yet settled, swapping with the card
        there (which keeps its face and whoever knows it)."""
        npos = self.rules.n_positions
        for seat in range(self.players):
            row = self.state.layouts[seat]
            settled: set[int] = set()
            while True:
                up = [p for p in range(npos) if p not in settled and row[p].face_up]
                if not up:
                    break
                p = up[0]
                free = [q for q in range(npos) if q not in settled]
                q = self.ask(seat, Decision.ARRANGE, free, held=row[p].card)
                row[p], row[q] = row[q], row[p]
                settled.add(q)

    def groups(self) -> list[tuple[tuple[int, ...], int]]:
        """remove_cancelled's groups with the value each banks, in the kernel's order: a 2-row
        grid's columns; a 3x3 grid's columns, rows and diagonals (as line_sets counts them),
        then its 2x2 blocks (with block_2x2_value)."""
        r = self.rules
        if r.grid_rows == 2:
            return [((c, c + r.grid_cols), 0) for c in range(r.grid_cols)]
        lines = [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 4, 8),
                 (2, 4, 6)]
        count = {"none": 0, "columns": 3, "rows_and_columns": 6, "rows_columns_diagonals": 8}
        out = [(line, 0) for line in lines[:count[r.line_sets]]]
        if r.block_2x2_value is not None:
            out += [(cells, r.block_2x2_value)
                    for cells in ((0, 1, 3, 4), (1, 2, 4, 5), (3, 4, 6, 7), (4, 5, 7, 8))]
        return out

    def remove_groups(self, seat: int) -> None:
        """remove_cancelled (AMB-24): the seat's completed groups leave its layout, all
        at once (immediate) or those it says (optional_to_discard_bottom: asked once per group
        each time; a group kept is offered again at the next check)."""
        mode = self.rules.remove_cancelled
        if mode == "never":
            return
        st = self.state
        for cells, value in self.groups():
            if not st.completed(seat, cells):
                continue
            if len(cells) == 2:   # a pair-column banks its pair value (normally 0)
                row = st.layouts[seat]
                value = pair_value(self.rules, row[cells[0]].card, row[cells[1]].card)
            if mode == "optional_to_discard_bottom" and \
                    self.ask(seat, Decision.REMOVE, [Action.REMOVE, Action.PASS],
                             held=min(cells)) == Action.PASS:
                continue
            st.remove(seat, cells, value)

    def first_turn_reveal(self, seat: int) -> None:
        """initial_reveal.mode = flip_on_first_turn (docs/rules.md#eight_card_whitnack: each
        player begins its first turn by turning one column face up, then plays the turn): at the
        start of the seat's first turn, before its turn decision, it flips, always sequentially
        (logged with that turn's number; the flips are part of the turn)."""
        if self.rules.initial_reveal_mode != "flip_on_first_turn" or seat in self.first_turn_done:
            return
        self.first_turn_done.add(seat)
        self.reveal_seat(seat, [], reveal_now=True)

    def turn_options(self, seat: int) -> list[int]:
        st, r = self.state, self.rules
        final_lap = st.ender is not None
        options = []
        if st.can_draw():
            options.append(Action.DRAW_STOCK)
        if r.draw_from_discard and st.discard and not (final_lap and r.final_turn_stock_only) \
                and st.replaceable_positions(seat):
            options.append(Action.TAKE_DISCARD)
        # knock_min_laps (AMB-13): no knock before that many laps of turns were played
        if r.knock_timing != "end_of_own_turn" and self.may_knock():
            options.append(Action.KNOCK)
        if st.face_down_count(seat) > 0:
            if r.flip_instead_of_draw:
                options.append(Action.FLIP)
            # flip_all_max_face_down (knock_early): only with that few face-down cards
            if r.flip_all_to_end and (r.flip_all_max_face_down is None or
                                      st.face_down_count(seat) <= r.flip_all_max_face_down):
                options.append(Action.FLIP_ALL)
        # pay_to_peek (AMB-16): while some own face-down card is still unknown
        if r.pay_to_peek is not None and st.unknown_positions(seat):
            options.append(Action.PEEK)
        return options

    def play_turn(self, seat: int) -> bool:
        """One turn; False when the seat has nothing it may do (the hole then ends)."""
        st = self.state
        if self.rules.initial_reveal_mode == "flip_on_first_turn" and \
                seat not in self.first_turn_done:
            self.first_turn_reveal(seat)
            self.remove_groups(seat)
        action = self.turn_action(seat)
        if action is None:
            return False
        if action == Action.DRAW_STOCK:
            self.play_stock_card(seat)
        elif action == Action.TAKE_DISCARD:
            card = st.take_discard()
            p = self.ask_placement(seat, Decision.PLACE_TAKEN, card)
            self.place(seat, p, card, public=True)
        else:
            self.flip_or_knock(seat, action)
        self.remove_groups(seat)
        self.knock_after_turn(seat)
        return True

    def flip_or_knock(self, seat: int, action: int) -> None:
        """The turns that move no card: FLIP one card up, FLIP_ALL (which ends the hole), or
        KNOCK."""
        st = self.state
        if action == Action.FLIP:
            st.turn_up(seat, self.ask(seat, Decision.FLIP, st.face_down_positions(seat)))
        elif action == Action.FLIP_ALL:
            for p in st.face_down_positions(seat):
                st.turn_up(seat, p)
            if st.ender is None:
                st.start_end(seat)
        elif action == Action.KNOCK:
            st.start_end(seat)
            st.knocked = True

    def turn_action(self, seat: int) -> int | None:
        """The turn's decision, after any pay-to-peek looks (each followed by the decision
        asked again); None when the seat has nothing it may do."""
        while True:
            options = self.turn_options(seat)
            if not options:
                return None
            action = self.ask(seat, Decision.TURN, options)
            if action != Action.PEEK:
                return action
            self.pay_to_peek(seat)

    def knock_after_turn(self, seat: int) -> None:
        """knock_timing end_of_own_turn / any_time_in_turn (AMB-12): a knock right after the
        turn (knocking first and then playing the turn would gain nothing over it)."""
        st = self.state
        if self.rules.knock_timing != "instead_of_turn" and self.may_knock():
            if self.ask(seat, Decision.KNOCK, [Action.KNOCK, Action.PASS]) == Action.KNOCK:
                st.start_end(seat)
                st.knocked = True

    def may_knock(self) -> bool:
        """A knock game, nobody has ended the hole, and knock_min_laps laps have been played
        (AMB-13)."""
        st, r = self.state, self.rules
        return "knock" in r.end_triggers and st.ender is None and \
            st.turn >= r.knock_min_laps * self.players

    def pay_to_peek(self, seat: int) -> None:
        """AMB-16: during its own turn, before drawing, a seat may look at one of its own
        face-down cards it does not know, as many times as it likes, paying ``pay_to_peek``
        points per look. The cost goes to its hole score, not to its layout value L (so it
        does not count in "lowest" comparisons)."""
        st = self.state
        p = self.ask(seat, Decision.PEEK, st.unknown_positions(seat))
        st.peek(seat, p)
        st.penalty[seat] += self.rules.pay_to_peek

    def play_stock_card(self, seat: int) -> None:
        st, r = self.state, self.rules
        card = st.draw_from_stock()
        choice = self.ask_placement(seat, Decision.PLACE_DRAWN, card)
        if choice != Action.DISCARD:
            # private_stock_draw = false: everyone saw the card, so knows it even face down
            self.place(seat, choice, card, public=not r.private_stock_draw)
            return
        st.held = None
        st.put_on_discard(seat, card)
        self.flip_after_discard(seat)

    def flip_after_discard(self, seat: int) -> None:
        """flip_after_stock_discard: turn a face-down card up (PASS allowed with one left);
        optional_in_endgame: a flip that may be passed, once some player (this one included)
        has at most one face-down card, and no flip before."""
        st, r = self.state, self.rules
        face_down = st.face_down_positions(seat)
        fad = r.flip_after_stock_discard
        if fad == "optional_in_endgame" and \
                all(st.face_down_count(s) > 1 for s in range(self.players)):
            fad = "none"
        if fad != "none" and face_down:
            options = list(face_down)
            if (fad == "mandatory_unless_one_face_down" and len(face_down) == 1) or \
                    fad == "optional_in_endgame":
                options.append(Action.PASS)
            p = self.ask(seat, Decision.FLIP, options)
            if p != Action.PASS:
                st.turn_up(seat, p)

    def ask_placement(self, seat: int, decision: Decision, card: int) -> int:
        """Where the held card goes: a position, or DISCARD for a stock card when allowed.
        With blind_replacement = false the seat may first look at one of its unknown
        face-down cards (PEEK, then which one, asked with the card held) and is asked again."""
        st = self.state

        def options() -> list[int]:
            legal = st.replaceable_positions(seat)
            if decision == Decision.PLACE_DRAWN and self.rules.stock_draw_may_be_discarded:
                legal.append(Action.DISCARD)
            return legal

        legal = options()
        if not self.rules.blind_replacement and st.unknown_positions(seat):
            legal.append(Action.PEEK)
        choice = self.ask(seat, decision, legal, held=card)
        if choice != Action.PEEK:
            return choice
        st.peek(seat, self.ask(seat, Decision.PEEK, st.unknown_positions(seat), held=card))
        return self.ask(seat, decision, options(), held=card)

    def place(self, seat: int, p: int, card: int, public: bool) -> None:
        """Put the held card at p, face up, face down, or as the player chooses (a card that
        replaces a face-up card is always face up)."""
        st, face = self.state, self.rules.placement_face
        if face == "up":
            face_up = True
        elif face == "down":
            face_up = False
        elif st.layouts[seat][p].face_up:
            face_up = True
        else:
            answer = self.ask(seat, Decision.FACE, [Action.FACE_UP, Action.FACE_DOWN], held=card)
            face_up = answer == Action.FACE_UP
        st.held = None
        st.replace(seat, p, card, face_up, public)

    def check_end(self, seat: int) -> None:
        """End triggers checked after a turn of ``seat`` while nobody has ended the hole."""
        st, triggers = self.state, self.rules.end_triggers
        if "all_face_up" in triggers and st.face_down_count(seat) == 0:
            st.start_end(seat)
        elif "all_players_face_up" in triggers and \
                all(st.face_down_count(s) == 0 for s in range(self.players)):
            st.ender = seat
            st.final_turns_left = 0

    def play_turns(self) -> None:
        """Turns seat by seat from seat 0. A seat marked by jack_discard_skips_next loses
        its turn: the mark is cleared and nothing is asked, but the turn counts like a played
        one (turn counter, turn cap, and in the final lap the seat's final turn is used up). A
        seat whose first turn is skipped flips its first-turn reveal at its next played turn."""
        st = self.state
        seat = 0
        while True:
            ender_before = st.ender
            if st.skip_next_turn[seat]:
                st.skip_next_turn[seat] = False
            elif not self.play_turn(seat):
                break
            st.turn += 1
            st.check_invariants()
            if ender_before is not None:
                st.final_turns_left -= 1          # a final turn was played
            elif st.ender is None:                # (a flip-all or knock set the ender itself)
                self.check_end(seat)
            if ender_before is None and st.ender is not None and self.rules.reveal_on_trigger:
                for other in range(self.players):  # groups the forced reveal completed
                    if other != seat:
                        self.remove_groups(other)
            if st.ender is not None and st.final_turns_left <= 0:
                break
            if self.rules.stock_empty == "end_hole" and not st.stock:
                break                             # end_hole: the hole ends when the stock runs out
            if st.turn >= self.rules.turn_cap:
                st.capped = True
                break
            seat = (seat + 1) % self.players

    def score(self) -> RoundRecord:
        st = self.state
        layouts = [[cell.card for cell in row] for row in st.layouts]
        parts = [score_layout(self.rules, cards) for cards in layouts]
        L = twenty_one_zero(self.rules, [part.value + bank for part, bank in zip(parts, st.bank)])
        ender = -1 if st.ender is None else st.ender
        scores = hole_scores(self.rules, L, ender, st.knocked, [part.couples for part in parts],
                             extra=list(st.penalty))
        known = [[[cell.card if obs in cell.known_to else NO_CARD for cell in row]
                  for row in st.layouts] for obs in range(self.players)]
        return RoundRecord(log=self.log, scores=scores, layout_values=L, layouts=layouts,
                           turns=st.turn, ender=ender, knocked=st.knocked, capped=st.capped,
                           reshuffles=st.reshuffles, known=known)
