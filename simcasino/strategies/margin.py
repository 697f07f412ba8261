"""What the search and the exact solver maximise: how far a deal put one side ahead.

Both judge a move by the points of the deal it leads to, compared with the best other side
(partners share a row, §6), so a deal won by a little and a deal lost by a little are told
apart and the sign follows the rules' objective (the fewest points win in §6 Misère).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcasino.engine.layout import C_POINTS, N_COLUMNS, R_LOW_WINS, R_PLAYERS, RESULT, UNIT, WsPointer


@njit(cache=True)
def margin(sim: WsPointer, seat: np.int64) -> np.int64:
    """How far the deal put ``seat``'s side ahead of the best other side, in points: ours
    minus their most, or where the fewest points win (§6), their fewest minus ours."""
    low = sim[R_LOW_WINS] != 0
    mine, best_other = sim[RESULT + seat * N_COLUMNS + C_POINTS], np.int64(1 << 30 if low else -(1 << 30))
    for other in range(sim[R_PLAYERS]):
        if sim[UNIT + other] != sim[UNIT + seat]:  # partners share our row
            points = sim[RESULT + other * N_COLUMNS + C_POINTS]
            best_other = min(best_other, points) if low else max(best_other, points)
    return best_other - mine if low else mine - best_other
