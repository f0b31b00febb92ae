"""The slots of the engine's state array that the compiled powers build keeps in a power-card
round beyond the plain game's, filled from the reference engine's PowerState for a compiled
seat (compiled_seat.CompiledSeat), and for lookahead's rollouts what the build keeps besides
(fill_rollout_state).

There a layout has all MAX_POS positions: one without a card (emptied, or not grown into)
holds the pseudo-card EMPTY0 + p, face up, known to all (simulator/kernel/flow/moves.py), and
every card carries the record of the seats seen peeking at it (G_PEEKED). The public slots
add the unused power of the top discard and the Dutch 8's two cards (PUB_CHOICE0/1: -1 but
at its DP_KEEP); PUB_POWER, PUB_TARGET_SEAT and PUB_SHIELDED are the observation's
(observation.Views).
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.reference import Decision
from simulator.game.reference.card_table import is_empty
from simulator.kernel.flow.base import PRIV_END_TURN, PRIV_OVER, PRIV_TOP_NEW

NO_CHOICE = -1
EMPTY = np.arange(K.EMPTY0, K.EMPTY0 + K.MAX_POS, dtype=np.int32)   # [p]: p's pseudo-card


def fill_public(pub, st, obs) -> None:
    """The public slots the views leave as the plain game has them."""
    # the build keeps the flag as it was when the pile's top is taken (it reads it with the
    # pile's size); the observation's is false then
    pub[K.PUB_TOP_POWER_UNUSED] = int(st.top_power_unused)
    choices = tuple(obs.choices) if obs is not None else ()
    pub[K.PUB_CHOICE0] = choices[0] if choices else NO_CHOICE
    pub[K.PUB_CHOICE1] = choices[1] if len(choices) > 1 else NO_CHOICE


def held_public(st, obs, private_stock_draw: bool) -> bool:
    """Has everyone seen the card the seat holds at ``obs``'s decision (PUB_HELD_PUBLIC), as
    the build publishes it? A card taken from the pile, and a stock card drawn in the open
    (private_stock_draw = false); not the card a Dutch 9 brings in (the effect hid the held
    card before), nor the Dutch 8's kept card (asked after the 8 went onto the pile this
    turn)."""
    d, power = obs.decision, obs.power
    if d == Decision.PLACE_TAKEN:
        return power != K.POW_EXCHANGE_THIS
    if d == Decision.PLACE_DRAWN:
        kept = power == K.POW_DRAW_TWO and getattr(st, "top_new", False)
        return not private_stock_draw and not kept
    return False


def fill_cells(g, st, me: int, players: int) -> None:
    """Seat ``me``'s knowledge row, the face-up flags and the empty positions of every layout
    at the positions it has not grown into, and who was seen peeking at each card."""
    row = K.G_KNOWN + me * K.MAX_PLAYERS * K.MAX_POS
    for s in range(players):
        cells = st.layouts[s]
        base, n = s * K.MAX_POS, len(cells)
        # slices, not one slot at a time: this runs at every decision of every compiled seat
        g[K.G_PEEKED + base:K.G_PEEKED + base + n] = [
            sum(1 << o for o in cell.peeked_by) if cell.peeked_by else 0 for cell in cells]
        if n == K.MAX_POS:
            continue
        g[row + base + n:row + base + K.MAX_POS] = EMPTY[n:]
        g[K.G_LAY + base + n:K.G_LAY + base + K.MAX_POS] = EMPTY[n:]
        g[K.G_UP + base + n:K.G_UP + base + K.MAX_POS] = 1
        g[K.G_PEEKED + base + n:K.G_PEEKED + base + K.MAX_POS] = 0


def fill_rollout_state(g, st, players: int) -> None:
    """What lookahead's rollouts copy of a power round beyond a seat's views
    (strategies/lookahead_powers.py ``_load_nb``): what every seat knows of every layout, the
    face-up masks, each seat's penalty points, banked groups and skipped turn, and the
    round's private counters (its end, the turn it was triggered in, a new top discard).
    Needs the true cards in G_LAY and fill_cells' face-up flags."""
    for s in range(players):
        cells = st.layouts[s]
        base, n = s * K.MAX_POS, len(cells)
        for o in range(players):
            row = K.G_KNOWN + (o * K.MAX_PLAYERS + s) * K.MAX_POS
            g[row:row + n] = [K.EMPTY0 + p if is_empty(cell.card) else
                              cell.card if o in cell.known_to else -1
                              for p, cell in enumerate(cells)]
            g[row + n:row + K.MAX_POS] = EMPTY[n:]
        up = g[K.G_UP + base:K.G_UP + base + K.MAX_POS]
        g[K.G_UPMASK + s] = int((up.astype(np.int64) << np.arange(K.MAX_POS)).sum())
        g[K.G_PENALTY + s] = st.penalty[s]
        g[K.G_BANK + s] = st.bank[s]
        g[K.G_SKIP + s] = int(st.skip_next_turn[s])
    g[K.G_PRIV + PRIV_OVER] = int(st.over)
    g[K.G_PRIV + PRIV_END_TURN] = st.end_turn
    g[K.G_PRIV + PRIV_TOP_NEW] = int(st.top_new)
