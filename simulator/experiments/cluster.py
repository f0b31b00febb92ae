"""Runs on a Dask cluster (``--cluster tcp://HOST:8786`` or ``--cluster local:N``).

The work is cut exactly as on threads: ``golfsim run`` (and tournament) into chunks of
rounds [start, start + count) of one seed, compare and guide into the shards of
``compare.Plan``, tune into the chunks of ``tune.TableObjective``. Each piece becomes one Dask
task whose key names the piece (the arguments' hash, start and count), so a task is pure:
when a worker is lost Dask plays its pieces again elsewhere and gets the same numbers. The
results are added on this side in the same order as on threads, so the data are identical to
an in-process run with the same seed.

Only picklable descriptions go to the workers (rules, seat ids and parameters, a user
policy's file path and function name, the seed); each worker makes its own jobs, compiling
(or loading from its disk cache) the build it needs once, then keeps them for later tasks.

Nothing here imports dask until a cluster is asked for: the default stays in-process.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from strategies import net

from ..game.codes import POLICY_USER
from ..kernel import policy_api
from . import runner

# the Dask settings of the worker processes ``local:N`` starts (docs/cluster.md gives them
# for workers started by hand)
QUIET_WORKERS = {"distributed.worker.profile.enabled": False}
CLUSTER_CHUNK = 1 << 20
INSTALL_HINT = "--cluster needs Dask: pip install 'golfsim[cluster]' (dask[distributed])"


class ClusterError(RuntimeError):
    """The cluster could not be reached or started (the message is one line)."""


_ACTIVE: "Session | None" = None
_PENDING: str | None = None       # the spec of session(), started when first needed
_START_LOCK = threading.Lock()


def active() -> "Session | None":
    """The cluster session the current command plays on, or None (in-process). Inside
    ``session(spec)`` the cluster is started (or connected to) on the first call, so that a
    command checks its arguments and warms up before it waits for a cluster."""
    global _ACTIVE
    if _PENDING is None:
        return None
    with _START_LOCK:
        if _ACTIVE is None:
            s = Session(_PENDING)
            try:
                s.wait_for_workers(1)
            except BaseException:
                s.close()
                raise
            _ACTIVE = s
        return _ACTIVE


def description() -> str | None:
    """What the current command played on, for its report ("2 worker threads of the cluster
    local:2"), or None when no cluster was started."""
    s = _ACTIVE
    if s is None:
        return None
    n = s.threads()
    return f"{n} worker thread{'s' if n != 1 else ''} of the cluster {s.spec}"


def cancel() -> None:
    """After a Ctrl-C or an error: cancel the tasks in flight on the cluster, if any."""
    s = _ACTIVE
    if s is not None:
        s.cancel()


def pending() -> bool:
    """Will the current command play on a cluster (started or not yet)?"""
    return _PENDING is not None


def chunk_rounds(rounds: int, default: int) -> int:
    """``run``'s chunk size on a cluster when none is given: larger than in-process, since
    every chunk is a task with a round trip through the scheduler, yet at least 16 chunks so
    that the workers stay evenly busy (any chunk size gives the same data)."""
    return max(default, min(CLUSTER_CHUNK, rounds // 16))


def parse(spec: str) -> tuple[str, int | str]:
    """``local:N`` -> ("local", N); ``tcp://HOST:PORT`` (or another Dask address) ->
    ("address", spec). Raises ValueError with the reason."""
    spec = str(spec).strip()
    if spec.startswith("local:") or spec == "local":
        n = spec.partition(":")[2] or "2"
        try:
            workers = int(n)
        except ValueError:
            raise ValueError(f"{spec!r}: expected local:N with N a whole number >= 1") \
                from None
        if workers < 1:
            raise ValueError(f"{spec!r}: expected local:N with N a whole number >= 1")
        return "local", workers
    if "://" in spec and spec.split("://", 1)[1]:
        return "address", spec
    raise ValueError(f"{spec!r}: expected tcp://HOST:PORT (a Dask scheduler) or local:N")


class Session:
    """A Dask client (and, for ``local:N``, the LocalCluster it started)."""

    def __init__(self, spec: str):
        kind, value = parse(spec)
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError(INSTALL_HINT) from None
        self.spec = spec
        self.local = None
        self.in_flight: set = set()   # the futures of call() not answered yet
        self.lock = threading.Lock()
        try:
            if kind == "local":
                import dask
                # Dask's statistical profiler samples every worker thread 100 times a second;
                # on a machine with a core per worker that sampling competes with the rounds
                # (docs/cluster.md#overhead). Its logs stay quiet: a task's error reaches
                # the command through its future, and a Ctrl-C closes workers still busy
                # with compiled code, which log the scheduler's going as errors.
                with dask.config.set(QUIET_WORKERS):
                    self.local = LocalCluster(n_workers=value, threads_per_worker=1,
                                              processes=True, dashboard_address=":0",
                                              silence_logs=logging.CRITICAL)
                self.client = Client(self.local)
            else:
                self.client = Client(value, timeout="20s")
        except Exception as e:  # noqa: BLE001 - unreachable scheduler, no free port, ...
            self.close()
            raise ClusterError(f"--cluster {spec}: {type(e).__name__}: {e}") from None

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.local is not None:
            self.local.close()

    def threads(self) -> int:
        """Worker threads in the cluster now (at least 1)."""
        info = self.client.scheduler_info()
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def wait_for_workers(self, n: int = 1, timeout: float = 60.0) -> None:
        try:
            self.client.wait_for_workers(n, timeout=timeout)
        except Exception as e:  # noqa: BLE001
            raise ClusterError(f"--cluster {self.spec}: no worker joined within {timeout:g} s "
                               f"({type(e).__name__})") from None

    def call(self, fn, *args, key: str):
        """Run ``fn(*args)`` as the task ``key`` and wait for its result (from a thread of
        this process; a lost worker's task is run again elsewhere by Dask)."""
        with self.lock:   # registered as it is submitted: cancel() misses none
            future = self.client.submit(fn, *args, key=key, pure=True)
            self.in_flight.add(future)
        try:
            return future.result()
        finally:
            with self.lock:
                self.in_flight.discard(future)
            future.release()

    def cancel(self) -> None:
        """Cancel every task not answered yet: the threads waiting in ``call`` stop waiting
        (CancelledError). A worker cannot stop compiled code it is running, so without this
        a Ctrl-C would wait for the tasks in flight, minutes when one compiles a build."""
        with self.lock:
            futures = list(self.in_flight)
        if futures:
            self.client.cancel(futures, force=True)


@contextmanager
def session(spec: str | None):
    """Play on ``spec`` for the duration of the block (nothing when ``spec`` is None); the
    cluster is started or connected to when first needed (``active``) and closed at the end."""
    global _ACTIVE, _PENDING
    if not spec:
        yield
        return
    parse(spec)   # a malformed spec fails at once (ValueError)
    if _PENDING is not None:
        raise ClusterError("a cluster session is already open in this process")
    _PENDING = spec
    try:
        yield
    finally:
        with _START_LOCK:
            s, _ACTIVE, _PENDING = _ACTIVE, None, None
        if s is not None:
            s.close()


def digest(*parts) -> str:
    """A short hash of picklable parts (the task keys)."""
    return hashlib.sha256(pickle.dumps(parts, protocol=4)).hexdigest()[:16]


# ---- what the workers run -----------------------------------------------------------------------
@dataclass(frozen=True)
class JobSpec:
    """A picklable description of runner.make_job's arguments."""
    rules: object           # game.rules.Rules
    players: int
    policy_ids: tuple
    params: np.ndarray
    seed: int
    check: bool = False
    kernel: str = "auto"
    user: tuple | None = None   # (policy file path, function name): must exist on workers
    nets: tuple = ()            # per seat, a net: seat's network file (net.rebind), or None

    def key(self) -> str:
        return digest(self.rules.to_toml(), self.players, tuple(int(p) for p in self.policy_ids),
                      np.asarray(self.params, dtype=np.float64).tobytes(), self.seed,
                      self.check, self.kernel, self.user)


def user_of(strategies) -> tuple | None:
    """The (path, function) of the user policy the seats share, or None."""
    users = {s.user for s in strategies if getattr(s, "user", None) is not None}
    return next(iter(users)) if users else None


_WORKER_CACHE: dict = {}
_WORKER_LOCK = threading.Lock()
_KEY_LOCKS: dict = {}


def cached(key, make):
    """``make()``, once per worker process for ``key``. Each key has its own lock, held while
    it is made: a job's ``make`` compiles (or loads) the user policy under another key, and a
    thread making one build does not hold up the threads that need another."""
    with _WORKER_LOCK:
        if key in _WORKER_CACHE:
            return _WORKER_CACHE[key]
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key not in _WORKER_CACHE:
            _WORKER_CACHE[key] = make()
        return _WORKER_CACHE[key]


def compiled_user(user):
    """The user policy (path, function) compiled on this worker, once."""
    if user is None:
        return None
    return cached(("user", user), lambda: policy_api.compile_policy(*user))


def _worker_job(spec: JobSpec):
    def make():
        params = net.rebind(spec.params, spec.nets) if spec.nets else spec.params
        return runner.make_job(spec.rules, spec.players, np.asarray(spec.policy_ids),
                               params, spec.seed, spec.check, spec.kernel,
                               compiled_user(spec.user))
    return cached(("job", spec.key()), make)


def _state(job, players):
    local = cached(("states",), threading.local)
    states = getattr(local, "states", None)
    if states is None:
        states = local.states = {}
    k = (job.build, players)
    if k not in states:
        states[k] = runner.new_state(job, players)
    return states[k]


def play_chunk_task(spec: JobSpec, start: int, count: int, per_round: bool,
                    holes: int = 0, target: int = 0):
    """One chunk of rounds (or matches) on a worker: ("ok", Totals, MatchTotals or None,
    scores, turns) or ("policy", message, round, seat) after a policy error."""
    job = _worker_job(spec)
    st = _state(job, spec.players)
    try:
        if holes > 0 or target > 0:
            t, mt, _ = runner.play_match_chunk(job, start, count, holes, target, st)
            return "ok", t, mt, None, None
        t, (s, tr, _), _ = runner.play_chunk(job, start, count, st, per_round=per_round)
        return "ok", t, None, s, tr
    except runner.PolicyError as e:
        return "policy", str(e), e.round_index, e.seat


def call(fn, *args, key: str):
    """``fn(*args)`` as the task ``key`` on the active cluster, from a thread of this process:
    its answer, ("policy", message, round, seat) raised as runner.PolicyError."""
    got = _ACTIVE.call(fn, *args, key=key)
    if got[0] == "policy":
        raise runner.PolicyError(got[1], got[2], got[3])
    return got[1:]


def run_chunk(spec: JobSpec, start: int, count: int, per_round: bool, holes: int = 0,
              target: int = 0):
    """Play one chunk of ``spec`` on the active cluster (from a thread of this process);
    raises runner.PolicyError as the in-process chunk would."""
    key = f"golfsim-chunk-{spec.key()}-{int(per_round)}-{holes}-{target}-{start}-{count}"
    return call(play_chunk_task, spec, start, count, per_round, holes, target, key=key)


class Remote:
    """runner.run's executor on the active cluster: every chunk a task there."""

    def __init__(self, session: "Session"):
        self.session = session

    def threads(self) -> int:
        return self.session.threads()

    def job(self, rules, players, policy_ids, params, seed, check, kernel, user) -> JobSpec:
        return job_spec(rules, players, policy_ids, params, seed, check, kernel, user)

    def play(self, spec: JobSpec, start: int, count: int, per_round: bool, holes: int = 0,
             target: int = 0):
        return run_chunk(spec, start, count, per_round, holes, target)

    def cancel(self) -> None:
        self.session.cancel()


def executor() -> Remote | None:
    """The executor runner.run plays on: the active cluster's (started now when pending), or
    None for this process's threads."""
    s = active()
    return None if s is None else Remote(s)


def user_source(user) -> tuple | None:
    """(absolute file path, function name) of a compiled user policy (policy_api), or None:
    what the workers compile again (the file must exist at that path on every worker)."""
    if user is None:
        return None
    for key, fn in policy_api._COMPILED.items():
        if fn is user:
            return key
    raise ClusterError("--cluster: the user policy's file is not known (compile it with "
                       "policy_api.compile_policy)")


def job_spec(rules, players: int, policy_ids, params, seed: int, check: bool, kernel: str,
             user) -> JobSpec:
    source = user_source(user)
    params = np.asarray(params, dtype=np.float64)
    nets = ()
    if source is not None and source == (str(Path(net.POLICY_FILE).resolve()),
                                         net.POLICY_FUNCTION):
        nets = tuple(net.path_at(params[s, 0]) if int(p) == POLICY_USER else None
                     for s, p in enumerate(policy_ids))
    return JobSpec(rules, int(players), tuple(int(p) for p in policy_ids), params, int(seed),
                   bool(check), kernel, source, nets)
