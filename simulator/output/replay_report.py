"""Replays as text and as a self-contained HTML page (simulator/experiments/replay.py holds the
data: a list of steps, each with the table right after it).

The round is cut into groups: the deal and initial reveal, then one group per turn (a lost
turn is a group of its own), then the end. Each group is told in sentences ("seat 2 takes the
7♥ from the discard pile and puts it at position 4 (row 2, column 2), face up; the K♣ there
goes to the discard pile") followed by what every seat then knew of its own layout: a face-up
card as it is, a face-down card its owner knows in parentheses, one it does not know as ??.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..game.cards import card_name, is_red
from ..game import codes as K
from ..game.powers import layout_value_grown
from ..game.reference import CardTable, hole_scores
from ..game.rules import describe
from ..experiments.replay import HoleReplay, MatchReplay, Step, Table

UNKNOWN = "??"
EMPTY_TEXT = "--"
# what each power does, as a clause after "uses the power of the K♥:" (codes.POWER_NAMES)
POWER_WORDS = {
    "peek_own": "a look at one of its own cards",
    "peek_opponent": "a look at an opponent's card",
    "peek_any": "a look at any card",
    "swap_own_opponent_blind": "a blind swap of one of its cards with an opponent's",
    "swap_own_opponent_after_peek": "a look at an opponent's card, then a blind swap of it "
                                    "with one of its own",
    "swap_any_two_blind": "a blind swap of any two cards on the table",
    "peek_own_and_opponent_then_optional_swap": "a look at one of its cards and one of an "
                                                "opponent's, then a swap if it likes",
    "shuffle_opponent_layout": "a shuffle of an opponent's face-down cards",
    "flip_opponent_card": "an opponent's card turned face up",
    "swap_line_with_opponent": "a row or column swapped with an opponent's",
    "draw_two_choose_one": "two cards drawn, one kept",
    "shield": "a shield: no power may target it until its next turn",
    "give_or_remove": "a card given to an opponent or one of its own removed",
    "cancel_final_lap": "the final lap in progress cancelled",
    "combine_two_powers": "two of the other powers at once",
    "exchange_this_card": "this card exchanged for an opponent's card",
}
# why a penalty card was added (a put step's note)
PENALTY_CARDS = {"snap_penalty": "for the missed snap", "match_penalty": "for the failed match"}
# the swaps no one looked at first
BLIND_SWAPS = ("swap_own_opponent_blind", "swap_any_two_blind", "swap_line_with_opponent",
               "swap_own_opponent_after_peek")


# ---- grouping --------------------------------------------------------------------------------
@dataclass
class Group:
    """``kind``: setup (deal and initial reveal), turn, skip or end."""
    kind: str
    steps: list[Step]
    before: Table
    after: Table
    seat: int | None = None
    turn: int = 0
    final: bool = False


def groups(hole: HoleReplay) -> list[Group]:
    out: list[Group] = []
    current: list[Step] = []
    kind, seat, turn, final = "setup", None, 0, False
    before = hole.steps[0].table

    def close():
        nonlocal before
        if current:
            out.append(Group(kind, list(current), before, current[-1].table, seat, turn, final))
            before = current[-1].table

    for s in hole.steps:
        if s.kind in ("turn", "skip", "over"):
            close()
            current = []
            kind = {"turn": "turn", "skip": "skip", "over": "end"}[s.kind]
            seat, turn, final = s.seat, s.turn, s.phase == "final"
        current.append(s)
    close()
    return out


# ---- words -----------------------------------------------------------------------------------
class Words:
    """Sentences about one hole's steps."""

    def __init__(self, hole: HoleReplay, ascii_only: bool = False):
        self.hole = hole
        self.rules = hole.rules
        self.ascii_only = ascii_only

    def card(self, c: int | None) -> str:
        if c is None or c < 0:
            return EMPTY_TEXT
        if c >= K.EMPTY0:
            return EMPTY_TEXT
        return card_name(c, self.ascii_only)

    def position(self, p: int) -> str:
        r = self.rules
        if p >= r.n_positions:   # a power game's added card: in no row or column
            return f"position {p} (added beyond the grid)"
        if r.layout_mode == "hand" or r.grid_rows * r.grid_cols != r.n_positions:
            return f"position {p}"
        return f"position {p} (row {p // r.grid_cols + 1}, column {p % r.grid_cols + 1})"

    def seat(self, s: int | None) -> str:
        return "the table" if s is None else f"seat {s}"

    def whose(self, actor: int | None, seat: int | None, p: int | None,
              card: int | None = None) -> str:
        """A card as the acting seat names it: "its 7♥ at position 2" or "seat 1's card at
        position 2"."""
        owner = "its" if seat == actor else f"seat {seat}'s"
        what = "card" if card is None else self.card(card)
        return f"{owner} {what} at {self.position(p)}"

    def call(self) -> str:
        """The call that ends the hole, as the rules name it."""
        name = self.rules.call_name
        return "knock" if name == "Knock" else f"call {name}"

    def calls(self) -> str:
        name = self.rules.call_name
        return "knocks" if name == "Knock" else f"calls {name}"

    # -- one group ------------------------------------------------------------------------
    def sentences(self, group: Group) -> list[str]:
        """The group told as sentences, one per change of subject."""
        out: list[str] = []
        subject: int | None = -1
        clauses: list[str] = []
        prev = group.before

        def flush():
            if clauses:
                text = clauses[0].removeprefix("and ")
                for c in clauses[1:]:
                    text += (" " + c) if c.startswith("and ") else "; then " + c
                out.append((f"{self.seat(subject)} {text}" if subject is not None else
                            text[0].upper() + text[1:]) + ".")
            clauses.clear()

        steps = group.steps
        last_event: Step | None = None
        i = 0
        while i < len(steps):
            s = steps[i]
            text, who = self.clause(s, last_event, prev)
            j = i + 1
            if s.kind == "reveal":   # consecutive reveals of one seat in one clause
                more = []
                while j < len(steps) and steps[j].kind == "reveal" and \
                        steps[j].seat == s.seat and steps[j].note == s.note:
                    more.append(f"{self.position(steps[j].pos)}: {self.card(steps[j].card)}")
                    j += 1
                if more:
                    text += " and " + " and ".join(more)
            if text:
                if who != subject:
                    flush()
                    subject = who
                clauses.append(text)
            if s.kind not in ("decision", "turn"):
                last_event = steps[j - 1]
            prev = steps[j - 1].table
            i = j
        flush()
        return out

    def clause(self, s: Step, last: Step | None, prev: Table) -> tuple[str, int | None]:
        """(clause, its subject seat) for one step, ``last`` the card movement before it and
        ``prev`` the table before it; an empty clause says nothing."""
        k = s.kind
        card = self.card(s.card)
        if k == "decision":
            return self.decision_clause(s), s.seat
        if k == "deal":
            t = s.table
            n = self.rules.n_positions
            pile = (f"the discard pile starts with {self.card(t.discard[-1])}" if t.discard
                    else "the discard pile starts empty")
            return (f"the dealer gives every seat {n} cards face down; {pile}; the stock "
                    f"holds {t.stock} cards"), None
        if k == "draw":
            return (f"draws {card} from the stock" +
                    ("" if s.public else " (only it sees the card)")), s.seat
        if k == "take":
            return f"takes {card} from the discard pile", s.seat
        if k == "place":
            return self.place_clause(s, last, prev), s.seat
        if k == "discard":
            used = ", its power used" if s.note == "used" else ""
            if s.note == "returned":
                return f"puts {card} back on the discard pile, its power used", s.seat
            if last is not None and last.kind in ("draw", "power_unused", "power") and \
                    last.card == s.card:
                return "and discards it" + used, s.seat
            return f"discards {card}" + used, s.seat
        if k == "reveal":
            if s.note == "power":
                return (f"turns up {self.whose(s.seat, s.target, s.pos)}: {card}"), s.seat
            if s.note == "forced":
                return (f"must turn up {self.position(s.pos)}: {card}"), s.seat
            return f"turns up {self.position(s.pos)}: {card}", s.seat
        if k == "peek":
            return self.peek_clause(s), s.seat
        if k == "reshuffle":
            return (f"the stock is empty: the discard pile but its top card is shuffled into "
                    f"a new stock of {s.table.stock + (1 if s.table.held is not None else 0)} "
                    "cards"), None
        if k == "end":
            return self.end_clause(s), s.seat
        if k == "remove":
            cells = ", ".join(str(p) for p in s.cells)
            cards = " ".join(self.card(int(c)) for c in s.note.split())
            bank = f", banking {s.value} point{'s' if abs(s.value) != 1 else ''}" \
                if s.value else ""
            return (f"removes its completed group at positions {cells} ({cards}) to the "
                    f"bottom of the discard pile{bank}"), s.seat
        if k == "arrange":
            return f"moves its face-up {card} to {self.position(s.pos)}", s.seat
        if k == "skip":
            return "loses this turn (a jack was discarded onto it)", s.seat
        if k == "stuck":
            return "can do nothing (it has no legal move): the hole ends", s.seat
        if k == "over":
            return self.over_clause(s), None
        if k in POWER_KINDS:
            return POWER_KINDS[k](self, s, last)
        return "", s.seat   # turn: the heading says it

    def place_clause(self, s: Step, last: Step | None, prev: Table) -> str:
        """A card put into a layout, and the one it replaced."""
        joined = last is not None and last.kind in ("draw", "take", "power_unused") and \
            last.card == s.card
        text = ("and puts it" if joined else f"puts {self.card(s.card)}") + \
            f" at {self.position(s.pos)}, "
        if s.face_up:
            text += "face up"
        else:
            text += "face down" + (" (everyone saw the card)" if s.public else
                                   " (only it knows the card)")
        old_up = prev.up[s.seat][s.pos]
        return text + f"; the {self.card(s.old)} " + ("there" if old_up else
                                                      "that lay there face down") + \
            " goes to the discard pile"

    def peek_clause(self, s: Step) -> str:
        """A look at a face-down card: paid, before placing, a power's, or the reveal's."""
        where, card = self.position(s.pos), self.card(s.card)
        if s.note == "paid":
            return (f"pays {s.cost} point{'s' if abs(s.cost) != 1 else ''} to look at its "
                    f"face-down card at {where}: {card}")
        if s.note == "before_placing":
            return f"looks first at its face-down card at {where}: {card}"
        if s.target is not None and s.target != s.seat:
            return (f"looks at seat {s.target}'s face-down card at {where}: {card} (only it "
                    "sees the card)")
        if s.note == "power":
            return f"looks at its face-down card at {where}: {card} (only it sees the card)"
        return f"looks at {where}: {card} (only it sees the card)"

    def decision_clause(self, s: Step) -> str:
        """Decisions that no card movement tells."""
        if s.decision == "knock" and s.action == "pass":
            return f"and does not {self.call()}"
        if s.decision == "swap" and s.action == "pass":
            return "and does not swap them"
        if s.decision in ("place_drawn", "place_taken") and s.action == "match":
            return "and tries a match with it"
        if s.decision == "flip" and s.action == "pass":
            return "and leaves its last face-down card face down"
        if s.decision == "remove" and s.action == "pass":
            return "keeps its completed group in the layout"
        if s.decision == "turn" and s.action == "flip_all":
            return "turns all its face-down cards up"
        return ""

    def end_clause(self, s: Step) -> str:
        t = s.table
        how = {"knock": self.calls(), "flip_all": "and so ends the hole",
               "out": "and goes out, every card of its layout face up",
               "all_out": "and so every layout is face up"}.get(s.note, "ends the hole")
        left = t.final_left or 0
        if left <= 0:
            follow = "the hole ends now"
        elif self.rules.final_turns == "each_other_player_once":
            follow = "every other seat plays one final turn"
        else:
            follow = f"{left} final turn{'s' if left != 1 else ''} follow"
        if self.rules.reveal_on_trigger and s.note != "all_out":
            follow += ", with every other layout turned face up first"
        return f"{how}: {follow}"

    def over_clause(self, s: Step) -> str:
        return {
            "capped": f"the hole is stopped by the safety cap of {self.rules.turn_cap} turns "
                      "(turn_cap)",
            "stock_out": "the stock has run out: the hole ends (stock_empty = end_hole)",
            "stuck": "the hole ends",
        }.get(s.note, "the hole is over")

    # -- headings and tables --------------------------------------------------------------
    def heading(self, group: Group) -> str:
        if group.kind == "setup":
            return "The deal" + (" and the initial reveal"
                                 if any(s.phase == "reveal" for s in group.steps) else "")
        if group.kind == "end":
            return "The end of the hole"
        strategy = self.hole.strategies[group.seat]
        final = ", final turn" if group.final else ""
        return f"Turn {group.turn + 1}: seat {group.seat} ({strategy}{final})"

    def layout_cells(self, table: Table, seat: int, observer: int | None = None,
                     show_hidden: bool = False) -> list[str]:
        """Seat ``seat``'s cells as ``observer`` (default: the seat itself) knows them."""
        observer = seat if observer is None else observer
        out = []
        for p, c in enumerate(table.cards[seat]):
            if c >= K.EMPTY0:
                out.append(EMPTY_TEXT)
            elif table.up[seat][p]:
                out.append(self.card(c))
            elif table.known[observer][seat][p]:
                out.append(f"({self.card(c)})")
            else:
                out.append(UNKNOWN + (f"={self.card(c)}" if show_hidden else ""))
        return out

    def grid_text(self, cells: list[str], width: int = 0) -> str:
        r = self.rules
        width = max([width] + [len(c) for c in cells])
        cols = r.grid_cols if r.grid_rows * r.grid_cols == len(cells) else len(cells)
        rows = [cells[i:i + cols] for i in range(0, len(cells), cols)]
        return " / ".join(" ".join(c.ljust(width) for c in row) for row in rows).rstrip()

    def others_known(self, table: Table, observer: int) -> str:
        known = table.known_elsewhere(observer)
        if not known:
            return ""
        return "knows " + ", ".join(f"seat {s} position {p} = {self.card(c)}"
                                    for s, p, c in known)

    def pile_text(self, table: Table) -> str:
        d = table.discard
        if not d:
            pile = "discard pile empty"
        else:
            shown = " ".join(self.card(c) for c in d[-4:])
            pile = f"discard pile {'... ' if len(d) > 4 else ''}{shown} (top; {len(d)} " \
                   f"card{'s' if len(d) != 1 else ''})"
        return f"{pile} · stock {table.stock}"


