"""Score one written layout (``golfsim score``): the total comes from the compiled
``layout_value_nb`` (the kernel's scoring is what a user should see and what tests check);
the per-column / per-card breakdown next to it is recomputed in Python for display only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import cards as C
from ..game.rules import (JOKER_PLUS15, RuleError, Rules, card_keys, card_values, describe,
                          flatten)


@dataclass
class CardScore:
    pos: int
    row: int
    col: int
    card: int
    value: int
    paired_with: int | None = None  # position of the card it cancels with


@dataclass
class LayoutScore:
    rules: Rules
    cards: list[CardScore]
    pairs: list[tuple[int, int, int]]   # (pos a, pos b, what the pair contributes)
    columns: list[int] | None           # per-column scores when pairs form within columns
    breakdown_total: int                # sum of the Python breakdown
    score: int                          # the compiled kernel's layout value

    @property
    def pattern_adjustment(self) -> int:
        """Quads, 2x2 blocks, six of a kind: what the kernel adds beyond plain pairs."""
        return self.score - self.breakdown_total

    def as_json(self, preset: str) -> dict:
        r = self.rules
        names = [C.card_name(c.card) for c in self.cards]
        return {
            "score": self.score,
            "columns": self.columns,
            "layout": [names[i * r.grid_cols:(i + 1) * r.grid_cols] for i in range(r.grid_rows)],
            "cards": [{"pos": c.pos, "row": c.row, "col": c.col, "card": names[c.pos],
                       "value": c.value, "paired_with": c.paired_with} for c in self.cards],
            "pairs": [{"positions": [a, b], "cards": [names[a], names[b]], "value": v}
                      for a, b, v in self.pairs],
            "pattern_adjustment": self.pattern_adjustment,
            "pair_scope": r.pair_scope,
            "preset": preset,
            "rules_diff": {k: list(v) if isinstance(v, tuple) else v
                           for k, v in r.diff().items()},
        }


def _pair_value(r: Rules, va: int, vb: int) -> int:
    if r.value_joker == JOKER_PLUS15 and va == 15 and vb == 15:
        return -5
    if r.negative_pairs_keep_value and va < 0 and vb < 0:
        return va + vb
    return 0


def _free_pairs(r: Rules, cards: list[CardScore], keys: np.ndarray, positions: list[int]):
    """Pair equal keys freely among ``positions`` as the kernel does: per key, highest values
    first (ties to the lower position), so an odd card out is the lowest one."""
    pairs = []
    by_key: dict[int, list[int]] = {}
    for p in positions:
        by_key.setdefault(int(keys[cards[p].card]), []).append(p)
    for group in by_key.values():
        group.sort(key=lambda p: (-cards[p].value, p))
        for a, b in zip(group[0::2], group[1::2]):
            cards[a].paired_with, cards[b].paired_with = b, a
            pairs.append((min(a, b), max(a, b), _pair_value(r, cards[a].value, cards[b].value)))
    return pairs


def _matched_pairs(r: Rules, cards: list[CardScore], keys: np.ndarray, cols: int):
    """The pairs of the best matching under a geometric pair scope (and wild one-eyed jacks),
    as steps (c) and (d) of docs/rules.md#how-a-layout-is-scored choose them: the most natural
    pairs, then the lowest value."""
    from functools import lru_cache

    from ..game.reference import _RELATED, is_wild
    related = _RELATED[r.pair_scope]
    n = len(cards)

    @lru_cache(maxsize=None)
    def best(free: int):
        if not free:
            return 0, 0, ()
        p = (free & -free).bit_length() - 1
        rest = free & ~(1 << p)
        pairs, value, chosen = best(rest)
        out = (pairs, value + cards[p].value, chosen)
        for q in range(p + 1, n):
            if not (rest >> q) & 1 or not related(p // cols, p % cols, q // cols, q % cols):
                continue
            sp, sv, sc = best(rest & ~(1 << q))
            natural = keys[cards[p].card] == keys[cards[q].card]
            wild = is_wild(r, cards[p].card) or is_wild(r, cards[q].card)
            if natural:
                v = _pair_value(r, cards[p].value, cards[q].value)
                if (sp + 1, -(sv + v)) > (out[0], -out[1]):
                    out = (sp + 1, sv + v, sc + ((p, q, v),))
            if wild and (sp, -sv) > (out[0], -out[1]):
                out = (sp, sv, sc + ((p, q, 0),))
        return out

    pairs = list(best((1 << n) - 1)[2])
    for a, b, _ in pairs:
        cards[a].paired_with, cards[b].paired_with = b, a
    return pairs


def _group_total(cards, pairs, positions) -> int:
    inside = set(positions)
    return (sum(v for a, b, v in pairs if a in inside) +
            sum(cards[p].value for p in positions if cards[p].paired_with is None))


def kernel_layout_value(rules: Rules, ids: list[int], values: np.ndarray,
                        keys: np.ndarray) -> int:
    """The compiled scoring of one layout (imported late: it may compile on first use)."""
    from ..kernel.scoring import TMP_SIZE, layout_value_nb
    try:
        ri = flatten(rules, rules.players_min).ri
    except RuleError:
        ri = flatten(rules, rules.players_max).ri
    lay = np.array(ids, dtype=np.int16).reshape(1, len(ids))
    quads = np.zeros(1, dtype=np.int64)
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    return int(layout_value_nb(lay, 0, ri, values, keys, quads, tmp))


class LayoutError(ValueError):
    """A layout the rule set's decks cannot deal; the message is one user-facing line."""


def most_decks(rules: Rules) -> int:
    """The most decks the rule set shuffles together, at any table size it allows."""
    return max(rules.decks_for(p) for p in range(rules.players_min, rules.players_max + 1))


