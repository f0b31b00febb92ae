"""The guide in the power-card games: the `guide` strategy's power tables (power_use,
power_skip) decide whether the power of a drawn card it does not keep is used, its snap
tables (snap_use, snap_skip; snap_opp_use, snap_opp_skip) whether it snaps a card it knows
(its own; an opponent's) by the discard's rank, its match tables (match_use, match_skip;
blind_use, blind_skip) whether it makes a turn match with cards it knows (Cabo: by the held
card's rank; Pablo: by the rank of its cards replaced) or a blind one; a rank in neither
table of a pair is greedy's rule, a rank in both is refused; `golfsim guide` on a power
preset measures one entry per card with a power and shows them in a table of powers, in
words, and says "call Cabo" where it talks about ending the round."""

from __future__ import annotations

import re
from collections import Counter

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
from strategies import ALL_RANKS, STRATEGIES, StrategyError, resolve, resolve_seats, seat_arrays
from strategies.common import MEM_PLAN_SNAP
import browser
from cli_errors import assert_one_line_error
from move_kinds import hole_kinds
from policy_states import Table, card

CABO = Rules.preset("power_cabo")
CUMBIA = Rules.preset("power_cumbia")
CACTUS = Rules.preset("power_cactus")
PABLO = Rules.preset("power_pablo")
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


def cabo(layout: str, spec: str, rules: Rules = CABO, others=(HIDDEN, HIDDEN),
         discard=("5D",)) -> Table:
    """A power-card table (power_cabo's unless ``rules`` says); the positions beyond the 2x2
    grid hold the empty positions' pseudo-cards, as the power engine keeps them."""
    t = Table(rules, [layout, *others], [spec, "greedy", "greedy"], discard=discard)
    for s in range(3):
        for p in range(rules.n_positions, K.MAX_POS):
            t.g[K.G_LAY + s * K.MAX_POS + p] = K.EMPTY0 + p
            t.g[K.G_UP + s * K.MAX_POS + p] = 1
            for obs in range(3):
                t.g[t.known_at(obs, s, p)] = K.EMPTY0 + p
    return t


def drawn(t: Table, held: str, match: bool = False) -> int:
    """The answer to a drawn power card that may be placed, discarded or used (``match``:
    or matched)."""
    c = card(held)
    t.g[K.G_PUB + K.PUB_POWER] = effect_of(t.rules, c)
    return t.decide(K.DP_PLACE_DRAWN, 0, t.replaceable(0) + [K.A_DISCARD, K.A_POWER] +
                    [K.A_MATCH] * match, c)


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
    assert params_of(f"guide:power_use={mask([6])},power_skip={mask([7])}")[
        "power_use"] == 64 and params_of("guide:power_skip=128")["power_skip"] == 128
    from simulator.cli import cli
    args = ["run", "--preset", "power_cabo", "--strategy", "guide:power_use=64,power_skip=64",
            "--rounds", "10", "--out", "unused"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          ["strategy guide", "power_use and power_skip", "7"])


def params_of(spec: str) -> dict[str, float]:
    return dict(zip((p.name for p in STRATEGIES["guide"].params), resolve(spec).params))


SAYS = (("snap_use", "snap_skip"), ("snap_opp_use", "snap_opp_skip"),
        ("match_use", "match_skip"), ("blind_use", "blind_skip"))


@pytest.mark.parametrize("use, skip", SAYS)
def test_a_rank_in_both_tables_of_a_snap_or_match_pair_is_refused(use, skip):
    with pytest.raises(StrategyError, match=f"{use} and {skip} both hold A, K"):
        resolve(f"guide:{use}={mask([0, 5, 12])},{skip}={mask([0, 12])}")
    assert params_of(f"guide:{use}={mask([0])},{skip}={mask([12])}")[skip] == 1 << 12
    from simulator.cli import cli
    args = ["run", "--preset", "power_cabo", "--strategy", f"guide:{use}=1,{skip}=1",
            "--rounds", "10", "--out", "unused"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          ["strategy guide", f"{use} and {skip}", "A"])


def snap(t: Table) -> int:
    return t.decide(K.DP_SNAP, 0, [K.A_SNAP, K.A_PASS])


def snapped(t: Table) -> tuple[int, int]:
    """(seat, position) of the card the seat plans to snap."""
    x = int(t.memory(0)[MEM_PLAN_SNAP]) - 1
    return x // K.MAX_POS, x % K.MAX_POS