# ---- the power engine's steps in words (clause, subject seat) ------------------------------
def _power_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    what = POWER_WORDS.get(s.effect, s.effect)
    if s.note == "combined":
        return f"as one of the two: {what}", s.seat
    if s.note == "from_discard":
        return (f"picks up {w.card(s.card)} from the discard pile to use its power "
                f"({what})"), s.seat
    return _held(w, s, last, "uses {} power") + f" ({what})", s.seat


def _unused_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return _held(w, s, last, "leaves {} power unused"), s.seat


def _held(w: Words, s: Step, last: Step | None, text: str) -> str:
    """``text`` about the card just drawn or taken ("and uses its power"), or named."""
    joined = last is not None and last.kind in ("draw", "take") and last.card == s.card
    return ("and " if joined else "") + text.format("its" if joined else
                                                    f"the {w.card(s.card)}'s")


def _swap_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    a, b = s.cards
    blind = ", unseen" if s.effect in BLIND_SWAPS else ""
    return (f"swaps {w.whose(s.seat, s.source, s.source_pos, a)} with "
            f"{w.whose(s.seat, s.target, s.target_pos, b)}{blind}"), s.seat


def _move_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    why = {"snap": "the snapped card", "match": "the matched card"}.get(s.note, "a card")
    return (f"gives {w.whose(s.seat, s.source, s.source_pos, s.card)} blind to seat "
            f"{s.target}, into seat {s.target}'s {w.position(s.target_pos)} where {why} "
            "was"), s.seat


