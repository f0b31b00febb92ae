"""The guide in the power-card games: the `guide` strategy's power tables (power_use,
power_skip) decide whether the power of a drawn card it does not keep is used, a rank in
neither being greedy's rule; a rank in both is refused; `golfsim guide` on a power preset
measures one entry per card with a power and shows them in a table of powers, in words, and
says "call Cabo" where it talks about ending the round."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.experiments import guide as gd
from simulator.experiments import stats
from simulator.experiments.runner import run
from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.effects import effect_of
from simulator.game.rules import POWER_PRESETS, Rules
from simulator.output import guide_report as gr
from strategies import ALL_RANKS, StrategyError, resolve, resolve_seats, seat_arrays
import browser
from cli_errors import assert_one_line_error
from policy_states import Table, card

CABO = Rules.preset("power_cabo")
CUMBIA = Rules.preset("power_cumbia")
KING = C.RANKS.index("K")
HIDDEN = "? ? / ? ?"


def mask(ranks) -> int:
    return sum(1 << r for r in ranks)


# ---- the strategy ----------------------------------------------------------------------------
def holes(rules: Rules, spec: str, rounds: int = 400, seed: int = 7):
    """Every hole's scores and length, ``spec`` in seat 0 against two greedy players."""
    ids, par = seat_arrays(resolve_seats([spec, "greedy", "greedy"], 3))
    r = run(rules, 3, ids, par, rounds, seed, kernel="general", per_round=True).per_round
    return r.scores, r.turns


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_power_tables_change_play_and_neither_is_greedys_rule():
    base = holes(CABO, "guide")
    # the ranks without a power have no power to use: in either table they change nothing
    plain = ALL_RANKS & ~mask(gd.power_ranks(CABO))
    assert same(holes(CABO, f"guide:power_use={plain}"), base)
    assert same(holes(CABO, f"guide:power_skip={plain}"), base)
    assert not same(holes(CABO, f"guide:power_use={ALL_RANKS}"), base)
    assert not same(holes(CABO, f"guide:power_skip={ALL_RANKS}"), base)
    # greedy's rule always uses Cumbia's jack (look at two cards, swap them if it gains)
    jack = 1 << C.RANK_JACK
    cumbia = holes(CUMBIA, "guide")
    assert same(holes(CUMBIA, f"guide:power_use={jack}"), cumbia)
    assert not same(holes(CUMBIA, f"guide:power_skip={jack}"), cumbia)


def cabo(layout: str, spec: str) -> Table:
    """A power_cabo table; the positions beyond the 2x2 grid hold the empty positions'
    pseudo-cards, as the power engine keeps them."""
    t = Table(CABO, [layout, HIDDEN, HIDDEN], [spec, "greedy", "greedy"])
    for s in range(3):
        for p in range(CABO.n_positions, K.MAX_POS):
            t.g[K.G_LAY + s * K.MAX_POS + p] = K.EMPTY0 + p
            t.g[K.G_UP + s * K.MAX_POS + p] = 1
            for obs in range(3):
                t.g[t.known_at(obs, s, p)] = K.EMPTY0 + p
    return t


def drawn(t: Table, held: str) -> int:
    """The answer to a drawn power card that may be placed, discarded or used."""
    c = card(held)
    t.g[K.G_PUB + K.PUB_POWER] = effect_of(CABO, c)
    return t.decide(K.DP_PLACE_DRAWN, 0, t.replaceable(0) + [K.A_DISCARD, K.A_POWER], c)


def test_the_power_tables_decide_a_drawn_card_that_is_not_kept():
    known = "?AS ?2H / ?2S ?AH"    # every own card known and low: a 7 is not kept
    seven, ten = 1 << 6, 1 << 9
    assert drawn(cabo(known, "guide"), "7C") == K.A_DISCARD    # nothing of its own to look at
    assert drawn(cabo(known, f"guide:power_use={seven}"), "7C") == K.A_POWER
    assert drawn(cabo(known, f"guide:power_use={ten}"), "7C") == K.A_DISCARD
    assert drawn(cabo(known, "guide"), "10C") == K.A_POWER     # the opponents' cards unknown
    assert drawn(cabo(known, f"guide:power_skip={ten}"), "10C") == K.A_DISCARD
    # a card it keeps is kept, whatever the power tables say
    high = "?KS ?KH / ?QS ?QH"
    assert drawn(cabo(high, f"guide:power_use={ALL_RANKS}"), "7C") in range(4)


def test_a_rank_in_both_power_tables_is_refused():
    with pytest.raises(StrategyError, match="power_use and power_skip both hold 7, J"):
        resolve(f"guide:power_use={mask([6, 10, 11])},power_skip={mask([6, 10])}")
    assert resolve(f"guide:power_use={mask([6])},power_skip={mask([7])}").params[-2:] == \
        (64.0, 128.0)
    from simulator.cli import cli
    args = ["run", "--preset", "power_cabo", "--strategy", "guide:power_use=64,power_skip=64",
            "--rounds", "10", "--out", "unused"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          ["strategy guide", "power_use and power_skip", "7"])