NINE, KING_BIT = 1 << 8, 1 << KING


def test_the_snap_tables_decide_a_snap_with_an_own_card():
    """Cactus: greedy's rule snaps an own card it knows worth more than 0; snap_skip lets
    it go, snap_use snaps even a king, worth 0."""
    nine = dict(rules=CACTUS, discard=("9D",))
    assert snap(cabo("? ?9S / ? ?", "guide", **nine)) == K.A_SNAP
    t = cabo("? ?9S / ? ?", f"guide:snap_skip={NINE}", **nine)
    assert snap(t) == K.A_PASS
    assert snap(cabo("? ?9S / ? ?", f"guide:snap_skip={ALL_RANKS & ~NINE}", **nine)) == \
        K.A_SNAP
    king = dict(rules=CACTUS, discard=("KD",))
    assert snap(cabo("?KS ? / ? ?", "guide", **king)) == K.A_PASS
    t = cabo("?KS ? / ? ?", f"guide:snap_use={KING_BIT}", **king)
    assert snap(t) == K.A_SNAP and snapped(t) == (0, 0)


def test_the_snap_tables_decide_a_snap_of_an_opponents_card():
    """Cumbia: greedy's rule snaps an opponent's card it knows when it has an own card worth
    more than 0 to give back; snap_opp_skip lets it go, snap_opp_use snaps it anyway; the
    own-card tables do not decide it."""
    seen = dict(rules=CUMBIA, discard=("9D",), others=("9S ? / ? ?", HIDDEN))
    t = cabo("?QS ? / ? ?", "guide", **seen)
    assert snap(t) == K.A_SNAP and snapped(t) == (1, 0)
    assert snap(cabo("?QS ? / ? ?", f"guide:snap_opp_skip={NINE}", **seen)) == K.A_PASS
    assert snap(cabo("?QS ? / ? ?", f"guide:snap_skip={NINE}", **seen)) == K.A_SNAP
    low = "?KH ? / ? ?"   # its one known card is worth -5: nothing worth giving back
    assert snap(cabo(low, "guide", **seen)) == K.A_PASS
    assert snap(cabo(low, f"guide:snap_use={NINE}", **seen)) == K.A_PASS
    t = cabo(low, f"guide:snap_opp_use={NINE}", **seen)
    assert snap(t) == K.A_SNAP and snapped(t) == (1, 0)


def test_the_match_tables_decide_a_cabo_match():
    """Cabo: greedy matches a held card whenever it knows a card of its rank (match_use is
    the same), and never blind in these holes; match_skip does not match, blind_use matches
    blind when it knows no card of the rank, and never when it knows one."""
    sevens = "?7S ?2H / ? ?"
    assert drawn(cabo(sevens, "guide"), "7C", match=True) == K.A_MATCH
    assert drawn(cabo(sevens, f"guide:match_use={1 << 6}"), "7C", match=True) == K.A_MATCH
    assert drawn(cabo(sevens, f"guide:match_skip={1 << 6}"), "7C", match=True) != K.A_MATCH
    low = "?AS ?2H / ?2S ?AH"    # a 5 is not kept, and no 5 is known
    five = 1 << 4
    assert drawn(cabo(low, "guide"), "5C", match=True) == K.A_DISCARD
    assert drawn(cabo(low, f"guide:blind_use={ALL_RANKS & ~five}"), "5C", match=True) == \
        K.A_DISCARD
    assert drawn(cabo(low, f"guide:blind_use={five}"), "5C", match=True) == K.A_MATCH
    assert drawn(cabo(low, f"guide:blind_skip={five}"), "5C", match=True) == K.A_DISCARD
    shown = dict(others=("5S ? / ? ?", HIDDEN))   # a 5 it knows: the blind table is not asked
    t = cabo(low, f"guide:match_skip={five},blind_use={five}", **shown)
    assert drawn(t, "5C", match=True) == K.A_DISCARD
    assert drawn(cabo(low, f"guide:blind_use={five}", **shown), "5C", match=True) == K.A_MATCH