def _shuffle_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    where = ", ".join(map(str, s.cells))
    return (f"shuffles seat {s.target}'s face-down cards (positions {where}): nobody knows "
            "them now, seat " + f"{s.target} included"), s.seat


def _show_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return f"shows {w.whose(s.seat, s.target, s.target_pos)} to everyone: {w.card(s.card)}", \
        s.seat


def _snap_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    if s.note == "hit":
        return (f"snaps {w.whose(s.seat, s.target, s.target_pos, s.card)} onto the discard "
                f"pile: it matches the card on top"), s.seat
    return (f"snaps at {w.whose(s.seat, s.target, s.target_pos)}, but it is {w.card(s.card)}, "
            "which does not match the top discard: it is shown to everyone and goes back"), \
        s.seat


def _snap_penalty_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return (f"and pays a snap penalty of {s.value} point{'s' if abs(s.value) != 1 else ''} "
            "for the missed snap"), s.seat


def _match_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return (f"discards {w.whose(s.seat, s.target, s.target_pos, s.card)}: it matches"), s.seat


def _remove_card_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return (f"puts {w.whose(s.seat, s.target, s.target_pos, s.card)} face up on the discard "
            "pile, emptying the position"), s.seat


def _put_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    where = w.position(s.target_pos)
    face = "face up" if s.face_up else "face down"
    if s.note in PENALTY_CARDS:
        return (f"gets a penalty card from the stock at {where}, face down and seen by "
                f"nobody, {PENALTY_CARDS[s.note]}"), s.target
    if s.effect == "give_or_remove":
        return (f"gives seat {s.target} the top stock card ({w.card(s.card)}), face down and "
                f"seen by nobody, at seat {s.target}'s {where}"), s.seat
    into = "its" if s.target == s.seat else f"seat {s.target}'s"
    added = " (a failed match adds it to the layout)" if s.note == "match" and \
        last is not None and last.kind == "show" else ""
    return f"puts {w.card(s.card)} at {into} {where}, {face}{added}", s.seat


