"""Replays: one round (or every hole of one match) shown move by move, as the seats saw it.

The round is played by the compiled engine exactly as ``golfsim run`` plays it (round ``i`` of
a seed is always the same deal and the same choices, whichever kernel plays it): its move log
(``runner.play_logged_round``: rows of turn, seat, decision point, action, held card) holds
every decision, but not the cards. The plain-Python reference engine
(:mod:`simulator.game.reference`, which mirrors the compiled engine move by move) then deals
the same cards and is fed those decisions one by one; every card movement it makes is recorded
as a :class:`Step`, each with a :class:`Table` snapshot of where every card is and which seat
knows it. At the end the reference's log, final layouts and scores must equal the compiled
round's, or :class:`ReplayError` is raised: a replay never shows a round other than the one
``run`` played.

Seats are physical seats throughout. In match play (``--holes`` or ``--target``) hole ``h`` of
match ``m`` is round ``m * 1000 + h`` and the deal rotates: the hole is played with the seat in
turn position ``i`` being ``order[i]`` (:func:`simulator.game.reference.play_match` decides the
order from the previous holes, exactly as the engine's match play does), and every seat number
here is mapped back through ``order``.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from ..game import cards as C
from ..game import codes as K
from ..game import reference as R
from ..game.powers import PowerHole
from ..game.rules import Rules, flatten, uses_power_engine
from . import runner

MATCH_STRIDE = R.MATCH_STRIDE
# The most turns a replay shows, all the holes of a match together (docs/cli.md#golfsim-replay):
# every step keeps a snapshot of the table, about 40 KB a turn in memory and 3 KB in the JSON
# with two seats, four to five times that with eight; a hole that never ends (a turn_cap of
# 100000) would otherwise take gigabytes.
MAX_TURNS = 2000
# decisions whose small actions are not positions: a seat, which drawn card, a rank
_NOT_POSITIONS = (K.DP_TARGET_SEAT, K.DP_KEEP, K.DP_CHOOSE_POWER)


class ReplayError(RuntimeError):
    """The reference engine could not follow the compiled round (it would show another
    round than the one played), or the round cannot be replayed."""


# ---- what the table looked like ------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """A snapshot of the table, by physical seat. ``cards[s][p]`` is the card at seat s's
    position p (an emptied position, remove_cancelled, holds K.EMPTY0 + p); ``known[o][s][p]``
    whether seat o knows that card (face-up cards are known to all)."""
    cards: tuple[tuple[int, ...], ...]
    up: tuple[tuple[bool, ...], ...]
    known: tuple[tuple[tuple[bool, ...], ...], ...]
    discard: tuple[int, ...]          # bottom to top
    stock: int
    held: int | None                  # the card in the acting seat's hand, if any
    turn: int                         # turns completed (the initial reveal excluded)
    ender: int | None
    final_left: int | None            # final turns still to play once the end is triggered
    knocked: bool
    penalty: tuple[int, ...]          # points paid during the hole (pay_to_peek)
    bank: tuple[int, ...]             # value banked by removed groups

    def view(self, observer: int, seat: int) -> list[int | None]:
        """Seat ``seat``'s layout as ``observer`` knows it: the card, or None."""
        return [c if self.known[observer][seat][p] else None
                for p, c in enumerate(self.cards[seat])]

    def known_elsewhere(self, observer: int) -> list[tuple[int, int, int]]:
        """(seat, position, card) of the face-down cards of other seats that ``observer``
        knows (a card it saw placed face down from the discard pile, say)."""
        return [(s, p, c) for s in range(len(self.cards)) if s != observer
                for p, c in enumerate(self.cards[s])
                if not self.up[s][p] and self.known[observer][s][p]]


