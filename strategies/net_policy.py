"""The ``net:`` strategy's decision as a user policy (docs/user_policies.md): the seat's
views encoded as the environments' observation (strategies/net_encode.py), the network read
from the address in its parameter row (strategies/net.py: ``params[1]`` the address,
``params[2]`` the packed floats, ``params[3]`` the widest layer), and the legal action with
the largest logit. A new network changes only the row, never this code: nothing recompiles.
"""

import numpy as np
from numba import carray

from simulator.game.codes import R_PLAYERS
from strategies.net_encode import choose, encode, float_pointer, obs_size


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    net = carray(float_pointer(np.int64(params[1])), (np.int64(params[2]),))
    players = rules[R_PLAYERS]
    x = np.empty(obs_size(players), dtype=np.float32)
    if x.shape[0] != int(net[1]):
        return -1   # a network for another table size (refused before any run: net.py)
    encode(x, point, seat, held, public, known, faceup, discard, rules, players)
    width = np.int64(params[3])
    return choose(net, x, legal, np.empty(width, dtype=np.float32),
                  np.empty(width, dtype=np.float32))