def _cancel_clause(w: Words, s: Step, last: Step | None) -> tuple[str, int | None]:
    return "cancels the final lap in progress: nobody is the ender now and play goes on", \
        s.seat


POWER_KINDS = {"power": _power_clause, "power_unused": _unused_clause, "swap": _swap_clause,
               "move": _move_clause, "shuffle": _shuffle_clause, "show": _show_clause,
               "snap": _snap_clause, "snap_penalty": _snap_penalty_clause,
               "match": _match_clause, "remove_card": _remove_card_clause, "put": _put_clause,
               "cancel": _cancel_clause}


# ---- text ------------------------------------------------------------------------------------
def _scores_lines(hole: HoleReplay, w: Words, indent: str = "  ") -> list[str]:
    lines = []
    cells_all = [[w.card(c) for c in row] for row in hole.layouts]
    width = max(len(c) for row in cells_all for c in row)
    for s in range(hole.players):
        extra = []
        if hole.scores[s] != hole.layout_values[s]:
            extra.append(_difference(hole, s))
        lines.append(f"{indent}seat {s}: {w.grid_text(cells_all[s], width)}   layout value "
                     f"{hole.layout_values[s]}, hole score {hole.scores[s]}"
                     + (f" ({'; '.join(extra)})" if extra else ""))
    low = min(hole.scores)
    winners = [s for s in range(hole.players) if hole.scores[s] == low]
    if len(winners) == 1:
        lines.append(f"{indent}seat {winners[0]} wins the hole with {low}.")
    else:
        lines.append(f"{indent}seats {', '.join(map(str, winners))} tie for the lowest score "
                     f"({low}).")
    return lines


