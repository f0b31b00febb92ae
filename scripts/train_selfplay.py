"""Train a small network that plays two-player six_card, with numpy only, and save it as a
``net:`` strategy file (docs/env.md#an-example-that-learns).

Behaviour cloning: golfsim's compiled engine plays rounds of an expert built-in (``heuristic``
by default, which beats ``greedy`` head to head) against ``greedy``, with its move log; the
AEC env follows each logged round move by move (the same seed deals the same cards) and
records the expert's observation, action mask and action at every one of its decisions. A
feed-forward network (ReLU hidden layers) is fitted to those actions by softmax
cross-entropy over the legal actions, with Adam (about 11 minutes on the loaded 2-core
development machine; it beat greedy 55.4% +- 0.4% there)::

    python scripts/train_selfplay.py --out six_card_net.npz
    golfsim tournament --preset six_card --players 2 --strategy net:six_card_net.npz \\
        --strategy greedy --rounds 50000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulator.env import golf_aec
from simulator.experiments import runner
from simulator.game.rules import Rules, flatten
from strategies import net, resolve_seats, seat_arrays
from strategies.net_encode import obs_size

PRESET = "six_card"
PLAYERS = 2
OPPONENT = "greedy"
LOG_CAP = 8192        # log rows enough for any six_card round


def arguments(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--out", default="six_card_net.npz", help="the network file to write")
    p.add_argument("--expert", default="heuristic", help="the built-in to clone")
    p.add_argument("--rounds", type=int, default=20_000, help="expert rounds recorded")
    p.add_argument("--hidden", type=int, nargs="+", default=[128, 64], help="hidden widths")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1, help="seed of the recorded rounds and "
                   "of the weights (tournaments use other rounds of their own seed)")
    return p.parse_args(argv)


# ---- the expert's decisions ---------------------------------------------------------------------
def seatings(expert: str):
    """(expert's seat, policy ids, parameters) for each seat the expert takes."""
    out = []
    for seat in range(PLAYERS):
        specs = [OPPONENT] * PLAYERS
        specs[seat] = expert
        out.append((seat, *seat_arrays(resolve_seats(specs, PLAYERS))))
    return out


def follow(env, log, seat: int, xs: list, ms: list, acts: list) -> None:
    """Step the env through one logged round, recording seat ``seat``'s decisions."""
    i = 0
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        _, asked, _, action, _ = (int(v) for v in log[i])
        if int(agent.rpartition("_")[2]) != asked:
            raise RuntimeError(f"the env asks {agent} where the engine asked seat {asked}")
        if asked == seat:
            xs.append(obs["observation"].astype(np.float16))
            ms.append(obs["action_mask"])
            acts.append(action)
        env.step(action)
        i += 1


def record(expert: str, rounds: int, seed: int):
    """The expert's (observations, masks, actions) over ``rounds`` rounds of ``seed``, its
    seat alternating."""
    arrays = flatten(Rules.preset(PRESET), PLAYERS)
    env = golf_aec(PRESET, players=PLAYERS)
    xs, ms, acts = [], [], []
    plans = seatings(expert)
    for r in range(rounds):
        seat, ids, params = plans[r % PLAYERS]
        res = runner.play_logged_round(arrays, ids, params, seed, r, check=False,
                                       log_cap=LOG_CAP)
        env.reset(seed=seed if r == 0 else None)   # round r of the seed
        follow(env, res["log"], seat, xs, ms, acts)
    return np.stack(xs), np.stack(ms), np.asarray(acts, dtype=np.int64)


# ---- the network --------------------------------------------------------------------------------
def init(sizes, rng) -> list:
    return [[rng.normal(0, np.sqrt(2 / a), (a, b)).astype(np.float32),
             np.zeros(b, dtype=np.float32)] for a, b in zip(sizes, sizes[1:])]


def forward(layers, x):
    """The activations of every layer (the input first); the last holds the logits."""
    acts = [x]
    for k, (w, b) in enumerate(layers):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0) if k < len(layers) - 1 else z)
    return acts


def loss_and_grads(layers, x, mask, action):
    """Mean cross-entropy of the actions under the softmax over the legal actions."""
    acts = forward(layers, x)
    logits = np.where(mask, acts[-1], -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    n = len(action)
    loss = -np.log(p[np.arange(n), action] + 1e-12).mean()
    g = p
    g[np.arange(n), action] -= 1
    g /= n
    grads = []
    for k in range(len(layers) - 1, -1, -1):
        grads.append((acts[k].T @ g, g.sum(axis=0)))
        if k:
            g = (g @ layers[k][0].T) * (acts[k] > 0)
    return loss, grads[::-1]


class Adam:
    def __init__(self, layers, lr: float):
        self.lr, self.t = lr, 0
        self.m = [[np.zeros_like(a) for a in layer] for layer in layers]
        self.v = [[np.zeros_like(a) for a in layer] for layer in layers]

    def step(self, layers, grads, b1=0.9, b2=0.999, eps=1e-8) -> None:
        self.t += 1
        scale = self.lr * np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for layer, grad, m, v in zip(layers, grads, self.m, self.v):
            for k in range(2):
                m[k] = b1 * m[k] + (1 - b1) * grad[k]
                v[k] = b2 * v[k] + (1 - b2) * grad[k] ** 2
                layer[k] -= (scale * m[k] / (np.sqrt(v[k]) + eps)).astype(np.float32)


def accuracy(layers, x, mask, action, batch: int = 4096) -> float:
    hits = 0
    for i in range(0, len(action), batch):
        logits = forward(layers, x[i:i + batch].astype(np.float32))[-1]
        hits += (np.where(mask[i:i + batch], logits, -np.inf).argmax(axis=1)
                 == action[i:i + batch]).sum()
    return hits / max(len(action), 1)


def train(x, mask, action, args, save) -> list:
    """Fit the network, calling ``save(layers)`` after every epoch."""
    rng = np.random.default_rng(args.seed)
    layers = init([x.shape[1], *args.hidden, mask.shape[1]], rng)
    opt = Adam(layers, args.lr)
    order = rng.permutation(len(action))
    held_out, fit = order[:len(order) // 20], order[len(order) // 20:]
    mask = mask.astype(bool)
    for epoch in range(args.epochs):
        rng.shuffle(fit)
        losses = []
        for i in range(0, len(fit), args.batch):
            b = fit[i:i + args.batch]
            loss, grads = loss_and_grads(layers, x[b].astype(np.float32), mask[b], action[b])
            opt.step(layers, grads)
            losses.append(loss)
        opt.lr = args.lr * 0.5 * (1 + np.cos(np.pi * (epoch + 1) / args.epochs))
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f}, held-out accuracy "
              f"{accuracy(layers, x[held_out], mask[held_out], action[held_out]):.4f}",
              flush=True)
        save(layers)
    return layers


def main(argv=None) -> None:
    args = arguments(argv)
    start = time.perf_counter()
    x, mask, action = record(args.expert, args.rounds, args.seed)
    assert x.shape[1] == obs_size(PLAYERS)
    print(f"recorded {len(action)} decisions of {args.expert} in {args.rounds} rounds "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    train(x, mask, action, args, lambda layers: net.save(args.out, layers, PLAYERS, PRESET))
    print(f"wrote {args.out} ({time.perf_counter() - start:.0f} s in all); measure it with\n"
          f"  golfsim tournament --preset {PRESET} --players {PLAYERS} --strategy "
          f"net:{args.out} --strategy {OPPONENT} --rounds 50000")


if __name__ == "__main__":
    main()
