"""The rule set: one frozen, validated object (:class:`Rules`), its option table, and its
construction from presets, typed options and TOML files."""

from __future__ import annotations

import dataclasses
import difflib
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .. import cards as C
from .. import codes as K
from .checks import _check_combination
from .option_values import (RuleError, _allowed_text, _check_value, _coerce, _opt, _rank_name,
                            _toml_value)
from .presets import PRESETS
from .value_schemes import DUTCH_RED_KING, JOKER_EAGLE, JOKER_PLUS15, VALUE_SCHEMES


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set for one hole of the Golf family. Defaults are preset ``six_card``."""

    players_min: int = _opt(2, "fewest players the rule set is played with", lo=2, hi=K.MAX_PLAYERS)
    players_max: int = _opt(6, "most players (more decks are added by deck_thresholds)", lo=2,
                            hi=K.MAX_PLAYERS)
    decks: int = _opt(0, "52-card decks shuffled together; 0 = by deck_thresholds", lo=0, hi=8)
    deck_thresholds: tuple = _opt(((2, 1), (5, 2), (9, 3)),
                                  "(players, decks) steps used when decks = 0")
    jokers_per_deck: int = _opt(0, "jokers added per deck", allowed=(0, 2))
    joker_count: int | None = _opt(None, "jokers in the whole deck whatever the number of "
                                   "decks, all in the first, instead of jokers_per_deck "
                                   "(which must then be 0; none: jokers_per_deck in each)",
                                   lo=0, hi=2, nullable=True)
    bonus_card: str = _opt("none", "cards worth -2 standing in for jokers",
                           allowed=("none", "twos", "one_eyed_jacks"))
    layout_mode: str = _opt("grid", "how a layout is laid out (hand: an unordered hand of "
                            "grid_rows x grid_cols cards; row: grid_cols cards side by side, "
                            "with grid_rows = 1)", allowed=("grid", "hand", "row"))
    grid_rows: int = _opt(2, "rows of the layout grid", lo=1, hi=3)
    grid_cols: int = _opt(3, "columns of the layout grid", lo=1, hi=5)
    initial_discard: str = _opt("turn_up", "how the discard pile starts (none: empty, the "
                                "first player must draw from the stock)",
                                allowed=("turn_up", "none"))
    initial_reveal_mode: str = _opt("flip", "what players see before play",
                                    allowed=K.REVEAL_MODES)
    initial_reveal_count: int = _opt(2, "cards flipped or peeked before play (-1 = a whole row)",
                                     lo=-1, hi=4)
    initial_reveal_constraint: str = _opt("any", "which cards may be revealed",
                                          allowed=K.REVEAL_CONSTRAINTS)
    initial_reveal_sequential: bool = _opt(True, "choose the next card after seeing the last")
    initial_reveal_order: str = _opt("turn_order", "reveal seat by seat or all at once",
                                     allowed=K.REVEAL_ORDERS)
    rearrange_after_reveal: bool = _opt(False, "after the initial flips each player moves its "
                                        "face-up cards where it likes (the face-down cards "
                                        "fill the places they leave, unseen)")
    placement_face: str = _opt("up", "face of a card placed into the layout",
                               allowed=K.PLACEMENT_FACES)
    draw_from_discard: bool = _opt(True, "the top discard may be taken (draw_sources)")
    discard_draw_must_be_placed: bool = _opt(True, "a taken discard must go into the layout",
                                             supported=(True,))
    stock_draw_may_be_discarded: bool = _opt(True, "a stock card may be discarded unplaced")
    replace_face_up_allowed: bool = _opt(True, "face-up cards may be replaced")
    lock_face_up_columns: bool = _opt(False, "a column with both cards face up is locked")
    replace_unseen_once: bool = _opt(False, "a position its owner had not seen when play began "
                                     "takes at most one replacement in the hole (positions "
                                     "seen at the start: no limit)")
    blind_replacement: bool = _opt(True, "a face-down card cannot be looked at before it is "
                                   "replaced (touching it commits); false: holding a card, a "
                                   "player may first look at one of its unknown face-down "
                                   "cards, then place or discard")
    private_stock_draw: bool = _opt(True, "a card drawn from the stock is seen only by the "
                                    "drawer (false: everyone sees it, and knows it when it is "
                                    "placed face down)")
    flip_instead_of_draw: bool = _opt(False, "a turn may be just turning one card face up")
    flip_after_stock_discard: str = _opt("none", "flip a card after discarding a stock card",
                                         allowed=K.FLIP_AFTER_DISCARD)
    flip_all_to_end: bool = _opt(False, "a turn may turn every face-down card up, ending the hole")
    flip_all_max_face_down: int | None = _opt(None, "flip_all_to_end only with at most this many "
                                              "face-down cards (none: any number)", lo=1,
                                              hi=K.MAX_POS, nullable=True)
    end_triggers: tuple = _opt(("all_face_up",), "what ends a hole", allowed=K.END_TRIGGERS)
    knock_exclusive: bool = _opt(True, "nobody may knock once someone has knocked (the rules "
                                 "give a second knock no effect, so only true is played)",
                                 supported=(True,))
    knock_min_laps: int = _opt(0, "laps to complete before anyone may knock", lo=0, hi=100)
    pay_to_peek: int | None = _opt(None, "points one look at an own face-down card costs "
                                   "(during your turn, before drawing)", lo=0, hi=100,
                                   nullable=True)
    jack_discard_skips_next: bool = _opt(False, "a jack put on the discard pile skips the "
                                         "next player's turn")
    reveal_on_trigger: bool = _opt(False, "when the end is triggered the others turn their "
                                   "cards face up at once")
    owner_view: str = _opt("none", "what owners may look at during play (memory is perfect, "
                           "so none = initially_peeked)",
                           allowed=("none", "initially_peeked", "all"))
    knock_timing: str = _opt("instead_of_turn", "when a knock is made: instead of a turn, right "
                             "after one's own turn, or either (AMB-12)", allowed=K.KNOCK_TIMINGS)
    final_turns: str = _opt("each_other_player_once", "turns played after the end is triggered",
                            allowed=K.FINAL_TURNS)
    final_turn_stock_only: bool = _opt(False, "final turns may only draw from the stock")
    stock_empty: str = _opt("reshuffle_keep_top", "what happens when the stock runs out",
                            allowed=K.STOCK_EMPTY)
    remove_cancelled: str = _opt("never", "a completed cancelling group (a pair-column of a "
                                 "2-row grid, a line or 2x2 block of a 3x3 grid), all face up, "
                                 "leaves the layout for the bottom of the discard pile: never, "
                                 "when its owner chooses (asked as it forms, and again at its "
                                 "turns), or at once; its value is banked and the positions "
                                 "stay empty", allowed=K.REMOVE_CANCELLED)
    turn_cap: int = _opt(400, "safety cap: a hole ends after this many turns", lo=1, hi=100000)
    value_scheme: str = _opt("six_card", "named card-value table", allowed=VALUE_SCHEMES)
    value_two: int | None = _opt(None, "value of a two (None = from the table)",
                                 allowed=(-2, 2), nullable=True)
    twos_positive_with_jokers: bool = _opt(False, "twos become +2 when jokers are in play")
    value_jack: int | None = _opt(None, "value of a jack", allowed=(10, 11, 0, 20), nullable=True)
    value_queen: int | None = _opt(None, "value of a queen", allowed=(10, 12, 13, 20, 0),
                                   nullable=True)
    value_king: int | None = _opt(None, "value of a king", allowed=(0, 13, 10, -2),
                                  nullable=True)
    value_ten: int | None = _opt(None, "value of a ten", allowed=(10, 1), nullable=True)
    value_queen_of_spades: int | None = _opt(None, "value of the queen of spades",
                                             allowed=(40,), nullable=True)
    value_eight: int | None = _opt(None, "value of an eight", allowed=(8, 0), nullable=True)
    value_red_king: int | None = _opt(None, "value of a red king (None: the table's, or -1 "
                                      "under power_set = dutch)", allowed=(-1, -5, 0, 10, 13),
                                      nullable=True)
    value_black_king: int | None = _opt(None, "value of a black king", allowed=(0,),
                                        nullable=True)
    value_king_of_diamonds: int | None = _opt(None, "value of the king of diamonds", allowed=(0,),
                                              nullable=True)
    value_two_of_diamonds: int | None = _opt(None, "value of the two of diamonds",
                                             allowed=(-10,), nullable=True)
    value_joker: Any = _opt(None, "value of a joker (None = the table's, else -2; "
                            f"{JOKER_PLUS15}: +15 alone, two that pair -5 together; "
                            f"{JOKER_EAGLE}: +2 alone, two that pair -4 together)",
                            allowed=(-2, -3, -4, -5, 0, 10, JOKER_PLUS15, JOKER_EAGLE),
                            nullable=True)
    one_eyed_jacks: str = _opt("normal", "treatment of J♠ and J♥ (wild: after the natural "
                               "pairs, each may pair with one unpaired related card, the pair "
                               "scoring 0, when that lowers the layout: step (d) of "
                               "docs/rules.md#how-a-layout-is-scored)",
                               allowed=("normal", "wild", "zero", "bonus"))
    match_key: str = _opt("rank", "what makes two cards equal for pairing", allowed=K.MATCH_KEYS)
    pair_scope: str = _opt("column", "where equal cards cancel", allowed=K.PAIR_SCOPES)
    line_sets: str = _opt("none", "3x3 grids: which complete lines of three equal cards score 0",
                          allowed=K.LINE_SETS)
    overlap_rule: str = _opt("union", "3x3: a card in any completed line or counted block "
                             "scores 0 (union), or completed lines and blocks leave the layout "
                             "as they form (remove_immediately, which is remove_cancelled = "
                             "immediate)", allowed=("union", "remove_immediately"))
    negative_pairs_keep_value: bool = _opt(False, "a pair of negative cards keeps its value")
    quad_two_columns_value: int | None = _opt(None, "four equal cards in two pair-columns score",
                                              allowed=(0, -10, -20), nullable=True)
    quad_two_columns_adjacent_only: bool = _opt(False, "the two quad columns must be adjacent")
    quad_apart_value: int | None = _opt(None, "two pair-columns of one key that are not side by "
                                        "side score this instead (none: as "
                                        "quad_two_columns_value says)", allowed=(-5,),
                                        nullable=True)
    joker_quad_value: int | None = _opt(None, "two pair-columns of jokers side by side score "
                                        "(before any other quad rule)", allowed=(-50,),
                                        nullable=True)
    joker_quad_apart_value: int | None = _opt(None, "two pair-columns of jokers not side by "
                                              "side score", allowed=(-20,), nullable=True)
    jack_pairs_bonus: int = _opt(0, "added once to a layout holding two or more pair-columns of "
                                 "jacks (on top of their own scores)", allowed=(0, -5, -20))
    quad_others_penalty: int = _opt(0, "others add this when someone scores a quad",
                                    allowed=(0, 10))
    block_2x2_value: int | None = _opt(None, "four equal cards in a 2x2 square score",
                                       allowed=(-20, -25), nullable=True)
    six_of_kind_value: int | None = _opt(None, "six equal cards score", allowed=(-20,),
                                         nullable=True)
    negative_quad_value: int | None = _opt(None, "four equal negative cards in two columns score",
                                           allowed=(-20,), nullable=True)
    shoot_the_moon: int | None = _opt(None, "a layout worth exactly this scores 0, others +it",
                                      allowed=(60,), nullable=True)
    twenty_one_scores_zero: bool = _opt(False, "a layout worth exactly 21 is worth 0 (before "
                                        "every hole rule)")
    lowest_scores_zero: bool = _opt(False, "the lowest layout of the hole scores 0")
    ender_penalty: str = _opt("none", "ender's score when not lowest", allowed=K.ENDER_PENALTIES)
    ender_bonus: str = _opt("none", "ender's score when lowest", allowed=K.ENDER_BONUSES)
    ender_tie: str = _opt("neutral", "how a tie for lowest counts for the ender",
                          allowed=K.ENDER_TIES)
    ender_rule_applies_to: str = _opt("any_ender", "who the ender rules apply to",
                                      allowed=K.ENDER_APPLIES)
    ender_clamp: bool = _opt(True, "ender_penalty never lowers the ender's score and "
                             "ender_bonus never raises it (false: the formula as written, "
                             "e.g. Pablo's -10 even below it, a negative highest opponent "
                             "added)")
    ender_extra: int = _opt(0, "added to the ender's hole score, lowest or not (after "
                            "ender_penalty and ender_bonus)", allowed=(0, -5))
    lowest_bonus: int = _opt(0, "added to the hole score of each player with the lowest one "
                             "(after the ender rules, lowest_scores_zero and shoot_the_moon)",
                             allowed=(0, -3))
    tie_penalty: int = _opt(0, "added to every hole score another player shares (last, after "
                            "lowest_bonus)", allowed=(0, 5))
    match_end_mode: str = _opt("holes", "how a match ends (recorded only: a run takes the "
                               "match length from --holes or --target)",
                               allowed=("holes", "target", "manual"))
    match_end_holes: int = _opt(9, "holes in a match", lo=1, hi=1000)
    match_end_target: int = _opt(100, "total that ends a match in target mode", lo=1, hi=10000)
    four_of_kind_wins_match: bool = _opt(False, "match play: a layout holding four cards of one "
                                         "rank wins the whole match at once")
    match_tie: str = _opt("share", "ties for the lowest match total: share the win, a "
                          "tiebreak (a uniformly random winner among the tied), or extra holes "
                          "until one total is lowest", allowed=K.MATCH_TIES)
    misdeal_if_card_seen: bool = _opt(True, "a player who looks at dealt cards forces a redeal "
                                      "(simulated players never look, so it changes nothing)")
    dealer_selection: str = _opt("random", "who deals a match's first hole (random: drawn per "
                                 "match; volunteer: the last seat, so seat 0 plays first)",
                                 allowed=("random", "volunteer"))
    dealer_rotation: str = _opt("left", "the deal passes to the left after every hole",
                                allowed=("left",))
    first_player: str = _opt("left_of_dealer", "who plays first in a hole (previous_hole_winner: "
                             "the previous hole's lowest scorer, the earliest in turn order on a "
                             "tie)", allowed=("left_of_dealer", "previous_hole_winner"))
    pot_enabled: bool = _opt(False, "match play: a pot every player antes into whenever it is "
                             "empty at the start of a hole; the ender takes it when lowest, "
                             "else pays in as much as it holds (AMB-38)")
    pot_ante: int = _opt(5, "each player's ante into an empty pot", lo=1, hi=10000)
    pot_cap: int | None = _opt(None, "the most won from or paid into the pot at once (none: no "
                               "cap)", lo=1, hi=1000000, nullable=True)
    # ---- power cards (docs/rules.md#power-card-games; specified by the reference engine,
    # simulator/game/powers/, played by the compiled powers build)
    power_set: str = _opt("none", "which cards have powers when drawn from the stock (the "
                          "power-card games, docs/rules.md#power-card-games; dutch: the Dutch "
                          "powers table, an "
                          "add-on to any preset, its cards chosen by dutch_powers)",
                          allowed=K.POWER_SETS)
    dutch_powers: tuple = _opt(K.DUTCH_POWER_CARDS, "power_set = dutch: the cards whose power "
                               "is enabled (K is the black king)", allowed=K.DUTCH_POWER_CARDS)
    powers_off: tuple = _opt((), "cards whose power is switched off, by rank (e.g. J, or Joker): "
                             "they play as ordinary cards (to measure what one power is "
                             "worth)", allowed=C.RANKS + ("Joker",))
    power_source: str = _opt("stock_only", "where a power may come from: only a card drawn "
                             "from the stock, or also (Cactus) the top discard whose power "
                             "nobody used, as a whole turn", allowed=K.POWER_SOURCES)
    power_card_placeable: bool = _opt(True, "a power card may be put into a layout as an "
                                      "ordinary card (false: it can only be used or "
                                      "discarded, and never taken from the discard pile, "
                                      "AMB-43)")
    snap_mode: str = _opt("none", "snapping a card onto a new top discard out of turn",
                          allowed=K.SNAP_MODES)
    snap_penalty_opponent_miss: int = _opt(0, "snap_mode = cumbia: points added to a snapper "
                                           "whose card taken from an opponent's layout does not "
                                           "match", lo=0, hi=100)
    snap_penalty_cards: int = _opt(0, "snap_mode = cactus: cards drawn from the stock, unseen, "
                                   "into the snapper's layout after a wrong snap", lo=0, hi=4)
    turn_match_mode: str = _opt("none", "matching the held card against layout cards as a "
                                "turn", allowed=K.TURN_MATCH_MODES)
    match_fail_penalty_cards: int = _opt(0, "turn_match_mode = cabo_match: cards drawn from the "
                                         "stock, unseen, into the matcher's layout for each "
                                         "nominated card that does not match", lo=0, hi=4)
    call_name: str = _opt("Knock", "what the call that ends a hole (end trigger call) is named "
                          "at the table", allowed=("Knock", "Pablo", "Cumbia", "Cabo", "Cactus"))
    non_caller_rule: str = _opt("layout_value", "what a player who did not call scores",
                                allowed=K.NON_CALLER_RULES)

    def __post_init__(self):
        for f in fields(self):
            _check_value(f, getattr(self, f.name))
        _check_combination(self)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides) -> "Rules":
        if name not in PRESETS:
            raise RuleError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
        values = dict(PRESETS[name])
        values.update(overrides)
        return cls.create(**values)

    @classmethod
    def create(cls, **values) -> "Rules":
        clean = {}
        for key, value in values.items():
            name = canonical_option(key)
            clean[name] = _coerce(OPTIONS[name], value)
        return cls(**clean)

    def with_options(self, **overrides) -> "Rules":
        clean = {}
        for key, value in overrides.items():
            name = canonical_option(key)
            clean[name] = _coerce(OPTIONS[name], value)
        return dataclasses.replace(self, **clean)

    def with_text_options(self, assignments: list[str]) -> "Rules":
        """Apply ``option=value`` strings as typed on a command line."""
        overrides = {}
        for item in assignments:
            if "=" not in item:
                raise RuleError(f"--set {item!r}: expected option=value, e.g. pair_scope=anywhere")
            key, text = item.split("=", 1)
            name = canonical_option(key.strip())
            overrides[name] = parse_option_text(name, text.strip())
        return self.with_options(**overrides)

    # ---- description --------------------------------------------------------------------
    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def diff(self, base: "Rules | None" = None) -> dict:
        """Options that differ from ``base`` (default: the plain ``six_card`` rules)."""
        base = base or Rules()
        return {k: v for k, v in self.as_dict().items() if getattr(base, k) != v}

    def __str__(self) -> str:
        d = self.diff()
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in d.items()) + ")"

    @property
    def n_positions(self) -> int:
        return self.grid_rows * self.grid_cols

    def decks_for(self, players: int) -> int:
        if self.decks:
            return self.decks
        n = 1
        for min_players, count in sorted(self.deck_thresholds):
            if players >= min_players:
                n = count
        return n

    def jokers_in_copy(self, copy: int) -> int:
        """Jokers of deck copy ``copy`` (joker_count puts them all in the first copy)."""
        if self.joker_count is None:
            return self.jokers_per_deck
        return self.joker_count if copy == 0 else 0

    @property
    def red_king_value(self) -> int | None:
        """A red king's value when it differs from its rank's: the Dutch powers table makes it
        -1 (docs/rules.md#power-card-games) unless value_red_king says otherwise."""
        if self.value_red_king is None and self.power_set == "dutch":
            return DUTCH_RED_KING
        return self.value_red_king

    @property
    def has_jokers(self) -> bool:
        return self.jokers_in_copy(0) > 0

    def deck_locals(self, copy: int) -> range:
        """Card numbers within deck copy ``copy`` (cards.card_id's local part) that the
        shuffled deck holds: the 52 suited cards, then that copy's jokers."""
        return range(52 + self.jokers_in_copy(copy))

    def deck_size(self, players: int) -> int:
        return sum(len(self.deck_locals(c)) for c in range(self.decks_for(players)))

    def check_players(self, players: int) -> None:
        if not self.players_min <= players <= self.players_max:
            raise RuleError(f"--players {players}: this rule set is for {self.players_min} to "
                            f"{self.players_max} players (change players_max or decks to allow more)")
        if players > K.MAX_PLAYERS:
            raise RuleError(f"--players {players}: at most {K.MAX_PLAYERS} players are supported")
        need = players * self.n_positions + 2
        have = self.deck_size(players)
        if need > have:
            raise RuleError(f"--players {players}: {players} layouts of {self.n_positions} cards "
                            f"plus a discard and a stock card need {need} cards but "
                            f"{self.decks_for(players)} deck(s) hold {have}; set decks=N")

    def to_toml(self, preset: str | None = None) -> str:
        lines = ["# golfsim rule set: every option with its value (docs/rules.md#rule-options)"]
        if preset:
            lines.append(f'preset = "{preset}"')
        for f in fields(self):
            v = getattr(self, f.name)
            lines.append(f"# {f.metadata['doc']}")
            lines.append(f"{f.name} = {_toml_value(v)}")
        return "\n".join(lines) + "\n"


# ---- option table ---------------------------------------------------------------------------
OPTIONS = {f.name: f for f in fields(Rules)}
_ALIASES = {
    "decks.count": "decks", "jokers": "jokers_per_deck", "grid.rows": "grid_rows",
    "grid.cols": "grid_cols", "rows": "grid_rows", "cols": "grid_cols",
    "turn_limit": "turn_cap",
}


def canonical_option(name: str) -> str:
    key = _ALIASES.get(name, name)
    key = key.replace(".", "_").replace("-", "_")
    if key not in OPTIONS:
        close = difflib.get_close_matches(key, OPTIONS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else \
            "; `golfsim rules six_card` lists every option"
        raise RuleError(f"unknown rule option {name!r}{hint}")
    return key


def parse_option_text(name: str, text: str):
    """Turn the text after ``option=`` into a typed value for that option."""
    f = OPTIONS[name]
    low = text.lower()
    if f.metadata["nullable"] and low in ("none", "null", "inherit", ""):
        return None
    if f.type in ("bool", bool):
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise RuleError(f"option {name} = {text!r}: expected true or false")
    if name == "deck_thresholds":
        try:
            return tuple(tuple(int(x) for x in p.split(":")) for p in text.split(","))
        except ValueError:
            raise RuleError(f"option deck_thresholds = {text!r}: expected players:decks pairs "
                            "such as 2:1,5:2,9:3") from None
    if name == "end_triggers":
        return tuple(v for v in text.replace("+", ",").split(",") if v)
    if name in ("dutch_powers", "powers_off") and text.strip().lower() == "none":
        return ()
    if name in ("dutch_powers", "powers_off"):
        items = tuple(v for v in text.replace("+", ",").split(",") if v)
        return tuple(_rank_name(v) for v in items) if name == "powers_off" else \
            tuple(v.upper() for v in items)
    try:
        return int(text)
    except ValueError:
        if f.type in ("int", int):
            raise RuleError(f"option {name} = {text!r}: expected {_allowed_text(f)}") from None
        return text


def load_toml(path: str | Path) -> Rules:
    """A rule file names a preset (default six_card) and overrides any options."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise RuleError(f"--rules {path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise RuleError(f"--rules {path}: not valid TOML ({e})") from None
    preset = data.pop("preset", "six_card")
    flat = {}
    for key, value in data.items():
        if isinstance(value, dict):  # [initial_reveal] mode = "peek" style tables
            for sub, v in value.items():
                flat[f"{key}.{sub}"] = v
        else:
            flat[key] = value
    return Rules.preset(preset, **flat)