# the scoring rules after the layout value, in the order hole_scores applies them: (the
# options that switch the rule off, what it is called)
SCORE_RULES = (
    ({"quad_others_penalty": 0}, "for the quads others scored (quad_others_penalty)"),
    ({"ender_penalty": "none", "ender_bonus": "none"}, "ender"),
    ({"ender_extra": 0}, "the ender's extra (ender_extra)"),
    ({"non_caller_rule": "layout_value"},
     "scores 0, its layout value not above the caller's (non_caller_rule)"),
    ({"lowest_scores_zero": False}, "the lowest layout scores 0 (lowest_scores_zero)"),
    ({"shoot_the_moon": None}, "shooting the moon (shoot_the_moon)"),
    ({"lowest_bonus": 0}, "the lowest score's bonus (lowest_bonus)"),
    ({"tie_penalty": 0}, "a shared score (tie_penalty)"),
)


def _couples(hole: HoleReplay) -> list[int]:
    value = CardTable(hole.rules, hole.players).value
    return [layout_value_grown(hole.rules, value, row)[1] for row in hole.layouts]


def _ender_label(hole: HoleReplay) -> str:
    r = hole.rules
    who = f"the {r.call_name} caller" if hole.knocked and r.call_name != "Knock" else \
        "the knocker" if hole.knocked else "the ender"
    rules = [f"{name} = {getattr(r, name)}" for name in ("ender_penalty", "ender_bonus")
             if getattr(r, name) != "none"]
    return f"{who}'s adjustment ({', '.join(rules)})"


def score_breakdown(hole: HoleReplay) -> list[list[tuple[int, str]]]:
    """Per seat, (points, the rule that gave them) from its layout value to its hole score:
    points incurred in the hole (missed snaps, paid looks), then each scoring rule that
    changed the score."""
    final = hole.steps[-1].table
    snaps = [0] * hole.players
    for step in hole.steps:
        if step.kind == "snap_penalty":
            snaps[step.seat] += step.value
    out = [[(v, "snap penalties for missed snaps")] if v else [] for v in snaps]
    for s in range(hole.players):
        if final.penalty[s] != snaps[s]:
            out[s].append((final.penalty[s] - snaps[s], "paid to peek (pay_to_peek)"))
    ender = -1 if hole.ender is None else hole.ender
    couples = _couples(hole)
    previous = None
    for k in range(len(SCORE_RULES) + 1):
        off = {o: v for options, _ in SCORE_RULES[k:] for o, v in options.items()}
        scores = hole_scores(hole.rules.with_options(**off), hole.layout_values, ender,
                             hole.knocked, couples, extra=list(final.penalty))
        if previous is not None:
            label = SCORE_RULES[k - 1][1]
            label = _ender_label(hole) if label == "ender" else label
            for s in range(hole.players):
                if scores[s] != previous[s]:
                    out[s].append((scores[s] - previous[s], label))
        previous = scores
    for s in range(hole.players):   # anything the rules above do not tell
        rest = hole.scores[s] - hole.layout_values[s] - sum(v for v, _ in out[s])
        if rest:
            out[s].append((rest, "the hole's other scoring rules"))
    return out


def _difference(hole: HoleReplay, s: int) -> str:
    return "; ".join(f"{v:+d} {why}" for v, why in score_breakdown(hole)[s])


def _seat_lines(w: Words, table: Table, actor: int | None, show_hidden: bool,
                indent: str = "  ") -> list[str]:
    lines = []
    cells = [w.layout_cells(table, s, show_hidden=show_hidden) for s in range(len(table.cards))]
    width = max(len(c) for row in cells for c in row)
    for s in range(len(table.cards)):
        mark = "*" if s == actor else " "
        other = w.others_known(table, s)
        lines.append(f"{indent}{mark}seat {s}: {w.grid_text(cells[s], width)}"
                     + (f"   ({other})" if other else ""))
    lines.append(f"{indent} {w.pile_text(table)}")
    return lines


def hole_text(hole: HoleReplay, ascii_only: bool = False, show_hidden: bool = False,
              header: bool = True, preset: str | None = None) -> str:
    w = Words(hole, ascii_only)
    lines: list[str] = []
    if header:
        lines += _header(hole.rules, preset, hole.players, hole.strategies, hole.seed,
                         f"round {hole.round_index}")
        lines.append(_legend(show_hidden, ascii_only))
        lines.append("")
    for g in groups(hole):
        lines.append(w.heading(g))
        lines += [f"  {s}" for s in w.sentences(g)]
        if g.kind != "end":
            lines += _seat_lines(w, g.after, g.seat, show_hidden)
        else:
            lines.append("  Final layouts (every card turned up), layout values and scores:")
            lines += _scores_lines(hole, w, "    ")
        lines.append("")
    lines.append(f"(replayed by the reference engine from the compiled round's "
                 f"{sum(s.kind == 'decision' for s in hole.steps)} decisions: the same moves, "
                 "final layouts and scores)")
    return "\n".join(lines)


def _header(rules, preset, players, strategies, seed, what) -> list[str]:
    seats = ", ".join(f"{i} {s}" for i, s in enumerate(strategies)) \
        if len(set(strategies)) > 1 else f"all {strategies[0]}"
    return [f"golfsim replay: {what} of seed {seed}",
            f"rules: {describe(rules, preset or 'custom')}",
            f"{players} players; seats {seats}"]