def check_decks_hold(rules: Rules, cards: list[tuple[int, int]]) -> None:
    """Refuse (LayoutError) ``cards``, (rank, suit) pairs with suit -1 where none was written,
    when the rule set's decks (the most it uses, ``most_decks``) cannot hold them all: more
    copies of a card than there are decks, more cards of a rank (suits left open count
    there) than 4 per deck, or a joker where the decks have none, or more than they hold."""
    decks = most_decks(rules)
    where = f"{decks} deck{'s' if decks > 1 else ''}" + (
        "" if rules.decks else f" at most, with up to {rules.players_max} players")
    jokers = sum(1 for r, _ in cards if r == C.RANK_JOKER)
    have = decks * rules.jokers_per_deck
    if jokers > have:
        if not have:
            raise LayoutError(f"layout: {jokers} joker{'s' if jokers > 1 else ''} given, but "
                              "this rule set has no jokers (jokers_per_deck = 0)")
        raise LayoutError(f"layout: {jokers} jokers given, but this rule set's decks hold "
                          f"{have} ({where}, {rules.jokers_per_deck} jokers each)")
    suited: dict[tuple[int, int], int] = {}
    by_rank: dict[int, int] = {}
    for rank, suit in cards:
        if rank == C.RANK_JOKER:
            continue
        by_rank[rank] = by_rank.get(rank, 0) + 1
        if suit >= 0:
            suited[(rank, suit)] = suited.get((rank, suit), 0) + 1
    for (rank, suit), n in suited.items():
        if n > decks:
            raise LayoutError(f"layout: {n} copies of {C.card_name(C.card_id(rank, suit))} "
                              f"given, but this rule set's decks hold {decks} ({where})")
    for rank, n in by_rank.items():
        if n > 4 * decks:
            raise LayoutError(f"layout: {n} cards of rank {C.RANKS[rank]} given, but this rule "
                              f"set's decks hold {4 * decks} ({where})")


def score_layout(rules: Rules, text: str) -> LayoutScore:
    """Parse ``text`` (rows separated by '/') for the rule set's grid and score it.
    Raises CardParseError for a malformed layout and LayoutError for one the rule set's
    decks cannot hold."""
    rows, cols = rules.grid_rows, rules.grid_cols
    check_decks_hold(rules, C.parse_layout_cards(text, rows, cols))
    ids = C.parse_layout(text, rows, cols)
    n_decks = max(c // C.CARDS_PER_DECK for c in ids) + 1
    values = card_values(rules, n_decks)
    keys = card_keys(rules, values)
    cards = [CardScore(p, p // cols, p % cols, c, int(values[c])) for p, c in enumerate(ids)]
    matching = rules.pair_scope in ("row_or_column", "row_column_diagonal") or (
        rules.one_eyed_jacks == "wild" and rules.pair_scope != "none")
    if matching:
        groups = []
    elif rules.pair_scope == "column":
        groups = [[r * cols + c for r in range(rows)] for c in range(cols)]
    elif rules.pair_scope == "anywhere":
        groups = [list(range(rows * cols))]
    else:  # "none": nothing cancels
        groups = [[p] for p in range(rows * cols)]
    pairs = _matched_pairs(rules, cards, keys, cols) if matching else []
    for g in groups:
        pairs += _free_pairs(rules, cards, keys, g)
    pairs.sort()
    columns = None
    if rules.pair_scope in ("column", "none"):
        columns = [_group_total(cards, pairs, [r * cols + c for r in range(rows)])
                   for c in range(cols)]
    total = _group_total(cards, pairs, list(range(rows * cols)))
    score = kernel_layout_value(rules, ids, values, keys)
    return LayoutScore(rules, cards, pairs, columns, total, score)


def format_layout_score(ls: LayoutScore, preset: str) -> str:
    """The text ``golfsim score`` prints."""
    r = ls.rules
    names = [C.card_name(c.card) for c in ls.cards]
    width = max(3, *(len(n) for n in names))
    lines = [f"rules: {describe(r, preset)} ({r.grid_rows}x{r.grid_cols} grid, "
             f"pairs cancel: {r.pair_scope})", ""]
    lines.append("      " + " ".join(f"c{c}".rjust(width) for c in range(r.grid_cols)))
    for row in range(r.grid_rows):
        cells = names[row * r.grid_cols:(row + 1) * r.grid_cols]
        lines.append(f"  r{row}  " + " ".join(n.rjust(width) for n in cells))
    lines.append("")
    if ls.columns is not None:
        parts = []
        for c, score in enumerate(ls.columns):
            pos = [row * r.grid_cols + c for row in range(r.grid_rows)]
            why = []
            for a, b, v in ls.pairs:
                if a in pos:
                    why.append(f"{names[a]}/{names[b]} pair" + (f" {v}" if v else ""))
            why += [str(ls.cards[p].value) for p in pos if ls.cards[p].paired_with is None]
            parts.append(f"c{c}: {score} ({' + '.join(why)})")
        lines.append("columns: " + ", ".join(parts))
    else:
        for c in ls.cards:
            note = ""
            if c.paired_with is not None:
                o = ls.cards[c.paired_with]
                note = f"  cancels with r{o.row}c{o.col} {names[o.pos]}"
            lines.append(f"  r{c.row}c{c.col} {names[c.pos].rjust(width)} "
                         f"{str(c.value).rjust(3)}{note}")
    if ls.pattern_adjustment:
        lines.append(f"patterns (quads, blocks, six of a kind): {ls.pattern_adjustment:+d}")
    lines.append(f"score: {ls.score}")
    return "\n".join(lines)