@dataclass
class Step:
    """One thing that happened. ``kind``:

    deal, turn (a seat's turn begins), skip (a turn lost, jack_discard_skips_next), decision
    (a policy's answer: ``decision``, ``action``, ``legal``), draw, take (from the discard
    pile), place (``card`` to ``pos``; ``old`` goes to the discard pile), discard (the drawn
    card), reveal (a card turned face up: ``card`` at ``pos``), peek (``seat`` looks at its
    ``pos``), reshuffle, end (``seat`` triggered the end: ``note`` says how), remove (a
    completed group, ``cells``, leaves the layout, banking ``value``), arrange (a face-up card
    moved to ``pos`` at the start), stuck (the seat could do nothing: the hole ends), over
    (the hole is over: ``note`` says why).

    The power engine's moves (docs/replay.md), ``seat`` the seat that acts (the snapper in a
    snap): power (``card``'s power, ``effect``; ``note`` from_discard or combined, one of a
    Dutch 2's), power_unused, swap (``source``/``source_pos`` with ``target``/``target_pos``,
    ``cards`` the two before), move (a card given blind from source to target), shuffle
    (``target``'s ``cells`` now hold ``cards``), show, snap (``note`` hit or miss),
    snap_penalty (``value`` points), match (a matched card discarded), remove_card, put (a
    card into ``target``'s ``target_pos``, one past its end adding a position; ``note``
    snap_penalty / match_penalty for a penalty card, ``seen_by``), cancel (the final lap).

    A reveal's ``note`` is "forced" when reveal_on_trigger turned the card up; a peek's
    ``note`` is "paid" (pay_to_peek, ``cost`` points), "reveal" (the initial reveal),
    "before_placing" (blind_replacement = false) or "power" (a power card's look at the card
    of seat ``target``).

    ``phase`` is deal, reveal, play or final (the final turns after the end was triggered);
    ``table`` is the table right after the step."""
    kind: str
    phase: str
    turn: int
    table: Table
    seat: int | None = None
    card: int | None = None
    pos: int | None = None
    old: int | None = None
    face_up: bool | None = None
    public: bool | None = None
    decision: str | None = None
    action: str | None = None
    legal: tuple[str, ...] = ()
    cells: tuple[int, ...] = ()
    value: int = 0
    cost: int = 0
    target: int | None = None         # the seat whose card a power, snap or match touches
    target_pos: int | None = None     # ... and its position
    source: int | None = None         # a swap's or move's other cell: its seat
    source_pos: int | None = None     # ... and its position
    cards: tuple[int, ...] = ()       # the cards a swap exchanged, a shuffle's new order
    seen_by: tuple[int, ...] = ()     # the seats that know a card put into a layout
    effect: str = ""                  # the power (codes.POWER_NAMES) behind the step
    note: str = ""


@dataclass
class HoleReplay:
    """One replayed round (hole): its steps and outcome, every seat by physical seat."""
    rules: Rules
    players: int
    strategies: list[str]             # by physical seat
    seed: int
    round_index: int
    order: list[int]                  # order[i]: the physical seat in turn position i
    steps: list[Step]
    scores: list[int]
    layout_values: list[int]
    layouts: list[list[int]]          # final cards
    turns: int
    reshuffles: int
    capped: bool
    ender: int | None                 # how the hole ended: who ended it (None: the cap),
    knocked: bool                     # and whether by a knock
    match: int | None = None
    hole: int | None = None

    @property
    def first(self) -> int:
        return self.order[0]


@dataclass
class MatchReplay:
    """Every hole of one match, as ``run --holes/--target`` plays it."""
    rules: Rules
    players: int
    strategies: list[str]
    seed: int
    match: int
    holes_asked: int                  # --holes (0 with --target)
    target: int
    holes: list[HoleReplay]
    totals: list[int]                 # per seat, after the last hole
    running: list[list[int]]          # per hole: every seat's total after it
    wins: list[Fraction]              # each seat's share of the match win
    pot_balances: list[int]


# ---- following the compiled log with the reference engine -----------------------------------
def _no_policy(rules, table, seat, stream) -> None:
    """No seat of a replayed hole is asked: its answers are read from the compiled log."""
    return None


