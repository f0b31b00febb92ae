"""Steps the compiled policies and scoring share, each written once: which lines of three a rule
set counts and their cells, one position's share of a layout estimate, the opponents' cards in
turn order with the shielded ones left out, a turn's fallback action, and the user policies'
fallback in policy_tools."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel import layout as L


@pytest.mark.parametrize("sets", K.LINE_SETS)
def test_the_lines_a_rule_set_counts_and_their_cells(sets):
    ri = np.zeros(K.RT_SIZE, dtype=np.int64)
    ri[K.R_LINE_SETS] = K.LINE_SETS.index(sets)
    # columns, then rows too, then the diagonals too
    want = {"none": 0, "columns": 3, "rows_and_columns": 6, "rows_columns_diagonals": 8}[sets]
    assert L.lines_counted_nb(ri) == want
    assert [L.line_mask_nb(ri, i) != 0 for i in range(8)] == [i < want for i in range(8)]
    for i, cells in enumerate(L.LINE_CELLS_3X3):
        assert list(cells) == sorted(cells) and len(cells) == 3
        assert sum(1 << p for p in cells) == L.LINES_3X3[i]
