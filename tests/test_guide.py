"""`golfsim guide`: the table-driven `guide` strategy does what its tables say (by rank and
situation, the line tables of a game scoring lines of three, what it still has to learn of its
own cards), a guide's measurements resume after an interruption, its thresholds are measured
against players who follow it, the finished guide beats greedy, its pages are written for
players (the rules in words, rules of thumb, no strategy names, marks rather than capitals),
and the HTML opens in headless Chromium with its tables and figures."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from simulator.game import codes as K
from simulator.experiments import guide as gd
from simulator.output import guide_report as gr
from simulator.game.rules import PRESETS, Rules, card_values_text, option_text
from simulator.experiments.runner import run
from strategies import ALL_RANKS, resolve_seats, seat_arrays
import browser
from policy_states import Table

SIX = Rules.preset("six_card")
NINE = Rules.preset("nine_card")
FOUR = Rules.preset("four_card")
HIDDEN_6 = "? ? ? / ? ? ?"
HIDDEN_9 = "? ? ? / ? ? ? / ? ? ?"
FIVE = 4   # the rank index of a five (bit 4 of a rank mask)
NINES = 1 << 8   # the rank mask of the nines


def six(seat0: str, spec: str, discard=("5D",)) -> Table:
    return Table(SIX, [seat0] + [HIDDEN_6] * 3, [spec] + ["greedy"] * 3, discard=discard)


def without(rank: int) -> int:
    return ALL_RANKS & ~(1 << rank)


def nine(seat0: str, spec: str, discard=("9D",)) -> Table:
    return Table(NINE, [seat0] + [HIDDEN_9] * 3, [spec] + ["greedy"] * 3, discard=discard)


# ---- the strategy --------------------------------------------------------------------------
# six_card with snaps or turn matches plays on the power-card engine (the slow tier's build)
ON_POWERS = [pytest.param(Rules.preset("six_card", **{option: value}), id=value,
                          marks=pytest.mark.slow)
             for option, value in (("snap_mode", "cactus"), ("snap_mode", "cumbia"),
                                   ("turn_match_mode", "cabo_match"),
                                   ("turn_match_mode", "pablo_multi_replace"))]


@pytest.mark.parametrize("rules", [pytest.param(SIX, id="six_card"),
                                   pytest.param(FOUR, id="four_card"),
                                   pytest.param(NINE, id="nine_card")] + ON_POWERS)
def test_default_tables_play_exactly_as_greedy(rules):
    def scores(spec):
        ids, par = seat_arrays(resolve_seats([spec, "greedy", "greedy"], 3))
        return run(rules, 3, ids, par, 1500, 11, kernel="general", per_round=True).per_round

    a, b = scores("greedy"), scores("guide")
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.turns, b.turns)


def test_take_table_decides_a_discard_that_pairs_nothing():
    layout = "KS ? ? / QH ? ?"   # the discard 5D pairs nothing; over the queen it gains 5
    assert six(layout, "guide").turn() == K.A_TAKE_DISCARD
    assert six(layout, f"guide:take_early={without(FIVE)}").turn() == K.A_DRAW_STOCK
    # the pair table is not consulted for a card that pairs nothing
    assert six(layout, "guide:take_pair=0").turn() == K.A_TAKE_DISCARD


def test_take_table_for_a_discard_that_pairs():
    layout = "5S ? ? / ? ? ?"   # the discard 5D pairs the face-up 5S from position 3
    assert six(layout, f"guide:take_early={without(FIVE)}").turn() == K.A_TAKE_DISCARD
    t = six(layout, f"guide:take_pair={without(FIVE)}")
    assert t.turn() == K.A_DRAW_STOCK


def test_the_situation_picks_the_table_column():
    late = "KS 9H ? / QH 8D 7C"   # one face-down card left: late in the round
    assert six(late, f"guide:take_early={without(FIVE)}").turn() == K.A_TAKE_DISCARD
    assert six(late, f"guide:take_late={without(FIVE)}").turn() == K.A_DRAW_STOCK

    def last_turn(spec):
        return Table(SIX, [late] + [HIDDEN_6] * 3, [spec] + ["greedy"] * 3, discard=("5D",),
                     ender=1)
    assert last_turn(f"guide:take_late={without(FIVE)}").turn() == K.A_TAKE_DISCARD
    assert last_turn(f"guide:take_last={without(FIVE)}").turn() == K.A_DRAW_STOCK


def test_the_situation_counts_the_cards_it_does_not_know():
    """In four_card every card stays face down: "later" is when it knows most of its own
    cards (here three of four), not when few are face down."""
    layout = "?5S ?7H / ?KS ?"    # the discard 4D pairs nothing; over the 7 it gains 3
    def four(spec):
        return Table(FOUR, [layout] + ["? ? / ? ?"] * 3, [spec] + ["knock-threshold"] * 3,
                     discard=("4D",))
    assert four("guide").turn() == K.A_TAKE_DISCARD
    assert four(f"guide:take_early={without(3)}").turn() == K.A_TAKE_DISCARD
    assert four(f"guide:take_late={without(3)}").turn() == K.A_DRAW_STOCK


def test_line_tables_complete_a_column_of_three():
    layout = "9S ? ? / 9H ? ? / 4S ? ?"   # column 0: two nines; the 9D completes it over the 4
    assert nine(layout, "guide").turn() == K.A_DRAW_STOCK      # greedy: a nine gains nothing
    t = nine(layout, f"guide:take_line3={NINES}")
    assert t.turn() == K.A_TAKE_DISCARD and t.place_taken() == 6
    assert nine(layout, f"guide:keep_line3={NINES}").place_drawn("9C") == 6
    assert nine(layout, f"guide:take_line3={ALL_RANKS & ~NINES}").turn() == K.A_DRAW_STOCK


def test_line_tables_join_a_column_over_its_costlier_card():
    layout = "9S ? ? / 8H ? ? / ? ? ?"   # one nine in column 0; the 8 is worth more than a
    assert nine(layout, "guide").turn() == K.A_DRAW_STOCK      # card it does not know
    t = nine(layout, f"guide:take_line2={NINES}")
    assert t.turn() == K.A_TAKE_DISCARD and t.place_taken() == 3
    assert nine(layout, f"guide:keep_line2={NINES}").place_drawn("9C") == 3
    assert nine(layout, f"guide:take_line3={NINES}").turn() == K.A_DRAW_STOCK   # not two


def test_a_kept_line_is_never_broken_and_counts_zero():
    line = "9S ? ? / 9H ? ? / 9D ? ?"   # a complete column of nines
    assert nine(line, "guide", discard=("5D",)).place_drawn("2C") == 0   # greedy breaks it
    assert nine(line, f"guide:keep_line3={NINES}", discard=("5D",)).place_drawn("2C") == 1
    # going out: the nines score 0, so an ace on the last face-down card ends at -4 + 1
    last = "9S 2S 2H / 9H KS KD / 9D KH ?"
    lines = f"take_line3={NINES},keep_line3={NINES}"
    assert nine(last, f"guide:{lines},out=0", discard=("AD",)).turn() == K.A_TAKE_DISCARD
    assert nine(last, f"guide:{lines},out=-4", discard=("AD",)).turn() == K.A_DRAW_STOCK


def test_keep_table_decides_a_drawn_card():
    layout = "KS ? ? / QH ? ?"
    assert six(layout, "guide").place_drawn("5C") in range(6)
    assert six(layout, f"guide:keep_early={without(FIVE)}").place_drawn("5C") == K.A_DISCARD
    assert six(layout, f"guide:keep_early={without(FIVE)}").place_drawn("4C") in range(6)


def test_out_threshold_keeps_the_last_card_down_when_the_score_would_be_too_high():
    # columns A/A and 2/2 pair; the last face-down card is under the 3: a 4 there (better
    # than an unknown card) ends the round with 3 + 4 = 7
    layout = "AS 2H 3D / AC 2S ?"
    assert six(layout, "guide", discard=("4D",)).turn() == K.A_TAKE_DISCARD
    assert six(layout, "guide:out=6", discard=("4D",)).turn() == K.A_DRAW_STOCK
    assert six(layout, "guide:out=7", discard=("4D",)).turn() == K.A_TAKE_DISCARD
    assert six(layout, "guide:out=6").place_drawn("4C") == K.A_DISCARD
    assert six(layout, "guide:out=7").place_drawn("4C") == 5


def test_down_table_puts_a_kept_card_over_a_face_down_card():
    layout = "9S ? ? / 7H ? ?"    # greedy puts a 4 over the 9 (a sure gain of 5)
    four = 1 << 3
    t = six(layout, "guide", discard=("4D",))
    assert t.turn() == K.A_TAKE_DISCARD and t.place_taken() == 0
    t = six(layout, f"guide:down={four}", discard=("4D",))
    assert t.turn() == K.A_TAKE_DISCARD and t.place_taken() == 1
    assert six(layout, f"guide:down={four}").place_drawn("4C") == 1
    assert six(layout, f"guide:down={four}").place_drawn("3C") == 0    # not in the table
    # an eight is above the mean of the unseen cards: over a face-down card it would not gain
    assert six(layout, f"guide:down={ALL_RANKS}").place_drawn("8C") == 0


def test_reveal_modes():
    legal = list(range(6))
    apart = six(HIDDEN_6, "guide:reveal=1")
    first = apart.decide(K.DP_REVEAL, 0, legal)
    apart.g[K.G_KNOWN + first] = 1   # it now knows the card it revealed
    second = apart.decide(K.DP_REVEAL, 0, [p for p in legal if p != first])
    assert first % 3 != second % 3
    together = six(HIDDEN_6, "guide:reveal=2")
    first = together.decide(K.DP_REVEAL, 0, legal)
    second = together.decide(K.DP_REVEAL, 0, [p for p in legal if p != first])
    assert first % 3 == second % 3


# ---- building a guide ------------------------------------------------------------------------
SMALL = dict(deals=300, check_rounds=0, compare_rounds=0, threads=2)


def test_an_interrupted_guide_resumes_to_the_same_tables(tmp_path):
    whole = gd.build(SIX, "six_card", 4, 5, out_dir=tmp_path / "whole", **SMALL)

    calls = []

    def interrupt(n):
        calls.append(n)
        if len(calls) == 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gd.build(SIX, "six_card", 4, 5, out_dir=tmp_path / "cut", progress=interrupt, **SMALL)
    kept = list((tmp_path / "cut" / "shards").glob("measure-*.npy"))
    assert 0 < len(kept) < len(list((tmp_path / "whole" / "shards").glob("measure-*.npy")))
    resumed = gd.build(SIX, "six_card", 4, 5, out_dir=tmp_path / "cut", **SMALL)
    assert resumed.spec == whole.spec
    assert whole.warnings == resumed.warnings == []    # six_card holes end
    assert gr.frame(resumed).equals(gr.frame(whole))
    again = gd.build(SIX, "six_card", 4, 5, out_dir=tmp_path / "cut", **SMALL)
    assert gr.frame(again).equals(gr.frame(whole))
    with pytest.raises(gd.GuideError, match="different"):
        gd.build(SIX, "six_card", 4, 6, out_dir=tmp_path / "cut", **SMALL)


def test_other_house_rules_replace_the_guides_kept_comparison(tmp_path):
    """A rerun with other --vary (the decisions measured are the same) ended with a
    traceback: the comparison kept in compare/ was of the other house rules."""
    kw = dict(deals=100, threads=1, check_rounds=0, compare_rounds=200)
    first = gd.build(SIX, "six_card", 2, 5, out_dir=tmp_path, **kw)
    assert len(first.compare.plan.variants) == 3
    other = gd.build(SIX, "six_card", 2, 5, out_dir=tmp_path,
                     varies=["ender_penalty=none,plus_10"], **kw)
    assert [v.label for v in other.compare.plan.variants] == ["ender_penalty=plus_10"]
    assert any("compare/ was of other house rules" in n for n in other.notes)
    assert gr.frame(other).equals(gr.frame(first))


@pytest.mark.slow
def test_the_guide_beats_greedy_and_says_by_how_much(tmp_path):
    result = gd.build(SIX, "six_card", 4, 3, deals=1000, out_dir=tmp_path, threads=2,
                      check_rounds=20_000, compare_rounds=0)
    check = gr.check_summary(result)
    diff = check["guide_win"] - check["field_win"]
    se = 2 * check["guide_win_se"]
    assert diff - 3 * se > 0, check
    assert result.spec != "guide"        # it changed something greedy does
    assert "it beats them" in gr.verdict_line(result)
    assert f"{100 * diff:.2f}" in gr.verdict_line(result)


def test_a_knock_game_is_measured_and_checked_against_knock_threshold(tmp_path):
    """The entries against knock-threshold (T = 8); the knock threshold against players who
    follow the guide, where "never" is no candidate (a table following it would never end a
    round); the check against knock-threshold."""
    result = gd.build(FOUR, "four_card", 3, 2, deals=150, out_dir=tmp_path, threads=2,
                      check_rounds=3000, compare_rounds=0)
    assert result.field == "knock-threshold" and "knock=" in result.spec
    assert [t.table for t in result.thresholds] == ["knock"]
    th = result.thresholds[0]
    assert gd.NEVER_KNOCK not in th.values and th.best >= 0
    assert th.field.startswith("guide:") and f"knock={th.field_value:g}" in th.field
    assert th.start == 8 and 1 <= th.sweeps <= gd.SWEEPS
    assert th.settled == (th.best == th.field_value)
    i = th.values.index(th.field_value)   # the guide against itself: an even share
    assert abs(th.win.mean[i] - 1 / 3) < 1e-9
    assert "down" not in {e.table for e in result.entries}   # every card stays face down
    check = gr.check_summary(result)
    assert check["field"] == "knock-threshold" and check["rounds"] >= 3000
    assert abs(check["guide_win"] + check["field_win"] - 1) < 1e-9
    assert "baseline players' " in gr.verdict_line(result)


# ---- the command and its HTML ----------------------------------------------------------------
@pytest.fixture(scope="module")
def guide_folder(tmp_path_factory):
    from click.testing import CliRunner

    from simulator.cli import cli
    out = tmp_path_factory.mktemp("guide")
    args = ["guide", "--preset", "six_card", "--players", "4", "--deals", "400",
            "--check-rounds", "4000", "--compare-rounds", "1000",
            "--vary", "ender_penalty=none,plus_10", "--threads", "2", "--quiet", "--out", str(out)]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    return out, done.output


def test_guide_command_writes_its_files(guide_folder):
    out, stdout = guide_folder
    for name in ("guide.html", "guide.md", "guide.parquet", gr.DECISIONS_PLOT,
                 gr.THRESHOLDS_PLOT, gr.CHECK_PLOT, gr.HOUSE_RULES_PLOT):
        assert (out / name).stat().st_size > 500, name
    df = pl.read_parquet(out / "guide.parquet")
    meta = pl.read_parquet_metadata(out / "guide.parquet")
    assert set(df["table"]) == {"reveal", "take", "keep", "down", "out", gr.ADVICE_TABLE}
    assert df.filter(pl.col("table") == "take").height == 52   # 13 ranks x 4 situations
    assert meta["guide_strategy"] in stdout
    check = json.loads(meta["check"])
    assert f"{100 * check['guide_win']:.2f}%" in stdout
    md = (out / "guide.md").read_text()
    assert "| card |" in md and f"]({gr.CHECK_PLOT})" in md and "ender_penalty" in md
    page = (out / "guide.html").read_text()
    assert "src=\"http" not in page and page.count("data:image/png;base64,") == 4


@pytest.mark.slow
def test_guide_opens_in_headless_chromium(guide_folder, tmp_path):
    """The page at a phone's width (390 px) and a desktop's (1280 px): nothing scrolls the
    page sideways, a wide table scrolls inside its own wrapper, every figure loads and fits,
    the screenshots (kept in tmp_path) are not blank; on paper every table fits whole."""
    out, _ = guide_folder
    page = out / "guide.html"
    driver = browser.chromium()
    try:
        faults = browser.check_screens_and_paper(driver, page, tmp_path, "guide")
        tables = driver.execute_script(
            "return Array.from(document.querySelectorAll('table')).map("
            "t => [t.className, t.querySelectorAll('tbody tr').length])")
        images = driver.execute_script(
            "return Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth,"
            " i.naturalHeight])")
        verdict = driver.execute_script("return document.getElementById('verdict').innerText")
        na = driver.execute_script(   # not-applicable cells are greyed, clear ones bold
            "const s = c => getComputedStyle(c); return ["
            "Array.from(document.querySelectorAll('td.na')).map(c => [c.innerText, "
            "s(c).color]), Array.from(document.querySelectorAll('td.clear')).map("
            "c => s(c).fontWeight)]")
    finally:
        driver.quit()
    assert not faults, "\n".join(faults)
    kinds = [k for k, _ in tables]
    assert kinds.count("decisions") == 3 and "thresholds" in kinds and "house-rules" in kinds
    assert dict(tables)["decisions"] == 13
    assert len(images) == 4 and all(ok and w > 300 and h > 150 for _, ok, w, h in images), images
    check = json.loads(pl.read_parquet_metadata(out / "guide.parquet")["check"])
    assert f"{100 * check['guide_win']:.2f}%" in verdict and "baseline players" in verdict
    greyed, weights = na
    alike = {gr.NA} | {words[1] for words in gd.TABLES.values()}   # the play both made
    assert greyed and all((text in alike or text.startswith(gd.MOOT)) and
                          colour != "rgb(34, 34, 34)"
                          for text, colour in greyed)
    assert weights and all(int(w) >= 600 for w in weights)
    for width in browser.WIDTHS:
        assert (tmp_path / f"guide-{width}.png").stat().st_size > 10_000
    assert (tmp_path / "guide.pdf").stat().st_size > 20_000


def test_the_check_and_house_rule_seeds_stay_seeds():
    """The guide's other deals (check, house rules) are played on seed + k * 1,000,003, which
    for the largest seeds --seed allows must wrap rather than leave the int64 range the
    kernels take (issue 27)."""
    assert gd.other_seed(1, 1) == 1 + gd.CHECK_SEED_OFFSET
    assert gd.other_seed(7, 2) == 7 + 2 * gd.CHECK_SEED_OFFSET
    for seed in (2**63 - 1, 2**63 - gd.CHECK_SEED_OFFSET):
        for k in (1, 2):
            s = gd.other_seed(seed, k)
            assert 0 <= s < 2**63 and s != seed


# ---- the pages, written for players ----------------------------------------------------------
PAGES = {   # preset: options set, players
    "six_card": (["pair_scope=anywhere"], 4),
    "nine_card": ([], 4),
    "four_card": ([], 3),
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each preset's guide, small, written: (rules, guide.md, guide.html's text, result)."""
    import simulator.api as golf
    out = {}
    for preset, (options, players) in PAGES.items():
        folder = tmp_path_factory.mktemp(preset)
        g = golf.guide(preset, set=options, players=players, deals=100, check_rounds=240,
                       compare_rounds=0, threads=2, progress=False, out=folder)
        page = (folder / "guide.html").read_text(encoding="utf-8")
        out[preset] = (g.raw.rules, (folder / "guide.md").read_text(encoding="utf-8"),
                       page, g.raw)
    return out


