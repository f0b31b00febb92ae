"""benchmarks/ab_kernel.py imports an earlier commit's packages under other names: the copy
must be a working, separate package set (its own modules, nothing leaking back to the tree's).
The bench tier (-m bench); skipped without git or without the clone's history."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASE = "HEAD"   # the commit exported


def _why_not() -> str | None:
    """Why the base commit cannot be exported here, or None."""
    if shutil.which("git") is None:
        return "needs git on PATH to export a commit"
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                           f"{BASE}^{{commit}}"], capture_output=True, text=True)
    if done.returncode != 0:
        return f"needs a git clone of the project with commit {BASE} ({ROOT} has none)"
    return None


_REASON = _why_not()
pytestmark = [pytest.mark.bench,
              pytest.mark.skipif(_REASON is not None, reason=_REASON or "")]


def _module():
    spec = importlib.util.spec_from_file_location("ab_kernel", ROOT / "benchmarks" / "ab_kernel.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_base_commit_imports_as_its_own_packages(tmp_path):
    ab = _module()
    ab.export_base(BASE, tmp_path)
    # a fresh interpreter, so that the tree's own packages are not already imported
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import simulator_base.game.rules as r, simulator_base.kernel.flow as l;"
        "import strategies_base as s, simulator_base.kernel.jit as j;"
        "assert 'simulator' not in sys.modules and 'strategies' not in sys.modules, "
        "sorted(m for m in sys.modules if m.split('.')[0] in ('simulator', 'strategies'));"
        "assert j.KERNEL_SOURCES[0].startswith('simulator_base/');"
        "r.Rules.preset('six_card'); s.seat_arrays(s.resolve_seats(['greedy'], 4))"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_an_unknown_commit_is_refused(tmp_path):
    ab = _module()
    with pytest.raises(SystemExit) as err:
        ab.export_base("no-such-revision-xyz", tmp_path)
    assert "no-such-revision-xyz" in str(err.value)
