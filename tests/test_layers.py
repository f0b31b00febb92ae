"""The layers of simulator/ import in one direction only (docs/architecture.md, "Project layout").

game          imports nothing of golfsim's but game
kernel        game
strategies    game, kernel
experiments   game, kernel, strategies
output        game, kernel, strategies, experiments
api           game, kernel, strategies, experiments, output (simulator/api/, the Python API)
env           game, kernel, strategies, experiments, output, api (the RL environments)
cli           anything (simulator/cli.py and simulator/__init__.py)

Every ``import`` and ``from ... import`` of every file under simulator/ and strategies/ is read
with ``ast``, those inside functions included, relative ones resolved against the file's
package. An import of a simulator module that is in no layer (a stale path such as the
top-level ``codes`` of before the layers) fails too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("game", "kernel", "experiments", "output", "env")
ALLOWED = {
    "game": {"game"},
    "kernel": {"game", "kernel"},
    "strategies": {"game", "kernel", "strategies"},
    "experiments": {"game", "kernel", "strategies", "experiments"},
    "output": {"game", "kernel", "strategies", "experiments", "output"},
    "api": {"game", "kernel", "strategies", "experiments", "output", "api"},
    "env": {"game", "kernel", "strategies", "experiments", "output", "api", "env"},
    "cli": {"game", "kernel", "strategies", "experiments", "output", "api", "env", "cli"},
}


def _rule(layer: str) -> str:
    allowed = [name for name in ALLOWED if name in ALLOWED[layer] and name != layer]
    return (f"{layer} may import only from {', '.join(allowed)} and itself" if allowed
            else f"{layer} may import only from itself")


def module_of(rel: str) -> str:
    """``simulator/game/rules.py`` -> ``simulator.game.rules``; a package's __init__.py -> the
    package."""
    parts = rel[:-len(".py")].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of_file(rel: str) -> str:
    parts = rel.split("/")
    if parts[0] == "strategies":
        return "strategies"
    assert parts[0] == "simulator", rel
    if len(parts) > 2:
        return parts[1]
    return "cli"


def layer_of_module(name: str) -> str | None:
    """The layer of golfsim module ``name``; None for anything else (stdlib, numpy, ...);
    "unknown" for a simulator module that is in no layer."""
    parts = name.split(".")
    if parts[0] == "strategies":
        return "strategies"
    if parts[0] != "simulator" or len(parts) == 1:
        return None
    if parts[1] in LAYERS:
        return parts[1]
    if parts[1] == "api":
        return "api"
    if parts[1] == "cli":
        return "cli"
    return "unknown"


def imports(rel: str, source: str):
    """(line, the import as written, the absolute module names it reaches) for every import in
    ``source``, the file ``rel``."""
    module = module_of(rel)
    package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, rel)):
        if isinstance(node, ast.Import):
            yield (node.lineno, ast.unparse(node), [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                if node.level - 1 >= len(parts):
                    yield (node.lineno, ast.unparse(node), ["<beyond the top package>"])
                    continue
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            # ``from simulator import kernel`` reaches simulator.kernel: judge each name
            yield (node.lineno, ast.unparse(node), [f"{base}.{a.name}" for a in node.names])


def violations(rel: str, source: str) -> list[str]:
    layer = layer_of_file(rel)
    found = []
    for line, text, names in imports(rel, source):
        for name in names:
            if name == "<beyond the top package>":
                found.append(f"{rel}:{line}: `{text}` reaches beyond the package")
                continue
            target = layer_of_module(name)
            if target == "unknown":
                found.append(f"{rel}:{line}: `{text}`: {name} is in no layer "
                             f"({', '.join(LAYERS)}, or simulator.api or simulator.cli)")
            elif target is not None and target not in ALLOWED[layer]:
                found.append(f"{rel}:{line}: `{text}` imports {target} ({name}) into {layer}: "
                             f"{_rule(layer)}")
    return found


def _files() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix()
                  for package in ("simulator", "strategies")
                  for p in (ROOT / package).rglob("*.py"))


def test_every_module_is_in_a_layer():
    top = {p.name for p in (ROOT / "simulator").glob("*.py")}
    assert top <= {"__init__.py", "cli.py"}, \
        f"simulator/ holds {sorted(top - {'__init__.py', 'cli.py'})}: put each in a layer"
    folders = {p.name for p in (ROOT / "simulator").iterdir()
               if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(LAYERS) | {"api"}, f"simulator/'s sub-packages are {sorted(folders)}"
    for layer in LAYERS + ("api",):
        assert (ROOT / "simulator" / layer / "__init__.py").is_file(), layer


def test_imports_follow_the_layers():
    files = _files()
    assert len(files) > 30, files
    found = [v for rel in files for v in violations(rel, (ROOT / rel).read_text())]
    assert not found, "imports against the layers:\n" + "\n".join(found)


@pytest.mark.parametrize("rel, source, needle", [
    ("simulator/game/rules.py", "from simulator.kernel.engine import State\n",
     "imports kernel (simulator.kernel.engine.State) into game"),
    ("simulator/game/rules.py", "def f():\n    from ..kernel import engine\n",
     "imports kernel (simulator.kernel.engine) into game"),
    ("simulator/game/cards.py", "import simulator.kernel.jit as j\n",
     "imports kernel (simulator.kernel.jit) into game"),
    ("simulator/kernel/engine.py", "from strategies import compiled\n",
     "imports strategies (strategies.compiled) into kernel"),
    ("simulator/kernel/flow.py", "from ..experiments import runner\n", "into kernel"),
    ("strategies/builtin.py", "from simulator.experiments.runner import run\n",
     "into strategies"),
    ("simulator/experiments/runner.py", "from ..output import plots\n", "into experiments"),
    ("simulator/output/plots.py", "from simulator import cli\n", "into output"),
    ("simulator/output/plots.py", "from simulator import api\n", "imports api"),
    ("simulator/experiments/tune.py", "from ..api import run\n", "into experiments"),
    ("simulator/api/commands.py", "from ..cli import main\n",
     "imports cli (simulator.cli.main) into api"),
    ("simulator/experiments/runner.py", "from simulator import codes\n", "is in no layer"),
    ("simulator/kernel/flow.py", "from .. import rules\n", "is in no layer"),
    ("simulator/game/rules.py", "from .... import x\n", "beyond the package"),
])
def test_the_check_finds_an_import_against_the_layers(rel, source, needle):
    found = violations(rel, source)
    assert len(found) == 1 and needle in found[0], found


@pytest.mark.parametrize("rel, source", [
    ("simulator/kernel/engine.py", "from ..game import codes as K\nfrom .tally import N_TOT\n"),
    ("simulator/output/plots.py", "from ..experiments.report import Z95\nimport numpy\n"),
    ("simulator/cli.py", "from .output import plots\nfrom strategies import resolve\n"),
    ("simulator/cli.py", "from . import api\nfrom .api import RuleSet\n"),
    ("simulator/api/commands.py",
     "from ..output import plots\nfrom ..experiments import compare\nfrom .words import x\n"),
    ("strategies/lookahead.py",
     "from simulator.kernel import flow\nfrom strategies.builtin import x\n"),
    ("simulator/experiments/warm.py", "def f():\n    from strategies import STRATEGIES\n"),
])
def test_the_check_lets_downward_imports_pass(rel, source):
    assert violations(rel, source) == []


# ---- no import cycle inside a package ------------------------------------------------------
def _module_files() -> dict[str, str]:
    """golfsim module name -> its file."""
    return {module_of(rel): rel for rel in _files()}


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the modules of ``sources`` (file -> its text) it imports, at any depth of its
    code: an import inside a function is an edge as much as one at the top. ``from p import
    x`` reaches module p.x when there is one, else p itself."""
    modules = {module_of(rel): rel for rel in sources}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for rel, source in sources.items():
        me = module_of(rel)
        for _, _, names in imports(rel, source):
            for name in names:
                parts = name.split(".")
                target = next((".".join(parts[:i]) for i in range(len(parts), 0, -1)
                               if ".".join(parts[:i]) in modules), None)
                if target is not None and target != me:
                    graph[me].add(target)
    return graph


