"""`golfsim replay` of the power-card games tells every power move: each is a step of its own
kind with its fields, has words in the text, and the JSON's events, applied one by one to the
deal, give every table the replay shows and the hole's final layouts and scores."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from click.testing import CliRunner

from simulator.cli import cli
from simulator.experiments import replay as rp
from simulator.game import codes as K
from simulator.game.cards import card_name
from simulator.game.powers import layout_value_grown
from simulator.game.reference import CardTable, hole_scores
from simulator.game.rules import POWER_PRESETS, Rules
from simulator.output import replay_report as rr
from strategies import resolve_seats

# the built-in field (lookahead left out: its compile is a build of its own)
FIELD = ["random", "greedy", "ev", "forgetful", "knock-threshold", "heuristic", "opponent-aware"]
# steps that only mark where a turn starts, or a decision a later step tells
SILENT = ("turn", "decision")


def _power_rules() -> dict[str, Rules]:
    games = {name: Rules.preset(name) for name in sorted(POWER_PRESETS)}
    games["six_card+dutch"] = Rules.preset("six_card", power_set="dutch")
    return games


def _sample(per_game: int = 25, seed: int = 39):
    """A fixed sample of holes of every power game: (name, rules, players, strategies, seed,
    round)."""
    rng = random.Random(seed)
    for name, rules in _power_rules().items():
        for _ in range(per_game):
            players = rng.randint(2, 4)
            strategies = [rng.choice(FIELD) for _ in range(players)]
            yield name, rules, players, strategies, rng.randrange(2**31), rng.randrange(2**31)


# ---- an interpreter of the JSON's events, independent of the recorder -------------------------
def _apply(cards: list[list[int]], step: dict) -> None:
    """One event's card movements on the layouts (``cards[seat][pos]``)."""
    k = step["kind"]
    if k == "place":
        cards[step["seat"]][step["pos"]] = step["card"]
    elif k == "swap":
        a, b = (step["source"], step["source_pos"]), (step["target"], step["target_pos"])
        cards[a[0]][a[1]], cards[b[0]][b[1]] = cards[b[0]][b[1]], cards[a[0]][a[1]]
    elif k == "move":
        cards[step["target"]][step["target_pos"]] = cards[step["source"]][step["source_pos"]]
        cards[step["source"]][step["source_pos"]] = K.EMPTY0 + step["source_pos"]
    elif k == "shuffle":
        for p, c in zip(step["cells"], step["cards"]):
            cards[step["target"]][p] = c
    elif k in ("match", "remove_card") or (k == "snap" and step["note"] == "hit"):
        cards[step["target"]][step["target_pos"]] = K.EMPTY0 + step["target_pos"]
    elif k == "put":
        row = cards[step["target"]]
        if step["target_pos"] == len(row):
            row.append(step["card"])
        row[step["target_pos"]] = step["card"]
    elif k in ("remove", "arrange"):
        raise AssertionError(f"a plain-game step {k} in a power game")


def _points(data: dict) -> list[int]:
    """Points incurred in the hole: snap penalties and paid looks."""
    extra = [0] * data["players"]
    for step in data["steps"]:
        if step["kind"] == "snap_penalty":
            extra[step["seat"]] += step["value"]
        elif step["kind"] == "peek":
            extra[step["seat"]] += step.get("cost", 0)
    return extra


def _scores(rules: Rules, data: dict, layouts) -> list[int]:
    """The hole's scores from the interpreted layouts, by the reference scorer."""
    value = CardTable(rules, data["players"]).value
    values = [layout_value_grown(rules, value, row) for row in layouts]
    ender = -1 if data["ender"] is None else data["ender"]
    return hole_scores(rules, [v for v, _ in values], ender, data["knocked"],
                       [c for _, c in values], extra=_points(data))


def _check_events(rules: Rules, data: dict, where) -> None:
    steps = data["steps"]
    assert steps[0]["kind"] == "deal", where
    cards = [list(row) for row in steps[0]["table"]["cards"]]
    for i, step in enumerate(steps):
        _apply(cards, step)
        assert cards == step["table"]["cards"], (where, i, step["kind"])
    assert cards == data["layouts"], where
    assert _scores(rules, data, cards) == data["scores"], where


def _check_words(h: rp.HoleReplay, text: str, where) -> None:
    w = rr.Words(h)
    for before, step in zip(h.steps, h.steps[1:]):
        if step.kind not in SILENT:
            clause, _ = w.clause(step, None, before.table)
            assert clause and "None" not in clause, (where, step)
    assert not re.search(r"\bpos\d", text), where
    assert not re.search(r"^\s+seat \d+ and ", text, re.M), where
    if h.rules.call_name != "Knock":
        told = text.split("\n", 3)[3]   # the header names the rules' options
        assert "knock" not in told.replace("knock-threshold", ""), where
    if h.rules.pay_to_peek is None:
        assert "paid to peek" not in text, where
    assert "other scoring rules" not in text, where   # each rule that applied is named


