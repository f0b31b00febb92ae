"""Policies written by users: the one signature they implement, and loading them from a file.

A user policy is a plain Python function in its own file::

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        ...
        return action

It is compiled two ways, each cached on disk like the engine:

- as a C-callable function of exactly ``SIGNATURE``, which the general engine calls through a
  function pointer at every decision of the seats that play it (any rules, any mix of seats;
  a new policy compiles only itself, in seconds);
- into its own build of the game flow (simulator/kernel/flow) when every seat plays it
  under rules that build plays: the policy is then compiled into the loop, which runs 2 to 3
  times as fast. That build compiles for minutes, so the first run of a version of the policy
  file does not wait for it: it plays on the general engine through the pointer while a
  background process compiles the build, and later runs take it (runner.make_job,
  simulator/experiments/behind.py; ``GOLFSIM_USER_BUILD=wait`` waits for it instead).

Every array it receives is a view of what its seat may see (docs/user_policies.md lists the
slots): nothing else of the game is reachable from it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

from numba import cfunc, njit, types

from ..game.codes import MAX_POS
from ..game.codes import POLICY_USER  # noqa: F401  (re-exported)
from . import builds
from .features import BUILDS
from .jit import CACHE_DIR, hot  # (sets Numba's cache folder before anything compiles)


ARG_NAMES = ("point", "seat", "held", "public", "legal", "known", "faceup", "discard", "memory",
             "rules", "rng", "params")
_i32 = types.int32[::1]
SIGNATURE = types.int64(types.int64, types.int64, types.int64,   # point, seat, held card
                        _i32,                  # public: PUB_* slots, face-down counts, match
                        _i32,                  # legal: 1 for every legal action
                        _i32,                  # known[s * MAX_POS + p]: card, or -1
                        _i32,                  # faceup[s * MAX_POS + p]: 1 when face up
                        _i32,                  # discard[i]: the pile, bottom first
                        _i32,                  # memory: this seat's slots (writable)
                        types.int64[::1],      # rules: R_* slots, card values and keys
                        types.uint64[::1],     # rng: this seat's random stream
                        types.float64[::1])    # params: the seat's row (params[0] = policy id)


class UserPolicyError(ValueError):
    """The named file or function cannot be used as a policy."""


def no_user(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
            params):
    """The stand-in where no seat plays a user policy (it is never asked)."""
    return -1


# passed to the engine when no seat plays a user policy
NO_USER_POLICY = cfunc(SIGNATURE, cache=True, error_model="numpy")(no_user)


def load_function(path: str, name: str, nrt: bool = True):
    """Import ``name`` from the Python file ``path`` (not compiled yet); the file's other
    functions are compiled with Numba's reference counting on or off (``nrt``)."""
    file = Path(path)
    if not file.is_file():
        raise UserPolicyError(f"policy file {path!r} does not exist")
    module_name = "golfsim_user_" + file.stem
    spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # Numba's cache wants the module importable by name
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - any error in the user's file is reported as one line
        raise UserPolicyError(f"policy file {path}: {type(e).__name__}: {e}") from None
    fn = getattr(module, name, None)
    if fn is None:
        raise UserPolicyError(f"policy file {path} has no function {name!r}")
    # the file's other plain functions are its helpers: compile them too, so that decide can
    # call them from compiled code
    for key, value in list(vars(module).items()):
        if inspect.isfunction(value) and value.__module__ == module_name and key != name:
            setattr(module, key, njit(cache=True, error_model="numpy", _nrt=nrt)(value))
    fn = getattr(fn, "py_func", fn)  # accept an @njit-decorated function too
    if not inspect.isfunction(fn):
        raise UserPolicyError(f"{path}:{name} is not a function")
    params = list(inspect.signature(fn).parameters)
    if len(params) != len(ARG_NAMES):
        raise UserPolicyError(
            f"{path}:{name} takes {len(params)} arguments ({', '.join(params)}); a policy takes "
            f"{len(ARG_NAMES)}: ({', '.join(ARG_NAMES)})")
    return fn, getattr(module, "PARAMS", ())