class _Recorder(R.Hole):
    """A reference hole whose decisions are read from the compiled log instead of asked from
    policies, and whose card movements are recorded as steps."""

    def __init__(self, rules: Rules, players: int, seed: int, round_index: int, script,
                 order: list[int]):
        super().__init__(rules, players, [_no_policy], seed, round_index)
        self.policies = None          # every answer comes from the script
        self.script = [tuple(int(x) for x in row) for row in script]
        self.next_row = 0
        self.order = list(order)
        self.steps: list[Step] = []
        self.phase = "deal"
        self._in_replace = False
        self._forcing = False         # inside start_end: reveal_on_trigger turns cards up
        self._pending_arrange: tuple[int, int, int] | None = None
        self._last_turn: tuple[int, int] | None = None   # (turn, seat) of the last turn begun
        self._wrap_state()

    # -- the snapshot -----------------------------------------------------------------------
    def table(self) -> Table:
        st, n, order = self.state, self.players, self.order
        pos_of = {seat: i for i, seat in enumerate(order)}
        rows = [st.layouts[pos_of[s]] for s in range(n)]
        return Table(
            cards=tuple(tuple(c.card for c in row) for row in rows),
            up=tuple(tuple(c.face_up for c in row) for row in rows),
            known=tuple(tuple(tuple(pos_of[o] in c.known_to for c in row) for row in rows)
                        for o in range(n)),
            discard=tuple(st.discard), stock=len(st.stock), held=st.held, turn=st.turn,
            ender=None if st.ender is None else order[st.ender],
            final_left=st.final_turns_left, knocked=st.knocked,
            penalty=tuple(st.penalty[pos_of[s]] for s in range(n)),
            bank=tuple(st.bank[pos_of[s]] for s in range(n)))

    def record(self, kind: str, seat: int | None = None, **fields) -> Step:
        """Append a step (``seat`` in turn position; stored as the physical seat)."""
        if self._pending_arrange is not None:
            # Hole.arrange swaps the cells after the ARRANGE answer: the swap is done by now
            (s, card, q), self._pending_arrange = self._pending_arrange, None
            self.record("arrange", s, card=card, pos=q)
        phase = self.phase
        if phase == "play" and self.state.ender is not None and kind != "end":
            phase = "final"
        step = Step(kind, phase, self.state.turn, self.table(),
                    seat=None if seat is None else self.order[seat], **fields)
        self.steps.append(step)
        return step

    # -- decisions come from the compiled log -------------------------------------------------
    def ask(self, seat: int, decision, legal: list[int], held: int | None = None) -> int:
        legal = sorted(int(a) for a in legal)
        want = (self.state.turn, seat, int(decision), R.NO_CARD if held is None else held)
        if self.next_row >= len(self.script):
            raise ReplayError(f"the compiled round's log ends where the reference engine asks "
                              f"{_ask_text(want)}")
        row = self.script[self.next_row]
        if (row[0], row[1], row[2], row[4]) != want:
            raise ReplayError(f"log row {self.next_row}: the compiled engine logged "
                              f"{_log_text(row)}, but the reference engine asks "
                              f"{_ask_text(want)}")
        action = row[3]
        if action not in legal:
            raise ReplayError(f"log row {self.next_row}: {_log_text(row)} is not legal in the "
                              f"reference engine (legal: {', '.join(map(K.action_name, legal))})")
        self.next_row += 1
        self.log.append(row)
        point = int(decision)
        target = self._decision_target(point)
        self.record("decision", seat, decision=K.DECISION_NAMES[point],
                    action=self._action_label(point, action),
                    legal=tuple(self._action_label(point, a) for a in legal),
                    card=None if held is None or point == K.DP_REMOVE else held,
                    pos=action if action < K.MAX_POS and point not in _NOT_POSITIONS
                    else None, target=target)
        if point == K.DP_ARRANGE:
            self._pending_arrange = (seat, held, action)
        return action

    def _action_label(self, point: int, action: int) -> str:
        """An action as the JSON names it: a seat by its physical number, a kept card by
        which one, a Dutch 2's power by its rank; a position as posN."""
        if action >= K.MAX_POS or point not in _NOT_POSITIONS:
            return K.action_name(action)
        if point == K.DP_TARGET_SEAT:
            return f"seat{self.order[action]}"
        if point == K.DP_KEEP:
            return ("keep_first", "keep_second")[action]
        return f"power_{C.RANKS[action]}"

    def _decision_target(self, point: int) -> int | None:
        """The physical seat whose position a decision names (a power's or a match's target
        position), else None."""
        target = getattr(self.state, "pub_target", -1)
        if point in (K.DP_TARGET_POS, K.DP_NOMINATE) and target >= 0:
            return self.order[target]
        return None

    # -- phases -----------------------------------------------------------------------------
    def initial_reveal(self) -> None:
        self.phase = "reveal"
        super().initial_reveal()

    def play_turns(self) -> None:
        self.phase = "play"
        super().play_turns()

    def play_turn(self, seat: int) -> bool:
        self._skips_until(self.state.turn)
        self._last_turn = (self.state.turn, seat)
        self.record("turn", seat)
        ok = super().play_turn(seat)
        if not ok:
            self.record("stuck", seat)
        return ok

    def _skips_until(self, turn: int) -> None:
        """Record the turns lost (jack_discard_skips_next) since the last turn played: the
        reference counts them without asking anything."""
        t0, s0 = self._last_turn if self._last_turn is not None else (-1, -1)
        for k in range(1, turn - t0):
            step = self.record("skip", (s0 + k) % self.players)
            step.turn = t0 + k
            step.table = replace(step.table, turn=t0 + k)

    # -- card movements: the state's methods, wrapped on this instance ------------------------
    def _wrap_state(self) -> None:
        st = self.state
        # the state's own methods, for a subclass's wrappers that record a step of their own
        self._raw = {"peek": st.peek, "turn_up": st.turn_up,
                     "put_on_discard": st.put_on_discard}
        self._wrap_looks()
        self._wrap_moves()

    def _wrap_looks(self) -> None:
        """The deal, and the cards turned up or looked at, each recorded as a step."""
        st = self.state
        deal, turn_up, peek = st.deal, st.turn_up, st.peek

        def w_deal():
            deal()
            self.record("deal")

        def w_turn_up(seat, p):
            was_up = st.layouts[seat][p].face_up
            turn_up(seat, p)
            if not was_up:
                self.record("reveal", seat, card=st.layouts[seat][p].card, pos=p,
                            note="forced" if self._forcing else "")

        def w_peek(seat, p, observer=None):
            if observer is not None and observer != seat:   # a power card's look
                peek(seat, p, observer)
                self.record("peek", observer, card=st.layouts[seat][p].card, pos=p,
                            target=self.order[seat], note="power")
                return
            peek(seat, p)
            # Hole.pay_to_peek adds the cost after the look
            paying = self._paying()
            last = self._last_decision()
            context = "paid" if paying else "reveal" if self.phase == "reveal" else \
                "before_placing" if last is not None and last.decision == "peek" and \
                last.card is not None else ""
            self.record("peek", seat, card=st.layouts[seat][p].card, pos=p,
                        cost=self.rules.pay_to_peek if paying else 0, note=context)

        st.deal, st.turn_up, st.peek = w_deal, w_turn_up, w_peek

    def _wrap_moves(self) -> None:
        """Every other card movement (placing, discarding, drawing, taking, reshuffling, the
        end of the hole, removals), each recorded as a step."""
        st = self.state
        replace_card, put_on_discard = st.replace, st.put_on_discard
        draw, take = st.draw_from_stock, st.take_discard
        reshuffle, start_end, remove = st.reshuffle, st.start_end, st.remove

        def w_replace(seat, p, card, face_up, public):
            old = st.layouts[seat][p].card
            self._in_replace = True
            try:
                replace_card(seat, p, card, face_up, public)
            finally:
                self._in_replace = False
            self.record("place", seat, card=card, pos=p, old=old, face_up=bool(face_up),
                        public=bool(public))

        def w_put_on_discard(seat, card):
            put_on_discard(seat, card)
            if not self._in_replace:
                self.record("discard", seat, card=card)

        def w_draw():
            card = draw()
            self.record("draw", self._actor(), card=card,
                        public=not self.rules.private_stock_draw)
            return card

        def w_take():
            card = take()
            self.record("take", self._actor(), card=card)
            return card

        def w_reshuffle():
            reshuffle()
            self.record("reshuffle", card=st.discard[-1] if st.discard else None)

        def w_start_end(seat):
            how = self._end_how()
            at = len(self.steps)
            self._forcing = True
            try:
                start_end(seat)
            finally:
                self._forcing = False
            # the end first, then the cards it turned up (reveal_on_trigger)
            step = self.record("end", seat, note=how)
            self.steps.insert(at, self.steps.pop())
            if how == "knock":
                step.table = replace(step.table, knocked=True)

        def w_remove(seat, cells, value):
            cells = tuple(sorted(cells))
            cards = tuple(st.layouts[seat][p].card for p in cells)
            remove(seat, cells, value)
            self.record("remove", seat, cells=cells, value=value,
                        note=" ".join(map(str, cards)))

        st.replace = w_replace
        st.put_on_discard, st.draw_from_stock, st.take_discard = w_put_on_discard, w_draw, w_take
        st.reshuffle, st.start_end, st.remove = w_reshuffle, w_start_end, w_remove

    def _actor(self) -> int | None:
        """The seat whose turn it is (the last turn begun)."""
        return None if self._last_turn is None else self._last_turn[1]

    def _last_decision(self) -> Step | None:
        return next((s for s in reversed(self.steps) if s.kind == "decision"), None)

    def _paying(self) -> bool:
        """Is the look being recorded a paid one (pay_to_peek: a PEEK at the turn decision)?"""
        steps = [s for s in self.steps if s.kind == "decision"][-2:]
        return len(steps) == 2 and steps[0].decision == "turn" and steps[0].action == "peek" \
            and self.rules.pay_to_peek is not None

    def _end_how(self) -> str:
        """How the seat is ending the hole now, read from its last decision."""
        last = self._last_decision()
        if last is not None and last.action in ("knock", "flip_all"):
            return last.action
        return "out"

    # -- the end ----------------------------------------------------------------------------
    def score(self):
        st = self.state
        if self._last_turn is not None:   # final turns lost to a skip after the last one played
            self._skips_until(st.turn)
        if st.ender is not None and not any(s.kind == "end" for s in self.steps):
            # all_players_face_up names the ender without start_end
            self.record("end", st.ender, note="all_out")
        if st.capped:
            why = "capped"
        elif self.steps and self.steps[-1].kind == "stuck":
            why = "stuck"
        elif st.ender is not None and (st.final_turns_left or 0) <= 0:
            why = "ended"
        elif self.rules.stock_empty == "end_hole" and not st.stock:
            why = "stock_out"
        else:
            why = "ended"
        self.phase = "over"
        self.record("over", note=why)
        return super().score()