def _legend(show_hidden: bool, ascii_only: bool = False) -> str:
    k = "KS" if ascii_only else "K♠"
    return (f"cards: {k} face up; ({k}) face down, known to its owner; ?? face down, unknown "
            "to its owner" + (f" (??={k}: the card it is)" if show_hidden else "") +
            "; * the seat that played the turn. Positions count from 0 row by row.")


def match_text(m: MatchReplay, ascii_only: bool = False, show_hidden: bool = False,
               preset: str | None = None, only_hole: int | None = None) -> str:
    how = f"{m.holes_asked} holes" if m.holes_asked else f"until a total reaches {m.target}"
    lines = _header(m.rules, preset, m.players, m.strategies, m.seed,
                    f"match {m.match} ({how})")
    lines.append(_legend(show_hidden, ascii_only))
    lines.append("")
    for h, running in zip(m.holes, m.running):
        if only_hole is not None and h.hole != only_hole:
            continue
        order = ", ".join(map(str, h.order))
        lines.append(f"=== Hole {h.hole + 1} of match {m.match} (round {h.round_index}): "
                     f"seat {h.first} plays first (turn order {order}) ===")
        lines.append(hole_text(h, ascii_only, show_hidden, header=False))
        lines.append("totals after this hole: " +
                     ", ".join(f"seat {s} {t}" for s, t in enumerate(running)))
        lines.append("")
    lines += match_result_lines(m)
    return "\n".join(lines)


def match_result_lines(m: MatchReplay) -> list[str]:
    lines = [f"The match is over after {len(m.holes)} hole{'s' if len(m.holes) != 1 else ''}: "
             "totals " + ", ".join(f"seat {s} {t}" for s, t in enumerate(m.totals)) + "."]
    winners = [s for s in range(m.players) if m.wins[s] > 0]
    if len(winners) == 1:
        lines.append(f"seat {winners[0]} wins the match.")
    else:
        lines.append("seats " + ", ".join(map(str, winners)) + " share the match win.")
    if any(m.pot_balances):
        lines.append("pot balances: " + ", ".join(f"seat {s} {b:+d}"
                                                  for s, b in enumerate(m.pot_balances)))
    return lines


# ---- HTML ------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 62em; color: #222;
  padding: 0 1em; }