def _package(module: str) -> str:
    return module.rpartition(".")[0]


def cycles(sources: dict[str, str]) -> list[list[str]]:
    """The import cycles among modules of one package: each strongly connected set of the
    graph restricted to a package's own modules (its __init__ excluded: importing a
    submodule runs it, but it is the package's front, not a peer), sorted."""
    graph = import_graph(sources)
    inside = {m: {t for t in ts if _package(t) == _package(m) and t != _package(m)}
              for m, ts in graph.items()}
    found, index, low, stack, on, counter = [], {}, {}, [], set(), [0]

    def visit(v):   # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(inside[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))
    for v in sorted(inside):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_import_cycle_inside_a_package():
    found = cycles({rel: (ROOT / rel).read_text() for rel in _files()})
    assert not found, "import cycles (an import inside a function counts):\n" + \
        "\n".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("sources, cycle", [
    ({"simulator/game/a.py": "from . import b\n", "simulator/game/b.py": "from .a import x\n"},
     ["simulator.game.a", "simulator.game.b"]),
    # hidden in a function, and through a third module
    ({"simulator/output/a.py": "def f():\n    from .b import y\n",
      "simulator/output/b.py": "from simulator.output import c\n",
      "simulator/output/c.py": "import simulator.output.a\n"},
     ["simulator.output.a", "simulator.output.b", "simulator.output.c"]),
])
def test_the_check_finds_an_import_cycle(sources, cycle):
    assert cycles(sources) == [cycle]


