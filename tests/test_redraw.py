"""`golfsim plot` draws every figure of every command's results folder again from its Parquet
files (simulator/output/redraw.py): each command is run small, its figures are deleted, and
`golfsim plot` must bring back every one of them; its help names every kind of folder."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simulator.cli import cli
from simulator.experiments.folder import OUTPUTS
from simulator.output import redraw

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
W2 = ["--preset", "four_card", "--set", "pair_scope=none"]
COMMANDS = {   # a small run of every command that writes a results folder
    "run": ["run", "--rounds", 500],
    "run --holes": ["run", "--holes", 3, "--rounds", 60],
    "compare": ["compare", "--vary", "pair_scope=column,anywhere", "--rounds", 300,
                "--strategy", "greedy,random"],
    "tune": ["tune", *W2, "--strategy", "knock-threshold", "--param", "T=2..6:2",
             "--opponent", "knock-threshold:T=8", "--rounds", 4000],
    "tune --symmetric": ["tune", *W2, "--strategy", "knock-threshold", "--param", "T=2,6",
                         "--symmetric", "--rounds", 2000],
    "tune --best-response": ["tune", *W2, "--strategy", "knock-threshold", "--param",
                             "T=2,8", "--best-response", "--rounds", 2000],
    "tournament": ["tournament", "--strategy", "greedy", "--strategy", "random", "--rounds",
                   200],
    "guide": ["guide", "--deals", 100, "--check-rounds", 200, "--compare-rounds", 200],
}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("command", list(COMMANDS))
def test_plot_draws_every_figure_of_a_command_again(tmp_path, command):
    out = tmp_path / "out"
    res = invoke(*COMMANDS[command], "--seed", 3, "--threads", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    figures = sorted(p.name for p in out.glob("*.png"))
    assert figures, f"{command} wrote no figure"
    for name in figures:
        (out / name).unlink()
    res = invoke("plot", out)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.glob("*.png")) == figures
    for name in figures:
        assert (out / name).read_bytes()[:8] == PNG_MAGIC
        assert str(out / name) in res.stdout
    assert "left as it is" not in res.output


def test_plot_help_names_every_kind_of_folder():
    res = invoke("plot", "--help")
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    for kind in redraw.KINDS:
        assert kind.command in text
    # every command that writes a results folder has its kind, and nothing else does
    assert {k.command for k in redraw.KINDS} == set(OUTPUTS)
    for kind in redraw.KINDS:
        assert kind.marker in OUTPUTS[kind.command]