def _check_captions(h: rp.HoleReplay, where) -> None:
    """The page says why each ringed card changed; a swap's two cards name each other, unless
    a later swap of the same turn put the card back (the Dutch 2's line swap, then its blind
    swap of one of those cards): a card that ends the turn where it was is not ringed."""
    page = rr.hole_html(h)
    assert "changed in this turn" not in page, where
    end_of_turn = {s.turn: s.table for s in h.steps}
    start_of_turn = {}
    for before, s in zip(h.steps, h.steps[1:]):
        start_of_turn.setdefault(s.turn, before.table)
    for s in h.steps:
        if s.kind == "swap":
            card = lambda t: t.cards[s.source][s.source_pos]   # noqa: E731
            if card(end_of_turn[s.turn]) == card(start_of_turn[s.turn]):
                continue
            assert html.escape(f"swapped with seat {s.target}'s card at position "
                               f"{s.target_pos}") in page, where


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_every_power_move_has_words_and_the_json_events_rebuild_the_hole():
    kinds: set[str] = set()
    for name, rules, players, strategies, seed, round_index in _sample():
        where = (name, players, strategies, seed, round_index)
        h = rp.replay_round(rules, players, resolve_seats(strategies, players), seed,
                            round_index)
        kinds |= {s.kind for s in h.steps}
        _check_words(h, rr.hole_text(h), where)
        _check_events(rules, json.loads(json.dumps(rp.hole_dict(h))), where)
        _check_captions(h, where)
    # the sample holds the power engine's moves
    assert {"power", "power_unused", "swap", "shuffle", "snap", "snap_penalty", "put",
            "show", "match", "move"} <= kinds, kinds


# ---- the commands ----------------------------------------------------------------------
def _replay(tmp_path, *args) -> tuple[str, dict]:
    data = tmp_path / "hole.json"
    res = CliRunner().invoke(cli, ["replay", *map(str, args), "--json", str(data)])
    assert res.exit_code == 0, res.output
    return res.output, json.loads(data.read_text())


def _turn_text(text: str, turn: int) -> str:
    """The text of turn ``turn`` (counted from 0): its heading to the next one."""
    start = text.index(f"\nTurn {turn + 1}: ")
    end = text.find("\nTurn ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _swaps_named(text: str, data: dict) -> int:
    """Every swap of the hole is told in its turn, with both cards; returns how many."""
    swaps = [s for s in data["steps"] if s["kind"] == "swap"]
    for s in swaps:
        told = _turn_text(text, s["turn"])
        a, b = (card_name(c) for c in s["cards"])
        assert re.search(rf"swaps [^;]*{re.escape(a)} at position {s['source_pos']}[^;]* with "
                         rf"[^;]*{re.escape(b)} at position {s['target_pos']}", told), told
    return len(swaps)


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_malaysia_names_the_kings_blind_swap(tmp_path):
    text, data = _replay(tmp_path, "--preset", "power_malaysia", "--seed", 1, "--round", 0)
    kings = [s for s in data["steps"] if s["kind"] == "power" and
             s["effect"] == "swap_own_opponent_blind"]
    assert kings and _swaps_named(text, data) >= len(kings)
    for k in kings:
        told = _turn_text(text, k["turn"])
        assert f"draws {card_name(k['card'])} from the stock (only it sees the card) and uses " \
               "its power (a blind swap" in told, told
        assert "and discards it." not in told, told


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_cabo_names_every_swap_and_the_call(tmp_path):
    text, data = _replay(tmp_path, "--preset", "power_cabo", "--seed", 3, "--round", 0)
    assert _swaps_named(text, data) > 0
    told = text.split("\n", 3)[3]   # past the header's rules
    assert "knock" not in told and "does not call Cabo" in told
    if data["knocked"]:
        assert re.search(r"seat \d calls Cabo|then calls Cabo", told), told


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_cumbia_snap_penalties_are_not_paid_looks(tmp_path):
    text, data = _replay(tmp_path, "--preset", "power_cumbia", "--players", 3, "--strategy",
                         "random", "--seed", 5)
    missed = [s for s in data["steps"] if s["kind"] == "snap_penalty"]
    assert missed and "paid to peek" not in text
    assert text.count("pays a snap penalty of 10 points for the missed snap") == len(missed)
    for seat in range(3):
        points = sum(s["value"] for s in missed if s["seat"] == seat)
        if points:
            assert re.search(rf"seat {seat}: .*\(\+{points} snap penalties for missed snaps\)",
                             text)