def test_the_match_tables_decide_a_pablo_replacement_by_the_rank_replaced():
    """Pablo: greedy replaces two or more own cards of a rank it knows when together they are
    worth more than the held card; the match tables, by the rank of the cards replaced,
    replace them whatever they total, or never."""
    twos, queens = "?2S ?2H / ? ?", "?QS ?QH / ? ?"
    two, queen = 1 << 1, 1 << 11
    pablo = dict(rules=PABLO)
    assert drawn(cabo(twos, "guide", **pablo), "9C", match=True) != K.A_MATCH
    assert drawn(cabo(twos, f"guide:match_use={two}", **pablo), "9C", match=True) == K.A_MATCH
    assert drawn(cabo(twos, f"guide:match_use={1 << 8}", **pablo), "9C", match=True) != \
        K.A_MATCH    # the held card's rank (9) is not what the table reads
    assert drawn(cabo(queens, "guide", **pablo), "3C", match=True) == K.A_MATCH
    assert drawn(cabo(queens, f"guide:match_skip={queen}", **pablo), "3C", match=True) != \
        K.A_MATCH


def test_every_power_has_words():
    """The table of powers names each preset's powers (and the Dutch ones) in words."""
    effects = {effect_of(Rules.preset(p), C.card_id(r, 0)) for p in POWER_PRESETS
               for r in gd.power_ranks(Rules.preset(p))}
    effects |= {v for k, v in vars(K).items() if k.startswith("POW_") and v != K.POW_NONE}
    assert effects <= set(gr.EFFECT_WORDS)
    assert all(not re.search("greedy|[A-Z]{2}", " ".join(w)) for w in gr.EFFECT_WORDS.values())


# ---- the guide of a power game ---------------------------------------------------------------
def _small_guide(tmp_path_factory, rules, preset):
    """A 100-deal guide of ``preset`` at three players, written: (result, guide.md, guide.html)."""
    out = tmp_path_factory.mktemp(preset)
    result = gd.build(rules, preset, 3, 4, deals=100, out_dir=out, threads=2,
                      check_rounds=0, compare_rounds=0)
    gr.write(result, out, f"golfsim guide --preset {preset}")
    return result, (out / "guide.md").read_text(encoding="utf-8"), out / "guide.html"


@pytest.fixture(scope="module")
def cabo_guide(tmp_path_factory):
    return _small_guide(tmp_path_factory, CABO, "power_cabo")


@pytest.fixture(scope="module")
def cumbia_guide(tmp_path_factory):
    return _small_guide(tmp_path_factory, CUMBIA, "power_cumbia")


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
        assert kind == gr.tables._cell(e).kind
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


def kings_taken_or_kept(thumbs: list[str]) -> list[str]:
    """The rules of thumb but those of the match table, which decides by the held card's
    rank (the key a match compares): Cabo matches any king with any king."""
    return [t for t in thumbs if not t.startswith(("Match ", "Do not match ", "Never match "))]


def test_cabo_tables_and_rules_of_thumb_treat_the_diamond_king_apart():
    """Cabo's K♦ is worth 0, its other kings 13: the king entries measure K♦ alone (no card is
    worth more than 13, so neither option ever takes or keeps a black king), and the tables,
    the rules of thumb and guide.parquet say so; the kings worth 13 get a row of their own,
    without a measurement."""
    result = synthetic(CABO)
    kings = [e for e in result.entries if e.row == "K" and e.table in gd.TABLES]
    assert kings and all(e.clear for e in kings)
    for table, never in (("take", "draw"), ("keep", "discard")):
        rows = rows_by_card(result, table)
        assert "K" not in rows and list(rows)[-2:] == ["K♦ (0)", "K♠♥♣ (13)"]
        assert [c.text for c in rows["K♦ (0)"]] == \
            [gr.tables._cell(e).text for e in kings if e.table == table]
        assert {(c.text, c.kind) for c in rows["K♠♥♣ (13)"]} == {(never, "na")}
    md = gr.markdown(result, [])
    thumbs = thumb_rules(md)
    assert len([t for t in thumbs if "K♦" in t]) == len({(e.table, e.situation) for e in kings})
    assert not re.search(r"\bkings?\b", "\n".join(kings_taken_or_kept(thumbs))), thumbs
    assert "K♠♥♣ (13): no card is worth more" in md and "measure K♦ (0) alone" in md
    frame = gr.frame(result)
    placed = frame.filter(frame["table"].is_in(list(gd.TABLES)))
    assert set(placed.filter(placed["row"] == "K")["cards"]) == {"K♦ (0)"}
    assert set(frame.filter(frame["table"] == "match")["cards"]) >= {"K♠♥♣ (13), K♦ (0)"}
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
    for rules, what in ((CABO, "matches"), (CUMBIA, "snaps")):
        assert f"The guide does the same, except where its table of {what} says otherwise." \
            in said(rules)
    # the stall rule where the stock is reshuffled, not in Cabo, whose round ends with it
    assert "reshuffled" in said(CUMBIA) and "reshuffled" not in said(CABO)
    assert "snap" not in said(Rules.preset("power_pablo"))


