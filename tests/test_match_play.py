"""Match play: holes with a rotating deal, running totals, match winners, ties and the pot
(docs/rules.md#matches, docs/rules.md#match-play), against the reference's match logic."""

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from simulator.cli import cli
from simulator.game import reference as R
from simulator.experiments.runner import play_logged_round
from simulator.kernel.tally import MAX_MATCH_HOLES
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays

SEATS = ["greedy", "random", "greedy", "random"]


def _arrays(specs):
    return seat_arrays(resolve_seats(specs, len(specs)))


def _kernel_holes(arrays, ids, params, seed):
    def play_hole(order, round_index):
        return play_logged_round(arrays, ids[order], params[order], seed, round_index)
    return play_hole


def _replay(rules, ids, params, seed, matches, holes, target):
    """The reference's match logic over holes played by the kernel's logged round."""
    arrays = flatten(rules, len(ids))
    hole = _kernel_holes(arrays, ids, params, seed)
    return [R.play_match(rules, len(ids), seed, m, holes, target, hole) for m in range(matches)]


MATCH_RULES = {
    "volunteer dealer": Rules.preset("six_card", dealer_selection="volunteer"),
    "random dealer": Rules.preset("six_card"),
    "winner first, extra holes": Rules.preset("six_card", first_player="previous_hole_winner",
                                              match_tie="extra_holes"),
    "tiebreak": Rules.preset("six_card", match_tie="tiebreak"),
    "pot": Rules.preset("four_card", pot_enabled=True, pot_ante=3),
    "pot, cap, knock only, ties lowest": Rules.preset(
        "six_card", pot_enabled=True, pot_ante=5, pot_cap=7, ender_tie="counts_as_lowest",
        ender_rule_applies_to="knock_only", end_triggers=("knock", "all_face_up")),
}


@pytest.mark.parametrize("name", list(MATCH_RULES))
@pytest.mark.parametrize("holes, target", [(5, 0), (0, 40)])
def test_matches_equal_the_reference_match_logic(name, holes, target):
    """The kernel's matches against reference.play_match over the same holes: running totals,
    who plays first, ties (share, tiebreak, extra holes), the pot."""
    rules = MATCH_RULES[name]
    specs = ["knock-threshold:T=6", "random", "knock-threshold:T=10", "random"] \
        if "knock" in rules.end_triggers else SEATS
    ids, params = _arrays(specs)
    matches = 12
    res = run(rules, 4, ids, params, matches, seed=77, holes=holes, target=target)
    ref = _replay(rules, ids, params, 77, matches, holes, target)
    mt = res.match_totals
    assert mt.matches == matches
    assert res.totals.rounds == sum(r.holes for r in ref)
    assert np.allclose(mt.mean_total(), np.mean([r.totals for r in ref], axis=0))
    assert np.allclose(mt.win_share(), np.mean([[float(w) for w in r.wins] for r in ref], axis=0))
    assert np.allclose(mt.mean_pot(), np.mean([r.pot_balances for r in ref], axis=0))
    if rules.match_tie != "share":   # one winner per match, whatever the totals
        assert all(sum(r.wins) == 1 and max(r.wins) == 1 for r in ref)
    if rules.pot_enabled:
        assert any(any(r.pot_balances) for r in ref)



