"""`golfsim replay`: one round (or one match) shown move by move is exactly what `golfsim run`
played: the scores of replayed rounds equal rounds.parquet's, a replayed match's totals equal
the match run's, and the reference engine that recounts the table follows the compiled log or
says so. Also the words, the knowledge shown, the HTML page and the errors."""

from __future__ import annotations

import errno
import json
import random
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from cli_errors import assert_one_line_error
from simulator.cli import cli
from simulator.experiments import replay as rp
from simulator.game import codes as K
from simulator.game.cards import card_name
from simulator.game.rules import POWER_PRESETS, Rules
from simulator.output import replay_report as rr
from strategies import resolve_seats


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# rules (as CLI arguments), players, strategies, rounds replayed
CASES = {
    "six_card": (["--preset", "six_card"], 4, ["greedy"], [0, 7, 19]),
    "nine_card": (["--preset", "nine_card"], 3, ["greedy", "random", "heuristic"], [2, 13]),
    "four_card knock-threshold": (
        ["--preset", "four_card"], 4,
        ["knock-threshold:T=6", "knock-threshold:T=10", "knock-threshold:T=2", "random"],
        [1, 8, 15]),
    "eight_card_basic with --set": (
        ["--preset", "eight_card_basic", "--set", "jack_discard_skips_next=true",
         "--set", "pair_scope=anywhere", "--set", "reveal_on_trigger=true"], 3,
        ["greedy", "random", "greedy"], [0, 5, 11]),
    # the power-card games: layouts that shrink and grow, matches, snaps, peeks at others
    "power_cabo": (["--preset", "power_cabo"], 4, ["greedy", "knock-threshold", "random",
                                                   "greedy"], [0, 3, 9]),
    "power_cactus": (["--preset", "power_cactus"], 3, ["greedy"], [1, 6]),
    "power_pablo": (["--preset", "power_pablo"], 3, ["random", "greedy", "forgetful"], [2, 4]),
}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name.startswith("power_") else name
    for name in CASES])   # the powers build's compile is the slow tier's (tests/conftest.py)
