"""The game flow's builds (simulator/kernel/builds.py ``flow_build``): a build is the package
simulator/kernel/flow joined into one module with build.py's lines set. Every module of the
package is in it, it has every name the package exports, and an edit to any module makes a new
copy (a stale one is never loaded). Nothing here is compiled."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from simulator.kernel import builds
from simulator.kernel import flow

LINES = "GENERAL = True\nUSER = False\nTABLE = False\nPOWERS = True\n" \
        "from simulator.kernel.flow import user_decide, user_decide_call\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """builds writing into an empty cache folder of this test."""
    folder = tmp_path / "cache"
    monkeypatch.setattr(builds, "CACHE_DIR", str(folder))
    monkeypatch.setattr(builds, "_READY", False, raising=False)
    monkeypatch.setattr(builds, "_FLOW_BUILDS", {})
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield folder
    for name in [m for m in sys.modules if m.startswith("golfsim_flow_")
                 and str(tmp_path) in (getattr(sys.modules[m], "__file__", "") or "")]:
        del sys.modules[name]


def test_every_module_of_the_flow_is_in_its_builds():
    modules = {p.stem for p in builds.FLOW_PACKAGE.glob("*.py")} - {"__init__"}
    assert modules == set(builds.FLOW_MODULES)


def test_a_build_has_every_name_the_package_exports_and_its_own_lines(cache_dir):
    module = builds.flow_build("powers", LINES)
    assert Path(module.__file__).parent == cache_dir / "flow_builds"
    missing = [name for name in flow.__all__ if not hasattr(module, name)]
    assert missing == []
    assert module.POWERS and module.GENERAL and not module.USER
    assert not module.TABLE
    assert not flow.POWERS and not flow.GENERAL   # the package itself is the lean build
    assert module.user_decide is flow.user_decide


def test_an_edit_to_any_module_of_the_flow_makes_a_new_build(cache_dir, monkeypatch, tmp_path):
    package = tmp_path / "flow"
    shutil.copytree(builds.FLOW_PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(builds, "FLOW_PACKAGE", package)
    names = {builds.flow_build_file("general", LINES)}
    for module in builds.FLOW_MODULES:
        path = package / f"{module}.py"
        path.write_text(path.read_text() + "\n# edited\n")
        names.add(builds.flow_build_file("general", LINES))
    assert len(names) == 1 + len(builds.FLOW_MODULES)
