"""Shards of a long comparison on disk: the sums of blocks of consecutive rounds, so an
interrupted run can resume where it stopped.

``<out>/shards/manifest.json`` records the arguments that fix the results; every shard
``shard-NNNNN.npz`` holds one block's sums and the key of those arguments. Every file is
written atomically (a temporary file in the same folder, flushed, then renamed), so a Ctrl-C
or a kill leaves either a whole file or none, and at most a temporary file, which is ignored
and removed once its process is gone.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..game import codes as K
from .report import atomic_path

SHARD_DIR = "shards"
MANIFEST = "manifest.json"


class ShardError(ValueError):
    """The folder holds the shards of different arguments; the message is one line."""


@dataclass
class ShardSums:
    """The sums of one shard (rounds [start, start + count)); rule set 0 is the baseline."""
    start: int
    count: int
    x_sum: np.ndarray        # [rule set, column]: sum of the per-round observations
    x_sq: np.ndarray         # [rule set, column]: sum of their squares
    d_sum: np.ndarray        # [variant, column]: sum of per-round differences variant - baseline
    d_sq: np.ndarray         # [variant, column]: sum of their squares
    knocks: np.ndarray       # [rule set]: rounds ended by a knock (all seatings)
    knock_wins: np.ndarray   # [rule set, k-1]: knock rounds the knocker won in a k-way tie
    capped: np.ndarray       # [rule set]: rounds stopped by the turn cap (all seatings)

    ARRAYS = ("x_sum", "x_sq", "d_sum", "d_sq", "knocks", "knock_wins", "capped")

    @classmethod
    def zeros(cls, rule_sets: int, columns: int) -> "ShardSums":
        v = rule_sets - 1
        return cls(0, 0, np.zeros((rule_sets, columns)), np.zeros((rule_sets, columns)),
                   np.zeros((v, columns)), np.zeros((v, columns)),
                   np.zeros(rule_sets, dtype=np.int64),
                   np.zeros((rule_sets, K.MAX_PLAYERS), dtype=np.int64),
                   np.zeros(rule_sets, dtype=np.int64))

    def add(self, other: "ShardSums") -> None:
        self.count += other.count
        for name in self.ARRAYS:
            getattr(self, name).__iadd__(getattr(other, name))


class ShardStore:
    """``<out>/shards``: the manifest and one file per finished shard, all written atomically
    (a temporary file in the same folder, then a rename)."""

    def __init__(self, out_dir: str | Path):
        self.dir = Path(out_dir) / SHARD_DIR
        self.notes: list[str] = []

    def path(self, j: int) -> Path:
        return self.dir / f"shard-{j:05d}.npz"

    def shard_files(self) -> list[Path]:
        return sorted(self.dir.glob("shard-*.npz"))

    def open(self, manifest: dict, fresh: bool = False) -> None:
        """Check the folder's manifest against ``manifest`` (refusing a different one with
        ShardError unless ``fresh``, which deletes the old shards), or write it."""
        self.dir.mkdir(parents=True, exist_ok=True)
        self._remove_stale_temporaries()
        manifest_path = self.dir / MANIFEST
        if fresh:
            for p in self.shard_files():
                p.unlink()
            manifest_path.unlink(missing_ok=True)
        want = manifest
        if manifest_path.exists():
            try:
                have = json.loads(manifest_path.read_text())
            except (OSError, ValueError):
                have = None
            if have != want:
                raise ShardError(
                    "the folder holds the shards of a different comparison "
                    f"({_manifest_difference(have, want)}); rerun with the same arguments to "
                    "resume it, add --fresh to discard its shards, or choose another --out")
            return
        with atomic_path(manifest_path) as tmp:
            tmp.write_text(json.dumps(want, indent=1) + "\n")

    def load(self, j: int, key: str, start: int, count: int, rule_sets: int,
             columns: int) -> ShardSums | None:
        """Shard ``j`` if it is stored under ``key`` for this round range and shape; None
        otherwise (an unreadable or foreign file is noted, so that it is played again)."""
        path = self.path(j)
        if not path.exists():
            return None
        r, c = rule_sets, columns
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["key"]) != key:
                    self.notes.append(f"{path.name} belongs to another comparison; playing it "
                                      "again")
                    return None
                if int(z["start"]) != start or int(z["count"]) != count:
                    return None   # a different cut (e.g. a shorter earlier --rounds)
                arrays = {name: np.array(z[name]) for name in ShardSums.ARRAYS}
        except Exception as e:  # noqa: BLE001 - any unreadable file is simply played again
            self.notes.append(f"{path.name} is unreadable ({type(e).__name__}); playing it "
                              "again")
            return None
        shapes = {"x_sum": (r, c), "x_sq": (r, c), "d_sum": (r - 1, c), "d_sq": (r - 1, c),
                  "knocks": (r,), "knock_wins": (r, K.MAX_PLAYERS), "capped": (r,)}
        if any(arrays[n].shape != s for n, s in shapes.items()):
            self.notes.append(f"{path.name} has the wrong shape; playing it again")
            return None
        return ShardSums(start, count, **arrays)

    def save(self, j: int, key: str, sums: ShardSums) -> None:
        """Write shard ``j`` atomically (a temporary file, flushed to disk, then a rename)."""
        path = self.path(j)
        with atomic_path(path) as tmp:
            with open(tmp, "wb") as f:
                np.savez(f, key=np.array(key), start=np.array(sums.start),
                         count=np.array(sums.count),
                         **{n: getattr(sums, n) for n in ShardSums.ARRAYS})
                f.flush()
                os.fsync(f.fileno())

    def _remove_stale_temporaries(self) -> None:
        """Temporary files left by a killed run (their process is gone)."""
        for p in self.dir.glob(".*.tmp"):
            parts = p.name.split(".")
            try:
                pid = int(parts[-3])
            except (IndexError, ValueError):
                continue
            if pid != os.getpid() and not _alive(pid):
                p.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _manifest_difference(have: dict | None, want: dict) -> str:
    if not isinstance(have, dict):
        return "its manifest.json is unreadable"
    names = {"baseline": "rules", "shard_size": "shard size"}
    diffs = []
    for key in want:
        if have.get(key) != want[key]:
            if key == "baseline" and isinstance(have.get(key), dict):
                opts = [o for o in want[key] if have[key].get(o) != want[key][o]]
                diffs.append("rules differ in " + ", ".join(opts[:4]))
            elif key == "variants" and have.get("vary") == want["vary"] and \
                    have.get("design") == want["design"]:
                diffs.append(f"variants {'; '.join(map(str, have.get(key) or []))} there, "
                             f"{'; '.join(want[key])} here")
            elif key in ("variants", "columns", "format", "kind"):
                continue
            else:
                diffs.append(f"{names.get(key, key)} {_brief(have.get(key))} there, "
                             f"{_brief(want[key])} here")
    return "; ".join(diffs) or "shards of another golfsim version"


def _brief(v) -> str:
    if isinstance(v, list):
        return " ".join(map(str, v)) or "none"
    return str(v)