def test_the_check_lets_one_way_imports_pass():
    assert cycles({"simulator/game/a.py": "from . import b\ndef f():\n    from .c import z\n",
                   "simulator/game/b.py": "from .c import x\n",
                   "simulator/game/c.py": "import numpy\n",
                   "simulator/game/__init__.py": "from .a import f\n"}) == []


# ---- each concept in one place: the policies in strategies/ -------------------------------
def policy_code(rel: str, source: str) -> list[str]:
    """What in ``source`` answers decisions: a class with a ``choose(self, observation)``
    method (what a reference hole asks a seat, simulator/game/reference/hole.py), or a function
    that reads an ``Observation`` (what one seat sees when it decides)."""
    found = []
    for node in ast.walk(ast.parse(source, rel)):
        if isinstance(node, ast.ClassDef) and any(
                isinstance(item, ast.FunctionDef) and item.name == "choose" for item in node.body):
            found.append(f"{rel}:{node.lineno}: class {node.name}")
        elif isinstance(node, ast.FunctionDef) and any(
                a.annotation is not None and ast.unparse(a.annotation) == "Observation"
                for a in node.args.args):
            found.append(f"{rel}:{node.lineno}: def {node.name}")
    return found


def test_the_game_layer_holds_no_policy():
    """The reference engine's policies (random, greedy, knock-threshold and their answers at
    the power-card games' decisions) are strategies/reference's; the game layer seats what it
    is given."""
    found = [c for rel in _files() if rel.startswith("simulator/game/")
             for c in policy_code(rel, (ROOT / rel).read_text())]
    assert not found, "policies in the game layer (they belong in strategies/):\n" + \
        "\n".join(found)


def test_the_policy_check_finds_a_policy():
    assert policy_code("simulator/game/x.py",
                       "class P:\n    def choose(self, obs):\n        return 0\n") == \
        ["simulator/game/x.py:1: class P"]
    assert policy_code("simulator/game/x.py",
                       "def decide(policy, obs: Observation) -> int:\n    return 0\n") == \
        ["simulator/game/x.py:1: def decide"]
    assert policy_code("simulator/game/x.py", "class Q:\n    def observe(self) -> Observation:\n"
                       "        pass\n") == []


# the reference engine, the rule sets and the guide's page, split by concern: a module of these
# packages that grows past this is two concerns or more
MAX_MODULE_LINES = 500
SPLIT_BY_CONCERN = ("simulator/game/", "simulator/output/guide_report", "strategies/reference/")


def test_the_game_layer_the_guide_report_and_the_reference_policies_are_split_by_concern():
    long = [f"{rel}: {n} lines" for rel in _files() if rel.startswith(SPLIT_BY_CONCERN)
            for n in [len((ROOT / rel).read_text().splitlines())] if n > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(long)


# a function longer than a screen does several things; each gets a name of its own
MAX_FUNCTION_LINES = 80


def long_functions(rel: str, source: str) -> list[str]:
    """``rel:line name (n lines)`` for every function of ``source`` over MAX_FUNCTION_LINES
    lines, its decorators and docstring included."""
    return [f"{rel}:{node.lineno} {node.name} ({n} lines)"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in [node.end_lineno - min([node.lineno] + [d.lineno for d in
                                                            node.decorator_list]) + 1]
            if n > MAX_FUNCTION_LINES]


def test_no_function_is_over_80_lines():
    long = [row for rel in _files() for row in long_functions(rel, (ROOT / rel).read_text())]
    assert not long, "functions over 80 lines:\n" + "\n".join(long)


def test_the_length_check_finds_a_long_function():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    assert long_functions("m.py", f"def short():\n{body}") == []
    assert long_functions("m.py", f"@hot\ndef long():\n{body}    return 0\n") == \
        [f"m.py:2 long ({MAX_FUNCTION_LINES + 2} lines)"]
