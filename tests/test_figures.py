"""Every figure golfsim draws, from small real runs, keeps its texts on the page and its legends
off the data (tests/figure_checks.py says what is measured, with matplotlib's renderer).

The inputs are chosen to be hard on the layout: four seats with long strategy names, a rule
set whose description fills the title's line, tuned strategies with long specs, and the guides
of the three presets (the decision figures have a row per rank, the house-rule figure the
guide's strategy). One test per command; the default tier draws the figures of run,
tournament, compare, a one-parameter tune and the six-card guide, the slow tier the rest."""

from __future__ import annotations

import pytest

import simulator.api as golf
from simulator.experiments import compare as cmp
from simulator.experiments import equilibrium as eq
from simulator.experiments import tune as tn
from simulator.output import guide_report as gr
from simulator.output import plots

from figure_checks import problems
from tiers import sweep

# options that make the rules' half of every title as long as a title allows (TITLE_WIDTH)
LONG_RULES = ["ender_penalty=plus_10", "final_turn_stock_only=true",
              "negative_pairs_keep_value=true", "pair_scope=anywhere"]
SEATS = ["greedy", "knock-threshold:T=6", "heuristic:take_max=5,hold=2", "opponent-aware"]
QUIET = dict(progress=False, threads=2, seed=5)
GUIDE_FIGURES = [gr.DECISIONS_PLOT, gr.THRESHOLDS_PLOT, gr.CHECK_PLOT, gr.HOUSE_RULES_PLOT]


def run_figures():
    run = golf.run("six_card", set=LONG_RULES, strategy=SEATS, rounds=300, holes=3, **QUIET)
    return plots.run_figures(run.summary, run.raw.totals, run.metadata["title"])


def tournament_figures():
    tour = golf.tournament("six_card", set=LONG_RULES, strategy=SEATS, rounds=240, **QUIET)
    return [(plots.TOURNAMENT_PLOT, plots.tournament_figure(
        tour.ranking, tour.head_to_head, tour.metadata["title"]))]


def compare_figures():
    c = golf.compare("six_card", vary=["ender_penalty=none,plus_10",
                                        "final_turn_stock_only=false,true"],
                     strategy=SEATS[:2], rounds=400, **QUIET)
    return [(plots.COMPARE_PLOT, plots.compare_figure(c.table, cmp.title(c.raw)))]


def tune_figures(params: list[str], rounds: int):
    """One parameter: a line; two: a line per value of the second; three: the candidates."""
    def draw():
        strategy = "knock-threshold" if len(params) == 1 else "heuristic"
        t = golf.tune("six_card", set=LONG_RULES, strategy=strategy, param=params,
                      opponent=SEATS[:1] + SEATS[2:], rounds=rounds, **QUIET)
        return [(plots.TUNE_PLOT, plots.tune_figure(t.table, [p.name for p in t.raw.params],
                                                    t.raw.objective,
                                                    tn.plot_title(t.raw, "six_card")))]
    return draw


def table_figures(mode: str, params: list[str], rounds: int):
    """tune --symmetric (one parameter: the value on the x axis; two: the candidates) and
    --best-response (the steps)."""
    def draw():
        rules = golf.rules("six_card", set=LONG_RULES).rules
        strategy = "knock-threshold" if len(params) == 1 else "heuristic"
        tp = eq.plan(rules, 4, strategy, params, rounds, mode=mode)
        run = eq.symmetric if mode == "symmetric" else eq.best_response
        result = run(tp, 5, threads=2)
        return [(plots.TABLE_PLOTS[mode], plots.table_figure(
            eq.result_frame(result), [p.name for p in tp.params], tp.objective, mode,
            eq.title(result, "six_card")))]
    return draw


def guide_figures(preset: str):
    def draw():
        g = golf.guide(preset, deals=100, check_rounds=240, compare_rounds=240, **QUIET)
        return gr.figures(g.raw, g.table)
    return draw