def test_every_power_has_words():
    """The table of powers names each preset's powers (and the Dutch ones) in words."""
    effects = {effect_of(Rules.preset(p), C.card_id(r, 0)) for p in POWER_PRESETS
               for r in gd.power_ranks(Rules.preset(p))}
    effects |= {v for k, v in vars(K).items() if k.startswith("POW_") and v != K.POW_NONE}
    assert effects <= set(gr.EFFECT_WORDS)
    assert all(not re.search("greedy|[A-Z]{2}", " ".join(w)) for w in gr.EFFECT_WORDS.values())


# ---- the guide of a power game ---------------------------------------------------------------
@pytest.fixture(scope="module")
def cabo_guide(tmp_path_factory):
    out = tmp_path_factory.mktemp("cabo")
    result = gd.build(CABO, "power_cabo", 3, 4, deals=100, out_dir=out, threads=2,
                      check_rounds=0, compare_rounds=0)
    gr.write(result, out, "golfsim guide --preset power_cabo")
    return result, (out / "guide.md").read_text(encoding="utf-8"), out / "guide.html"


def md_table(md: str, heading: str) -> list[list[str]]:
    """The rows (cells, Markdown bold kept) of the table under ``## heading``."""
    part = md.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [x for x in part.splitlines() if x.startswith("|")]
    return [[c.strip() for c in x.strip("|").split(" | ")] for x in lines[2:]]


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_the_guide_of_a_power_game_has_a_table_of_powers(cabo_guide):
    result, md, page = cabo_guide
    ranks = [C.RANK_NAMES[r] for r in gd.power_ranks(CABO)]
    assert ranks == ["7", "8", "9", "10", "J", "Q"]
    entries = [e for e in result.entries if e.table == "power"]
    assert [e.row for e in entries] == ranks
    rows = md_table(md, gr.POWER_HEADING)
    assert [r[0] for r in rows] == ranks
    assert rows[0][1] == rows[1][1] == "look at one of your own cards"
    assert rows[2][1] == "look at one of an opponent's cards"
    assert rows[4][1] == "swap any two cards on the table, unseen"
    advice = re.compile(r"(use|discard unused|either) [+-]\d+\.\d\d ±\d+\.\d\d( ✓)?")
    for row, e in zip(rows, entries):
        cell = row[-1]
        assert cell == gr.NA or advice.fullmatch(cell.strip("*")), cell
        assert cell.startswith("**") == e.clear and cell.endswith(f"{gr.CLEAR_MARK}**") == e.clear
        assert cell == gr.NA or cell.strip("*").startswith(e.chosen)
    # the finished guide plays what the table says
    spec = dict(kv.split("=") for kv in result.spec.partition(":")[2].split(",") if kv)
    for e, r in zip(entries, gd.power_ranks(CABO)):
        assert (int(spec.get("power_use", 0)) >> r) & 1 == (e.chosen == "use")
        assert (int(spec.get("power_skip", 0)) >> r) & 1 == (e.chosen == "discard unused")
    assert gr.POWER_HEADING in page.read_text(encoding="utf-8")
    assert not re.search("greedy", md, re.I)


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_a_call_game_says_call_not_knock(cabo_guide):
    result, md, _ = cabo_guide
    assert "## When to call Cabo" in md and "calling Cabo at" in md
    assert "may call Cabo" in md
    words = md.replace(result.spec, "")   # the strategy's parameter is named knock
    assert not re.search(r"knock", words, re.I), re.findall(r".{40}knock.{40}", words, re.I)


@pytest.mark.slow
def test_the_table_of_powers_in_headless_chromium(cabo_guide, tmp_path):
    """The page of a power game fits a phone and a desktop and prints; its table of powers
    has a row per card with a power, its words to the left, clear cells bold and n/a greyed
    as in the other tables."""
    result, _, page = cabo_guide
    driver = browser.chromium()
    try:
        faults = browser.check_screens_and_paper(driver, page, tmp_path, "powers")
        cells = driver.execute_script(
            "const s = c => getComputedStyle(c); return Array.from(document.querySelectorAll("
            "'table.powers tbody tr')).map(r => Array.from(r.cells).map(c => [c.innerText, "
            "c.className, s(c).textAlign, s(c).fontWeight, s(c).color]))")
        other = driver.execute_script(   # a clear cell and an n/a of the other tables
            "const s = c => getComputedStyle(c); const one = q => { const c = "
            "document.querySelector(q); return c && [s(c).fontWeight, s(c).color]; }; "
            "return [one('table.decisions td.clear'), one('table.decisions td.na')]")
    finally:
        driver.quit()
    assert not faults, "\n".join(faults)
    assert [row[0][0] for row in cells] == [C.RANK_NAMES[r] for r in gd.power_ranks(CABO)]
    clear_style, na_style = other
    for row, e in zip(cells, (e for e in result.entries if e.table == "power")):
        assert [c[2] for c in row[:-1]] == ["left"] * 3 and row[-1][2] == "right"
        text, kind, _, weight, colour = row[-1]
        assert kind == gr._cell(e).kind
        if kind == "clear":
            assert text.endswith(gr.CLEAR_MARK) and int(weight) >= 600
            assert clear_style is None or weight == clear_style[0]
        if kind == "na":
            assert text == gr.NA and (na_style is None or colour == na_style[1])


