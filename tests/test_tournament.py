"""`golfsim tournament`: balanced seatings, the bookkeeping against plain runs of the same
seatings, greedy ranked above random, identical results for any thread count, a symmetric
head-to-head matrix, and the command's files and errors."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from simulator.experiments import runner
from simulator.output import plots
from simulator.experiments import tournament as tour
from simulator.experiments.stats import RESOLUTION_SHARE, verdict
from simulator.cli import cli
from simulator.game.rules import Rules, load_toml
from strategies import resolve, seat_arrays

SIX = Rules.preset("six_card")
ROUNDS = 3000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def greedy_vs_random():
    return tour.play(SIX, 4, ["greedy", "random"], ROUNDS, seed=11, threads=2)


@pytest.fixture(scope="module")
def three_way():
    return tour.play(SIX, 4, ["greedy", "random", "knock-threshold:T=10"], 2000, seed=5,
                     threads=1, chunk_size=700)


# ---- seatings ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 9))
def test_each_strategy_holds_every_seat_equally_often(players):
    seats = np.array(tour.seatings(players))
    assert len(set(map(tuple, seats))) == len(seats)           # no seating twice
    assert (seats.sum(axis=0) == len(seats) / 2).all()         # every seat half B, half A
    assert seats.sum() * 2 == seats.size                       # half of all seats each
    if players % 2 == 0:
        assert (seats.sum(axis=1) == players // 2).all()       # each seating half and half
        assert len(seats) == 2
    else:
        assert len(seats) == 2 * players


def test_rounds_split_over_the_seatings():
    r = tour.play(SIX, 3, ["greedy", "random"], 100, seed=3, threads=1)
    assert len(r.seatings) == 6 and r.rounds_per_seating == 17   # 100 / 6 rounded up
    assert r.rounds_per_pairing == 102
    h, _ = r.head_to_head()
    assert h[0, 1] + h[1, 0] == pytest.approx(1, abs=1e-12)


# ---- statistics ----------------------------------------------------------------------------
def test_round_wins_are_the_runners_win_shares():
    ids, params = seat_arrays([resolve(s) for s in ("greedy", "random", "greedy", "random")])
    res = runner.run(SIX, 4, ids, params, 2000, 9, per_round=True)
    wins = tour.round_wins(res.per_round.scores)
    assert np.allclose(wins.sum(axis=1), 1)
    assert np.allclose(wins.mean(axis=0), res.totals.win_share(), atol=1e-12)


def test_pairing_figures_are_the_seatings_runs_seat_averaged(greedy_vs_random):
    """The same seed replays the same rounds, so plain runs of the two seatings give the
    tournament's means exactly."""
    r = greedy_vs_random
    n = r.rounds_per_seating
    win = np.zeros(2)
    score = np.zeros(2)
    for seating in r.seatings:
        ids, params = seat_arrays([resolve(("greedy", "random")[x]) for x in seating])
        totals = runner.run(SIX, 4, ids, params, n, 11).totals
        side = np.array(seating)
        for s in (0, 1):
            win[s] += totals.win_share()[side == s].sum() / len(r.seatings)
            score[s] += totals.mean_score()[side == s].mean() / len(r.seatings)
    (p,) = r.pairings
    assert [e.mean for e in p.win] == pytest.approx(win, abs=1e-12)
    assert [e.mean for e in p.score] == pytest.approx(score, abs=1e-12)
    assert r.win[0].mean == pytest.approx(win[0], abs=1e-12)


def test_greedy_ranks_above_random(greedy_vs_random):
    r = greedy_vs_random
    rank = tour.ranking_frame(r)
    assert rank["strategy"].to_list() == ["greedy", "random"]
    g, x = rank.row(0, named=True), rank.row(1, named=True)
    assert g["win_share_lo95"] > x["win_share_hi95"]
    assert g["mean_score_hi95"] < x["mean_score_lo95"]
    # far from an even split, measured in standard errors
    assert (g["win_share"] - 0.5) / g["se_win"] > 10
    assert 0 < g["se_win"] < 0.5 / np.sqrt(ROUNDS / 2)     # below the largest possible spread
    (p,) = r.pairings
    assert p.score_diff.mean + 5 * p.score_diff.se < 0       # greedy scores lower, paired