class _Points(list):
    """A seat's points incurred in the hole, telling ``hook(seat, added)`` of each change."""

    def __init__(self, values, hook):
        super().__init__(values)
        self.hook = hook

    def __setitem__(self, seat, value):
        added = value - self[seat]
        super().__setitem__(seat, value)
        self.hook(seat, added)


class _PowerRecorder(_Recorder, PowerHole):
    """The recorder of a power-card hole: the plain game's steps, and a step for every move
    the power engine makes (a power used or left unused, swaps, moves, shuffles, cards shown,
    snaps, matches, penalty cards and points, a cancelled final lap), each with the table
    after it. ``_context`` says what is being resolved: (what, effect) pairs, innermost last,
    what being power, snap, match, draw_two or penalty."""

    def __init__(self, *args, **kwargs):
        self._context: list[tuple[str, int]] = []
        self._snapper: int | None = None
        self._taken: tuple[int, int, int] | None = None   # (seat, pos, card) on its way out
        self._used = False            # inside discard_used: the card's power was used
        super().__init__(*args, **kwargs)

    # -- what is going on -------------------------------------------------------------------
    @contextmanager
    def _in(self, what: str, effect: int = K.POW_NONE):
        self._context.append((what, effect))
        try:
            yield
        finally:
            self._context.pop()

    def _what(self) -> str:
        return self._context[-1][0] if self._context else ""

    def _effect(self) -> str:
        """The innermost power being resolved, by name ("" outside any)."""
        effect = next((e for w, e in reversed(self._context) if w == "power"), K.POW_NONE)
        return "" if effect == K.POW_NONE else K.POWER_NAMES[effect]

    def _mover(self) -> int | None:
        """The seat making the move now (turn position): a snapper during a snap."""
        if any(w == "snap" for w, _ in self._context):
            return self._snapper
        return self._actor()

    def _where(self, seat: int, p: int) -> dict:
        return {"target": self.order[seat], "target_pos": p}

    # -- the referee's steps, each in its context -------------------------------------------
    def ask(self, seat, decision, legal, held=None):
        action = super().ask(seat, decision, legal, held)
        point = int(decision)
        if point == K.DP_SNAP and action == K.A_SNAP:
            self._snapper = seat
        if point in (K.DP_PLACE_DRAWN, K.DP_PLACE_TAKEN) and K.A_POWER in legal and \
                action != K.A_POWER and held is not None:
            self.record("power_unused", seat, card=held,
                        effect=K.POWER_NAMES[self.state.pub_power])
        return action

    def resolve(self, seat, effect, card):
        note = "combined" if self._what() == "power" else \
            "from_discard" if self._last_decision().action == "discard_power" else ""
        self.record("power", seat, card=card, effect=K.POWER_NAMES[effect], note=note)
        with self._in("power", effect):
            return super().resolve(seat, effect, card)

    def use_discard_power(self, seat):
        super().use_discard_power(seat)
        self.record("discard", seat, card=self.state.discard[-1], note="returned")

    def turn_match(self, seat, card, public):
        with self._in("match"):
            super().turn_match(seat, card, public)

    def snap_window(self, actor):
        with self._in("snap"):
            super().snap_window(actor)

    def draw_two(self, seat):
        with self._in("draw_two"):
            super().draw_two(seat)

    # -- the power engine's card movements, wrapped on this instance -------------------------
    def _wrap_state(self) -> None:
        super()._wrap_state()
        st = self.state
        # the plain recorder's wrappers, used outside a power's resolution
        self._plain = {name: getattr(st, name) for name in ("peek", "turn_up",
                                                            "put_on_discard")}
        raw = {name: getattr(st, name) for name in (
            "deal", "put", "take", "show", "swap", "move", "shuffle_layout", "draw_card",
            "add_penalty_cards", "cancel_end", "discard_used")}
        self._raw_power = raw

        def w_deal():
            raw["deal"]()
            st.penalty = _Points(st.penalty, self._points_added)

        for name in ("put", "take", "show", "swap", "move", "shuffle_layout", "draw_card",
                     "add_penalty_cards", "cancel_end", "discard_used", "put_on_discard",
                     "peek", "turn_up"):
            setattr(st, name, getattr(self, f"_w_{name}"))
        st.deal = w_deal

    def _points_added(self, seat: int, added: int) -> None:
        if added and self._what() == "snap":
            self.record("snap_penalty", seat, value=added)

    def _w_put(self, seat, p, card, face_up, seen_by):
        self._raw_power["put"](seat, p, card, face_up, seen_by)
        if self._in_replace:   # a placement: the place step tells it
            return
        cell = self.state.layouts[seat][p]
        outer = [w for w, _ in self._context if w != "penalty"]
        why = outer[-1] if outer else ""
        self.record("put", self._mover(), card=card, face_up=bool(face_up),
                    seen_by=tuple(sorted(self.order[o] for o in cell.known_to)),
                    effect=self._effect(),
                    note=f"{why}_penalty" if self._what() == "penalty" else why,
                    **self._where(seat, p))

    def _w_take(self, seat, p):
        card = self._raw_power["take"](seat, p)
        self._taken = (seat, p, card)   # the discard that follows tells it
        return card

    def _w_put_on_discard(self, seat, card):
        taken, self._taken = self._taken, None
        if self._in_replace or (taken is None and not self._used):
            self._plain["put_on_discard"](seat, card)   # the plain recorder's step
            return
        self._raw["put_on_discard"](seat, card)
        if taken is not None and taken[2] == card:
            what = self._what()
            kind = {"snap": "snap", "match": "match"}.get(what, "remove_card")
            self.record(kind, self._mover(), card=card, note="hit" if kind != "remove_card"
                        else "", effect=self._effect(), **self._where(taken[0], taken[1]))
        else:
            self.record("discard", self._mover(), card=card, note="used")

    def _w_discard_used(self, seat, card):
        self._used = True
        try:
            self._raw_power["discard_used"](seat, card)
        finally:
            self._used = False

    def _w_show(self, seat, p):
        self._raw_power["show"](seat, p)
        card = self.state.layouts[seat][p].card
        if self._what() == "snap":
            self.record("snap", self._mover(), card=card, note="miss", **self._where(seat, p))
        else:
            self.record("show", self._mover(), card=card, note=self._what(),
                        **self._where(seat, p))

    def _w_swap(self, s1, p1, s2, p2):
        rows = self.state.layouts
        cards = (rows[s1][p1].card, rows[s2][p2].card)
        self._raw_power["swap"](s1, p1, s2, p2)
        self.record("swap", self._mover(), source=self.order[s1], source_pos=p1, cards=cards,
                    effect=self._effect(), **self._where(s2, p2))

    def _w_move(self, s1, p1, s2, p2):
        card = self.state.layouts[s1][p1].card
        self._raw_power["move"](s1, p1, s2, p2)
        self.record("move", self._mover(), card=card, source=self.order[s1], source_pos=p1,
                    note=self._what(), **self._where(s2, p2))

    def _w_shuffle_layout(self, seat):
        self._raw_power["shuffle_layout"](seat)
        row = self.state.layouts[seat]
        cells = tuple(p for p, cell in enumerate(row) if not cell.face_up)
        self.record("shuffle", self._mover(), target=self.order[seat], cells=cells,
                    cards=tuple(row[p].card for p in cells), effect=self._effect())

    def _w_draw_card(self):
        card = self._raw_power["draw_card"]()
        if card is not None and self._what() == "draw_two":
            self.record("draw", self._mover(), card=card, public=False, note="draw_two")
        return card

    def _w_add_penalty_cards(self, seat, count):
        with self._in("penalty"):
            self._raw_power["add_penalty_cards"](seat, count)

    def _w_cancel_end(self):
        self._raw_power["cancel_end"]()
        self.record("cancel", self._mover(), effect=self._effect())

    def _w_peek(self, seat, p, observer=None):
        if self._what() != "power":
            return self._plain["peek"](seat, p, observer)
        observer = seat if observer is None else observer
        self._raw["peek"](seat, p, observer)
        self.record("peek", observer, card=self.state.layouts[seat][p].card, pos=p,
                    target=self.order[seat], note="power", effect=self._effect())

    def _w_turn_up(self, seat, p):
        if self._what() != "power":
            return self._plain["turn_up"](seat, p)
        self._raw["turn_up"](seat, p)
        self.record("reveal", self._mover(), card=self.state.layouts[seat][p].card, pos=p,
                    target=self.order[seat], note="power", effect=self._effect())


