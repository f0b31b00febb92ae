"""Every `golfsim ...` command in README.md's code blocks runs, with small sizes, and so does
its Python example: the README shows only what works.

Commands are taken from every fenced block: lines that start with ``golfsim``, ``$ golfsim``
or a path ending in ``bin/golfsim`` (the quick start's, after its ``&&``), continued over
lines ending in a backslash. Counts are made small (``--rounds``, ``--deals``, ...; a command
that plays without naming a count gets a small one), ``-q`` is added to the commands that
play, and each runs in the same temporary folder in the README's order (so ``--out
results/compare`` and a later ``golfsim plot results/compare`` meet), through click's test
runner. ``> FILE`` writes the command's output to FILE; ``| ...`` is dropped.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
START = re.compile(r"^(?:\$ )?(?:\S*bin/)?golfsim (.*)$")
# per command: the small value of each count it has, and the counts it gets when it has none
SMALL = {
    "run": {"--rounds": "1000"},
    "compare": {"--rounds": "1000", "--max-rounds": "2000"},
    "tune": {"--rounds": "20000"},
    "tournament": {"--rounds": "400"},
    "guide": {"--deals": "100", "--check-rounds": "200", "--compare-rounds": "200"},
}
ADD = {"run": ["--rounds"], "guide": ["--deals", "--check-rounds", "--compare-rounds"]}
PLAYING = set(SMALL)
MORE_ROUNDS = re.compile(r"give --rounds ([\d,]+) or more")


def readme_commands() -> list[str]:
    """Every golfsim command of the README's code blocks, as written (continuations joined)."""
    found = []
    for block in FENCE.findall(README.read_text(encoding="utf-8")):
        text = re.sub(r"\\\n\s*", " ", block)
        for line in text.splitlines():
            for part in line.split("&&"):
                m = START.match(part.strip())
                if m:
                    found.append(m.group(1).strip())
    return found


def small(command: str) -> tuple[list[str], str | None]:
    """The arguments of ``golfsim <command>`` with small counts, and the file its output is
    redirected to (None)."""
    args = shlex.split(command, comments=True)
    if "|" in args:
        args = args[:args.index("|")]
    target = None
    if ">" in args:
        i = args.index(">")
        target, args = args[i + 1], args[:i]
    name = args[0]
    sizes = SMALL.get(name, {})
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        key, eq, value = a.partition("=")
        if key in sizes:
            out += [key, sizes[key]]
            i += 1 if eq else 2
            continue
        out.append(a)
        i += 1
    for key in ADD.get(name, []):
        if key not in out:
            out += [key, sizes[key]]
    if name in PLAYING and not {"-q", "--quiet"} & set(out):
        out.append("-q")
    return out, target


COMMANDS = readme_commands()
# commands playing on a build that only the slow tier compiles (tests/conftest.py SLOW_BUILDS):
# the power-card games' engine, lookahead's rollouts
SLOW_BUILD = re.compile(r"--preset power_|\blookahead\b")


def test_the_readme_has_commands_to_run():
    names = [shlex.split(c)[0] for c in COMMANDS]
    for name in ("run", "compare", "tune", "guide", "tournament", "rules", "score", "plot"):
        assert name in names, name
    # the quick start's million-round run is among them, made small
    quick = next(c for c in COMMANDS if "--rounds 1000000 --seed 7" in c)
    assert small(quick)[0][small(quick)[0].index("--rounds") + 1] == "1000"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("readme")


def _run_in_order(commands):
    for command in commands:
        args, target = small(command)
        res = CliRunner().invoke(cli, args)
        need = MORE_ROUNDS.search(res.stderr or "")
        if res.exit_code == 2 and need:     # tune: the smallest budget its grid allows
            args[args.index("--rounds") + 1] = need.group(1).replace(",", "")
            res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, (command, args, res.output, res.exception)
        if target:
            Path(target).write_text(res.stdout)


def test_readme_commands_run_in_order(workdir, monkeypatch):
    """One test, in the README's order: later commands read what earlier ones wrote (a rules
    file, a comparison to plot), which test workers running them apart would not have."""
    monkeypatch.chdir(workdir)
    _run_in_order([c for c in COMMANDS if not SLOW_BUILD.search(c)])


@pytest.mark.slow
def test_readme_commands_on_the_slow_tiers_builds_run(tmp_path, monkeypatch):
    """The power-card games' commands (each writes its own folder), in the README's order."""
    monkeypatch.chdir(tmp_path)
    commands = [c for c in COMMANDS if SLOW_BUILD.search(c)]
    assert commands
    _run_in_order(commands)


def test_readme_python_example_runs(workdir, monkeypatch):
    """The README's Python blocks, with small counts, in the same folder."""
    monkeypatch.chdir(workdir)
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"),
                        re.M | re.S)
    assert blocks
    for code in blocks:
        code = re.sub(r"\b(rounds|deals|check_rounds|compare_rounds)=[\d_]+", r"\1=1_000", code)
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    assert (workdir / "results" / "pairs" / "compare.parquet").is_file()


def test_the_readme_stays_short():
    """The README is the front page: what it cannot say in 300 lines belongs in docs/."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300
