"""The source files compiled code depends on: what the compile cache's folder is named after
(simulator/kernel/jit.py).

The compiled modules are the modules of the packages (simulator/, strategies/) that import
Numba, directly or through simulator/kernel/jit.py. Their code depends on every module of the
packages they import, transitively: a constant of simulator/game/cards.py folded into a
compiled function changes the machine code as much as an edit to the function does. So the
key covers the compiled modules and everything they reach: an import at any depth of the code
(inside a function too), and a module named by a string (strategies/compiled.py's table of
entry points imports its policies by name). Reaching too far only costs a recompile; missing
a file would load stale machine code, which is why nothing here is a hand-kept list.

Nothing here imports Numba or any compiled module: the names are read from the text.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the packages as this copy names them (benchmarks/ab_kernel.py imports a base commit's as
# simulator_base and strategies_base)
_SUFFIX = Path(__file__).resolve().parents[1].name[len("simulator"):]
PACKAGES = ("simulator" + _SUFFIX, "strategies" + _SUFFIX)
# a module importing one of these holds compiled code
COMPILER_MODULES = ("numba", "simulator.kernel.jit")

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w., \t]+)", re.M)
_NAMED = re.compile(r"""["']((?:%s)(?:\.\w+)+)["']""" % "|".join(PACKAGES))
_NAME = re.compile(r"\w+")


def _module_name(root: Path, file: Path) -> list[str]:
    """The dotted name of ``file`` as a list, a package being its __init__.py."""
    parts = list(file.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_names(root: Path, file: Path) -> set[str]:
    """Every module name ``file`` imports or names (relative imports resolved), with each
    name imported from a module as a possible submodule of it."""
    text = file.read_text()
    here = _module_name(root, file)
    package = here if file.name == "__init__.py" else here[:-1]
    names: set[str] = set()
    for dots, module, what in _FROM.findall(text):
        base = package[:len(package) - len(dots) + 1] if dots else []
        full = ".".join(base + ([module] if module else []))
        names.add(full)
        for name in _NAME.findall(re.sub(r"#[^\n]*|\bas\s+\w+", "", what)):
            names.add(f"{full}.{name}" if full else name)
    for listed in _IMPORT.findall(text):
        names.update(n.split()[0] for n in listed.split(",") if n.strip())
    names.update(_NAMED.findall(text))
    return names


def module_files(root: Path, name: str) -> list[Path]:
    """The files of the packages that importing ``name`` runs: each package's __init__.py
    on the way and the module itself (none for a module outside the packages)."""
    parts = name.split(".")
    if parts[0] not in PACKAGES:
        return []
    found = []
    for i in range(1, len(parts) + 1):
        path = root.joinpath(*parts[:i])
        if (path / "__init__.py").is_file():
            found.append(path / "__init__.py")
        elif path.with_suffix(".py").is_file():
            found.append(path.with_suffix(".py"))
            break
        else:
            break
    return found


def compiled_modules(root: Path = ROOT) -> list[Path]:
    """The modules of the packages that import a compiler module (COMPILER_MODULES)."""
    out = []
    for package in PACKAGES:
        for file in sorted((root / package).rglob("*.py")):
            names = imported_names(root, file)
            if any(n == c or n.startswith(c + ".") for n in names for c in COMPILER_MODULES):
                out.append(file)
    return out


def reached(root: Path, starts) -> list[Path]:
    """``starts`` and every module of the packages they import, transitively."""
    seen: set[Path] = set()
    todo = list(starts)
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        for name in imported_names(root, file):
            todo.extend(f for f in module_files(root, name) if f not in seen)
    return sorted(seen)


def kernel_sources(root: Path = ROOT) -> tuple[str, ...]:
    """The files the cache key covers, as paths relative to ``root``."""
    return tuple(f.relative_to(root).as_posix() for f in reached(root, compiled_modules(root)))