h1, h2, h3, p { overflow-wrap: break-word; }
.scroll { overflow-x: auto; max-width: 100%; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
h3 { font-size: 1em; margin: 1.2em 0 0.3em; }
section { border-top: 1px solid #ddd; padding-top: 0.3em; }
table.seats { border-collapse: collapse; margin: 0.4em 0; }
table.seats td, table.seats th { padding: 0.25em 0.7em; vertical-align: middle;
  text-align: left; border-bottom: 1px solid #eee; }
tr.actor { background: #fff7d6; }
.grid { display: inline-grid; gap: 3px; }
.card { display: inline-block; min-width: 2.2em; padding: 0.15em 0.2em; text-align: center;
  border: 1px solid #999; border-radius: 4px; background: #fff; font-weight: 600; }
.card.red { color: #c0182b; }
.card.down { background: #e8eef7; border-style: dashed; font-weight: 400; }
.card.unknown { background: #4a6fa5; color: #fff; border-color: #34507a; }
.card.empty { background: transparent; border-color: #ccc; color: #aaa; }
.card.changed { outline: 2px solid #e8a400; }
.secret { display: none; font-size: 0.8em; opacity: 0.8; }
#show-hidden:checked ~ main .secret { display: inline; }
.pile { color: #555; font-size: 0.9em; }
.note { color: #555; font-size: 0.9em; }
.legend .card { min-width: 1.6em; }
p.say { margin: 0.25em 0; }
@media (max-width: 600px) {
  body { margin: 1em auto; padding: 0 0.6em; }
  table.seats td, table.seats th { padding: 0.2em 0.35em; }
}
@media print {   /* paper does not scroll: every table whole, a turn not split */
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  .scroll { overflow: visible; }
  table.seats { width: 100%; font-size: 9pt; }
  table.seats td, table.seats th { overflow-wrap: anywhere; }
  tr, section { break-inside: avoid; page-break-inside: avoid; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
}
"""


def _changed(table: Table, seat: int, p: int, before: Table | None) -> bool:
    """Did the seat's position p change since ``before`` (a position added since did)?"""
    if before is None:
        return False
    if p >= len(before.cards[seat]):
        return True
    return (before.cards[seat][p] != table.cards[seat][p] or
            before.up[seat][p] != table.up[seat][p] or
            before.known[seat][seat][p] != table.known[seat][seat][p])


def _caption(w: Words, s: Step, by: str) -> dict[tuple[int, int], str]:
    """What one step did to the cells it touched, in words ((seat, position): words);
    ``by`` names the power card in use (", by the K♥'s power"), if any."""
    k, who = s.kind, f"seat {s.seat}"
    if k == "place":
        return {(s.seat, s.pos): f"{w.card(s.card)} placed by {who}"}
    if k == "reveal":
        return {(s.seat if s.target is None else s.target, s.pos): f"turned up by {who}{by}"}
    if k == "peek":
        return {(s.seat if s.target is None else s.target, s.pos): f"looked at by {who}{by}"}
    if k == "arrange":
        return {(s.seat, s.pos): f"{w.card(s.card)} moved here by {who}"}
    if k == "swap":
        a, b = (s.source, s.source_pos), (s.target, s.target_pos)
        return {a: f"swapped with seat {b[0]}'s card at position {b[1]}{by}",
                b: f"swapped with seat {a[0]}'s card at position {a[1]}{by}"}
    if k == "move":
        return {(s.target, s.target_pos): f"given blind by {who}",
                (s.source, s.source_pos): f"emptied: its card given to seat {s.target}"}
    if k == "shuffle":
        return {(s.target, p): f"shuffled by {who}{by}" for p in s.cells}
    if k in ("snap", "match", "remove_card", "show"):
        done = {"snap": "snapped by" if s.note == "hit" else "a missed snap by",
                "match": "discarded in a match by", "remove_card": "removed by",
                "show": "shown to everyone by"}[k]
        return {(s.target, s.target_pos): f"{done} {who}{by}"}
    if k == "put":
        how = PENALTY_CARDS.get(s.note)
        return {(s.target, s.target_pos): f"a penalty card {how}" if how else
                f"{w.card(s.card)} put there by {who}{by}"}
    if k == "remove":
        return {(s.seat, p): f"removed with its group by {who}" for p in s.cells}
    return {}


def captions(w: Words, g: Group) -> dict[tuple[int, int], str]:
    """Why each cell changed in the group: (seat, position): words."""
    out: dict[tuple[int, int], str] = {}
    by = ""
    for s in g.steps:
        if s.kind == "power":
            by = f", by the {w.card(s.card)}'s power"
        for cell, words in _caption(w, s, by).items():
            out[cell] = f"{out[cell]}; then {words}" if cell in out else words
    return out


def _card_html(w: Words, table: Table, seat: int, p: int, before: Table | None,
               why: str = "") -> str:
    c = table.cards[seat][p]
    changed = _changed(table, seat, p, before)
    cls = ["card"]
    if changed:
        cls.append("changed")
    why = html.escape(f"; {why or 'changed in this turn'}") if changed else ""
    if c >= K.EMPTY0:
        return f'<span class="{" ".join(cls + ["empty"])}" title="empty{why}">{EMPTY_TEXT}' \
               '</span>'
    name = html.escape(w.card(c))
    if is_red(c):
        cls.append("red")
    if table.up[seat][p]:
        return f'<span class="{" ".join(cls)}" title="face up{why}">{name}</span>'
    if table.known[seat][seat][p]:
        return (f'<span class="{" ".join(cls + ["down"])}" title="face down, known to its '
                f'owner{why}">{name}</span>')
    return (f'<span class="{" ".join(c_ for c_ in cls if c_ != "red") + " unknown"}" '
            f'title="face down, unknown to its owner{why}">{UNKNOWN}'
            f'<span class="secret"> {name}</span></span>')


def _spec_html(spec: str) -> str:
    """A strategy spec that may break after its colon and commas on a narrow screen."""
    return html.escape(spec).replace(":", ":<wbr>").replace(",", ",<wbr>")


def _grid_html(w: Words, table: Table, seat: int, before: Table | None,
               why: dict[tuple[int, int], str] | None = None) -> str:
    r = w.rules
    n = len(table.cards[seat])
    cols = r.grid_cols if r.grid_rows * r.grid_cols == n else n
    why = why or {}
    cells = "".join(_card_html(w, table, seat, p, before, why.get((seat, p), ""))
                    for p in range(n))
    return f'<div class="grid" style="grid-template-columns: repeat({cols}, auto)">{cells}</div>'


def _seats_table_html(w: Words, g: Group, hole: HoleReplay, others: bool) -> str:
    """A row per seat: its layout as it knows it (and, when ``others``, the face-down cards
    of other seats it knows)."""
    rows = ['<tr><th>seat</th><th>strategy</th><th>its layout as it knows it</th>' +
            ('<th>face-down cards of others it knows</th>' if others else '') + '</tr>']
    why = captions(w, g)
    for s in range(hole.players):
        other = w.others_known(g.after, s)
        rows.append(f'<tr class="{"actor" if s == g.seat else ""}"><td>{s}</td>'
                    f'<td>{_spec_html(hole.strategies[s])}</td>'
                    f'<td>{_grid_html(w, g.after, s, g.before, why)}</td>' +
                    (f'<td class="note">{html.escape(other[6:]) if other else ""}</td>'
                     if others else '') + '</tr>')
    ringed = [f"seat {s} position {p}: {why.get((s, p), 'changed in this turn')}"
              for s in range(hole.players) for p in range(len(g.after.cards[s]))
              if _changed(g.after, s, p, g.before)]
    told = f'<p class="note">Ringed: {html.escape("; ".join(ringed))}.</p>' if ringed else ""
    return f'<div class="scroll"><table class="seats">{"".join(rows)}</table></div>' \
           f'<div class="pile">{html.escape(w.pile_text(g.after))}</div>{told}'


def _final_table_html(w: Words, hole: HoleReplay) -> str:
    rows = ['<tr><th>seat</th><th>strategy</th><th>final layout</th><th>layout value</th>'
            '<th>hole score</th></tr>']
    low = min(hole.scores)
    for s in range(hole.players):
        cells = "".join(
            f'<span class="card{" red" if c < K.EMPTY0 and is_red(c) else ""}'
            f'{" empty" if c >= K.EMPTY0 else ""}">{html.escape(w.card(c))}</span>'
            for c in hole.layouts[s])
        r = w.rules
        cols = r.grid_cols if r.grid_rows * r.grid_cols == len(hole.layouts[s]) else \
            len(hole.layouts[s])
        note = f" ({html.escape(_difference(hole, s))})" \
            if hole.scores[s] != hole.layout_values[s] else ""
        best = " &larr; lowest" if hole.scores[s] == low else ""
        rows.append(f'<tr><td>{s}</td><td>{_spec_html(hole.strategies[s])}</td>'
                    f'<td><div class="grid" style="grid-template-columns: repeat({cols}, auto)">'
                    f'{cells}</div></td><td>{hole.layout_values[s]}</td>'
                    f'<td><b>{hole.scores[s]}</b>{note}{best}</td></tr>')
    return f'<div class="scroll"><table class="seats">{"".join(rows)}</table></div>'


def _hole_html(hole: HoleReplay, ascii_only: bool, level: str = "h2") -> str:
    w = Words(hole, ascii_only)
    parts = []
    others = any(s.table.known_elsewhere(o) for s in hole.steps for o in range(hole.players))
    for g in groups(hole):
        parts.append(f"<section><{level}>{html.escape(w.heading(g))}</{level}>")
        parts += [f'<p class="say">{html.escape(s)}</p>' for s in w.sentences(g)]
        if g.kind == "end":
            parts.append(_final_table_html(w, hole))
            low = min(hole.scores)
            winners = [s for s in range(hole.players) if hole.scores[s] == low]
            parts.append('<p class="say">' + (f"seat {winners[0]} wins the hole with {low}."
                         if len(winners) == 1 else "seats " + ", ".join(map(str, winners)) +
                         f" tie for the lowest score ({low}).") + "</p>")
        else:
            parts.append(_seats_table_html(w, g, hole, others))
        parts.append("</section>")
    parts.append(f'<p class="note">Replayed by the reference engine from the compiled round\'s '
                 f'{sum(s.kind == "decision" for s in hole.steps)} decisions: the same moves, '
                 'final layouts and scores.</p>')
    return "\n".join(parts)


def _page(title: str, header_lines: list[str], body: str) -> str:
    head = "".join(f"<p>{html.escape(line)}</p>" for line in header_lines)
    legend = ('<p class="legend">Cards: <span class="card">K♠</span> face up, '
              '<span class="card down">K♠</span> face down and known to its owner, '
              '<span class="card unknown">??</span> face down and unknown to its owner; '
              'a <span class="card changed">ringed</span> card changed in that turn; the '
              'highlighted row is the seat that played. Positions count from 0, row by row.'
              '</p>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><style>{CSS}</style></head><body>'
            f'<h1>{html.escape(title)}</h1>{head}{legend}'
            f'<input type="checkbox" id="show-hidden"> <label for="show-hidden">show the '
            f'face-down cards nobody knows</label>'
            f'<main>{body}</main></body></html>\n')


def hole_html(hole: HoleReplay, ascii_only: bool = False, preset: str | None = None) -> str:
    header = _header(hole.rules, preset, hole.players, hole.strategies, hole.seed,
                     f"round {hole.round_index}")
    return _page(header[0], header[1:], _hole_html(hole, ascii_only))


def match_html(m: MatchReplay, ascii_only: bool = False, preset: str | None = None,
               only_hole: int | None = None) -> str:
    how = f"{m.holes_asked} holes" if m.holes_asked else f"until a total reaches {m.target}"
    header = _header(m.rules, preset, m.players, m.strategies, m.seed,
                     f"match {m.match} ({how})")
    body = []
    for h, running in zip(m.holes, m.running):
        if only_hole is not None and h.hole != only_hole:
            continue
        body.append(f'<h2 style="font-size:1.3em">Hole {h.hole + 1} (round {h.round_index}): '
                    f'seat {h.first} plays first</h2>')
        body.append(_hole_html(h, ascii_only, "h3"))
        body.append('<p class="say"><b>Totals after this hole:</b> ' +
                    ", ".join(f"seat {s} {t}" for s, t in enumerate(running)) + "</p>")
    body.append("<section><h2>The match</h2>" +
                "".join(f'<p class="say">{html.escape(x)}</p>' for x in match_result_lines(m))
                + "</section>")
    return _page(header[0], header[1:], "\n".join(body))


__all__ = ["Group", "Words", "groups", "hole_html", "hole_text", "match_html", "match_text"]
