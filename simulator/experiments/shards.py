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
from .folder import key_of, remove_stale_temporaries
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

    def check(self, manifest: dict, fresh: bool = False) -> None:
        """Raise ShardError when the folder holds the shards of other arguments (unless
        ``fresh``); nothing is written. Commands check this before they touch the folder."""
        if fresh:
            return
        manifest_path = self.dir / MANIFEST
        if manifest_path.exists():
            try:
                have = json.loads(manifest_path.read_text())
            except (OSError, ValueError):
                have = None
            if have != manifest:
                raise ShardError(
                    f"the folder holds the shards of {_owner_text(have, manifest)} "
                    f"({_manifest_difference(have, manifest)}); rerun with the same arguments "
                    "to resume it, add --fresh to discard its shards, or choose another --out")

    def open(self, manifest: dict, fresh: bool = False) -> None:
        """Check the folder's manifest against ``manifest`` (refusing a different one with
        ShardError unless ``fresh``, which deletes the old shards), or write it."""
        self.check(manifest, fresh)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._remove_stale_temporaries()
        manifest_path = self.dir / MANIFEST
        if fresh:
            for p in self.shard_files():
                p.unlink()
            manifest_path.unlink(missing_ok=True)
        if manifest_path.exists():
            return
        with atomic_path(manifest_path) as tmp:
            tmp.write_text(json.dumps(manifest, indent=1) + "\n")

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
        remove_stale_temporaries(self.dir)


def _owner_text(have, want: dict) -> str:
    """What the shards in the folder are the shards of: "a different comparison" (the same
    command), or "a golfsim tune" (another command)."""
    def command(m):
        if not isinstance(m, dict):
            return None
        if str(m.get("kind", "")).startswith("golfsim compare"):
            return "compare"
        return m.get("command")
    mine, theirs = command(want), command(have)
    if theirs is not None and theirs != mine:
        return f"a golfsim {theirs}"
    return {"compare": "a different comparison", "tune": "a different search",
            "guide": "a different guide", "run": "a different run"}.get(mine,
                                                                        "different arguments")


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


# ---- an unfinished `golfsim run` ---------------------------------------------------------------
RUN_STATE = "run-state.npz"
RUN_ARRAYS = ("acc", "tot", "hist", "macc", "mtot")   # runner.Totals' and MatchTotals' sums