_COMPILED: dict = {}
_SOURCES: dict = {}    # id(compiled policy) -> ((file, function), module name), or None
_KERNELS: dict = {}


# The user's function called under a guard: an exception it raises (an error in its code, an
# index out of range with boundscheck) becomes codes.ACTION_RAISED, which the engine refuses
# as illegal and reports (Numba would otherwise print "Exception ignored" and play on, or
# stop with its own traceback). The guard is a module of its own in the cache folder, named
# after the policy file's text, so that the C-callable function compiled from it is cached.
_GUARD = '''"""{path}:{name} under a guard (generated by simulator/kernel/policy_api.py)."""
from numba import njit

from simulator.game.codes import ACTION_RAISED
from {module} import {name} as _policy

policy = njit(getattr(_policy, "py_func", _policy), cache=True, error_model="numpy",
              boundscheck=True, _nrt={nrt})


def guarded({args}):
    try:
        return policy({args})
    except Exception:  # noqa: BLE001
        return ACTION_RAISED
'''


def _guard_module(path: str, name: str, module: str, nrt: bool):
    h = hashlib.sha256(Path(path).read_bytes())
    h.update(f"{Path(path).resolve()}:{name}:{nrt}".encode())
    source = _GUARD.format(path=path, name=name, module=module, nrt=nrt,
                           args=", ".join(ARG_NAMES))
    return builds.generated_module("policy_guards", f"golfsim_guard_{h.hexdigest()[:16]}",
                                   source)


def _check_returns_integer(path: str, name: str, guard) -> None:
    """Refuse, before anything is played, a policy whose answer is not an integer (Numba
    would round a float silently in one build and fail with a traceback in the other)."""
    guard.policy.compile(SIGNATURE.args)
    returns = guard.policy.overloads[SIGNATURE.args].signature.return_type
    if not isinstance(returns, types.Integer):
        raise UserPolicyError(f"{path}:{name} returns {returns}, not an integer action: a "
                              f"policy answers an integer (a position 0-{MAX_POS - 1} or an "
                              f"A_* action), e.g. return int(x)")


def _needs_nrt(path: str, name: str) -> Path:
    """The marker that the policy (this text of its file) needs reference counting. Numba's
    cache does not tell the two ways of compiling a function apart, so once the policy has
    been compiled with reference counting, a later attempt without it would load that code
    from the cache, succeed, and call the policy inlinable: its own build then compiled
    code that needs the runtime into a flow without it (and never cached its chunk). The
    marker, written when the attempt without fails, skips that attempt in later runs."""
    h = hashlib.sha256(Path(path).read_bytes())
    h.update(f"{Path(path).resolve()}:{name}".encode())
    return Path(CACHE_DIR) / "policy_guards" / f"needs_nrt_{h.hexdigest()[:16]}"


def compile_policy(path: str, name: str):
    """The user's function compiled to ``SIGNATURE`` (cached on disk and in this process).

    It is compiled without Numba's reference counting first, as the engine is: with it, every
    call from ``decide`` to a helper that passes an array pays an atomic increment and
    decrement (simulator/kernel/jit.py). Code that allocates arrays needs reference counting and
    does not compile that way; it is then compiled again with it."""
    key = (str(Path(path).resolve()), name)
    if key not in _COMPILED:
        error = None
        marker = _needs_nrt(path, name)
        for nrt in (False, True):
            if not nrt and marker.exists():
                continue
            fn, _ = load_function(path, name, nrt)
            try:
                guard = _guard_module(path, name, fn.__module__, nrt)
                _check_returns_integer(path, name, guard)
                _COMPILED[key] = cfunc(SIGNATURE, cache=True, error_model="numpy",
                                       _nrt=nrt)(guard.guarded)
                # the kernel inlines the policy and runs without reference counting
                _SOURCES[id(_COMPILED[key])] = (key, fn.__module__) if not nrt else None
                break
            except UserPolicyError:
                raise
            except Exception as e:  # noqa: BLE001 - Numba's typing errors, shortened
                error = e
                if not nrt:
                    marker.parent.mkdir(parents=True, exist_ok=True)
                    marker.touch()
        else:
            lines = [ln.strip() for ln in str(error).splitlines() if ln.strip() and
                     not ln.startswith(("Failed in", "During:", "File ", "^"))]
            detail = lines[0] if lines else type(error).__name__
            raise UserPolicyError(
                f"{path}:{name} does not compile as a policy "
                f"(it must accept ({', '.join(ARG_NAMES)}) and return an integer action): "
                f"{detail}") from None
    return _COMPILED[key]