def _log_text(row) -> str:
    turn, seat, point, action, held = row
    return (f"turn {turn}, seat {seat}, {K.DECISION_NAMES[point]} -> {K.action_name(action)}"
            f" (held {held})")


def _ask_text(want) -> str:
    turn, seat, point, held = want
    return f"turn {turn}, seat {seat}, {K.DECISION_NAMES[point]} (held {held})"


# ---- one round --------------------------------------------------------------------------------
def _log_cap(rules: Rules, players: int) -> int:
    """Rows enough for any round of these rules: a turn logs a handful of decisions."""
    return max(8192, 12 * rules.turn_cap + 8 * players * rules.n_positions + 64)


def match_args(view: R.MatchView) -> tuple:
    """A reference.MatchView as runner.play_logged_round's ``match``."""
    return view.hole, view.holes, view.target, view.totals


def play_compiled(rules: Rules, players: int, policy_ids, params, seed: int, round_index: int,
                  user=None, match=None) -> dict:
    """The compiled round with its move log (runner.play_logged_round, ``match`` the match
    the policies see); a policy's illegal action raises runner.PolicyError, described as
    ``run`` describes it."""
    res = runner.play_logged_round(flatten(rules, players), np.asarray(policy_ids),
                                   np.asarray(params), seed, round_index, check=False,
                                   log_cap=_log_cap(rules, players), user=user, match=match)
    if res["error"]:
        job = runner.make_job(rules, players, policy_ids, params, seed, kernel="general",
                              user=user)
        raise runner.policy_error(job, res["out"], round_index, "round",
                                  lambda again: runner.play_chunk(again, round_index, 1))
    return res