class RunStore(ShardStore):
    """``<out>/shards`` of a ``golfsim run`` that has not finished: ``run-state.npz`` holds
    the integer sums of the chunks played so far and which rounds they are (whole intervals),
    and with --per-round every ``rounds-NNNNN.npz`` named there holds the scores and turns of
    the chunks finished between two saves of the state. Every file is written atomically and
    flushed, the rounds before the state that names them, so a kill at any moment leaves a
    state whose sums are exactly those of the rounds it names. A rerun of the same run adds
    the rounds not played yet: integer sums, so the result is the uninterrupted run's. The
    folder is removed once the run's files are written."""

    KIND = "golfsim run state"

    def __init__(self, out_dir, manifest: dict):
        super().__init__(out_dir)
        self.manifest = {"command": "run", "kind": self.KIND, **manifest}
        self.key = key_of(self.manifest)
        self.rounds_files: list[int] = []   # those named by the state last saved or loaded
        self._next = 0

    def _have(self):
        try:
            return json.loads((self.dir / MANIFEST).read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return "unreadable"

    def _own_files(self) -> list[Path]:
        return [self.dir / RUN_STATE, *self.dir.glob("rounds-*.npz")]

    def check(self, manifest: dict | None = None, fresh: bool = False) -> None:
        """Raise ShardError when ``shards/`` holds another command's shards (a compare, a
        tune, a guide): a run does not discard those. Another run's state is discarded by
        ``open``."""
        if not self.dir.is_dir():
            return
        have = self._have()
        if isinstance(have, dict) and have.get("command") == "run":
            return
        own = set(self._own_files())
        others = [p for p in self.dir.iterdir()
                  if p.name != MANIFEST and not p.name.startswith(".") and p not in own]
        if have is None and not others:
            return
        owner = _owner_text(have, self.manifest) if isinstance(have, dict) else \
            "another golfsim command"
        raise ShardError(f"the folder holds the shards of {owner} ({self.dir}); a run does "
                         "not discard them: choose another --out, or remove that shards "
                         "folder")

    def open(self, manifest: dict | None = None, fresh: bool = False) -> None:
        """Make ``shards/`` this run's: the state of another run (other arguments) is
        discarded, with a note."""
        self.check()
        self.dir.mkdir(parents=True, exist_ok=True)
        self._remove_stale_temporaries()
        if self._have() != self.manifest:
            if any(p.exists() for p in self._own_files()):
                self.notes.append(f"{self.dir}: discarded the unfinished run of other "
                                  "arguments kept there")
            self.reset()
            with atomic_path(self.dir / MANIFEST) as tmp:
                tmp.write_text(json.dumps(self.manifest, indent=1) + "\n")

    def reset(self) -> None:
        """Forget what was played (the state and the rounds files)."""
        for p in self._own_files():
            p.unlink(missing_ok=True)
        self.rounds_files = []
        self._next = 0

    def clear(self) -> None:
        """The run is written: remove its state, its rounds files, the manifest and the
        ``shards`` folder when nothing else is left there."""
        self.reset()
        (self.dir / MANIFEST).unlink(missing_ok=True)
        self._remove_stale_temporaries()
        try:
            self.dir.rmdir()
        except OSError:
            pass   # not empty (or already gone): left as it is

    def load_state(self, shapes: dict[str, tuple]) -> dict | None:
        """The state saved (``played``: intervals, ``seconds``, ``rounds_files`` and the
        arrays of RUN_ARRAYS that ``shapes`` names, of those shapes), None when there is
        none or it does not fit (noted, and everything is played again)."""
        path = self.dir / RUN_STATE
        existing = sorted(int(p.stem.split("-")[1]) for p in self.dir.glob("rounds-*.npz")
                          if p.stem.split("-")[1].isdigit())
        self._next = existing[-1] + 1 if existing else 0
        if not path.exists():
            return None
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["key"]) != self.key:
                    raise ValueError("another run's state")
                state = {"played": [(int(a), int(n)) for a, n in np.array(z["played"])],
                         "seconds": float(z["seconds"]),
                         "rounds_files": [int(x) for x in np.array(z["rounds_files"])]}
                for name, shape in shapes.items():
                    state[name] = np.array(z[name])
                    if state[name].shape != shape:
                        raise ValueError(f"{name} has the wrong shape")
        except Exception as e:  # noqa: BLE001 - any unreadable state is simply played again
            self.notes.append(f"{path.name} is unreadable ({type(e).__name__}); playing the "
                              "whole run again")
            self.reset()
            return None
        self.rounds_files = state["rounds_files"]
        for seq in existing:   # written, but the state naming them was not
            if seq not in self.rounds_files:
                self._rounds_path(seq).unlink(missing_ok=True)
        return state

    def _rounds_path(self, seq: int) -> Path:
        return self.dir / f"rounds-{seq:05d}.npz"

    def load_rounds(self, seq: int, players: int):
        """(ranges, scores, turns) of rounds file ``seq``; None when it is missing or
        unreadable."""
        path = self._rounds_path(seq)
        try:
            with np.load(path, allow_pickle=False) as z:
                ranges = np.array(z["ranges"], dtype=np.int64).reshape(-1, 2)
                scores = np.array(z["scores"], dtype=np.int64)
                turns = np.array(z["turns"], dtype=np.int64)
        except Exception as e:  # noqa: BLE001
            self.notes.append(f"{path.name} is unreadable ({type(e).__name__}); playing the "
                              "whole run again")
            return None
        n = int(ranges[:, 1].sum()) if ranges.size else 0
        if scores.shape != (n, players) or turns.shape != (n,):
            self.notes.append(f"{path.name} has the wrong shape; playing the whole run again")
            return None
        return ranges, scores, turns

    def save_state(self, arrays: dict[str, np.ndarray], played, seconds: float,
                   rounds=None) -> None:
        """Save the state; ``rounds`` (ranges, scores, turns) of the chunks finished since the
        last save go first into a rounds file of their own."""
        if rounds is not None:
            seq = self._next
            self._next += 1
            ranges, scores, turns = rounds
            with atomic_path(self._rounds_path(seq)) as tmp:
                with open(tmp, "wb") as f:
                    np.savez(f, ranges=np.asarray(ranges, dtype=np.int64).reshape(-1, 2),
                             scores=_compact(scores), turns=_compact(turns))
                    f.flush()
                    os.fsync(f.fileno())
            self.rounds_files.append(seq)
        played = np.asarray(played, dtype=np.int64).reshape(-1, 2)
        with atomic_path(self.dir / RUN_STATE) as tmp:
            with open(tmp, "wb") as f:
                np.savez(f, key=np.array(self.key), played=played,
                         seconds=np.array(float(seconds)),
                         rounds_files=np.array(self.rounds_files, dtype=np.int64), **arrays)
                f.flush()
                os.fsync(f.fileno())


def _compact(a: np.ndarray) -> np.ndarray:
    """Integers in the narrowest of int16, int32 and int64 that holds them all (read back as
    int64, the same values)."""
    for t in (np.int16, np.int32):
        info = np.iinfo(t)
        if a.size == 0 or (int(a.min()) >= info.min and int(a.max()) <= info.max):
            return a.astype(t)
    return a