# ---- the snap and match tables on the page ---------------------------------------------------
def say_headers(result) -> dict[str, list[str]]:
    """The snap and match tables of a guide: heading -> header."""
    return {head: header for head, _, header, _ in gr.say_tables(result)}


@pytest.mark.parametrize("preset, expected", [
    ("power_cactus", {"When to snap": ["the discard", "your own card"]}),
    ("power_cumbia", {"When to snap": ["the discard", "your own card", "an opponent's card"]}),
    ("power_cabo", {"When to match": ["the card you hold", "you know a card of its rank",
                                      "you know none of its rank: a blind match"]}),
    ("power_pablo", {"When to match": ["your cards", "you know two or more of them"]}),
    ("power_malaysia", {}),
    ("six_card", {}),
])
def test_a_guide_has_the_snap_and_match_tables_its_game_has(preset, expected):
    """A snap table where the rules have snaps (an opponent's card as a column of its own
    where it may be snapped), a match table where they have turn matches (a blind match's
    column in Cabo), a row per rank in play; none in a game without them, nor its entries."""
    rules = Rules.preset(preset)
    result = synthetic(rules, wins=())
    assert say_headers(result) == expected
    ranks = [C.RANK_NAMES[r] for r in gd.ranks_in_play(rules)]
    for head, _, _, rows in gr.say_tables(result):
        assert [str(r[0]).split("♠")[0].split(" ")[0].rstrip(",") for r in rows] == ranks
    tables = {e.table for e in result.entries}
    assert ("snap" in tables) == (rules.snap_mode != "none")
    assert ("match" in tables) == (rules.turn_match_mode != "none")
    md = gr.markdown(result, [])
    for head in ("When to snap", "When to match"):
        assert (f"## {head}\n" in md) == (head in expected)


def test_snap_and_match_cells_and_rules_of_thumb_take_the_advices_side():
    """A clear entry's cell names the option kept and what it gains (positive); a rank
    whose snaps (matches) clearly pay is a rule of thumb in words."""
    cumbia = synthetic(CUMBIA, wins=("9",))
    nines = {e.situation: e for e in cumbia.entries if e.table == "snap" and e.row == "9"}
    assert set(nines) == {"own", "opponent"} and all(e.clear for e in nines.values())
    rows = {str(r[0]): r[1:] for r in gr.say_tables(cumbia)[0][3]}
    assert [c.text for c in rows["9"]] == [gr.tables._cell(nines[s]).text for s in ("own", "opponent")]
    assert all(re.fullmatch(r"snap \+\d+\.\d\d ±\d+\.\d\d ✓", c.text) and c.kind == "clear"
               for c in rows["9"])
    thumbs = thumb_rules(gr.markdown(cumbia, []))
    assert "Snap your own nines that you know when a matching card is discarded" in \
        "\n".join(thumbs)
    assert "Snap an opponent's nines that you know when a matching card is discarded, giving " \
        "one of yours back" in "\n".join(thumbs)
    cabo = synthetic(CABO, wins=("A",))
    thumbs = "\n".join(thumb_rules(gr.markdown(cabo, [])))
    assert "Match aces you hold whenever you know a card of their rank" in thumbs
    assert "Match aces you hold blind when you know no card of their rank" in thumbs
    pablo = "\n".join(thumb_rules(gr.markdown(synthetic(PABLO, wins=("Q",)), [])))
    assert "Replace two or more of your queens with the card you hold" in pablo


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
        assert [c.strip("*") for c in rows[-2][1:]] == [gr.tables._cell(e).text for e in kings]
        assert set(rows[-1][1:]) == {never}
    assert not re.search(r"\bkings?\b", "\n".join(kings_taken_or_kept(thumb_rules(md))))
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