def _build_lines(module_name: str, name: str) -> str:
    """The flow's build lines for a user build around ``module_name``'s function ``name``.
    The policy is inlined without the guard (a guarded call costs a third of the build's
    speed): an exception it raises leaves the build, and the runner finds its round and
    decision on the general engine, where the policy runs guarded."""
    return BUILDS["user"].lines(f"from {module_name} import {name} as _user",
                                "_user = getattr(_user, 'py_func', _user)",
                                "user_decide = hot(_user, inline='always', cache=False)",
                                "user_decide_call = hot(_user, cache=False)")


def _build_args(path: str, name: str):
    module_name = "golfsim_user_" + Path(path).stem   # as load_function names it
    return ("user", _build_lines(module_name, name),
            str(Path(path).resolve()).encode() + name.encode() + Path(path).read_bytes())


def kernel_file(path: str, name: str) -> Path:
    """Where the user build of the flow for ``path``'s function ``name`` is written
    (builds.flow_build_file: it follows the policy file's text)."""
    return builds.flow_build_file(*_build_args(path, name))


def inlinable(user) -> bool:
    """Does the compiled user policy ``user`` compile into a build of its own (user_kernel)?
    Not when it needs reference counting (it allocates)."""
    return _SOURCES.get(id(user)) is not None


def user_build(user) -> tuple[str, Path] | None:
    """("FILE:FUNCTION", the file of its own build of the flow) of the compiled user policy
    ``user``, or None when it does not compile into one (it allocates)."""
    source = _SOURCES.get(id(user))
    if source is None:
        return None
    (path, name), _ = source
    return f"{path}:{name}", builds.flow_build_file(*_build_args(path, name))


def user_build_ready(user) -> bool:
    """Is ``user``'s own build of the flow compiled (by this process or another)?"""
    built = user_build(user)
    return built is not None and builds.flow_build_compiled(built[1])


def user_kernel(user, notify=None):
    """The chunk function of the flow's user build compiled around ``user`` (a policy from
    ``compile_policy``), or None when the policy needs reference counting (it allocates).

    The build is a copy of the flow with its build lines set for a user policy (``USER``, the
    policy named), compiled and cached from there like any module (builds.flow_build).
    ``notify(message)`` is called when that build is not compiled yet (the first call then
    compiles it, which takes minutes; a run does not wait for it: runner.make_job)."""
    source = _SOURCES.get(id(user))
    if source is None:
        return None
    (path, name), module_name = source
    if (path, name) not in _KERNELS:
        args = _build_args(path, name)
        if notify is not None and not builds.flow_build_compiled(builds.flow_build_file(*args)):
            notify(f"compiling {path}:{name} into its own build of the game flow (once per "
                   f"version of the file; a few minutes)")
        _KERNELS[(path, name)] = builds.flow_build(*args).chunk_nb
    return _KERNELS[(path, name)]


@hot
def call_user(fn, point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
              params):
    """A compiled user policy (``SIGNATURE``) called from Python with its views, as the
    engine calls it (the environments' opponents)."""
    return fn(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
              params)