def page_text(page: str) -> str:
    """The HTML's text: no tags (nor the figures' base64 data), entities decoded."""
    import html
    return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]*"', "", page)))


@pytest.mark.parametrize("preset", list(PAGES))
def test_each_page_opens_with_the_rules_in_words_and_rules_of_thumb(pages, preset):
    rules, md, page, result = pages[preset]
    base = Rules.preset(preset)
    for text in (md, page_text(page)):
        heads = re.findall(r"^## (.+)$", md, re.M) if text is md else \
            re.findall(r"<h2>([^<]+)</h2>", page)
        assert heads[:2] == ["The rules", "Rules of thumb"], heads
        for name, value in rules.diff(base).items():   # every option changed from the preset
            assert f"{name}={option_text(value)}" in text, name
        for part in card_values_text(rules).split(", "):   # every card's value
            assert part in text, part
        assert "cancel" in text and preset in text
        assert not re.search("greedy", text, re.I)
        assert "never came up)" not in text
        assert not re.search(r"\b(TAKE|DRAW|KEEP|DISCARD|FACE DOWN|BEST GAIN)\b", text)
        assert "baseline player" in text
    rules_of_thumb = md.split("## Rules of thumb", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^\d+\. (.+)$", rules_of_thumb, re.M)
    assert found
    worth = [float(m) for m in re.findall(r"worth ([+-]\d+\.\d+) ±", rules_of_thumb)]
    assert worth == sorted(worth, reverse=True) and all(w > 0 for w in worth)
    # an entry that never came up is marked not applicable, a clear one bold with its mark
    cells = [gr.tables._cell(e) for e in result.entries if e.table in gd.TABLES]
    assert {c.kind for c in cells if c.text == gr.NA} <= {"na"}
    assert all(c.text.endswith(gr.CLEAR_MARK) for c in cells if c.kind == "clear")
    assert f"**{next(c.text for c in cells if c.kind == 'clear')}**" in md


def test_the_situations_fit_each_game(pages):
    _, six_md, _, six = pages["six_card"]
    assert "anywhere" in six_md and "it pairs one of your cards" in six_md
    assert "two of their 6 cards" in six_md and "Turn up your two cards" in six_md
    _, nine_md, _, nine_result = pages["nine_card"]
    assert "it completes a column of three" in nine_md
    assert "it matches one card of a column" in nine_md
    assert "it pairs one of your cards" not in nine_md and "no pair" not in nine_md
    assert "three of their 9 cards" in nine_md and "Turn up your three cards" in nine_md
    assert {"line2", "line3"} <= {e.situation for e in nine_result.entries}
    _, four_md, _, four = pages["four_card"]
    assert "Look at your two cards" in four_md and "stay face down" in four_md
    assert "When to knock" in four_md and "players who follow this guide" in four_md
    assert "| never |" not in four_md
    assert "## Where to put a card you keep that pairs nothing" not in four_md
    for result in (six, four):
        assert not {"line2", "line3"} & {e.situation for e in result.entries}


def test_rules_of_thumb_are_phrased_for_the_table():
    assert gr.words._ranks_text(["K", "3", "5", "4"]) == "threes to fives and kings"
    assert gr.words._ranks_text(["A", "2"]) == "aces and twos"
    assert gr.summary._rule_text(SIX, "take", "pair", True, "kings") == \
        "Take kings from the discard pile when they pair one of your cards"
    assert gr.summary._rule_text(SIX, "take", "early", False, "fives").startswith(
        "Don't take fives from the discard pile early in the round (3 or more of your cards "
        "unknown), when they pair nothing: draw")
    assert gr.summary._rule_text(NINE, "down", "other", True, "aces") == \
        "Put aces you keep over a face-down card, not over your highest face-up card"
    assert gr.summary._rule_text(SIX, "down", "other", False, "kings") == \
        "Put kings you keep that pair nothing where they save most, not over a face-down card"
    assert gr.summary._rule_text(NINE, "keep", "line2", True, "nines") == (
        "Keep nines drawn from the stock when they match one card of a column whose other two "
        "places are open, and put them in that column")


def _with_each_option_changed(preset: str):
    """The preset, and the preset with each option set to each other value it allows (the
    changes the rules accept)."""
    from simulator.game.rules import OPTIONS, RuleError
    base = Rules.preset(preset)
    yield base
    for name, f in OPTIONS.items():
        now = getattr(base, name)
        values = f.metadata["allowed"] or ((not now,) if isinstance(now, bool) else ())
        for v in values:
            try:
                yield Rules.preset(preset, **{name: (v,) if isinstance(now, tuple) else v})
            except (RuleError, ValueError, TypeError):
                pass


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_paragraph_is_written_for_players(preset):
    """The rules in words hold no reference to the rules' notes (AMB-...), nor to how the
    engines play them; the end of a round says which ends leave the others a last turn, and
    never both that a round ends with no more turns and that the others play one more."""
    from types import SimpleNamespace
    internal = re.compile(r"AMB-|reference engine|so far|\(\)|\(\s|\s\)")
    for rules in _with_each_option_changed(preset):
        lines = dict(gr.rules_lines(SimpleNamespace(rules=rules, preset=preset)))
        for label, text in lines.items():
            assert not internal.search(text), (preset, label, text)
        end = lines["Start and end"]
        assert not re.search(r"[a-z]_[a-z]", end), end   # no option names
        lasting = {"knock", "call", "all_face_up"} & set(rules.end_triggers)
        assert ("one more turn" in end) == bool(lasting and rules.final_turns ==
                                                "each_other_player_once"), end
        assert ("at once, with no more turns" in end) == bool(
            {"all_players_face_up", "stock_exhausted", "empty_layout"} &
            set(rules.end_triggers)), end


def test_the_end_of_a_round_in_words():
    from types import SimpleNamespace

    def end(preset):
        rules = Rules.preset(preset)
        return dict(gr.rules_lines(SimpleNamespace(rules=rules, preset=preset)))["Start and end"]

    assert end("power_cabo").endswith(
        "The round ends: a player may call Cabo instead of playing a turn or right after it; "
        "then every other player plays one more turn; the ender does not play again. It also "
        "ends at once, with no more turns, when a player has no cards left or when the last "
        "card of the stock has been taken.")
    assert end("four_card_strict").endswith(
        "The round ends at once, with no more turns, when every player's cards are all face up.")
    assert end("four_card").endswith("a player may knock instead of playing a turn; then every "
                                     "other player plays one more turn; the ender does not "
                                     "play again.")


# ---- cells read from the advice's side -------------------------------------------------------
def entry(chosen: str, mean: float, half: float, table="take", a="take", b="draw"):
    se = half / 1.96
    win = gd.stats.Interval(mean, se, mean - half, mean + half)
    return gd.Entry(table, "3", "early", a, b, 100, win, win, chosen,
                    bool(mean - half > 0 or mean + half < 0))


def test_a_cell_gives_what_its_advice_gains():
    """A cell read "draw -0.73 ✓" for advice that gains 0.73 points: the number was the
    first option minus the second."""
    assert gr.tables._cell(entry("draw", -0.0073, 0.001)).text == "draw +0.73 ±0.10 ✓"
    assert gr.tables._cell(entry("take", 0.0073, 0.001)).text == "take +0.73 ±0.10 ✓"
    # unclear: either will do, and the play shown is the one the tables keep
    assert gr.tables._cell(entry("take", -0.0005, 0.001)).text == "either (take) -0.05 ±0.10"
    assert gr.tables._cell(entry("use", 0.0, 0.0, "power", "use", "discard unused")).text == gr.NA
    alike = gr.tables._cell(entry("take", 0.0, 0.0))   # take never took it: both drew
    assert (alike.text, alike.kind) == ("draw", "na")


CELL = re.compile(r"(?P<play>take|draw|keep|discard|face down|best gain|either \((?P<kept>"
                  r"[a-z ]+)\)) (?P<gain>[+-]\d+\.\d\d) ±\d+\.\d\d(?P<clear> ✓)?")


def check_cells(rows: list[list[str]], table: str, bold: bool = True) -> None:
    """No clear advice with a negative number, no n/a, and the unclear entries of a rank show
    one play in every situation (the one the tables started from)."""
    verb_a, verb_b = gd.TABLES[table][:2]
    start = verb_b if table == "down" else verb_a
    for row in rows:
        for cell in row[1:]:
            text = cell.strip("*")
            if text in (verb_a, verb_b):   # the options played alike
                continue
            m = CELL.fullmatch(text)
            assert m, (row[0], cell)
            assert bool(m["clear"]) == (m["kept"] is None), cell
            assert not bold or cell.startswith("**") == bool(m["clear"]), cell
            if m["clear"]:
                assert float(m["gain"]) > 0 and m["play"] in (verb_a, verb_b), cell
            else:
                assert m["kept"] == start, cell


def test_the_six_card_guide_gives_clear_advice_with_positive_numbers(guide_folder):
    from test_guide_powers import md_table
    out, stdout = guide_folder
    md = (out / "guide.md").read_text(encoding="utf-8")
    for table in gd.TABLES:
        rows = md_table(md, gr.question(table))
        assert len(rows) == 13, table
        check_cells(rows, table)
    # the printed text: its take table
    text = stdout.split(gr.question("take"), 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    rows = [re.split(r"\s{2,}", line.strip()) for line in text]
    assert len(rows) == 13 and all(len(r) == 5 for r in rows), rows
    check_cells(rows, "take", bold=False)
    assert not any(c == gr.NA for r in rows for c in r)


# ---- what players say, measured --------------------------------------------------------------
ADVICE = {   # the common advice of Golf players every guide measures: a phrase of its row
    "keep_twos": "Keep 2s and jokers", "never_pair_twos": "Never pair 2s or jokers",
    "kings": "Kings are safe", "replace_mid": "Replace 6s and 7s",
    "high_first": "8s to queens first", "take_kings": "take a joker or a king",
    "take_pair": "completes a pair", "ender": "clearly lowest",
    "watch_next": "next player collects"}


def spec_params(spec: str) -> dict[str, float]:
    given = dict(kv.split("=") for kv in spec.partition(":")[2].split(",") if kv)
    return {**gd.default_params(), **{k: float(v) for k, v in given.items()}}


def changed(c) -> dict[str, tuple[float, float]]:
    """The parameters in which a claim's two versions of the tables differ."""
    a, b = (spec_params(x) for x in c.specs)
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


def test_the_advice_of_players_is_a_comparison_the_guide_can_play():
    import dataclasses
    by = {c.key: c for c in gd.claims(SIX, gd.default_params(SIX))}
    assert list(by) == list(ADVICE)
    assert all(phrase in by[k].advice for k, phrase in ADVICE.items())
    two = 1 << gd.TWO
    keep = changed(by["keep_twos"])   # the twos in the take and keep tables, pairing nothing
    assert set(keep) == {f"{t}_{s}" for t in ("take", "keep") for s in gd.UNPAIRED}
    assert all(int(on) & two and not int(off) & two for on, off in keep.values())
    assert set(changed(by["never_pair_twos"])) == {"take_pair", "keep_pair"}
    assert all(not int(on) & two for on, _ in changed(by["never_pair_twos"]).values())
    assert changed(by["high_first"]) == {"down": (0.0, float(ALL_RANKS))}
    # every rank in play (six_card has no jokers: their bit stays as it was)
    assert changed(by["take_pair"]) == {"take_pair": (float(ALL_RANKS), 1 << gd.RANK_JOKER)}
    assert by["watch_next"].specs == ("opponent-aware", "greedy")
    assert by["ender"].moot == "the player who ends the round is not penalised"
    assert "no jokers in this deck" in by["keep_twos"].advice
    # moot under these rules becomes measurable under others, and jokers join the twos
    penalised = dataclasses.replace(SIX, ender_penalty="plus_10")
    ender = gd.claims(penalised, gd.default_params(penalised))[7]
    assert not ender.moot and changed(ender) == {"out": (gd.CAUTIOUS_END, gd.NO_LIMIT)}
    jokers = Rules.preset("eight_card_whitnack")
    keep = changed(gd.claims(jokers, gd.default_params(jokers))[0])
    assert all(int(on) >> gd.RANK_JOKER & 1 for on, _ in keep.values())
    by = {c.key: c for c in gd.claims(FOUR, gd.default_params(FOUR))}
    assert by["high_first"].moot == "every card stays face down"
    # where nothing cancels, no advice about pairs; lines of three stand in for pairs
    cabo = Rules.preset("power_cabo")
    by = {c.key: c for c in gd.claims(cabo, gd.default_params(cabo))}
    assert "never_pair_twos" not in by and "take_pair" not in by
    assert not re.search(r"\bpair", " ".join(c.advice + c.follow + c.against
                                              for c in by.values()))
    by = {c.key: c for c in gd.claims(NINE, gd.default_params(NINE))}
    assert changed(by["take_pair"]) == {"take_line3": (float(ALL_RANKS), 1 << gd.RANK_JOKER)}
    assert "column of three" in by["take_pair"].advice


def test_what_players_say_from_crafted_measurements():
    from types import SimpleNamespace

    def claim(key, mean, half):
        w = gd.stats.Interval(mean, half / 1.96, mean - half, mean + half)
        return gd.Claim(key, ADVICE[key], "follow", "break", ("a", "b"), deals=100, win=w,
                        score=w)
    moot = gd.Claim("ender", ADVICE["ender"], "", "", moot="no penalty")
    result = SimpleNamespace(claims=[claim("kings", 0.02, 0.01), claim("keep_twos", -0.03, 0.01),
                                     claim("take_pair", 0.005, 0.01), moot], deals=100)
    head, note, header, rows = gr.advice_table(result)
    assert head == gr.ADVICE_HEADING and "100 deals" in note
    assert [[str(c) for c in r] for r in rows] == [
        [ADVICE["kings"], "follow, against: break", "confirmed", "+2.00", "±1.00"],
        [ADVICE["keep_twos"], "follow, against: break", "refuted", "-3.00", "±1.00"],
        [ADVICE["take_pair"], "follow, against: break", "unclear", "+0.50", "±1.00"],
        [ADVICE["ender"], "", f"{gd.MOOT}: no penalty", "", ""]]
    assert [r[2].kind for r in rows] == ["good", "bad", "", "na"]
    assert gr.advice_table(SimpleNamespace(claims=[], deals=100)) is None


def test_the_six_card_guide_says_what_players_say_and_measures_it(guide_folder):
    from test_guide_powers import md_table
    out, stdout = guide_folder
    md = (out / "guide.md").read_text(encoding="utf-8")
    rows = md_table(md, gr.ADVICE_HEADING)
    assert len(rows) == len(ADVICE)
    for (key, phrase), (advice, measured, verdict, gain, pm) in zip(ADVICE.items(), rows):
        assert phrase in advice, (key, advice)
        if key == "ender":   # six_card does not penalise the player who goes out
            assert verdict == f"{gd.MOOT}: the player who ends the round is not penalised"
            assert measured == gain == pm == ""
            continue
        assert ", against: " in measured
        g, half = float(gain), float(pm.lstrip("±"))
        assert half > 0, key
        assert verdict == ("confirmed" if g - half > 0 else "refuted" if g + half < 0
                           else "unclear"), (key, verdict, gain, pm)
    assert gr.ADVICE_HEADING in stdout and gr.ADVICE_HEADING in (out / "guide.html").read_text()
    df = pl.read_parquet(out / "guide.parquet").filter(pl.col("table") == gr.ADVICE_TABLE)
    assert df["row"].to_list() == list(ADVICE)
    assert not re.search("greedy|opponent-aware", md, re.I)


@pytest.mark.slow   # (two guides, about 20 s)
def test_a_guide_against_another_field(tmp_path):
    """``--field``: the decisions are measured and the guide checked against the strategy
    asked for (here a network, played through its user policy), recorded in the files and
    the command; the measurements differ from the default field's; a bad field is refused
    in one line naming --field."""
    from simulator import api
    from strategies import net
    from test_env_net import random_layers
    path = tmp_path / "field.npz"
    net.save(path, random_layers(2, 3), 2, "six_card")
    kw = dict(players=2, deals=100, check_rounds=200, compare_rounds=0, progress=False)
    g = api.guide("six_card", field=f"net:{path}", out=tmp_path / "net", **kw)
    assert g.raw.field == f"net:{path}" and g.raw.check is not None
    assert f"--field net:{path}" in g.command
    text = (tmp_path / "net" / "guide.md").read_text()
    assert f"The baseline players play `net:{path}`" in text
    default = api.guide("six_card", out=tmp_path / "greedy", **kw)
    assert default.raw.field == "greedy"
    pairs = [(a.win.mean, b.win.mean) for a, b in zip(g.raw.entries, default.raw.entries)]
    assert pairs and any(abs(a - b) > 1e-9 for a, b in pairs)
    for bad, says in (("nonsense", "field nonsense: unknown strategy"), ("greedy,random", "one strategy"),
                      (f"net:{tmp_path / 'none.npz'}", "does not exist")):
        with pytest.raises(api.GolfsimError, match=re.escape(says)) as e:
            api.guide("six_card", field=bad, out=tmp_path / "bad", **kw)
        assert "\n" not in str(e.value)