def test_head_to_head_is_symmetric(three_way):
    h, se = three_way.head_to_head()
    k = len(three_way.strategies)
    off = ~np.eye(k, dtype=bool)
    assert np.isnan(h[~off]).all()
    assert np.allclose((h + h.T)[off], 1, atol=1e-12)
    assert np.allclose(se, se.T, equal_nan=True)
    # the overall win share is the mean of the row of the matrix
    for i in range(k):
        assert three_way.win[i].mean == pytest.approx(np.nanmean(h[i]), abs=1e-12)
    frame = tour.head_to_head_frame(three_way)
    assert frame.height == k * (k - 1)
    both = frame.join(frame, left_on=["strategy", "opponent"], right_on=["opponent", "strategy"])
    assert np.allclose(both["win_share"] + both["win_share_right"], 1, atol=1e-12)
    assert np.allclose(both["score_diff"], -both["score_diff_right"])


def test_same_results_for_one_and_two_threads(three_way):
    two = tour.play(SIX, 4, ["greedy", "random", "knock-threshold:T=10"], 2000, seed=5,
                    threads=2)
    assert_frame_equal(tour.ranking_frame(three_way), tour.ranking_frame(two))
    assert_frame_equal(tour.head_to_head_frame(three_way), tour.head_to_head_frame(two))


@pytest.mark.parametrize("specs, message", [
    (["greedy"], "at least 2 different strategies"),
    (["greedy", "greedy"], "at least 2 different strategies"),
    (["random", "knock-threshold", "knock-threshold:T=8"], "give each strategy once"),
])
def test_bad_strategy_lists(specs, message):
    with pytest.raises(tour.TournamentError, match=message):
        tour.resolve_strategies(specs)


