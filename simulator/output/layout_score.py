"""Score one written layout (``golfsim score``): the total comes from the compiled
``layout_value_nb`` (the kernel's scoring is what a user should see and what tests check);
the per-column / per-card breakdown next to it is recomputed in Python for display only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import cards as C
from ..game.rules import (JOKER_PAIR_SCHEMES, RuleError, Rules, card_keys, card_values,
                          describe, flatten, option_text)


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
    quads: int = 0                      # quads scored (for quad_others_penalty)

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


def _pair_value(r: Rules, a: CardScore, b: CardScore) -> int:
    va, vb = a.value, b.value
    if r.value_joker in JOKER_PAIR_SCHEMES and C.rank_of(a.card) == C.RANK_JOKER and \
            C.rank_of(b.card) == C.RANK_JOKER:
        return JOKER_PAIR_SCHEMES[r.value_joker][1]
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
            pairs.append((min(a, b), max(a, b), _pair_value(r, cards[a], cards[b])))
    return pairs


def _matched_pairs(r: Rules, cards: list[CardScore], keys: np.ndarray, cols: int):
    """The pairs of the best matching under a geometric pair scope (and wild one-eyed jacks),
    as steps (c) and (d) of docs/rules.md#how-a-layout-is-scored choose them: the most natural
    pairs, then the lowest value."""
    from functools import lru_cache

    from ..game.reference.layout_scoring import _RELATED, is_wild
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
                v = _pair_value(r, cards[p], cards[q])
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
                        keys: np.ndarray) -> tuple[int, int]:
    """The compiled scoring of one layout (imported late: it may compile on first use): its
    value and the quads it scored."""
    from ..kernel.scoring import TMP_SIZE, layout_value_nb
    try:
        ri = flatten(rules, rules.players_min).ri
    except RuleError:
        ri = flatten(rules, rules.players_max).ri
    lay = np.array(ids, dtype=np.int16).reshape(1, len(ids))
    quads = np.zeros(1, dtype=np.int64)
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    value = int(layout_value_nb(lay, 0, ri, values, keys, quads, tmp))
    return value, int(quads[0])


class LayoutError(ValueError):
    """A layout the rule set's decks cannot deal; the message is one user-facing line."""


def most_decks(rules: Rules) -> int:
    """The most decks the rule set shuffles together, at any table size it allows."""
    return max(rules.decks_for(p) for p in range(rules.players_min, rules.players_max + 1))


def check_decks_hold(rules: Rules, cards: list[tuple[int, int]],
                     players: int | None = None) -> None:
    """Refuse (LayoutError) ``cards``, (rank, suit) pairs with suit -1 where none was written,
    when the rule set's decks cannot hold them all: more copies of a card than there are
    decks, more cards of a rank (suits left open count there) than 4 per deck, or a joker
    where the decks have none, or more than they hold. The decks are those of a table of
    ``players``, or without it the most the rule set uses (``most_decks``)."""
    if players is None:
        decks = most_decks(rules)
        where = f"{decks} deck{'s' if decks > 1 else ''}" + (
            "" if rules.decks else f" at most, with up to {rules.players_max} players")
    else:
        decks = rules.decks_for(players)
        where = f"{decks} deck{'s' if decks > 1 else ''} for {players} players"
    jokers = sum(1 for r, _ in cards if r == C.RANK_JOKER)
    have = sum(rules.jokers_in_copy(c) for c in range(decks))
    if jokers > have:
        if not have:
            raise LayoutError(f"layout: {jokers} joker{'s' if jokers > 1 else ''} given, but "
                              "this rule set has no jokers (jokers_per_deck = 0, "
                              f"joker_count = {option_text(rules.joker_count)})")
        raise LayoutError(f"layout: {jokers} jokers given, but this rule set's decks hold "
                          f"{have} ({where}; jokers_per_deck = {rules.jokers_per_deck}, "
                          f"joker_count = {option_text(rules.joker_count)})")
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
    score, quads = kernel_layout_value(rules, ids, values, keys)
    return LayoutScore(rules, cards, pairs, columns, total, score, quads)


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