# ---- cards of one rank that differ in value, advice that fits the game -----------------------
def synthetic(rules: Rules, wins=("K",), preset: str = "", players: int = 3,
              deals: int = 400):
    """A guide of ``rules`` from made-up measurements (nothing played): every entry it would
    settle, the first option clearly better for the ranks in ``wins``, no better for others."""
    rng = np.random.default_rng(5)
    entries = []
    for table, rank, situation in (s for s in gd.steps(rules, players) if len(s) == 3):
        row = C.RANK_NAMES[rank]
        d = rng.normal(0.02 if row in wins else 0.0, 0.01, deals)
        w = stats.paired_interval(d.sum(), (d * d).sum(), deals)
        win = stats.Interval(*(float(x) for x in (w.mean, w.se, w.lo, w.hi)))
        a, b = gd.RANK_TABLES[table][:2]
        clear = bool(win.lo > 0 or win.hi < 0)
        entries.append(gd.Entry(table, row, situation, a, b, deals, win, win,
                                a if row in wins else b, clear, d))
    return gd.GuideResult(rules, preset, players, 1, deals, entries, [], "guide", "greedy",
                          None, None, 0.0)


def rows_by_card(result, table: str) -> dict[str, list]:
    heading = gr.question(table, result.rules.pair_scope != "none")
    rows = next(rows for head, _, _, rows in gr.decision_tables(result) if head == heading)
    return {str(r[0]): r[1:] for r in rows}


def thumb_rules(md: str) -> list[str]:
    part = md.split("## Rules of thumb\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. (.+)$", part, re.M)


def test_cabo_tables_and_rules_of_thumb_treat_the_diamond_king_apart():
    """Cabo's K♦ is worth 0, its other kings 13: the king entries measure K♦ alone (no card is
    worth more than 13, so neither option ever takes or keeps a black king), and the tables,
    the rules of thumb and guide.parquet say so; the kings worth 13 get a row of their own,
    without a measurement."""
    result = synthetic(CABO)
    kings = [e for e in result.entries if e.row == "K"]
    assert kings and all(e.clear for e in kings)
    for table, never in (("take", "draw"), ("keep", "discard")):
        rows = rows_by_card(result, table)
        assert "K" not in rows and list(rows)[-2:] == ["K♦ (0)", "K♠♥♣ (13)"]
        assert [c.text for c in rows["K♦ (0)"]] == \
            [gr._cell(e).text for e in kings if e.table == table]
        assert {(c.text, c.kind) for c in rows["K♠♥♣ (13)"]} == {(never, "na")}
    md = gr.markdown(result, [])
    thumbs = thumb_rules(md)
    assert len([t for t in thumbs if "K♦" in t]) == len({(e.table, e.situation) for e in kings})
    assert not re.search(r"\bkings?\b", "\n".join(thumbs)), thumbs
    assert "K♠♥♣ (13): no card is worth more" in md and "measure K♦ (0) alone" in md
    frame = gr.frame(result)
    assert set(frame.filter(frame["row"] == "K")["cards"]) == {"K♦ (0)"}
    assert set(frame.filter(frame["row"] == "A")["cards"]) == {"A"}


def test_one_entry_for_a_rank_whose_suits_differ_says_so():
    """Cumbia's twos (2♦ = -10) and kings (K♥♦ = -5) share one entry per situation (the
    tables decide by rank): the row names every card with its value; its power cards, which
    may not be put into a layout, have no take or keep entries."""
    result = synthetic(CUMBIA, wins=())
    rows = rows_by_card(result, "keep")
    assert "2♠♥♣ (2), 2♦ (-10)" in rows and "K♠♣ (0), K♥♦ (-5)" in rows
    assert not {"2", "K", "4", "5", "6", "7", "10", "J"} & set(rows)
    assert "one entry for all of them" in gr.markdown(result, [])
    placed = {e.row for e in result.entries if e.table in gd.TABLES}
    powers = {C.RANK_NAMES[r] for r in gd.power_ranks(CUMBIA)}
    assert powers and not placed & powers and placed


