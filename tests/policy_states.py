"""Hand-made game states for testing one decision of a built-in policy.

A layout is written row by row as in the CLI (rows separated by '/'), one token per position:

- ``9S``  a face-up card (everyone knows it),
- ``?9S`` a face-down card its owner knows (peeked, or placed face down),
- ``?``   a face-down card nobody knows (filled from the cards left over).

Cards not placed anywhere form the stock. The state is internally consistent (counters, face-down
counts, knowledge rows), so a policy sees exactly what it would see in a game.
"""

from __future__ import annotations

import numpy as np

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.game.rules import Rules, flatten
from strategies import resolve_seats, seat_arrays
from strategies.compiled import decide


def card(text: str) -> int:
    rank, suit = C.parse_card(text)
    return C.card_id(rank, max(suit, 0))


class Table:
    """One game state and the policy table of its seats."""

    def __init__(self, rules: Rules, layouts: list[str], strategies: list[str],
                 discard: tuple[str, ...] = ("5D",), turn: int = 8, ender: int = -1):
        self.rules = rules
        self.players = players = len(layouts)
        arrays = flatten(rules, players)
        self.rt = pack_rules(arrays)
        ids, params = seat_arrays(resolve_seats(strategies, players))
        self.par = policy_table(ids, params)
        self.state = State(players)
        self.rng = self.state.rng
        self.rng[:] = np.arange(1, self.rng.size + 1, dtype=np.uint64) * 977
        g = self.g = self.state.g
        npos = rules.n_positions
        deck = [int(c) for c in arrays.deck]
        cells = []
        for s, text in enumerate(layouts):
            tokens = text.replace("/", " ").split()
            assert len(tokens) == npos, text
            cells.append(tokens)
        named = [card(t.lstrip("?")) for row in cells for t in row if t != "?"]
        named += [card(t) for t in discard]
        assert len(set(named)) == len(named), "a card is used twice"
        rest = [c for c in deck if c not in set(named)]
        g[:] = 0
        g[K.G_LAY:K.G_LAY + K.MAX_PLAYERS * K.MAX_POS] = -1
        g[K.G_KNOWN:K.G_KNOWN + K.MAX_PLAYERS * K.MAX_PLAYERS * K.MAX_POS] = -1
        value = self.rt[K.RT_VALUE:K.RT_VALUE + K.MAX_IDS]
        up_n = up_sum = 0
        for s, tokens in enumerate(cells):
            down = 0
            for p, t in enumerate(tokens):
                i = s * K.MAX_POS + p
                if t == "?":
                    c = rest.pop()
                else:
                    c = card(t.lstrip("?"))
                g[K.G_LAY + i] = c
                if t.startswith("?"):
                    down += 1
                    if t != "?":
                        g[self.known_at(s, s, p)] = c
                else:
                    g[K.G_UP + i] = 1
                    up_n += 1
                    up_sum += int(value[c])
                    for obs in range(players):
                        g[self.known_at(obs, s, p)] = c
            g[K.G_FACE_DOWN + s] = down
        for i, t in enumerate(discard):
            g[K.G_DISCARD + i] = card(t)
        for i, c in enumerate(rest):
            g[K.G_STOCK + i] = c
        pub = K.G_PUB
        g[pub + K.PUB_TURN] = turn
        g[pub + K.PUB_STOCK_N] = len(rest)
        g[pub + K.PUB_DISCARD_N] = len(discard)
        g[pub + K.PUB_DISCARD_SUM] = sum(int(value[card(t)]) for t in discard)
        g[pub + K.PUB_FACEUP_N] = up_n
        g[pub + K.PUB_FACEUP_SUM] = up_sum
        g[pub + K.PUB_ENDER] = ender
        g[pub + K.PUB_FINAL_LEFT] = -1 if ender < 0 else players - 1
        g[pub + K.PUB_HELD_PUBLIC] = -1

    @staticmethod
    def known_at(obs: int, seat: int, p: int) -> int:
        return K.G_KNOWN + (obs * K.MAX_PLAYERS + seat) * K.MAX_POS + p

    def memory(self, seat: int) -> np.ndarray:
        base = K.G_MEMORY + seat * K.MEMORY_SLOTS
        return self.g[base:base + K.MEMORY_SLOTS]

    def stock_top(self) -> int:
        return int(self.g[K.G_STOCK + self.g[K.G_PUB + K.PUB_STOCK_N] - 1])

    def decide(self, point: int, seat: int, legal, held: int = -1) -> int:
        """Ask seat's policy with the given legal actions (the state is kept: memory writes
        persist, as in a game)."""
        self.g[K.G_LEGAL:K.G_LEGAL + K.N_ACTIONS] = 0
        for a in legal:
            self.g[K.G_LEGAL + a] = 1
        self.g[K.G_PUB + K.PUB_ACTOR] = seat
        return int(decide(point, seat, held, self.g, self.rt, self.rng, self.par))

    def replaceable(self, seat: int) -> list[int]:
        from simulator.kernel.layout import can_replace_nb
        return [p for p in range(self.rules.n_positions)
                if can_replace_nb(self.g, self.rt, seat, p)]

    def turn(self, seat: int = 0, knock: bool = False) -> int:
        legal = [K.A_DRAW_STOCK, K.A_TAKE_DISCARD] + ([K.A_KNOCK] if knock else [])
        return self.decide(K.DP_TURN, seat, legal)

    def place_drawn(self, held: str | int, seat: int = 0) -> int:
        held = card(held) if isinstance(held, str) else held
        return self.decide(K.DP_PLACE_DRAWN, seat, self.replaceable(seat) + [K.A_DISCARD], held)

    def place_taken(self, seat: int = 0) -> int:
        g = self.g
        n = g[K.G_PUB + K.PUB_DISCARD_N] - 1
        top = int(g[K.G_DISCARD + n])
        g[K.G_PUB + K.PUB_DISCARD_N] = n
        g[K.G_PUB + K.PUB_DISCARD_SUM] -= self.rt[K.RT_VALUE + top]
        g[K.G_PUB + K.PUB_HELD_PUBLIC] = top
        return self.decide(K.DP_PLACE_TAKEN, seat, self.replaceable(seat), top)