# ---- the snap and match tables in play -------------------------------------------------------
def seat_kinds(rules: Rules, spec: str, holes: int = 150) -> Counter:
    """The kinds of the moves seat 0 makes playing ``spec`` against two greedy players."""
    ids, params = seat_arrays(resolve_seats([spec, "greedy", "greedy"], 3))
    out: Counter = Counter()
    for i in range(holes):
        out += hole_kinds(rules, 3, ids, params, 11, i, seat=0)
    return out


PLAYED = [   # (rules, tables, kind of move, does the seat make it more often than greedy's rule?)
    (CACTUS, f"snap_skip={ALL_RANKS}", "snap:own", False),
    (CUMBIA, f"snap_skip={ALL_RANKS}", "snap:own", False),
    (CUMBIA, f"snap_opp_skip={ALL_RANKS}", "snap:opponent", False),
    (CUMBIA, f"snap_opp_use={ALL_RANKS}", "snap:opponent", True),
    (CACTUS, f"snap_use={ALL_RANKS}", "snap:own", True),
    (CABO, f"match_skip={ALL_RANKS}", "match:known", False),
    (CABO, f"blind_use={ALL_RANKS}", "match:unknown", True),
    (PABLO, f"match_skip={ALL_RANKS}", "match", False),
    (PABLO, f"match_use={ALL_RANKS}", "match", True),
]


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
@pytest.mark.parametrize("rules, tables, kind, more", PLAYED,
                         ids=[f"{r.snap_mode}-{r.turn_match_mode}-{t.split('=')[0]}"
                              for r, t, _, _ in PLAYED])
def test_the_snap_and_match_tables_change_the_moves_played(rules, tables, kind, more):
    """A seat whose tables never snap (match) makes no such move in 150 holes where greedy's
    rule makes some; one whose tables always do makes more of them (Cabo's blind matches,
    which greedy's rule does not make)."""
    base = seat_kinds(rules, "guide")[kind]
    got = seat_kinds(rules, f"guide:{tables}")[kind]
    if more:
        assert got > base, (kind, base, got)
    else:
        assert base > 0 and got == 0, (kind, base, got)


@pytest.mark.slow   # plays on the powers build, the slow tier's (tests/conftest.py)
@pytest.mark.parametrize("game, heading", [("cabo", "When to match"),
                                           ("cumbia", "When to snap")])
def test_the_guide_measures_snaps_and_matches_and_its_strategy_plays_them(game, heading,
                                                                          request):
    """A small guide of Cabo (Cumbia) measures a match (snap) entry per rank in play in each
    situation the rules have, prints them in a table of their own, none of the other kind,
    and the strategy it prints holds each kept option in its parameters."""
    result, md, page = request.getfixturevalue(f"{game}_guide")
    rules = result.rules
    entries = [e for e in result.entries if e.table in ("snap", "match")]
    situations = gd.say_situations(rules)
    assert [(e.table, e.situation) for e in entries] == \
        [ts for ts in situations for _ in gd.ranks_in_play(rules)]
    other = ({"When to snap", "When to match"} - {heading}).pop()
    assert f"## {heading}\n" in md and f"## {other}\n" not in md
    assert heading in page.read_text(encoding="utf-8")
    rows = md_table(md, heading)
    ranks = [C.RANK_NAMES[r] for r in gd.ranks_in_play(rules)]
    assert len(rows) == len(ranks)
    for k, (table, situation) in enumerate(situations):
        for row, e in zip(rows, entries[k * len(ranks):]):
            assert row[0] == gd.entry_cards(rules, table, C.RANK_NAMES.index(e.row))
            assert row[1 + k] == (f"**{gr.tables._cell(e).text}**" if e.clear else gr.tables._cell(e).text)
            assert e.chosen in (e.a, e.b, gd.EITHER) and (e.chosen != gd.EITHER) == e.clear
    # the printed strategy plays what the tables say, and prints itself back
    params = params_of(result.spec)
    assert gd.spec_of(params) == result.spec
    for e in entries:
        prefix = gd.SAY_PARAMS[(e.table, e.situation)]
        r = C.RANK_NAMES.index(e.row)
        assert (int(params[f"{prefix}_use"]) >> r) & 1 == (e.chosen == e.a)
        assert (int(params[f"{prefix}_skip"]) >> r) & 1 == (e.chosen == e.b)
