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
- into its own build of the game flow (simulator/kernel/flow.py) when every seat plays it
  under rules that build plays: the policy is then compiled into the loop, which runs 2 to 3
  times as fast, after a compile of a minute or two the first time a version of the policy
  file is run (``user_kernel``).

Every array it receives is a view of what its seat may see (docs/user_policies.md lists the
slots): nothing else of the game is reachable from it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path

from numba import cfunc, njit, types

from ..game.codes import POLICY_USER  # noqa: F401  (re-exported)
from .jit import CACHE_DIR  # noqa: F401  (sets Numba's cache folder before anything compiles)


ARG_NAMES = ("point", "seat", "held", "public", "legal", "known", "faceup", "discard", "memory",
             "rules", "rng", "params")
_i32 = types.int32[::1]
SIGNATURE = types.int64(types.int64, types.int64, types.int64,   # point, seat, held card
                        _i32,                  # public: PUB_* slots, then face-down counts
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


def _no_user(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
             params):
    return -1


# passed to the engine when no seat plays a user policy (it is never called then)
NO_USER_POLICY = cfunc(SIGNATURE, cache=True, error_model="numpy")(_no_user)


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
_TEMPLATE = Path(__file__).with_name("flow.py")
_BUILD_START = "# ---- the build: policy_api.user_kernel replaces these lines in each copy ----"
_BUILD_END = "# ---- end of the build ----"


def compile_policy(path: str, name: str):
    """The user's function compiled to ``SIGNATURE`` (cached on disk and in this process).

    It is compiled without Numba's reference counting first, as the engine is: with it, every
    call from ``decide`` to a helper that passes an array pays an atomic increment and
    decrement (simulator/kernel/jit.py). Code that allocates arrays needs reference counting and
    does not compile that way; it is then compiled again with it."""
    key = (str(Path(path).resolve()), name)
    if key not in _COMPILED:
        error = None
        for nrt in (False, True):
            fn, _ = load_function(path, name, nrt)
            try:
                _COMPILED[key] = cfunc(SIGNATURE, cache=True, error_model="numpy",
                                       _nrt=nrt)(fn)
                # the kernel inlines the policy and runs without reference counting
                _SOURCES[id(_COMPILED[key])] = (key, fn.__module__) if not nrt else None
                break
            except Exception as e:  # noqa: BLE001 - Numba's typing errors, shortened
                error = e
        else:
            lines = [ln.strip() for ln in str(error).splitlines() if ln.strip() and
                     not ln.startswith(("Failed in", "During:", "File ", "^"))]
            detail = lines[0] if lines else type(error).__name__
            raise UserPolicyError(
                f"{path}:{name} does not compile as a policy "
                f"(it must accept ({', '.join(ARG_NAMES)}) and return an integer action): "
                f"{detail}") from None
    return _COMPILED[key]


def kernel_file(path: str, name: str) -> Path:
    """Where the user build of the flow for ``path``'s function ``name`` is written:
    named after a hash of the template, the policy file and the engine's sources (the cache
    folder is named after those), so an edit to any of them makes a fresh kernel and a stale
    one is never loaded."""
    h = hashlib.sha256(_TEMPLATE.read_bytes())
    for part in (CACHE_DIR, str(Path(path).resolve()), name):
        h.update(part.encode())
    h.update(Path(path).read_bytes())
    return Path(CACHE_DIR) / "user_kernels" / f"golfsim_user_kernel_{h.hexdigest()[:16]}.py"


def user_kernel(user, notify=None):
    """The chunk function of the flow's user build compiled around ``user`` (a policy from
    ``compile_policy``), or None when the policy needs reference counting (it allocates).

    The flow's source is copied to ``kernel_file`` with its build lines set for a user policy
    (``USER = True``, the policy named), and compiled and cached from there like any module.
    ``notify(message)`` is called when that copy does not exist yet (the first call then
    compiles it, which takes a minute or two)."""
    source = _SOURCES.get(id(user))
    if source is None:
        return None
    (path, name), module_name = source
    if (path, name) in _KERNELS:
        return _KERNELS[(path, name)]
    file = kernel_file(path, name)
    if not file.exists():
        if notify is not None:
            notify(f"compiling {path}:{name} into its own kernel (once per version of the "
                   f"file; a minute or two)")
        template = _TEMPLATE.read_text()
        start, end = template.index(_BUILD_START), template.index(_BUILD_END)
        policy = (f"{_BUILD_START}\n"
                  f"USER = True\n"
                  f"from {module_name} import {name} as _user\n"
                  f"_user = getattr(_user, 'py_func', _user)\n"
                  f"user_decide = hot(_user, inline='always', cache=False)\n"
                  f"user_decide_call = hot(_user, cache=False)\n")
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(template[:start] + policy + template[end:])
        partial.replace(file)   # whole or absent: another process may be importing it
    if str(file.parent) not in sys.path:
        sys.path.insert(0, str(file.parent))
    _KERNELS[(path, name)] = importlib.import_module(file.stem).chunk_nb
    return _KERNELS[(path, name)]