SOURCES = {   # what draws them, the figures expected
    "run": (run_figures, list(plots.PLOT_FILES) + [plots.MATCH_PLOT]),
    "tournament": (tournament_figures, [plots.TOURNAMENT_PLOT]),
    "compare": (compare_figures, [plots.COMPARE_PLOT]),
    "tune, one parameter": (tune_figures(["T=4..12:2"], 6000), [plots.TUNE_PLOT]),
    "tune, two parameters": (tune_figures(["take_max=3..6", "hold=1..3"], 20_000),
                             [plots.TUNE_PLOT]),
    "tune, three parameters": (tune_figures(["take_max=3,5", "hold=1,3", "knock_at=8,10"],
                                            10_000), [plots.TUNE_PLOT]),
    "tune --symmetric": (table_figures("symmetric", ["T=4..12:2"], 6000),
                         [plots.TABLE_PLOTS["symmetric"]]),
    "tune --symmetric, two parameters": (
        table_figures("symmetric", ["take_max=3,5", "hold=1,3"], 4000),
        [plots.TABLE_PLOTS["symmetric"]]),
    "tune --best-response": (table_figures("best_response", ["T=2..10:2"], 6000),
                             [plots.TABLE_PLOTS["best_response"]]),
    "six_card guide": (guide_figures("six_card"), GUIDE_FIGURES),
    "nine_card guide": (guide_figures("nine_card"), GUIDE_FIGURES),
    "four_card guide": (guide_figures("four_card"), GUIDE_FIGURES),
}


@pytest.mark.parametrize("source", sweep(list(SOURCES), keep={
    "run", "tournament", "compare", "tune, one parameter", "tune --symmetric",
    "six_card guide"}))
def test_no_figure_clips_or_covers_its_data(source):
    draw, expected = SOURCES[source]
    figures = draw()
    assert [name for name, _ in figures] == expected
    found = [f"{name}: {p}" for name, fig in figures for p in problems(fig)]
    assert not found, "\n".join(found)


def test_the_checks_find_each_fault():
    """The checks themselves: a legend over a bar, a title wider than the figure, a note
    outside its axes and crowded tick labels are each found; a clean figure passes."""
    from matplotlib.figure import Figure

    def figure():
        fig = Figure(figsize=(4.0, 3.0), layout="constrained")
        ax = fig.add_subplot()
        ax.bar([0, 1, 2], [1, 2, 3], label="bars")
        ax.axhline(1.5, color="grey", label="reference")
        return fig, ax

    fig, ax = figure()
    ax.set_title("a short title")
    assert problems(fig) == []

    fig, ax = figure()
    ax.legend(loc="upper right")    # over the tallest bar
    assert any("legend covers bar" in p for p in problems(fig))

    fig, ax = figure()
    ax.set_title("a title far too long for a figure four inches wide, so it runs off both "
                 "of its edges")
    assert any("cut off by the figure" in p for p in problems(fig))

    fig, ax = figure()
    ax.text(2.5, 1.0, "a note that leaves its axes")
    assert any("reaches outside the axes" in p for p in problems(fig))

    labels = ["a long tick label here", "another long one here", "and a third one here"]
    fig, ax = figure()
    ax.set_xticks([0, 1, 2], labels)
    assert any("overlaps" in p for p in problems(fig)), problems(fig)
    fig, ax = figure()
    ax.set_xticks([0, 1, 2], labels, rotation=45, ha="right", rotation_mode="anchor")
    assert problems(fig) == []    # turned, they no longer touch


def test_a_two_strategy_tournament_with_a_user_policy_fits():
    """A user policy is named by its whole path in the tables; the figure names it by its file
    (a 100-character tick label left the bar panel no room at all). With two strategies the
    panels are narrow: their titles wrap to fit."""
    import polars as pl

    path = "/tmp/" + "a_long_folder_name/" * 5 + "greedy_policy.py:decide"
    ranking = pl.DataFrame({"strategy": [path, "random"], "win_share": [0.7, 0.3],
                            "se_win": [0.01, 0.01], "rating": [70.0, -70.0],
                            "se_rating": [5.0, 5.0]})
    h2h = pl.DataFrame({"strategy": [path, "random"], "opponent": ["random", path],
                        "win_share": [0.7, 0.3], "se_win": [0.01, 0.01],
                        "verdict": ["clear", "clear"]})
    fig = plots.tournament_figure(ranking, h2h, "six_card")
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels[0].replace("\n", "") == "greedy_policy.py:decide", labels
    assert not problems(fig)