@dataclass
class HoleScore:
    """Several layouts scored as one hole: each seat's layout, its layout value (after
    twenty_one_scores_zero) and its hole score under the hole rules."""
    rules: Rules
    layouts: list[LayoutScore]
    ender: int          # -1: nobody ended the hole
    knocked: bool
    values: list[int]
    scores: list[int]

    def as_json(self, preset: str) -> dict:
        return {"layouts": [ls.as_json(preset) for ls in self.layouts],
                "layout_values": self.values, "hole_scores": self.scores,
                "ender": None if self.ender < 0 else self.ender, "knocked": self.knocked}


def score_hole(rules: Rules, text: str, ender: int | None, knocked: bool) -> HoleScore:
    """Score the layouts of ``text``, one per seat separated by '|', as one hole ended by
    seat ``ender`` (None: nobody), with the compiled hole scoring. The cards of all the
    layouts come from one shuffled deck, so together they must fit in it."""
    from ..kernel.scoring import hole_scores_nb
    texts = [t.strip() for t in text.split("|")]
    players = len(texts)
    if any(not t for t in texts):
        raise LayoutError("layout: an empty layout between '|' separators; write one layout "
                          "per seat, e.g. \"KS 5H JC / KD 5C 2H | 2S 9H 9C / 3D 4C 5S\"")
    if ender is not None and not 0 <= ender < players:
        raise LayoutError(f"--ender {ender}: the seats are 0 to {players - 1} "
                          f"({players} layouts given)")
    if knocked and ender is None:
        raise LayoutError("--knocked says how the ender ended the hole: give --ender SEAT "
                          "too (without it nobody ended the hole)")
    try:
        ri = flatten(rules, players).ri
    except RuleError as e:
        raise LayoutError(f"layout: {players} layouts given: {e}") from None
    rows, cols = rules.grid_rows, rules.grid_cols
    check_decks_hold(rules, [c for t in texts for c in C.parse_layout_cards(t, rows, cols)],
                     players)
    layouts = [score_layout(rules, t) for t in texts]
    L = np.array([ls.score for ls in layouts], dtype=np.int64)
    quads = np.array([ls.quads for ls in layouts], dtype=np.int64)
    out = np.zeros(players, dtype=np.int64)
    hole_scores_nb(L, quads, -1 if ender is None else ender, knocked, players, ri,
                   np.zeros(players, dtype=np.int64), out)
    return HoleScore(rules, layouts, -1 if ender is None else ender, knocked,
                     [int(v) for v in L], [int(v) for v in out])


def format_hole_score(hs: HoleScore, preset: str) -> str:
    """The text ``golfsim score`` prints for several layouts."""
    r = hs.rules
    lines = [f"rules: {describe(r, preset)} ({r.grid_rows}x{r.grid_cols} grid, pairs cancel: "
             f"{r.pair_scope})", ""]
    texts = []
    for ls in hs.layouts:
        names = [C.card_name(c.card) for c in ls.cards]
        texts.append(" / ".join(" ".join(names[i * r.grid_cols:(i + 1) * r.grid_cols])
                                for i in range(r.grid_rows)))
    width = max(len(t) for t in texts)
    lines.append(f"  seat  {'layout'.ljust(width)}  layout value  hole score")
    for s, (t, ls) in enumerate(zip(texts, hs.layouts)):
        value = str(ls.score) if ls.score == hs.values[s] else f"{ls.score} -> {hs.values[s]}"
        mark = "  (ender" + (", knocked)" if hs.knocked else ")") if s == hs.ender else ""
        lines.append(f"  {str(s).rjust(4)}  {t.ljust(width)}  {value.rjust(12)}  "
                     f"{str(hs.scores[s]).rjust(10)}{mark}")
    lines.append("")
    lines.append("hole scores: " + ", ".join(str(v) for v in hs.scores))
    return "\n".join(lines)