def test_a_power_only_some_suits_have_is_headed_by_those_cards():
    dutch = Rules.preset("six_card", power_set="dutch")
    cards = {gr.cards_of(dutch, e) for e in synthetic(dutch, wins=()).entries
             if e.table == "power"}
    assert "K♠♣" in cards and "K" not in cards and "J" in cards


@pytest.mark.parametrize("preset", POWER_PRESETS)
def test_no_column_or_pair_advice_where_nothing_pairs(preset):
    """In a game where nothing pairs and no line of three scores, the guide measures no
    reveal (which column one looks at first) and no pair situation, and its pages say nothing
    of pairs or columns of cards."""
    rules = Rules.preset(preset)
    assert rules.pair_scope == "none" and rules.line_sets == "none"
    steps = gd.steps(rules, 3)
    assert ("reveal",) not in steps and not any(len(s) == 3 and s[2] == "pair" for s in steps)
    md = gr.markdown(synthetic(rules, wins=("A",), preset=preset), [])
    layout = re.compile(r"\bpair(?:s|ing)?\b|\bcolumns\b|same column|column of|in a column")
    assert not layout.search(md), re.findall(r".{40}(?:" + layout.pattern + r").{40}", md)
    # the words are found where the game has them
    six = gr.markdown(synthetic(Rules.preset("six_card"), wins=("A",), preset="six_card"), [])
    assert layout.search(six) and ("reveal",) in gd.steps(Rules.preset("six_card"), 3)


def test_the_page_says_how_the_guide_matches_and_snaps():
    def said(rules):
        return gr.baseline_text(synthetic(rules, wins=()))
    assert "matches it whenever it knows a card of the same rank" in said(CABO)
    assert "snaps a card it knows of the discard's point value" in said(CUMBIA)
    assert "snaps one of its own cards" in said(Rules.preset("power_cactus"))
    for text in (said(CABO), said(CUMBIA)):
        assert "The guide does the same: its tables have no entry for these decisions." in text
    # the stall rule where the stock is reshuffled, not in Cabo, whose round ends with it
    assert "reshuffled" in said(CUMBIA) and "reshuffled" not in said(CABO)
    assert "snap" not in said(Rules.preset("power_pablo"))


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_only_the_diamond_king_is_ever_taken_or_kept_in_cabo():
    """What lets Cabo's king entries stand for K♦ alone: with no king in any take or keep
    table the guide plays Cabo differently (it no longer keeps K♦, worth 0), but where every
    king is worth 13 it plays every hole exactly as before: a card worth the most any card is
    worth is never taken nor kept."""
    no_kings = "guide:" + ",".join(f"{t}_{s}={ALL_RANKS & ~(1 << KING)}"
                                   for t in ("take", "keep") for s in ("early", "late", "last"))
    assert not same(holes(CABO, no_kings), holes(CABO, "guide"))
    kings_13 = Rules.preset("power_cabo", value_king_of_diamonds=None)
    assert gd.split_groups(kings_13, KING) == ([gd.CardGroup(KING, "", 13)], [])
    assert same(holes(kings_13, no_kings), holes(kings_13, "guide"))


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_the_cabo_guide_treats_the_diamond_king_apart(cabo_guide):
    result, md, page = cabo_guide
    for table, never in (("take", "draw"), ("keep", "discard")):
        rows = md_table(md, gr.question(table, False))
        cards = [r[0] for r in rows]
        assert "K" not in cards and cards[-2:] == ["K♦ (0)", "K♠♥♣ (13)"], cards
        kings = [e for e in result.entries if e.table == table and e.row == "K"]
        assert [c.strip("*") for c in rows[-2][1:]] == [gr._cell(e).text for e in kings]
        assert set(rows[-1][1:]) == {never}
    assert not re.search(r"\bkings?\b", "\n".join(thumb_rules(md)))
    assert "K♠♥♣ (13): no card is worth more" in md and "K♦ (0)" in page.read_text("utf-8")


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
def test_the_cabo_guide_fits_its_game(cabo_guide):
    """No pairs, no columns, no reveal in a game where nothing cancels; the rules in words
    without the rules' notes, the round's ends told apart."""
    result, md, page = cabo_guide
    assert not any(e.table == "reveal" for e in result.entries)
    layout = re.compile(r"\bpair(?:s|ing)?\b|\bcolumns\b|same column|column of|in a column")
    for text in (md, page.read_text("utf-8")):
        assert not layout.search(text), re.findall(r".{40}(?:" + layout.pattern + r").{40}",
                                                   text)
        assert not re.search(r"AMB-|reference engine|so far", text)
    assert ("then every other player plays one more turn; the ender does not play again. It "
            "also ends at once, with no more turns, when a player has no cards left or when "
            "the last card of the stock has been taken.") in md