def replay_compiled(rules: Rules, players: int, strategies: list[str], seed: int,
                    round_index: int, compiled: dict, order: list[int] | None = None,
                    match: int | None = None, hole: int | None = None) -> HoleReplay:
    """Follow a compiled round (``play_compiled``'s answer, seats in turn order) with the
    reference engine; ``order[i]`` is the physical seat in turn position i (default: seat i)
    and ``strategies`` are by physical seat."""
    order = list(range(players)) if order is None else list(order)
    recorder = _PowerRecorder if uses_power_engine(rules) else _Recorder
    rec = recorder(rules, players, seed, round_index, compiled["log"], order)
    try:
        record = rec.play()
    except (R.IllegalActionError, R.InvariantError) as e:
        raise ReplayError(f"round {round_index}: the reference engine could not follow the "
                          f"compiled round: {e}") from None
    if rec.next_row != len(rec.script):
        raise ReplayError(f"round {round_index}: the reference engine finished after "
                          f"{rec.next_row} of the compiled log's {len(rec.script)} decisions")
    _check_same(record, compiled, round_index)
    by_seat = [0] * players
    for i, seat in enumerate(order):
        by_seat[seat] = i

    def physical(values):
        return [int(values[by_seat[s]]) for s in range(players)]

    return HoleReplay(
        rules, players, list(strategies), int(seed), int(round_index), order, rec.steps,
        scores=physical(record.scores), layout_values=physical(record.layout_values),
        layouts=[list(map(int, record.layouts[by_seat[s]])) for s in range(players)],
        ender=None if record.ender < 0 else order[record.ender], knocked=bool(record.knocked),
        capped=bool(record.capped), turns=int(record.turns),
        reshuffles=int(record.reshuffles), match=match, hole=hole)


