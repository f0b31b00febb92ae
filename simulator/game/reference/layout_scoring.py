"""The layout value of docs/rules.md#how-a-layout-is-scored, step by step, with every pair
scope, written again from the text rather than shared with simulator.kernel.scoring."""

from __future__ import annotations

from dataclasses import dataclass

from .. import cards as C
from ..rules import JOKER_PAIR_SCHEMES, Rules
from .card_table import _card_tables, card_value, is_empty, is_joker


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