# ---- command line --------------------------------------------------------------------------
def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_cli_writes_ranking_head_to_head_and_plot(tmp_path):
    out = tmp_path / "t"
    res = invoke("tournament", "--preset", "six_card", "--players", 4, "--strategy", "greedy",
                 "--strategy", "random", "--strategy", "knock-threshold:T=10", "--rounds", 2000,
                 "--seed", 5, "--threads", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    ranking = pl.read_parquet(out / "ranking.parquet")
    h2h = pl.read_parquet(out / "head_to_head.parquet")
    assert tuple(ranking.columns) == tour.RANKING_COLUMNS
    assert tuple(h2h.columns) == tour.HEAD_TO_HEAD_COLUMNS
    assert ranking["rank"].to_list() == [1, 2, 3]
    assert ranking["strategy"][-1] == "random"
    assert h2h.height == 6
    # no strategy is ranked below one it beats clearly head to head
    rank = dict(zip(ranking["strategy"], ranking["rank"]))
    for row in h2h.filter((pl.col("verdict") == "clear") & (pl.col("win_share") > 0.5)).rows(
            named=True):
        assert rank[row["strategy"]] < rank[row["opponent"]]
    assert (ranking["rating_lo95"] < ranking["rating"]).all()
    # the same numbers as the library call with the same seed (thread count does not matter)
    three_way = tour.play(SIX, 4, ["greedy", "random", "knock-threshold:T=10"], 2000, seed=5,
                          threads=1)
    assert_frame_equal(ranking, tour.ranking_frame(three_way))
    meta = pl.read_parquet_metadata(out / "head_to_head.parquet")
    assert meta["seed"] == "5" and meta["players"] == "4" and meta["preset"] == "six_card"
    assert json.loads(meta["strategies"]) == ["greedy", "random", "knock-threshold:T=10"]
    assert json.loads(meta["seatings"]) == ["ABAB", "BABA"]
    assert meta["rounds_per_pairing"] == "2000" and meta["complete"] == "true"
    assert meta["command"].startswith("golfsim tournament ") and "--seed 5" in meta["command"]
    assert "version" in meta
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(meta["rules"])
    assert load_toml(rules_file) == SIX
    assert (out / "tournament.png").read_bytes()[:8] == PNG_MAGIC
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temp files left
    for text in ("ranking", "head-to-head", "greedy", str(out / "ranking.parquet")):
        assert text in res.stdout
    # a verdict per pairing: is its share clearly off even, else how many rounds would settle it
    for row in h2h.iter_rows(named=True):
        v = verdict(row["win_share"] - 0.5, row["se_win"], 2000, RESOLUTION_SHARE)
        assert (row["verdict"], row["rounds_needed"]) == (v.kind, v.needed)
    lines = [line.strip() for line in res.stdout.splitlines()]
    assert sum(line.startswith("verdicts: ") for line in lines) == 1
    greedy_random = [line for line in lines if line.startswith("greedy vs random: ")]
    assert greedy_random == ["greedy vs random: " + verdict(
        h2h.filter(strategy="greedy", opponent="random")["win_share"][0] - 0.5,
        h2h.filter(strategy="greedy", opponent="random")["se_win"][0], 2000,
        RESOLUTION_SHARE).text(100, " pp", 2, "rounds per pairing")]
    assert greedy_random[0].startswith("greedy vs random: clear at 2,000 rounds per pairing")


def test_a_pairing_stuck_at_the_turn_cap_is_flagged(tmp_path):
    out = tmp_path / "stuck"
    res = invoke("tournament", "--preset", "four_card", "--strategy", "greedy", "--strategy",
                 "opponent-aware", "--strategy", "knock-threshold", "--rounds", 200,
                 "--threads", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    # only the pairing without a strategy that knocks never ends a hole
    (warning,) = json.loads(pl.read_parquet_metadata(out / "ranking.parquet")["warnings"])
    assert warning.startswith("100.0% of rounds of greedy vs opponent-aware hit the turn cap "
                              "(turn_cap=400): greedy and opponent-aware never knock")
    assert res.stderr.splitlines() == [f"golfsim: warning: {warning}"]


@pytest.mark.parametrize("strategies, message", [
    (["greedy"], "at least 2 different strategies"),
    ([], "at least 2 different strategies"),
    (["greedy", "nonsense"], "unknown strategy 'nonsense'"),
    (["greedy", "knock-threshold:X=1"], "unknown parameter"),
])
def test_cli_strategy_errors_exit_2(tmp_path, strategies, message):
    out = tmp_path / "t"
    args = [a for s in strategies for a in ("--strategy", s)]
    res = invoke("tournament", *args, "--rounds", 100, "--out", out, "--quiet")
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert not (out / "ranking.parquet").exists()


def test_cli_other_errors_exit_2(tmp_path):
    res = invoke("tournament", "--strategy", "greedy", "--strategy", "random", "--players", 9,
                 "--out", tmp_path / "t", "--quiet")
    assert res.exit_code == 2 and "--players 9" in res.output
    res = invoke("tournament", "--strategy", "greedy", "--strategy", "random", "--rounds", 0,
                 "--out", tmp_path / "t", "--quiet")
    assert res.exit_code == 2
    (tmp_path / "file").write_text("")
    res = invoke("tournament", "--strategy", "greedy", "--strategy", "random",
                 "--out", tmp_path / "file", "--quiet")
    assert res.exit_code == 2 and "--out" in res.output


# ---- rating, ranking and the disagreements they name -------------------------------------------
def crafted(shares: dict, rounds: int = 20_000) -> tour.TournamentResult:
    """A tournament of the results ``shares`` ({(a, b): a's share}): every pairing's rounds
    won outright, in the given proportion, the same deal indices for every pairing."""
    k = 1 + max(max(pair) for pair in shares)
    pairings = []
    order = np.random.default_rng(3).permutation(rounds)
    for (a, b), m in shares.items():
        x = (order < round(m * rounds)).astype(float)
        pairings.append(tour.PairingResult(
            a, b, rounds, (tour.Estimate.of(x), tour.Estimate.of(1 - x)),
            (tour.Estimate(5.0, 0.01), tour.Estimate(5.0, 0.01)), tour.Estimate(0.0, 0.01),
            0, x))
    win = [tour.Estimate.of(np.mean([p.shares if p.a == i else 1 - p.shares
                                     for p in pairings if i in (p.a, p.b)], axis=0))
           for i in range(k)]
    rating = tour.bradley_terry(k, pairings)
    names = [f"s{i}" for i in range(k)]
    return tour.TournamentResult(SIX, 2, names, 1, rounds, rounds // 2, tour.seatings(2),
                                 pairings, win, [tour.Estimate(5.0, 0.01)] * k, 1.0,
                                 tour.ranking(k, pairings, rating), rating, names)


def test_a_two_strategy_rating_is_the_log_odds_of_their_share():
    r = crafted({(0, 1): 0.6}, rounds=10_000)
    won = (10_000 * 0.6 + 0.5) / 10_001              # half a game added to each side
    diff = r.rating[0].mean - r.rating[1].mean
    assert diff == pytest.approx(tour.ELO * np.log(won / (1 - won)), rel=1e-9)
    assert r.rating[0].mean == pytest.approx(-r.rating[1].mean)          # mean 0
    # delta method: d logit / d share = 1 / (p (1 - p)); each rating is half the difference
    (p,) = r.pairings
    se = tour.ELO * p.win[0].se / (won * (1 - won)) * 10_000 / 10_001 / 2
    assert r.rating[0].se == pytest.approx(se, rel=1e-6)
    assert r.order == [0, 1]


def test_the_ranking_follows_a_clear_head_to_head_over_the_average_and_the_rating():
    """power_cabo's memory tournament (README): forgetful:decay=0 (s1) has the higher average
    and rating, from its larger wins over the weaker two, but greedy (s0) beats it head to
    head, clearly: greedy ranks first, and the two disagreements are named."""
    r = crafted({(0, 1): 0.5046, (0, 2): 0.7045, (0, 3): 0.8806, (1, 2): 0.7182,
                 (1, 3): 0.9166, (2, 3): 0.8236}, rounds=200_000)
    assert r.win[1].mean > r.win[0].mean and r.rating[1].mean > r.rating[0].mean
    assert r.order == [0, 1, 2, 3]
    frame = tour.ranking_frame(r)
    assert frame["strategy"].to_list() == ["s0", "s1", "s2", "s3"]
    assert (frame["rating_lo95"] < frame["rating"]).all()
    notes = tour.disagreements(r)
    assert notes == [
        "the average win share puts s1 above s0 (71.01% vs 69.66%), the ranking s0 first: s0 "
        "beats s1 head to head (50.46% ± 0.22, clear)",
        f"the rating puts s1 above s0 ({r.rating[1].mean:+.1f} vs {r.rating[0].mean:+.1f}), "
        "the ranking s0 first: s0 beats s1 head to head (50.46% ± 0.22, clear)"]
    text = tour.format_tournament(r, "six_card", 1)
    assert "where the ranking, the head-to-heads, the average win share and the rating " \
           "disagree:\n  " + notes[0] in text


def test_a_non_transitive_trio_is_named_and_kept_together():
    """s0 beats s1, s1 beats s2 and s2 beats s0, each clearly; all three beat s3. No order
    agrees with all three results: the cycle is named, its members are ranked by rating above
    s3, and the matrix and the figure mark the clear win over a strategy ranked above."""
    r = crafted({(0, 1): 0.56, (1, 2): 0.57, (0, 2): 0.45, (0, 3): 0.9, (1, 3): 0.9,
                 (2, 3): 0.9})
    assert sorted(r.order[:3]) == [0, 1, 2] and r.order[3] == 3
    top = r.order[:3]
    assert [r.rating[i].mean for i in top] == sorted((r.rating[i].mean for i in top),
                                                    reverse=True)
    notes = tour.disagreements(r)
    cycles = [n for n in notes if n.startswith("non-transitive: ")]
    assert len(cycles) == 1
    beats = {(0, 1): 0, (1, 2): 1, (2, 0): 2}      # winner, loser: the pairing
    chain = [top[0]]                                # from the best rated, round the cycle
    while len(chain) < 4:
        chain.append(next(b for a, b in beats if a == chain[-1]))

    def shown(a, b):
        p = r.pairings[beats[(a, b)]]
        e = p.win[0] if p.a == a else p.win[1]
        return f"s{a} beats s{b} ({100 * e.mean:.2f}% ± {100 * 1.959963984540054 * e.se:.2f})"
    assert cycles[0] == ("non-transitive: " + ", ".join(
        shown(a, b) for a, b in zip(chain, chain[1:])) + ", each clear: no ranking agrees "
        "with all of them; the rating orders them")
    text = tour.format_tournament(r, "six_card", 1)
    lines = text.splitlines()
    head = lines.index("head-to-head (row strategy's share of the pairing's rounds, ±95%)")
    matrix = lines[head + 1:head + 6]
    assert matrix[0].split() == [f"s{i}" for i in r.order]
    assert sum(line.count("*") for line in matrix) == 1          # the one upset of the cycle
    assert "* beats a strategy ranked above it (clear)" in text
    assert "rating" in lines[lines.index(tour.RANKING_HEADING) + 1]
    assert cycles[0] in text
    fig = plots.tournament_figure(tour.ranking_frame(r), tour.head_to_head_frame(r), "six_card")
    cells = [t.get_text() for t in fig.axes[1].texts]
    assert sum("*" in c for c in cells) == 1
    assert fig.axes[0].get_ylabel() == "rating (Elo scale, mean 0)"