def test_replayed_scores_are_the_runs_per_round_scores(tmp_path, name):
    rules_args, players, strategies, rounds = CASES[name]
    strat_args = [a for s in strategies for a in ("--strategy", s)]
    out = tmp_path / "run"
    res = invoke("run", *rules_args, *strat_args, "--players", players, "--rounds", 20,
                 "--seed", 11, "--per-round", "--threads", 1, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    per_round = pl.read_parquet(out / "rounds.parquet")
    for i in rounds:
        path = tmp_path / f"r{i}.json"
        res = invoke("replay", *rules_args, *strat_args, "--players", players, "--seed", 11,
                     "--round", i, "--json", path, "--quiet")
        assert res.exit_code == 0, res.output
        data = json.loads(path.read_text())
        row = per_round.filter(pl.col("round") == i)
        assert data["scores"] == [row[f"score_{s}"][0] for s in range(players)], (name, i)
        assert data["turns"] == row["turns"][0]
        assert data["steps"][-1]["kind"] == "over"


@pytest.mark.parametrize("args", [
    ["--holes", 3],
    ["--target", 25, "--set", "first_player=previous_hole_winner"],
])
def test_replayed_match_is_the_match_run(tmp_path, args):
    """A run of one match (match 0) against the replay of match 0: the same holes, totals and
    winner; the deal rotates as in `run --holes`."""
    base = ["--preset", "six_card", "--players", 3, "--strategy", "greedy",
            "--strategy", "random", "--strategy", "greedy", "--seed", 5]
    out = tmp_path / "m"
    res = invoke("run", *base, *args, "--rounds", 1, "--threads", 1, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    summary = pl.read_parquet(out / "summary.parquet")
    path = tmp_path / "m.json"
    res = invoke("replay", *base, *args, "--match", 0, "--json", path, "--quiet")
    assert res.exit_code == 0, res.output
    data = json.loads(path.read_text())
    assert data["totals"] == summary["mean_match_total"].to_list()
    assert [float(eval(w)) for w in data["wins"]] == summary["match_win_share"].to_list()
    assert len(data["holes"]) == summary["rounds"][0]
    assert [h["round"] for h in data["holes"]] == list(range(len(data["holes"])))
    first = [h["order"][0] for h in data["holes"]]
    if "--holes" in args:   # volunteer/random dealer, then the deal passes left
        assert first == [(first[0] + h) % 3 for h in range(3)]
    else:                   # the previous hole's lowest scorer plays first
        for prev, nxt in zip(data["holes"], data["holes"][1:]):
            assert nxt["order"][0] == prev["scores"].index(min(prev["scores"]))


def test_a_later_match_numbers_its_holes_from_match_times_1000():
    rules = Rules.preset("six_card")
    seats = resolve_seats(["greedy"], 2)
    m = rp.replay_match(rules, 2, seats, 3, 4, holes=2)
    assert [h.round_index for h in m.holes] == [4000, 4001]
    assert m.running[-1] == m.totals


# ---- what the steps hold -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def four_card_hole():
    seats = resolve_seats(["knock-threshold:T=6", "knock-threshold:T=10", "random"], 3)
    return rp.replay_round(Rules.preset("four_card"), 3, seats, 2, 4)


def test_every_decision_is_a_step_and_the_knowledge_is_consistent(four_card_hole):
    h = four_card_hole
    decisions = [s for s in h.steps if s.kind == "decision"]
    assert decisions and all(s.action and s.decision for s in decisions)
    for s in h.steps:
        t = s.table
        for seat in range(h.players):
            for p, card in enumerate(t.cards[seat]):
                if t.up[seat][p]:   # face up: everyone knows it
                    assert all(t.known[o][seat][p] for o in range(h.players))
        # every card is somewhere exactly once
        cards = [c for row in t.cards for c in row] + list(t.discard)
        assert len(cards) == len(set(cards))
    # the initial peeks (four_card: look at two) are known to the owner only
    peeks = [s for s in h.steps if s.kind == "peek" and s.note == "reveal"]
    assert len(peeks) == 2 * h.players
    for s in peeks:
        t = s.table
        assert t.known[s.seat][s.seat][s.pos]
        assert not any(t.known[o][s.seat][s.pos] for o in range(h.players) if o != s.seat)
        assert t.view(s.seat, s.seat)[s.pos] == s.card
    assert h.steps[-1].kind == "over"
    assert [s.kind for s in h.steps].count("end") == (1 if h.ender is not None else 0)


def test_the_text_tells_the_moves_and_what_each_seat_knew(four_card_hole):
    h = four_card_hole
    text = rr.hole_text(h, preset="four_card")
    assert "looks at position 0 (row 1, column 1)" in text
    assert "from the stock" in text or "from the discard pile" in text
    assert "??" in text and "Turn 1: seat 0 (knock-threshold:T=6)" in text
    if h.knocked:
        assert f"seat {h.ender} knocks: every other seat plays one final turn." in text
    for s in range(h.players):
        assert f"hole score {h.scores[s]}" in text
    ascii_text = rr.hole_text(h, ascii_only=True)
    assert "♠" not in ascii_text and "♥" not in ascii_text
    hidden = rr.hole_text(h, show_hidden=True)
    assert "??=" in hidden


def test_the_html_page_is_self_contained(four_card_hole):
    page = rr.hole_html(four_card_hole, preset="four_card")
    assert page.startswith("<!DOCTYPE html>") and page.count("<table") >= 3
    assert "http" not in page and "<script" not in page
    assert any(suit in page for suit in "♠♥♦♣")
    assert 'id="show-hidden"' in page and 'class="secret"' in page


def test_the_words_of_a_discard_take_and_a_replacement():
    """The example of issue 28: a card taken from the discard pile, where it goes, face up,
    and the card it replaces going to the discard pile."""
    rules = Rules.preset("six_card")
    h = rp.replay_round(rules, 4, resolve_seats(["greedy"], 4), 1, 0)
    text = rr.hole_text(h)
    take = next(s for s in h.steps if s.kind == "take")
    place = h.steps[h.steps.index(take) + 2]
    assert place.kind == "place" and place.card == take.card
    w = rr.Words(h)
    expect = (f"seat {take.seat} takes {w.card(take.card)} from the discard pile and puts it "
              f"at {w.position(place.pos)}, face up; the {w.card(place.old)}")
    assert expect in text
    assert w.position(4) == "position 4 (row 2, column 2)"


def test_a_changed_log_is_refused():
    """The reference engine follows the compiled log or says where it cannot."""
    rules = Rules.preset("six_card")
    seats = resolve_seats(["greedy"], 2)
    ids = np.array([s.policy_id for s in seats])
    params = np.stack([s.param_row() for s in seats])
    compiled = rp.play_compiled(rules, 2, ids, params, 1, 0)
    bad = dict(compiled)
    bad["log"] = compiled["log"].copy()
    row = next(i for i, r in enumerate(bad["log"]) if r[2] == 1)   # a turn decision
    bad["log"][row, 3] = 17 if bad["log"][row, 3] == 16 else 16     # the other source
    with pytest.raises(rp.ReplayError):
        rp.replay_compiled(rules, 2, ["greedy"] * 2, 1, 0, bad)
    wrong = dict(compiled, scores=compiled["scores"] + 1)
    with pytest.raises(rp.ReplayError, match="differs from the compiled round"):
        rp.replay_compiled(rules, 2, ["greedy"] * 2, 1, 0, wrong)


# ---- the command ---------------------------------------------------------------------------------
def test_cli_prints_and_writes_the_page(tmp_path):
    page = tmp_path / "replay.html"
    res = invoke("replay", "--preset", "four_card", "--players", 2, "--seed", 3, "--round", 2,
                 "--html", page)
    assert res.exit_code == 0, res.output
    assert "golfsim replay: round 2 of seed 3" in res.output
    assert "The end of the hole" in res.output and str(page) in res.output
    assert "knock-threshold" in res.output   # the default strategy of a knock-only game
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_shows_one_hole_of_a_match():
    res = invoke("replay", "--preset", "six_card", "--players", 2, "--holes", 4, "--match", 1,
                 "--hole", 3)
    assert res.exit_code == 0, res.output
    assert "Hole 3 of match 1 (round 1002)" in res.output
    assert "Hole 2 of" not in res.output
    assert "The match is over after 4 holes" in res.output


@pytest.mark.parametrize("args, needle", [
    (["--holes", 3, "--round", 4], "--match"),
    (["--match", 2], "needs --holes or --target"),
    (["--hole", 2], "needs --holes or --target"),
    (["--holes", 3, "--hole", 4], "the match has 3 holes"),
    (["--holes", 3, "--target", 50], "give one"),
    (["--set", "match_end_holes=5", "--holes", 3],   # a --set the match length would ignore
     "--set match_end_holes=5 and --holes 3"),
    (["--set", "match_end_mode=holes", "--target", 50], "match_end_mode is only recorded"),
    (["--round", -1], "-1"),
    (["--strategy", "clever"], "unknown strategy"),
    (["--html", "/nonexistent-folder/x.html"], "does not exist"),
])
def test_cli_errors_are_one_line(args, needle):
    full = ["replay", "--players", 2, *args]
    assert_one_line_error(invoke(*full), full, [needle])


@pytest.mark.slow
def test_the_page_reads_at_phone_and_desktop_width_and_on_paper(tmp_path):
    """A nine-card match of four seats with long strategy names, in headless Chromium at 390
    and 1280 px (screenshots kept in tmp_path) and laid out for paper (tests/browser.py)."""
    import browser
    page = tmp_path / "replay.html"
    res = invoke("replay", "--preset", "nine_card", "--players", 4, "--holes", 1, "--seed", 3,
                 "--strategy", "heuristic:take_max=5,hold=2", "--strategy", "greedy",
                 "--strategy", "opponent-aware:care=2", "--strategy", "random", "--quiet",
                 "--html", page)
    assert res.exit_code == 0, res.output
    driver = browser.chromium()
    try:
        faults = browser.check_page(driver, page, tmp_path, "replay")
        faults += browser.check_print(driver, page, tmp_path, "replay")
    finally:
        driver.quit()
    assert not faults, "\n".join(faults)


# ---- the power-card games: layouts that grow beyond the grid and empty ----------------------
def _power_sample(per_preset: int = 60, seed: int = 38):
    """A fixed sample of random holes of every power preset: (preset, players, strategies,
    seed, round)."""
    rng = random.Random(seed)
    for name in sorted(POWER_PRESETS):
        for _ in range(per_preset):
            players = rng.randint(2, 4)
            strategies = [rng.choice(["random", "greedy", "greedy", "ev"])
                          for _ in range(players)]
            yield name, players, strategies, rng.randrange(2**31), rng.randrange(2**31)


def _final_cards(text: str, seat: int) -> list[str]:
    """The cards the text's final table gives ``seat`` (its grid's row separators left out)."""
    tail = text[text.index("Final layouts"):]
    line = next(ln for ln in tail.splitlines() if ln.strip().startswith(f"seat {seat}:"))
    cells = line.split(":", 1)[1].split("layout value")[0].split()
    return [c for c in cells if c != "/"]


def _card_text(c: int) -> str:
    return "--" if c >= K.EMPTY0 else card_name(c)


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_power_holes_of_any_layout_size_replay_as_text_json_and_html():
    """Holes whose layouts grow beyond the grid (penalty cards, failed matches) and whose
    layouts empty, as text, JSON and HTML: every form shows every position."""
    grown = emptied = looks = 0
    for name, players, strategies, seed, round_index in _power_sample():
        rules = Rules.preset(name)
        h = rp.replay_round(rules, players, resolve_seats(strategies, players), seed,
                            round_index)
        rows = [row for s in h.steps for row in s.table.cards]
        grown += max(map(len, rows)) > rules.n_positions
        emptied += any(all(c >= K.EMPTY0 for c in row) for row in rows)
        where = (name, players, strategies, seed, round_index)
        text = rr.hole_text(h, show_hidden=True)
        for seat in range(players):
            assert _final_cards(text, seat) == [_card_text(c) for c in h.layouts[seat]], where
        for look in (s for s in h.steps if s.kind == "peek" and s.target not in (None, s.seat)):
            looks += 1
            assert h.steps[h.steps.index(look) - 1].table.up[look.target][look.pos] is False
            assert f"looks at seat {look.target}'s face-down card at position {look.pos}" in \
                text, where
        data = json.loads(json.dumps(rp.hole_dict(h)))
        assert data["layouts"] == h.layouts and data["scores"] == h.scores, where
        assert [[len(r) for r in st["table"]["cards"]] for st in data["steps"]] == \
            [[len(r) for r in st.table.cards] for st in h.steps], where
        page = rr.hole_html(h)
        final = page[page.rindex("The end of the hole"):]
        assert final.count('class="card') == sum(map(len, h.layouts)), where
    assert grown and emptied and looks, (grown, emptied, looks)   # the sample holds them


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
def test_a_power_pablo_hole_that_grows_writes_all_three_forms(tmp_path):
    """Issue 38's hole: seat 0's layout grows to five cards."""
    page, data = tmp_path / "a.html", tmp_path / "a.json"
    res = invoke("replay", "--preset", "power_pablo", "--players", 2, "--seed", 984810563,
                 "--strategy", "random", "--strategy", "ev", "--round", 798694394,
                 "--html", page, "--json", data)
    assert res.exit_code == 0, res.output
    layouts = json.loads(data.read_text())["layouts"]
    assert max(map(len, layouts)) > 4
    for seat in range(2):
        assert _final_cards(res.output, seat) == [_card_text(c) for c in layouts[seat]]
    assert page.read_text(encoding="utf-8").count("The end of the hole") == 1


# ---- what is written, and what cannot be -------------------------------------------------------
@pytest.mark.parametrize("broken, fault", [
    ("hole_html", IndexError("tuple index out of range")),
    ("hole_dict", OSError(errno.ENOSPC, "No space left on device")),
])
def test_one_output_failing_loses_none_of_the_others(tmp_path, monkeypatch, broken, fault):
    module = rr if broken == "hole_html" else rp

    def fail(*args, **kwargs):
        raise fault
    monkeypatch.setattr(module, broken, fail)
    page, data = tmp_path / "r.html", tmp_path / "r.json"
    res = invoke("replay", "--preset", "six_card", "--players", 2, "--round", 1,
                 "--html", page, "--json", data)
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "The end of the hole" in res.stdout            # the text is printed
    failed, kept = (page, data) if broken == "hole_html" else (data, page)
    assert not failed.exists() and kept.stat().st_size > 0
    assert f"  {kept}" in res.stdout and f"  {failed}" not in res.stdout
    [line] = res.stderr.splitlines()
    option = "--html" if broken == "hole_html" else "--json"
    assert line.startswith(f"golfsim: error: replay: {option} {failed}: ") and \
        fault.args[-1] in line


@pytest.mark.parametrize("option", ["--html", "--json"])
def test_a_file_name_too_long_is_one_line(tmp_path, option):
    name = tmp_path / ("r" * 300 + option.replace("--", "."))
    args = ["replay", "--preset", "six_card", "--players", 2, option, name]
    assert_one_line_error(invoke(*args), args, [option, "bytes long", "at most"])
    assert not list(tmp_path.iterdir())


def test_a_long_file_name_the_file_system_allows_is_written(tmp_path):
    """A name of 250 bytes: its temporary file's name (report.atomic_path) fits too."""
    name = tmp_path / ("r" * 245 + ".json")
    res = invoke("replay", "--preset", "six_card", "--players", 2, "--json", name, "--quiet")
    assert res.exit_code == 0, res.output
    assert json.loads(name.read_text())["steps"]
    assert [p.name for p in tmp_path.iterdir()] == [name.name]


# ---- a hole that never ends --------------------------------------------------------------------
# knock-threshold with T=-100 never knocks, and four_card ends only by a knock: every hole is
# stopped by the turn cap
NEVER_ENDS = ["--preset", "four_card", "--players", 2, "--strategy", "knock-threshold:T=-100"]


@pytest.mark.parametrize("args, needle", [
    (["--set", f"turn_cap={rp.MAX_TURNS + 1}"], f"round 0 lasted {rp.MAX_TURNS + 1:,} turns"),
    (["--set", "turn_cap=100000"], "round 0 lasted 100,000 turns"),
    (["--set", f"turn_cap={rp.MAX_TURNS // 2 + 1}", "--holes", 2],
     f"match 0 (up to its hole 2) lasted {rp.MAX_TURNS + 2:,} turns"),
])
def test_a_replay_longer_than_its_bound_is_refused(tmp_path, args, needle):
    full = ["replay", *NEVER_ENDS, *args, "--json", tmp_path / "r.json"]
    assert_one_line_error(invoke(*full), full, [needle, f"at most {rp.MAX_TURNS:,} turns"])
    assert not (tmp_path / "r.json").exists()


def test_a_capped_hole_within_the_bound_is_replayed(tmp_path):
    res = invoke("replay", *NEVER_ENDS, "--json", tmp_path / "r.json", "--quiet")
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["capped"] and data["turns"] == Rules.preset("four_card").turn_cap


def test_the_bound_is_documented():
    cli_doc = (Path(__file__).resolve().parents[1] / "docs/cli.md").read_text()
    assert f"at most **{rp.MAX_TURNS} turns**" in cli_doc