def _padded(row, width: int) -> list[int]:
    """A reference layout as the compiled engine keeps it: a power game's positions without
    a card, up to codes.MAX_POS, hold the empty pseudo-cards."""
    return list(row) + [K.EMPTY0 + p for p in range(len(row), width)]


def _check_same(record, compiled: dict, round_index: int) -> None:
    """The reference's round must be the compiled one: same scores, cards, flags."""
    pairs = {
        "scores": (list(record.scores), [int(x) for x in compiled["scores"]]),
        "layout values": (list(record.layout_values),
                          [int(x) for x in compiled["layout_values"]]),
        "final layouts": ([_padded(r, len(compiled["layouts"][0])) for r in record.layouts],
                          compiled["layouts"].tolist()),
        "turns": (record.turns, compiled["turns"]),
        "ender": (record.ender, compiled["ender"]),
        "knocked": (bool(record.knocked), bool(compiled["knocked"])),
        "capped": (bool(record.capped), bool(compiled["capped"])),
    }
    bad = [f"{name}: compiled {b}, reference {a}" for name, (a, b) in pairs.items() if a != b]
    if bad:
        raise ReplayError(f"round {round_index}: the reference engine's replay differs from "
                          f"the compiled round ({'; '.join(bad)})")


def _check_size(turns: int, what: str, hint: str) -> None:
    """Refuse a replay of more than MAX_TURNS turns (``turns``: those of ``what``)."""
    if turns > MAX_TURNS:
        raise ReplayError(f"{what} lasted {turns:,} turns; a replay shows at most "
                          f"{MAX_TURNS:,} turns, all the holes of a match together; {hint}")


