"""``net:path.npz``: a small feed-forward network playing as a golfsim strategy
(docs/env.md#networks).

The file holds ``obs_version`` (the observation layout it reads, strategies/net_encode.py's
VERSION), ``players`` (the table size its input is laid out for), ``preset`` (the rule set it
was trained on, for the record) and ``W0, b0, W1, b1, ..`` (float32; ``W_k`` of shape
(inputs, outputs); hidden layers ReLU; the last layer's outputs are logits over the env's
``Discrete(32)`` actions). The decision is the legal action with the largest logit (ties:
the lowest index), the same on the compiled engine (strategies/net_policy.py) and in the
environments (:func:`decide`).

The network reaches compiled code as the address of one packed float32 array, kept alive
here for the life of the process: loading another network changes a seat's parameter row,
never compiled code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator.game import codes as K

from .net_encode import VERSION, choose, obs_size

PREFIX = "net:"
POLICY_FILE = str(Path(__file__).with_name("net_policy.py"))
POLICY_FUNCTION = "decide"


class NetError(ValueError):
    """The file is not a network golfsim can play (the message names the file)."""


@dataclass(frozen=True)
class Net:
    path: str
    players: int
    preset: str
    layers: tuple        # ((W, b), ...) as float32 arrays
    packed: np.ndarray   # what compiled code reads (net_encode's module docstring)

    @property
    def width(self) -> int:
        return max(max(w.shape) for w, _ in self.layers)

    def param_row(self) -> tuple:
        """The user-policy parameters naming this network: address, floats, widest layer."""
        return (float(self.packed.ctypes.data), float(self.packed.size), float(self.width))

    def decide(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The action the network plays for an env observation and action mask."""
        a = np.empty(self.width, dtype=np.float32)
        b = np.empty(self.width, dtype=np.float32)
        return int(choose(self.packed, np.asarray(observation, dtype=np.float32),
                          np.asarray(mask, dtype=np.int32), a, b))


_LOADED: dict = {}   # (resolved path, mtime, size) -> Net: the packed arrays stay alive


def load(path: str) -> Net:
    """The network in ``path`` (checked; loaded once per version of the file)."""
    file = Path(path)
    if not file.is_file():
        raise NetError(f"network file {path!r} does not exist")
    st = os.stat(file)
    key = (str(file.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _LOADED:
        _LOADED[key] = _read(path)
    return _LOADED[key]


def _read(path: str) -> Net:
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise NetError(f"network file {path}: not a .npz archive ({e})") from None
    for key in ("obs_version", "players", "W0", "b0"):
        if key not in data:
            raise NetError(f"network file {path}: no {key!r} (a network holds obs_version, "
                           "players, preset and W0, b0, W1, b1, ...)")
    version, players = int(data["obs_version"]), int(data["players"])
    if version != VERSION:
        raise NetError(f"network file {path}: obs_version {version}; golfsim reads "
                       f"observation version {VERSION}")
    if not 2 <= players <= K.MAX_PLAYERS:
        raise NetError(f"network file {path}: players {players} is not 2 to {K.MAX_PLAYERS}")
    layers = _layers(path, data, obs_size(players))
    return Net(path, players, str(data.get("preset", "")), layers, pack(layers))


def _layers(path: str, data: dict, inputs: int) -> tuple:
    layers = []
    n_in = inputs
    k = 0
    while f"W{k}" in data:
        w, b = data[f"W{k}"], data.get(f"b{k}")
        if w.ndim != 2 or w.shape[0] != n_in or b is None or b.shape != (w.shape[1],):
            raise NetError(f"network file {path}: W{k} must be ({n_in}, n) and b{k} (n,); "
                           f"got {w.shape} and {None if b is None else b.shape}")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        n_in = w.shape[1]
        k += 1
    if n_in != K.N_ACTIONS:
        raise NetError(f"network file {path}: the last layer has {n_in} outputs; one logit "
                       f"per action: {K.N_ACTIONS}")
    return tuple(layers)


def pack(layers) -> np.ndarray:
    """One float32 array: [layers, n0, n1, .., W0, b0, W1, b1, ..]."""
    sizes = [layers[0][0].shape[0]] + [w.shape[1] for w, _ in layers]
    parts = [np.array([len(layers)] + sizes, dtype=np.float32)]
    for w, b in layers:
        parts += [w.ravel(), b]
    return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)


def save(path, layers, players: int, preset: str) -> None:
    """Write a network: ``layers`` as [(W, b), ...] (W of shape (inputs, outputs))."""
    arrays = {f"{n}{k}": np.asarray(a, dtype=np.float32)
              for k, (w, b) in enumerate(layers) for n, a in (("W", w), ("b", b))}
    np.savez(path, obs_version=np.int64(VERSION), players=np.int64(players),
             preset=np.str_(preset), **arrays)


def path_at(address: float) -> str | None:
    """The file of the network loaded in this process whose packed floats are at
    ``address`` (a parameter row's first value), or None."""
    for loaded in _LOADED.values():
        if float(loaded.packed.ctypes.data) == address:
            return loaded.path
    return None


def rebind(params: np.ndarray, paths) -> np.ndarray:
    """``params`` (a row per seat) with each network seat's row naming the network as this
    process loaded it (``paths``: a file per seat, None for the others): an address is only
    good in the process that loaded the weights, so a cluster's worker loads them again."""
    params = np.array(params, dtype=np.float64)
    for seat, path in enumerate(paths):
        if path is not None:
            row = load(path).param_row()
            params[seat, :len(row)] = row
    return params


def path_of(spec: str) -> str | None:
    """The network file of a ``net:PATH`` spec, or None for any other spec."""
    spec = spec.strip()
    return spec[len(PREFIX):].strip() if spec.startswith(PREFIX) else None
