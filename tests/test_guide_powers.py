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
from simulator.experiments.runner import run
from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.powers import effect_of
from simulator.game.rules import POWER_PRESETS, Rules
from simulator.output import guide_report as gr
from strategies import ALL_RANKS, StrategyError, resolve, resolve_seats, seat_arrays
import browser
from cli_errors import assert_one_line_error
from policy_states import Table, card

CABO = Rules.preset("power_cabo")
CUMBIA = Rules.preset("power_cumbia")
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