POWER_MATCH_RULES = {   # the powers build's matches; Cactus: the caller loses a tie for first
    "cactus": Rules.preset("power_cactus"),
    "cabo, winner first": Rules.preset("power_cabo", first_player="previous_hole_winner"),
    "malaysia, target": Rules.preset("power_malaysia"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(POWER_MATCH_RULES))
def test_power_matches_equal_the_reference_match_logic(name):
    rules = POWER_MATCH_RULES[name]
    ids, params = _arrays(["random"] * 4)
    holes, target = (0, 60) if "target" in name else (6, 0)
    matches = 20
    res = run(rules, 4, ids, params, matches, seed=31, holes=holes, target=target)
    ref = _replay(rules, ids, params, 31, matches, holes, target)
    mt = res.match_totals
    assert res.totals.rounds == sum(r.holes for r in ref)
    assert np.allclose(mt.mean_total(), np.mean([r.totals for r in ref], axis=0))
    assert np.allclose(mt.win_share(), np.mean([[float(w) for w in r.wins] for r in ref], axis=0))

def test_extra_holes_are_played_exactly_after_a_tie():
    base = Rules.preset("six_card")
    ids, params = _arrays(["greedy", "greedy"])
    share = _replay(base, ids, params, 4, 300, 1, 0)
    extra = _replay(base.with_options(match_tie="extra_holes"), ids, params, 4, 300, 1, 0)
    tied = [i for i, r in enumerate(share) if r.totals[0] == r.totals[1]]
    assert len(tied) >= 5
    assert all(extra[i].holes > 1 and extra[i].totals[0] != extra[i].totals[1] for i in tied)
    assert all(extra[i].holes == 1 for i in range(300) if i not in tied)


def test_pot_test_vector():
    """TV-D18 (docs/rules.md#test-vectors): ante 5, 4 players: pot 20; the knocker lowest wins
    20; not lowest pays 20 and the pot becomes 40. A cap limits both."""
    rules = Rules.preset("four_card", pot_enabled=True, pot_ante=5)
    assert R.settle_pot(rules, 20, [3, 9, 8, 7], 0, True) == (20, 0)
    assert R.settle_pot(rules, 20, [9, 3, 8, 7], 0, True) == (-20, 40)
    assert R.settle_pot(rules, 20, [3, 3, 8, 7], 0, True) == (0, 20)        # neutral tie
    capped = rules.with_options(pot_cap=15)
    assert R.settle_pot(capped, 20, [3, 9, 8, 7], 0, True) == (15, 5)
    assert R.settle_pot(capped, 20, [9, 3, 8, 7], 0, True) == (-15, 35)
    assert R.settle_pot(rules, 20, [3, 9, 8, 7], -1, False) == (0, 20)      # nobody ended


def test_previous_hole_winner_plays_first():
    rules = Rules.preset("six_card", first_player="previous_hole_winner",
                         dealer_selection="volunteer")
    ids, params = _arrays(SEATS)
    arrays = flatten(rules, 4)
    holes = []

    def hole(order, round_index):
        r = play_logged_round(arrays, ids[order], params[order], 8, round_index)
        holes.append((order, list(r["scores"])))
        return r

    R.play_match(rules, 4, 8, 0, 6, 0, hole)
    assert R.MATCH_STRIDE == MAX_MATCH_HOLES and holes[0][0][0] == 0
    for (order, scores), (nxt, _) in zip(holes, holes[1:]):
        assert nxt[0] == order[scores.index(min(scores))]
        assert nxt == [(nxt[0] + i) % 4 for i in range(4)]


def test_rotation_removes_the_first_player_advantage():
    rules = Rules.preset("six_card")
    ids, params = _arrays(["greedy"])
    ids, params = np.repeat(ids, 4), np.repeat(params, 4, axis=0)
    single = run(rules, 4, ids, params, 40_000, seed=5, threads=2).totals
    matches = run(rules, 4, ids, params, 10_000, seed=5, threads=2, holes=4).totals
    gap_single = single.win_share()[0] - single.win_share()[3]
    assert gap_single > 20 * single.se_win()[0]
    gap = np.abs(matches.win_share() - matches.win_share().mean())
    assert (gap < 4.5 * matches.se_win()).all()


def test_match_results_do_not_depend_on_threads_or_chunks():
    rules = Rules.preset("six_card")
    ids, params = _arrays(SEATS)
    a = run(rules, 4, ids, params, 3000, seed=9, threads=1, chunk_size=3000, target=50)
    b = run(rules, 4, ids, params, 3000, seed=9, threads=2, chunk_size=700, target=50)
    assert (a.match_totals.macc == b.match_totals.macc).all()
    assert (a.match_totals.mtot == b.match_totals.mtot).all()
    assert (a.totals.acc == b.totals.acc).all()
    assert a.match_totals.win_share().sum() == pytest.approx(1.0)


def test_cli_match_play(tmp_path):
    out = tmp_path / "m"
    result = CliRunner().invoke(cli, ["run", "--holes", "9", "--rounds", "300", "--threads", "1",
                                      "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = pl.read_parquet(out / "summary.parquet")
    assert summary["matches"].to_list() == [300] * 4
    assert summary["rounds"][0] == 2700 and summary["mean_holes"][0] == 9.0
    assert summary["match_win_share"].sum() == pytest.approx(1.0)
    assert pl.read_parquet_metadata(out / "summary.parquet")["match_holes"] == "9"


def test_cli_match_play_draws_the_match_win_share(tmp_path):
    from simulator.output import plots
    from simulator.output.redraw import redraw
    out = tmp_path / "m3"
    result = CliRunner().invoke(cli, ["run", "--holes", "3", "--rounds", "200", "--threads", "1",
                                      "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    path = out / plots.MATCH_PLOT
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(path) in result.stdout
    for name in plots.PLOT_FILES:   # beside the per-hole figures
        assert (out / name).exists()
    summary = pl.read_parquet(out / "summary.parquet")
    title = pl.read_parquet_metadata(out / "summary.parquet")["title"]
    assert "200 matches (3 holes), 600 holes" in title
    heading = plots.match_win_share_figure(summary, title).axes[0].get_title()
    assert heading.splitlines() == ["Match win share per seat, 95% intervals", "six_card",
                                    "4 players, 200 matches (3 holes), 600 holes, seed 1"]
    path.unlink()
    written, _ = redraw(out)        # `golfsim plot` draws it again from the Parquet
    assert path in written and path.exists()


@pytest.mark.parametrize("args, fragment", [
    (["--holes", "9", "--target", "100"], "give one"),
    (["--holes", "9", "--per-round"], "cannot be combined"),
    (["--target", "0"], "0 is not allowed"),
])
def test_cli_match_errors(tmp_path, args, fragment):
    result = CliRunner().invoke(cli, ["run", "--rounds", "10", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert fragment in result.output


def test_four_of_a_kind_wins_the_match():
    """AMB-29: a layout with four cards of one rank ends the match at once; among the seats
    holding one, the lowest hole score wins (ties share). Replayed hole by hole."""
    rules = Rules.preset("nine_card", four_of_kind_wins_match=True)
    ids, params = _arrays(SEATS)
    matches, holes = 40, 9
    res = run(rules, 4, ids, params, matches, seed=3, holes=holes)
    ref = _replay(rules, ids, params, 3, matches, holes, 0)
    assert sum(r.holes < holes for r in ref) >= 3  # the rule really ended some matches early
    assert res.totals.rounds == sum(r.holes for r in ref)
    assert np.allclose(res.match_totals.win_share(),
                       np.mean([[float(w) for w in r.wins] for r in ref], axis=0))
