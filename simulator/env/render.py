"""render_mode="ansi": the table as text, as the whole table would see it from above (face-down
cards hidden)."""

from __future__ import annotations

from simulator.game import cards as C
from simulator.game import codes as K

from .table import Table

RENDER_MODES = ("ansi",)


def table_text(t: Table) -> str:
    game = t.game
    if game is None:
        return "(no hole dealt yet: call reset())\n"
    st = game.hole.state
    cols = t.config.rules.grid_cols
    where = f"match {game.index}, hole {len(game.holes) + (not t.over) - 1}" \
        if t.config.match else f"hole {game.index}"
    lines = [f"seed {game.seed}, {where}: turn {st.turn}, stock {len(st.stock)}, discard "
             f"{C.card_name(st.discard[-1]) if st.discard else '--'}"]
    for i, seat in enumerate(game.order):
        row = st.layouts[i]
        cells = [cell_text(c) for c in row]
        grid = " / ".join(" ".join(cells[k:k + cols]) for k in range(0, len(cells), cols))
        marks = "".join([" (ender)" if st.ender == i else "",
                         " <- to decide" if t.pending and t.pending[0] == seat else ""])
        lines.append(f"player_{seat}: {grid}{marks}")
    if t.pending is not None:
        seat, obs = t.pending
        held = "" if obs.held is None or obs.decision == K.DP_REMOVE else \
            f" holding {C.card_name(obs.held)}"
        lines.append(f"player_{seat} decides {K.DECISION_NAMES[obs.decision]}{held}: "
                     f"{', '.join(K.action_name(a) for a in obs.legal)}")
    else:
        lines.append("over: scores " + ", ".join(
            f"player_{seat} {r.scores[i]}" for order, r in game.holes[-1:]
            for i, seat in enumerate(order)))
    return "\n".join(lines) + "\n"


def cell_text(cell) -> str:
    if cell.card >= K.EMPTY0:
        return "__"
    return C.card_name(cell.card).rjust(3) if cell.face_up else " ??"
