"""The plain-Python reference engine: the readable truth that the compiled kernel must match.

Everything a hole needs is here in small, plain methods, without compiled code or arrays: a
:class:`GameState` with one :class:`Cell` per layout position (its card, whether it is face up,
and which seats know it), the piles, the turn structure (including the knock of
docs/rules.md#ending-a-hole, instead of a turn or right after it, ``knock_timing``), the three
built-in policies (``random``, and ``greedy`` and ``knock-threshold`` of the workloads W1 and W2,
docs/benchmarks.md) and the scoring of docs/rules.md#scoring-a-hole with every pair scope of
docs/rules.md#how-a-layout-is-scored, written again from the text rather than shared with
:mod:`simulator.kernel.scoring`. The rules reference is docs/rules.md.

The reference reproduces the compiled engine (:mod:`simulator.kernel.engine`) move for move:

* the same random streams (:class:`simulator.game.streams.PyStream`): the deal and any reshuffle draw
  from ``STREAM_DEAL`` of (seed, round), seat ``s`` draws its random choices from
  ``STREAM_SEAT0 + s``;
* the same deck order (decks in turn, each ``52 + jokers`` ids in id order), shuffled by
  Fisher-Yates from the top, with the stock's top at the end of the list;
* the same decision points and the same legal actions in the same (ascending) order, and a
  move log with the kernel's rows ``(turn, seat, decision point, action, held card)``.

Options of the deal, turns and ending beyond the base game, each in one place: ``knock_min_laps``
(:meth:`Hole.turn_options`), ``reveal_on_trigger`` (:meth:`GameState.start_end`),
``owner_view = all`` (:meth:`GameState.deal`), ``initial_reveal.mode = flip_on_first_turn`` with
constraint ``any`` or ``whole_column`` (:meth:`Hole.first_turn_reveal`), and ``layout_mode =
hand`` (:func:`score_layout`; a hand pairs with scope ``anywhere`` or ``none`` only, so nothing
else depends on where a card lies), ``pay_to_peek`` (:meth:`Hole.pay_to_peek`, AMB-16) and
``jack_discard_skips_next`` (:meth:`GameState.put_on_discard` marks the next seat,
:meth:`Hole.play_turns` skips it, AMB-19).

A policy never sees the GameState: at each decision it is handed an :class:`Observation` built
from scratch with only what its seat may see (its own known cards, the face-up cards of every
layout, the discard pile, the stock count and the card it holds).

Where the rules leave a choice open, the engine's choice is followed and named in a comment
(the AMB ids of docs/rules.md#ambiguities-resolved).
Rules the kernel once got wrong and that the parity tests now pin down:

* ``stock_empty = end_hole``: the hole ends when the stock runs out (docs/rules.md#stock_empty);
* ``block_2x2_value`` also scores with ``pair_scope = none`` (step (e) of
  docs/rules.md#how-a-layout-is-scored);
* free pairing takes the owner's best maximum matching even when pair values differ
  (step (c), e.g. red kings at -1 with ``negative_pairs_keep_value``);
* a player who shoots the moon scores 0, whatever ender or quad adjustment it had
  (docs/rules.md#shoot_the_moon, AMB-30).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as with_fields
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache

from . import cards as C
from . import codes as K
from .streams import STREAM_DEAL, STREAM_DEALER, STREAM_SEAT0, STREAM_TIEBREAK, PyStream
from .rules import JOKER_PAIR_SCHEMES, SCHEME_TABLES, Rules, suited_value


class Decision(IntEnum):
    """What a policy is asked (the kernel's DP_* codes)."""
    REVEAL = K.DP_REVEAL            # choose a position for the initial flip / peek
    TURN = K.DP_TURN                # start of a turn: draw, take the discard, flip, ...
    PLACE_DRAWN = K.DP_PLACE_DRAWN  # holding a stock card: a position, or DISCARD
    PLACE_TAKEN = K.DP_PLACE_TAKEN  # holding the taken discard: a position
    FLIP = K.DP_FLIP                # choose a face-down position to turn up (or PASS)
    FACE = K.DP_FACE                # placement_face = player_choice: FACE_UP or FACE_DOWN
    PEEK = K.DP_PEEK                # pay_to_peek: which own unknown face-down card to look at
    KNOCK = K.DP_KNOCK              # knock_timing other than instead_of_turn: KNOCK or PASS
    ARRANGE = K.DP_ARRANGE          # rearrange_after_reveal: a position for the held face-up card
    REMOVE = K.DP_REMOVE            # remove_cancelled optional: REMOVE or PASS (held: 1st cell)
    # power-card games (simulator/game/powers.py)
    TARGET_SEAT = K.DP_TARGET_SEAT  # name a seat for the effect in Observation.power
    TARGET_POS = K.DP_TARGET_POS    # a position of Observation.target_seat (Dutch 7: a line)
    SWAP = K.DP_SWAP                # confirm an optional swap: SWAP or PASS
    KEEP = K.DP_KEEP                # Dutch 8: 0 or 1, which of Observation.choices to keep
    SNAP = K.DP_SNAP                # snap onto the new top discard: SNAP or PASS
    NOMINATE = K.DP_NOMINATE        # Pablo / Cabo: nominate a card, PASS ends
    CHOOSE_POWER = K.DP_CHOOSE_POWER  # Dutch 2: a power by its rank index, PASS stops


class Action(IntEnum):
    """Non-position actions (the kernel's A_* codes); positions are the plain ints 0..15."""
    DRAW_STOCK = K.A_DRAW_STOCK
    TAKE_DISCARD = K.A_TAKE_DISCARD
    KNOCK = K.A_KNOCK
    DISCARD = K.A_DISCARD
    FLIP = K.A_FLIP
    FLIP_ALL = K.A_FLIP_ALL
    PASS = K.A_PASS
    FACE_UP = K.A_FACE_UP
    FACE_DOWN = K.A_FACE_DOWN
    PEEK = K.A_PEEK                 # pay_to_peek: look at one own face-down card, then go on
    REMOVE = K.A_REMOVE             # remove_cancelled: the completed group leaves the layout
    POWER = K.A_POWER               # use the held stock card's power
    MATCH = K.A_MATCH               # Pablo multi-replace / Cabo match with the held card
    SNAP = K.A_SNAP                 # snap a card onto the new top discard
    SWAP = K.A_SWAP                 # confirm an optional swap
    DISCARD_POWER = K.A_DISCARD_POWER  # Cactus: use the unused power of the top discard


NO_CARD = -1  # "no card" in log rows, as in the kernel


class InvariantError(AssertionError):
    """The reference engine's own bookkeeping is inconsistent (a bug in this module)."""


class IllegalActionError(RuntimeError):
    """A policy chose an action that is not legal at its decision point."""


# ================================================================================================
# Card values and pairing keys (docs/rules.md#card-values, docs/rules.md#match_key)
# ================================================================================================
BLACKJACK = 21             # twenty_one_scores_zero: the layout value that becomes 0


def card_value(rules: Rules, card: int) -> int:
    """Points of one card under the rule set: the named table, then the value_* overrides
    (rank overrides first, then single-card overrides, in the order the rule loader applies
    them)."""
    rank, suit = C.rank_of(card), C.suit_of(card)
    table = SCHEME_TABLES[rules.value_scheme]
    if rank == C.RANK_JOKER:
        if rules.value_joker in JOKER_PAIR_SCHEMES:
            return JOKER_PAIR_SCHEMES[rules.value_joker][0]
        if rules.value_joker is not None:
            return rules.value_joker
        return table[C.RANK_JOKER] if table[C.RANK_JOKER] is not None else -2
    value = table[rank]
    if rank == C.RANK_TWO:
        if rules.value_two is not None:
            value = rules.value_two
        if rules.twos_positive_with_jokers and rules.has_jokers:
            value = 2
        if rules.bonus_card == "twos":
            value = -2
    rank_override = {C.RANK_JACK: rules.value_jack, C.RANK_QUEEN: rules.value_queen,
                     C.RANK_KING: rules.value_king, C.RANK_EIGHT: rules.value_eight,
                     C.RANK_TEN: rules.value_ten}.get(rank)
    if rank_override is not None:
        value = rank_override
    return suited_value(rules, rank, suit, value)


def match_key(rules: Rules, card: int) -> int:
    """Two cards are 'equal' for pairing when their keys are equal (jokers match jokers)."""
    if rules.match_key == "point_value":
        return card_value(rules, card)
    return C.rank_of(card)


def is_joker(card: int) -> bool:
    return C.rank_of(card) == C.RANK_JOKER


@lru_cache(maxsize=256)
def _card_tables(rules: Rules, n_ids: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Value and key of every card id below n_ids, then (from K.EMPTY0) of the pseudo-card of
    each empty position (remove_cancelled): worth 0, with a key no other card has."""
    pad = K.EMPTY0 - n_ids
    return (tuple(card_value(rules, c) for c in range(n_ids)) + (0,) * pad +
            (0,) * K.MAX_POS,
            tuple(match_key(rules, c) for c in range(n_ids)) + (0,) * pad +
            tuple(K.EMPTY_KEY0 - p for p in range(K.MAX_POS)))


def is_empty(card: int) -> bool:
    """The pseudo-card of a position left empty by remove_cancelled?"""
    return card >= K.EMPTY0


class CardTable:
    """The cards of one rule set at one table size: the deck and every card's value and key."""

    def __init__(self, rules: Rules, players: int):
        self.decks = rules.decks_for(players)
        # canonical order: deck copy by deck copy, each 52 suited cards then its jokers
        self.deck = [copy * C.CARDS_PER_DECK + local
                     for copy in range(self.decks) for local in rules.deck_locals(copy)]
        self.value, self.key = _card_tables(rules, self.decks * C.CARDS_PER_DECK)
        self.deck_sum = sum(self.value[c] for c in self.deck)


# ================================================================================================
# Scoring (docs/rules.md#scoring-a-hole, docs/rules.md#how-a-layout-is-scored)
# ================================================================================================
@dataclass(frozen=True)
class LayoutScore:
    value: int     # the layout value L
    couples: int   # quads / blocks scored as couples (each costs others quad_others_penalty)


def layout_value(rules: Rules, cards: list[int]) -> int:
    """The layout value L of a complete layout (card ids row-major, all turned face up)."""
    return score_layout(rules, cards).value


def score_layout(rules: Rules, cards: list[int]) -> LayoutScore:
    """docs/rules.md#how-a-layout-is-scored, step by step."""
    rows, cols = rules.grid_rows, rules.grid_cols
    if len(cards) != rows * cols:
        raise ValueError(f"a {rows}x{cols} layout has {rows * cols} cards, got {len(cards)}")
    real = [c for c in cards if not is_empty(c)] or [0]
    values, keys = _card_tables(rules, (max(real) // C.CARDS_PER_DECK + 1) * C.CARDS_PER_DECK)
    # (a) whole-layout pattern: six equal cards
    if rules.six_of_kind_value is not None and len(cards) == 6 and \
            len({keys[c] for c in cards}) == 1:
        return LayoutScore(rules.six_of_kind_value, 0)
    # (b) two-row grid, pairs in columns: pair-columns, quads and blocks
    if rules.pair_scope == "column" and rows == 2 and \
            not any(is_wild(rules, c) for c in cards):
        return _score_two_row_columns(rules, cards, values, keys)
    # (e, first) 2x2 blocks of four equal cards, with the other pair scopes; a block outranks
    # the plain pairs its cards could form (AMB-25 precedence), so blocks are chosen first
    free = list(range(len(cards)))
    total = 0
    blocks = 0
    # a hand (layout_mode = hand, four_card_in_hand) has no geometry: no blocks, and its pair
    # scopes (anywhere, none) never ask where a card lies
    # (e) complete lines of three (3x3, line_sets): their cards score 0, union with blocks
    lines = _line_cells(rules, cards, keys) if rules.line_sets != "none" else set()
    if rules.block_2x2_value is not None and rows >= 2 and rules.layout_mode == "grid":
        block_cells = _best_blocks(cards, keys, rows, cols, values, lines)
        blocks = len(block_cells) // 4
        total += blocks * rules.block_2x2_value
        free = [p for p in free if p not in block_cells]
    free = [p for p in free if p not in lines]
    # (c) pairs within the scope: a maximum matching, the best one for the owner
    if rules.pair_scope == "none":
        return LayoutScore(total + sum(values[cards[p]] for p in free), blocks)
    if rules.pair_scope == "orthogonal_adjacent":
        # Moraco: every card with an equal orthogonal neighbour scores 0, a card may be in
        # several pairs. negative_pairs_keep_value does not apply (the rules name it only for
        # the matchings); neither, as in the kernel, does the -5 of two plus15 jokers, although
        # the rules give it for any scope (open: which pairs a chain of three jokers would
        # make)
        zero = {p for p in free for q in free
                if related("orthogonal_adjacent", p, q, cols) and
                keys[cards[p]] == keys[cards[q]]}
        return LayoutScore(total + sum(values[cards[p]] for p in free if p not in zero), blocks)
    relation = _RELATED[rules.pair_scope]
    wild = [p for p in free if is_wild(rules, cards[p])]
    if wild:
        return LayoutScore(total + _best_with_wilds(tuple(free), cards, cols, relation, rules,
                                                    values, keys)[1], blocks)
    # cards of different keys never pair, so each key is matched on its own
    by_key: dict[int, list[int]] = {}
    for p in free:
        by_key.setdefault(keys[cards[p]], []).append(p)
    for group in by_key.values():
        _, value = _best_matching(group, cards, cols, relation, rules, values)
        total += value
    return LayoutScore(total, blocks)


def is_wild(rules: Rules, card: int) -> bool:
    """A one-eyed jack (J♠, J♥) when one_eyed_jacks = wild."""
    return rules.one_eyed_jacks == "wild" and C.rank_of(card) == C.RANK_JACK and \
        C.suit_of(card) in (C.SPADES, C.HEARTS)


def _best_with_wilds(free, cards, cols, relation, rules, values, keys) -> tuple[int, int]:
    """(natural pairs, value) of the best way to pair the cells ``free`` (steps (c), (d)):
    the most natural pairs, then the lowest value; a one-eyed jack may also pair with one
    related card of any rank (or another wild), that pair scoring 0, at its owner's choice."""
    if not free:
        return 0, 0
    p, rest = free[0], free[1:]
    best = _best_with_wilds(rest, cards, cols, relation, rules, values, keys)
    best = (best[0], best[1] + values[cards[p]])
    for q in rest:
        if not relation(p // cols, p % cols, q // cols, q % cols):
            continue
        others = tuple(x for x in rest if x != q)
        sub_pairs, sub_value = _best_with_wilds(others, cards, cols, relation, rules, values,
                                                keys)
        options = []
        if keys[cards[p]] == keys[cards[q]]:
            options.append((sub_pairs + 1, sub_value + pair_value(rules, cards[p], cards[q])))
        if is_wild(rules, cards[p]) or is_wild(rules, cards[q]):
            options.append((sub_pairs, sub_value))
        for pairs, value in options:
            if pairs > best[0] or (pairs == best[0] and value < best[1]):
                best = (pairs, value)
    return best


# pair_scope -> may the cards at (r1, c1), (r2, c2) pair? (docs/rules.md#pair_scope)
_RELATED = {
    "none": lambda r1, c1, r2, c2: False,
    "column": lambda r1, c1, r2, c2: c1 == c2,
    "row_or_column": lambda r1, c1, r2, c2: r1 == r2 or c1 == c2,
    "row_column_diagonal": lambda r1, c1, r2, c2: r1 == r2 or c1 == c2 or
    abs(r1 - r2) == abs(c1 - c2),
    "anywhere": lambda r1, c1, r2, c2: True,
    "orthogonal_adjacent": lambda r1, c1, r2, c2: abs(r1 - r2) + abs(c1 - c2) == 1,
}


def related(scope: str, p: int, q: int, cols: int) -> bool:
    """May the cards at row-major positions p and q pair under ``scope``?"""
    return _RELATED[scope](p // cols, p % cols, q // cols, q % cols)


def pair_value(rules: Rules, a: int, b: int) -> int:
    """What a cancelled pair contributes: 0; two jokers under plus15_pair_minus5 -5 together
    (plus2_pair_minus4: -4); two negative cards their own (negative) sum under
    negative_pairs_keep_value."""
    va, vb = card_value(rules, a), card_value(rules, b)
    if rules.value_joker in JOKER_PAIR_SCHEMES and is_joker(a) and is_joker(b):
        return JOKER_PAIR_SCHEMES[rules.value_joker][1]
    if rules.negative_pairs_keep_value and va < 0 and vb < 0:
        return va + vb
    return 0


def _best_matching(group, cards, cols, relation, rules, values) -> tuple[int, int]:
    """(pairs, value) of the positions in ``group`` (all of one key): the most pairs (pairing
    is compulsory, AMB-28), and among those the lowest value. Exhaustive; groups are small."""
    if not group:
        return 0, 0
    first, rest = group[0], group[1:]
    # first card left unpaired
    pairs, value = _best_matching(rest, cards, cols, relation, rules, values)
    best = (pairs, value + values[cards[first]])
    for q in rest:
        if relation(first // cols, first % cols, q // cols, q % cols):
            others = [x for x in rest if x != q]
            pairs, value = _best_matching(others, cards, cols, relation, rules, values)
            candidate = (pairs + 1, value + pair_value(rules, cards[first], cards[q]))
            if candidate[0] > best[0] or (candidate[0] == best[0] and candidate[1] < best[1]):
                best = candidate
    return best


def _line_cells(rules: Rules, cards, keys) -> set[int]:
    """Cells of the complete lines of three equal cards that line_sets counts (3x3,
    docs/rules.md#line_sets)."""
    lines = {"none": [],
             "columns": [(0, 3, 6), (1, 4, 7), (2, 5, 8)],
             "rows_and_columns": [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 1, 2), (3, 4, 5), (6, 7, 8)],
             "rows_columns_diagonals": [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 1, 2), (3, 4, 5),
                                        (6, 7, 8), (0, 4, 8), (2, 4, 6)]}[rules.line_sets]
    return {p for line in lines if len({keys[cards[q]] for q in line}) == 1 for p in line}


def _best_blocks(cards, keys, rows, cols, values=None, zero=frozenset()) -> set[int]:
    """Cells of a largest set of disjoint 2x2 blocks of four equal cards; among the largest,
    the one leaving the owner the lowest value outside the blocks and the cells in ``zero``
    (complete lines, which score 0 anyway: the union rule, AMB-27)."""
    blocks = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            cells = (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            if len({keys[cards[p]] for p in cells}) == 1:
                blocks.append(set(cells))
    def rest(cells):
        if values is None:
            return 0
        return sum(values[cards[p]] for p in range(len(cards)) if p not in cells and p not in zero)

    best: set[int] = set()
    for mask in range(1, 1 << len(blocks)):
        chosen = [b for i, b in enumerate(blocks) if mask >> i & 1]
        cells = set().union(*chosen)
        if len(cells) == 4 * len(chosen) and (len(cells) > len(best) or
                                             (len(cells) == len(best) and
                                              rest(cells) < rest(best))):
            best = cells
    return best


def _score_two_row_columns(rules, cards, values, keys) -> LayoutScore:
    """Step (b): a column of two equal cards scores its pair value (normally 0); pair-columns
    of one key are coupled into quads/blocks: as many disjoint couples as possible, and among
    those the lowest layout value (AMB-25)."""
    cols = rules.grid_cols
    total = 0
    pair_columns: dict[int, list[int]] = {}  # key -> its pair-columns, left to right
    for c in range(cols):
        top, bottom = cards[c], cards[c + cols]
        if keys[top] == keys[bottom]:
            pair_columns.setdefault(keys[top], []).append(c)
        else:
            total += values[top] + values[bottom]
    couples = 0
    for columns in pair_columns.values():
        n, value = _best_coupling(rules, cards, columns, values)
        couples += n
        total += value
    # jack_pairs_bonus (wolfpack): two or more columns of two jacks, once, on top
    jack_columns = sum(1 for c in range(cols) if C.rank_of(cards[c]) == C.RANK_JACK and
                       C.rank_of(cards[c + cols]) == C.RANK_JACK)
    if jack_columns >= 2:
        total += rules.jack_pairs_bonus
    return LayoutScore(total, couples)


def _best_coupling(rules, cards, columns, values) -> tuple[int, int]:
    """(couples, value) of a list of pair-columns of one key."""
    cols = rules.grid_cols

    def column_pair_value(c):
        return pair_value(rules, cards[c], cards[c + cols])

    if not columns:
        return 0, 0
    first, rest = columns[0], columns[1:]
    n, value = _best_coupling(rules, cards, rest, values)
    best = (n, value + column_pair_value(first))
    for other in rest:
        v = _couple_value(rules, cards, first, other, values)
        if v is None:
            continue
        n, value = _best_coupling(rules, cards, [c for c in rest if c != other], values)
        candidate = (n + 1, value + v)
        if candidate[0] > best[0] or (candidate[0] == best[0] and candidate[1] < best[1]):
            best = candidate
    return best


def _couple_value(rules, cards, ca, cb, values) -> int | None:
    """Total score of the four cards of pair-columns ca < cb scored together, or None when no
    rule makes them a couple. Precedence: joker quads > block > negative quad > quad
    (AMB-25); quad_apart_value replaces the quad value of columns not side by side."""
    cols = rules.grid_cols
    adjacent = abs(cb - ca) == 1
    four = (cards[ca], cards[ca + cols], cards[cb], cards[cb + cols])
    if all(is_joker(x) for x in four):
        joker_quad = rules.joker_quad_value if adjacent else rules.joker_quad_apart_value
        if joker_quad is not None:
            return joker_quad
    if adjacent and rules.block_2x2_value is not None:
        return rules.block_2x2_value
    if rules.negative_quad_value is not None and all(values[x] < 0 for x in four):
        return rules.negative_quad_value
    if not adjacent and rules.quad_apart_value is not None:
        return rules.quad_apart_value
    if rules.quad_two_columns_value is not None and \
            (adjacent or not rules.quad_two_columns_adjacent_only):
        return rules.quad_two_columns_value
    return None


def ender_score(rules: Rules, layout_values: list[int], ender: int) -> int:
    """docs/rules.md#ender-scoring: the ender's hole score from s = L[ender], clamped so that a
    penalty never lowers and a bonus never raises the score."""
    L = layout_values
    s = L[ender]
    n = len(L)
    others = [L[q] for q in range(n) if q != ender]
    m = min(others)
    if s < m:
        lowest = True
    elif s > m:
        lowest = False
    elif rules.ender_tie == "neutral":
        return s
    else:
        lowest = rules.ender_tie == "counts_as_lowest"
    if lowest:
        bonus = {"none": s, "zero": 0, "minus_players": s - n, "fixed_minus_10": -10}
        f = bonus[rules.ender_bonus]
        return min(f, s) if rules.ender_clamp else f
    penalty = {"none": s, "plus_10": s + 10, "plus_20": s + 20, "double_plus_5": 2 * s + 5,
               "double": 2 * s, "equal_highest": max(L), "plus_twice_players": s + 2 * n,
               "plus_lowest_score": s + m, "plus_highest_opponent": s + max(others)}
    f = penalty[rules.ender_penalty]
    return max(f, s) if rules.ender_clamp else f


def hole_scores(rules: Rules, layout_values: list[int], ender: int, knocked: bool = False,
                couples: list[int] | None = None, extra: list[int] | None = None) -> list[int]:
    """Hole scores from the layout values (docs/rules.md#scoring-a-hole steps 3-5). ``ender``
    is -1 when the hole had none; ``couples[p]`` counts the quads/blocks seat p scored (for
    quad_others_penalty); ``extra[p]`` is a per-seat penalty incurred during the hole."""
    L = twenty_one_zero(rules, layout_values)
    n = len(L)
    couples = couples or [0] * n
    extra = extra or [0] * n
    scores = [L[p] + extra[p] for p in range(n)]
    # step 3: every other player pays for each quad someone scored ([000])
    if rules.quad_others_penalty:
        for q in range(n):
            for p in range(n):
                if p != q:
                    scores[p] += rules.quad_others_penalty * couples[q]
    # step 4: the ender's adjustment
    applies = ender >= 0 and (rules.ender_rule_applies_to == "any_ender" or knocked)
    if applies and (rules.ender_penalty != "none" or rules.ender_bonus != "none"):
        scores[ender] += ender_score(rules, L, ender) - L[ender]
    if applies:
        scores[ender] += rules.ender_extra
    # non_caller_rule (Cactus): a player who did not call and whose layout value is at most
    # the caller's scores 0 (its points incurred during the hole still count)
    if ender >= 0 and rules.non_caller_rule == "zero_if_not_above_caller":
        for q in range(n):
            if q != ender and L[q] <= L[ender]:
                scores[q] = extra[q]
    # step 5: hole-level transforms
    if rules.lowest_scores_zero:
        low = min(L)
        for p in range(n):
            if L[p] == low:
                scores[p] = 0
        if ender >= 0 and L[ender] != low:
            scores[ender] += low
    if rules.shoot_the_moon is not None:
        moon = rules.shoot_the_moon
        # AMB-30: judged on the layout value, before ender adjustments; several players may
        # shoot the moon, each one triggering the effect
        shooters = [q for q in range(n) if L[q] == moon]
        for q in shooters:
            scores[q] = 0           # "scores 0 instead"
        for q in shooters:
            for p in range(n):
                if p != q:
                    scores[p] += moon
    # step 6: the lowest hole score's bonus, then the penalty for a shared score
    if rules.lowest_bonus:
        low = min(scores)
        scores = [v + rules.lowest_bonus if v == low else v for v in scores]
    if rules.tie_penalty:
        shared = [v for v in scores if scores.count(v) > 1]
        scores = [v + rules.tie_penalty if v in shared else v for v in scores]
    return scores


def twenty_one_zero(rules: Rules, layout_values: list[int]) -> list[int]:
    """The layout values with twenty_one_scores_zero applied: exactly 21 is worth 0."""
    if not rules.twenty_one_scores_zero:
        return list(layout_values)
    return [0 if v == BLACKJACK else v for v in layout_values]


# ================================================================================================
# Game state
# ================================================================================================
@dataclass
class Cell:
    """One layout position."""
    card: int
    face_up: bool = False
    known_to: set[int] = field(default_factory=set)  # seats that know the card
    # replace_unseen_once: "left" until its one replacement, then "spent"; "seen" when
    # the owner knew the card when play began (no limit)
    once: str = "left"


def may_replace(rules: Rules, face_up: list[bool], p: int) -> bool:
    """May a new card go to position p of a layout with these face-up flags
    (docs/rules.md#turns)?"""
    if face_up[p] and not rules.replace_face_up_allowed:
        return False
    if face_up[p] and rules.lock_face_up_columns:      # 2-row grids only (validated)
        cols = rules.grid_cols
        partner = p + cols if p < cols else p - cols
        if face_up[partner]:
            return False
    return True


@dataclass(frozen=True)
class MatchView:
    """The match as a seat sees it before a hole (codes.PUB_HOLE ...); a hole played alone
    is hole 0 of 1 with every total 0."""
    hole: int = 0                 # this hole's number in the match, from 0
    holes: int = 1                # the match's holes, 0 when it is played to a target
    target: int = 0               # the match's target total, else 0
    totals: tuple[int, ...] = ()  # [seat in turn order]: its total before the hole (() = 0s)


@dataclass(frozen=True)
class Observation:
    """Everything one seat may see when it decides."""
    seat: int
    decision: Decision
    legal: tuple[int, ...]                   # legal actions, ascending
    held: int | None                         # the card in the seat's hand, if any
    own: tuple[int | None, ...]              # the seat's own cards as far as it knows them
    replaceable: tuple[int, ...]             # own positions a new card may go to now
    face_up: tuple[tuple[int | None, ...], ...]   # every seat's face-up cards (public)
    discard: tuple[int, ...]                 # the discard pile, bottom to top
    stock_count: int
    turn: int
    ender: int | None
    reshuffles: int = 0                      # times the stock was rebuilt in this hole
    # power-card games only (simulator/game/powers.py); the defaults everywhere else
    power_game: bool = False
    power: int = K.POW_NONE                  # the effect this decision resolves (PUB_POWER)
    target_seat: int = -1                    # whose positions are offered (PUB_TARGET_SEAT)
    known: tuple = ()                        # [seat][pos]: the card this seat knows there
    shielded: tuple = ()                     # [seat]: no power may target that layout now
    top_power_unused: bool = False           # the top discard's power was not used
    choices: tuple = ()                      # DP_KEEP: the two cards drawn, in order
    peeked: tuple = ()                       # [seat][pos]: seats seen peeking at that card
    match: MatchView = MatchView()           # the match this hole is part of
    reveal_picks: int = 0                    # DP_REVEAL: the cards a set answer names, else 0


class GameState:
    """The cards of one hole and where they are."""

    def __init__(self, rules: Rules, players: int, deal_stream: PyStream):
        self.rules = rules
        self.players = players
        self.rows, self.cols = rules.grid_rows, rules.grid_cols
        self.npos = rules.n_positions
        self.table = CardTable(rules, players)
        self.deal_stream = deal_stream
        self.layouts: list[list[Cell]] = []
        self.stock: list[int] = []           # top = last
        self.discard: list[int] = []         # top = last
        self.held: int | None = None         # the card in the active player's hand
        self.turn = 0                        # turns completed (the initial reveal excluded)
        self.ender: int | None = None
        self.final_turns_left: int | None = None
        self.knocked = False
        self.reshuffles = 0
        self.capped = False
        self.penalty = [0] * players         # points incurred during the hole (peeks)
        self.bank = [0] * players            # value of the groups removed (remove_cancelled)
        self.skip_next_turn = [False] * players   # jack_discard_skips_next marks

    # ---- setup ----------------------------------------------------------------------------
    def deal(self) -> None:
        """Shuffle, deal one card at a time (position by position, seat by seat, from the top
        of the stock) and turn up the next card to start the discard pile
        (docs/rules.md#the-deal)."""
        self.stock = list(self.table.deck)
        self.deal_stream.shuffle(self.stock)
        dealt = [[NO_CARD] * self.npos for _ in range(self.players)]
        for p in range(self.npos):
            for seat in range(self.players):
                dealt[seat][p] = self.stock.pop()
        self.layouts = [[Cell(card) for card in row] for row in dealt]
        # the turn-up never skips anyone (AMB-19); with initial_discard = none the pile starts
        # empty and the first player must draw from the stock
        self.discard = [self.stock.pop()] if self.rules.initial_discard == "turn_up" else []
        self.penalty = [0] * self.players
        self.bank = [0] * self.players
        self.skip_next_turn = [False] * self.players
        if self.rules.owner_view == "all":
            # owner_view = all (cards held in hand, four_card_in_hand): every seat knows all of
            # its own cards from the deal on, before any initial reveal. With perfect memory,
            # ``initially_peeked`` adds nothing to ``none``: a seat never forgets what it
            # peeked at or placed.
            for seat, row in enumerate(self.layouts):
                for cell in row:
                    cell.known_to.add(seat)

    # ---- what is where ----------------------------------------------------------------------
    def face_up_flags(self, seat: int) -> list[bool]:
        return [cell.face_up for cell in self.layouts[seat]]

    def face_down_positions(self, seat: int) -> list[int]:
        return [p for p, cell in enumerate(self.layouts[seat]) if not cell.face_up]

    def face_down_count(self, seat: int) -> int:
        return len(self.face_down_positions(seat))

    def unknown_positions(self, seat: int) -> list[int]:
        """The seat's face-down positions whose card it does not know (what it may pay to
        peek at)."""
        return [p for p, cell in enumerate(self.layouts[seat])
                if not cell.face_up and seat not in cell.known_to]

    def replaceable_positions(self, seat: int) -> list[int]:
        flags = self.face_up_flags(seat)
        return [p for p in range(self.npos) if may_replace(self.rules, flags, p) and
                not is_empty(self.layouts[seat][p].card) and
                not (self.rules.replace_unseen_once and self.layouts[seat][p].once == "spent")]

    def knows(self, observer: int, seat: int, p: int) -> bool:
        return observer in self.layouts[seat][p].known_to

    def observe(self, seat: int, decision: Decision, legal: list[int],
                held: int | None) -> Observation:
        own = tuple(cell.card if seat in cell.known_to else None for cell in self.layouts[seat])
        face_up = tuple(tuple(cell.card if cell.face_up else None for cell in row)
                        for row in self.layouts)
        return Observation(seat, decision, tuple(legal), held, own,
                           tuple(self.replaceable_positions(seat)), face_up,
                           tuple(self.discard), len(self.stock), self.turn, self.ender,
                           self.reshuffles)

    # ---- card movements ---------------------------------------------------------------------
    def turn_up(self, seat: int, p: int) -> None:
        cell = self.layouts[seat][p]
        cell.face_up = True
        cell.known_to = set(range(self.players))

    def peek(self, seat: int, p: int) -> None:
        self.layouts[seat][p].known_to.add(seat)

    def replace(self, seat: int, p: int, card: int, face_up: bool, public: bool) -> None:
        """Put ``card`` at (seat, p); the old card goes face up onto the discard pile. A card
        placed face down is known to its owner, and to everyone if it came from the discard
        pile (docs/rules.md#what-players-know)."""
        cell = self.layouts[seat][p]
        old = cell.card
        if self.rules.replace_unseen_once and cell.once == "left":
            cell.once = "spent"
        cell.card = card
        cell.face_up = face_up
        if face_up or public:
            cell.known_to = set(range(self.players))
        else:
            cell.known_to = {seat}
        self.put_on_discard(seat, old)

    def put_on_discard(self, seat: int, card: int) -> None:
        """The acting ``seat`` puts ``card`` face up on the discard pile: a drawn card it
        discards, or the card it replaced out of its layout. With ``jack_discard_skips_next``
        (AMB-19) a jack (any suit; jokers are not jacks) marks the next seat in order to
        lose its next turn, in the final lap too. The initial turn-up and reshuffles do not
        come through here."""
        self.discard.append(card)
        if self.rules.jack_discard_skips_next and C.rank_of(card) == C.RANK_JACK:
            self.skip_next_turn[(seat + 1) % self.players] = True

    def completed(self, seat: int, cells: tuple[int, ...]) -> bool:
        """Are these cells all face up, none empty, and all of one key (remove_cancelled)?"""
        row = self.layouts[seat]
        if any(not row[p].face_up or is_empty(row[p].card) for p in cells):
            return False
        return len({self.table.key[row[p].card] for p in cells}) == 1

    def remove(self, seat: int, cells: tuple[int, ...], value: int) -> None:
        """remove_cancelled: the group's cards go under the discard pile, lowest position at the
        very bottom (never the top); the positions stay empty (face up, known to all,
        holding the pseudo-card K.EMPTY0 + p) and ``value`` is banked for the seat."""
        row = self.layouts[seat]
        self.discard[0:0] = [row[p].card for p in sorted(cells)]
        for p in cells:
            row[p].card = K.EMPTY0 + p
            row[p].face_up = True
            row[p].known_to = set(range(self.players))
        self.bank[seat] += value

    def can_draw(self) -> bool:
        return bool(self.stock) or (self.rules.stock_empty == "reshuffle_keep_top" and
                                    len(self.discard) > 1)

    def draw_from_stock(self) -> int:
        if not self.stock:
            self.reshuffle()
        card = self.stock.pop()
        self.held = card
        return card

    def take_discard(self) -> int:
        card = self.discard.pop()
        self.held = card
        return card

    def reshuffle(self) -> None:
        """The discard pile except its top card, bottom to top, is shuffled into a new stock
        with the deal stream (docs/rules.md#stock_empty: when a player must draw from an empty
        stock)."""
        top = self.discard.pop()
        self.stock = self.discard
        self.discard = [top]
        self.deal_stream.shuffle(self.stock)
        self.reshuffles += 1

    # ---- the end of the hole ----------------------------------------------------------------
    def start_end(self, seat: int) -> None:
        """``seat`` triggered the end (went out, knocked or flipped all); set the number of
        final turns (docs/rules.md#ending-a-hole step 2). With ``reveal_on_trigger`` (AMB-21)
        every other seat turns its face-down cards face up at this moment, before the final
        turns; the ender's own face-down cards stay down until scoring."""
        self.ender = seat
        ft = self.rules.final_turns
        if ft == "none":
            self.final_turns_left = 0
        elif ft == "each_other_player_once":
            self.final_turns_left = self.players - 1
        else:  # complete_lap: the seats after the ender up to the dealer, the last seat
            self.final_turns_left = self.players - 1 - seat
        if self.rules.reveal_on_trigger:
            for other in range(self.players):      # seat order from seat 0, position order
                if other != seat:
                    for p in self.face_down_positions(other):
                        self.turn_up(other, p)

    # ---- invariants -------------------------------------------------------------------------
    def check_cards(self, in_hand: list[int], most_positions: int) -> None:
        """Every card of the deck is in exactly one place (``in_hand``: the cards held outside
        the piles and layouts); every layout has npos to ``most_positions`` positions, its empty
        ones face up in place, its face-up cards known to all, and only real seats know or
        peeked at a card."""
        places = [cell.card for row in self.layouts for cell in row if not is_empty(cell.card)] + \
            self.stock + self.discard + in_hand
        if sorted(places) != sorted(self.table.deck):
            raise InvariantError(f"card conservation broken after turn {self.turn}")
        everyone = set(range(self.players))
        for seat, row in enumerate(self.layouts):
            if not self.npos <= len(row) <= most_positions:
                raise InvariantError(f"seat {seat} has {len(row)} positions")
            for p, cell in enumerate(row):
                if is_empty(cell.card) and (cell.card != K.EMPTY0 + p or not cell.face_up):
                    raise InvariantError(f"empty ({seat}, {p}) is not face up in place")
                if cell.face_up and cell.known_to != everyone:
                    raise InvariantError(f"face-up ({seat}, {p}) is not known to everyone")
                if not cell.known_to <= everyone or \
                        not getattr(cell, "peeked_by", set()) <= everyone:
                    raise InvariantError(f"({seat}, {p}) known to a seat that does not exist")

    def check_invariants(self) -> None:
        """Every card of the deck is in exactly one place, and the bookkeeping agrees."""
        self.check_cards([] if self.held is None else [self.held], self.npos)
        if not self.discard and self.rules.initial_discard == "turn_up":
            raise InvariantError("the discard pile is empty")
        if (self.ender is None) != (self.final_turns_left is None):
            raise InvariantError("ender and final turns disagree")
        if self.ender is not None and not 0 <= self.ender < self.players:
            raise InvariantError(f"ender {self.ender} is not a seat")
        if self.knocked and self.ender is None:
            raise InvariantError("a knock without an ender")
        if self.turn > self.rules.turn_cap:
            raise InvariantError(f"turn {self.turn} beyond the cap {self.rules.turn_cap}")
        if self.rules.pay_to_peek is None and any(self.penalty):
            raise InvariantError("peek penalties without pay_to_peek")
        if not self.rules.jack_discard_skips_next and any(self.skip_next_turn):
            raise InvariantError("a skipped turn without jack_discard_skips_next")


# ================================================================================================
# Policies
# ================================================================================================
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
    # to play the plain rule: given by the power engine that plays it (powers.PowerHole)
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


# strategy name -> (policy class, {parameter: default}); a spec is "name" or "name:k=v,..."
POLICIES = {
    "random": (RandomPolicy, {}),
    "greedy": (GreedyPolicy, {}),
    "knock-threshold": (KnockThresholdPolicy, {"T": 8.0}),
}


def parse_strategy(spec: str) -> tuple[type, dict[str, float]]:
    """``"knock-threshold:T=12"`` -> (KnockThresholdPolicy, {"T": 12.0})."""
    name, _, arg_text = spec.strip().partition(":")
    if name not in POLICIES:
        raise ValueError(f"unknown strategy {name!r}; known: {', '.join(POLICIES)}")
    cls, defaults = POLICIES[name]
    params = dict(defaults)
    for item in filter(None, (part.strip() for part in arg_text.split(","))):
        key, eq, text = item.partition("=")
        if not eq or key.strip() not in params:
            raise ValueError(f"strategy {name}: unknown parameter {item!r}")
        params[key.strip()] = float(text)
    return cls, params


# ================================================================================================
# One hole
# ================================================================================================
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


class Hole:
    """The referee of one hole: asks the policies, moves the cards, keeps the log."""

    def __init__(self, rules: Rules, players: int, strategies: list[str], seed: int,
                 round_index: int):
        rules.check_players(players)
        if len(strategies) == 1:
            strategies = list(strategies) * players
        if len(strategies) != players:
            raise ValueError(f"{len(strategies)} strategies for {players} players")
        self.rules = rules
        self.players = players
        self.state = GameState(rules, players, PyStream(seed, round_index, STREAM_DEAL))
        self.policies = [self.new_policy(spec, seat, PyStream(seed, round_index,
                                                              STREAM_SEAT0 + seat))
                         for seat, spec in enumerate(strategies)]
        self.log: list[tuple[int, int, int, int, int]] = []
        self.first_turn_done: set[int] = set()   # seats that began their first turn
        self.match = MatchView()   # what the seats see of their match (play_match's view)
        self.reveal_picks = 0      # while a reveal offers a set: how many positions it names

    def new_policy(self, spec: str, seat: int, stream: PyStream):
        """The reference strategy ``spec`` (parse_strategy) playing ``seat`` in this hole,
        drawing from ``stream``."""
        cls, params = parse_strategy(spec)
        return cls(self.rules, self.state.table, seat, stream, **params)

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


# ---- match play (docs/rules.md#matches, docs/rules.md#match-play) ------------------------
MATCH_STRIDE = 1000   # hole h of match m is round m * MATCH_STRIDE + h (tally.MAX_MATCH_HOLES)


@dataclass
class MatchRecord:
    totals: list[int]             # per physical seat
    wins: list[Fraction]          # per seat: its share of the match win
    pot_balances: list[int]       # per seat: pot winnings less antes and payments
    holes: int


def settle_pot(rules: Rules, pot: int, layout_values: list[int], ender: int,
               knocked: bool) -> tuple[int, int]:
    """(the ender's gain, the pot after): the ender takes the pot when its layout value is
    the lowest, else pays in as much as the pot holds, each at most ``pot_cap``; a tie follows
    ender_tie, neutral moving nothing (AMB-38)."""
    if ender < 0 or (rules.ender_rule_applies_to == "knock_only" and not knocked):
        return 0, pot
    s = layout_values[ender]
    m = min(v for q, v in enumerate(layout_values) if q != ender)
    if s == m:
        if rules.ender_tie == "neutral":
            return 0, pot
        lowest = rules.ender_tie == "counts_as_lowest"
    else:
        lowest = s < m
    amount = pot if rules.pot_cap is None else min(pot, rules.pot_cap)
    return (amount, pot - amount) if lowest else (-amount, pot + amount)


def play_match(rules: Rules, players: int, seed: int, match: int, holes: int, target: int,
               play_hole, views: bool = False) -> MatchRecord:
    """One match, its holes played by ``play_hole(order, round_index)`` (``order[i]``: the
    physical seat in turn position i) returning a RoundRecord-like mapping with ``scores``,
    ``layout_values``, ``ender``, ``knocked`` and ``layouts`` in turn order. With ``views``
    it is given the MatchView its seats see too: ``play_hole(order, round_index, view)``."""
    first = PyStream(seed, match, STREAM_DEALER).below(players) \
        if rules.dealer_selection == "random" else 0
    totals = [0] * players
    balance = [0] * players
    pot = 0
    h = 0
    while True:
        if rules.pot_enabled and pot == 0:
            balance = [b - rules.pot_ante for b in balance]
            pot = rules.pot_ante * players
        order = [(first + i) % players for i in range(players)]
        view = MatchView(h, holes, target, tuple(totals[s] for s in order))
        r = play_hole(order, match * MATCH_STRIDE + h, *((view,) if views else ()))
        scores = list(r["scores"])
        if rules.pot_enabled:
            gain, pot = settle_pot(rules, pot, list(r["layout_values"]), r["ender"],
                                   bool(r["knocked"]))
            if r["ender"] >= 0:
                balance[order[r["ender"]]] += gain
        for i, seat in enumerate(order):
            totals[seat] += scores[i]
        h += 1
        if rules.four_of_kind_wins_match:
            four = [i for i in range(players) if _has_four_of_a_kind(r["layouts"][i])]
            if four:
                low = min(scores[i] for i in four)
                winners = [order[i] for i in four if scores[i] == low]
                wins = [Fraction(int(s in winners), len(winners)) for s in range(players)]
                return MatchRecord(totals, wins, balance, h)
        if rules.first_player == "previous_hole_winner":
            first = order[hole_winner(rules, r, scores)]
        else:
            first = (first + 1) % players
        done = (max(totals) >= target or h >= MATCH_STRIDE) if target > 0 else h >= holes
        if done and rules.match_tie == "extra_holes" and h < MATCH_STRIDE and \
                totals.count(min(totals)) > 1:
            done = False
        if done:
            break
    best = [s for s in range(players) if totals[s] == min(totals)]
    if rules.match_tie == "tiebreak" and len(best) > 1:
        best = [best[PyStream(seed, match, STREAM_TIEBREAK).below(len(best))]]
    wins = [Fraction(int(s in best), len(best)) for s in range(players)]
    return MatchRecord(totals, wins, balance, h)


def hole_winner(rules: Rules, r, scores: list[int]) -> int:
    """The turn position of a hole's winner, who plays first in the next hole with
    first_player = previous_hole_winner: the lowest hole score, the earliest in turn order on a
    tie. With the call trigger (Cactus) the winner has the lowest layout value and the caller
    loses ties; opponents tied for lowest are decided by the earliest in turn order (the rules
    cut the cards)."""
    if "call" not in rules.end_triggers:
        return scores.index(min(scores))
    values = list(r["layout_values"])
    low = min(values)
    tied = [i for i, v in enumerate(values) if v == low]
    if len(tied) > 1 and r["ender"] in tied:
        tied.remove(r["ender"])
    return tied[0]


def _has_four_of_a_kind(cards) -> bool:
    ranks = [C.rank_of(int(c)) for c in cards if not is_joker(int(c))]
    return any(ranks.count(x) >= 4 for x in set(ranks))