def replay_round(rules: Rules, players: int, strategies, seed: int, round_index: int,
                 user=None) -> HoleReplay:
    """Round ``round_index`` of ``seed`` as ``run`` plays it. ``strategies``: resolved
    strategies.Strategy, one per seat; ``user`` their compiled user policy, if any. A round
    of more than MAX_TURNS turns is refused (ReplayError)."""
    from strategies import seat_arrays
    ids, params = seat_arrays(list(strategies))
    compiled = play_compiled(rules, players, ids, params, seed, round_index, user)
    _check_size(compiled["turns"], f"round {round_index}",
                f"replay it with --set turn_cap={MAX_TURNS} to see how it begins")
    return replay_compiled(rules, players, [s.spec for s in strategies], seed, round_index,
                           compiled)


def replay_match(rules: Rules, players: int, strategies, seed: int, match: int,
                 holes: int = 0, target: int = 0, user=None) -> MatchReplay:
    """Every hole of match ``match`` as ``run --holes``/``--target`` plays it: hole h is round
    match * 1000 + h, the seats rotate (reference.play_match orders them, as the engine's
    match play does). A match whose holes last more than MAX_TURNS turns together is refused
    (ReplayError)."""
    from strategies import seat_arrays
    if (holes > 0) == (target > 0):
        raise ValueError("give holes or target (one of them)")
    ids, params = seat_arrays(list(strategies))
    specs = [s.spec for s in strategies]
    played: list[HoleReplay] = []

    def play_hole(order, round_index, view):
        order = [int(x) for x in order]
        compiled = play_compiled(rules, players, ids[order], params[order], seed,
                                 round_index, user, match_args(view))
        _check_size(sum(h.turns for h in played) + compiled["turns"],
                    f"match {match} (up to its hole {len(played) + 1})",
                    "replay a shorter match (--holes, --target) or fewer turns a hole "
                    "(--set turn_cap)")
        played.append(replay_compiled(rules, players, specs, seed, round_index, compiled,
                                      order, match=match, hole=round_index - match *
                                      MATCH_STRIDE))
        return compiled

    record = R.play_match(rules, players, seed, match, holes, target, play_hole, views=True)
    running, totals = [], [0] * players
    for h in played:
        totals = [t + s for t, s in zip(totals, h.scores)]
        running.append(list(totals))
    if totals != [int(t) for t in record.totals]:
        raise ReplayError(f"match {match}: the holes' scores add up to {totals}, the match "
                          f"totals are {list(record.totals)}")
    return MatchReplay(rules, players, specs, int(seed), int(match), holes, target, played,
                       [int(t) for t in record.totals], running, list(record.wins),
                       [int(b) for b in record.pot_balances])


# ---- as plain data ---------------------------------------------------------------------------
def _table_dict(t: Table) -> dict:
    return {"cards": [list(r) for r in t.cards], "face_up": [list(r) for r in t.up],
            "known": [[list(r) for r in o] for o in t.known], "discard": list(t.discard),
            "stock": t.stock, "held": t.held, "turn": t.turn, "ender": t.ender,
            "final_left": t.final_left, "knocked": t.knocked, "penalty": list(t.penalty),
            "bank": list(t.bank)}


def hole_dict(h: HoleReplay) -> dict:
    """A hole as JSON-ready data (cards as ids, simulator.game.cards; names beside them)."""
    from ..game.cards import card_name
    steps = []
    for s in h.steps:
        d = {k: v for k, v in vars(s).items() if k != "table" and v not in (None, (), "")}
        d["legal"] = list(s.legal)
        d["cells"] = list(s.cells)
        if s.card is not None and s.card >= 0:
            d["card_name"] = card_name(s.card)
        d["table"] = _table_dict(s.table)
        steps.append(d)
    return {"round": h.round_index, "seed": h.seed, "players": h.players,
            "strategies": h.strategies, "order": h.order, "match": h.match, "hole": h.hole,
            "scores": h.scores, "layout_values": h.layout_values, "layouts": h.layouts,
            "ender": h.ender, "knocked": h.knocked, "capped": h.capped, "turns": h.turns,
            "reshuffles": h.reshuffles, "steps": steps}


def match_dict(m: MatchReplay) -> dict:
    return {"match": m.match, "seed": m.seed, "players": m.players,
            "strategies": m.strategies, "holes_asked": m.holes_asked, "target": m.target,
            "totals": m.totals, "running": m.running, "wins": [str(w) for w in m.wins],
            "pot_balances": m.pot_balances, "holes": [hole_dict(h) for h in m.holes]}


__all__ = ["HoleReplay", "MatchReplay", "ReplayError", "Step", "Table", "hole_dict",
           "match_args", "match_dict", "play_compiled", "replay_compiled", "replay_match",
           "replay_round"]
