"""The workspace: every piece of a deal's state at a fixed offset in one flat int64 array.

Why one array: numba pays atomic reference counting each time an array is handed to a
jitted helper, and a deal makes thousands of helper calls. Keeping the whole state in one
workspace (``ws``) was measured to roughly double deals per second against separate arrays.
The rules knobs sit at the front (indices from `simcasino.rules.KNOB_INDEX`), so one
compiled kernel serves every preset.
"""

from __future__ import annotations

import numpy as np

from simcasino.rules import KNOB_INDEX

MAX_PLAYERS = 6
HAND_CAP = 8
TABLE_CAP = 63  # captures are int64 bitmasks over table slots
MAX_VALUE = 16  # the largest capture value (Finnish 10♦ from hand)
BUCKET_CAP = 2048  # groups of one value on one table
OPTION_CAP = 8192  # distinct captures of one card
MOVE_CAP = 16384  # legal moves of one player
KINDS = 52
# a capture's (points, cards, spades) packed in one integer; sums of packed keys stay exact
# (each part < 256), and comparing packed keys compares points, then cards, then spades
KEY_POINTS, KEY_CARDS = 1 << 16, 1 << 8
DECK_CAP = 104

# result columns per seat (same order as reference.deal.COLUMNS)
C_POINTS, C_CARDS, C_SPADES, C_ACES, C_BIG, C_SMALL, C_SISTAN, C_TABBES, C_SWEEPS = range(9)
N_COLUMNS = 9

# rules knobs
R_PLAYERS = KNOB_INDEX["players"]
R_ACE_HAND = KNOB_INDEX["ace_hand"]
R_ACE_TABLE = KNOB_INDEX["ace_table"]
R_SMALL_HAND = KNOB_INDEX["small_kasino_hand"]
R_BIG_HAND = KNOB_INDEX["big_kasino_hand"]
R_MUST_MAX = KNOB_INDEX["must_capture_max"]
R_SPADES_PTS = KNOB_INDEX["most_spades_points"]
R_SPADES_TIE = KNOB_INDEX["spades_tie"]
R_CARDS_PTS = KNOB_INDEX["most_cards_points"]
R_CARDS_TIE = KNOB_INDEX["cards_tie"]
R_ACE_PTS = KNOB_INDEX["ace_points"]
R_BIG_PTS = KNOB_INDEX["big_kasino_points"]
R_SMALL_PTS = KNOB_INDEX["small_kasino_points"]
R_SISTAN_PTS = KNOB_INDEX["sistan_points"]
R_TABBE_PTS = KNOB_INDEX["tabbe_points"]
R_MOKKI_LAST = KNOB_INDEX["mokki_last_round"]
R_MOKKI_LIMIT = KNOB_INDEX["mokki_limit"]
R_MOKKI_CANCEL = KNOB_INDEX["mokki_cancel"]
R_IMMEDIATE = KNOB_INDEX["immediate_scoring"]
R_TARGET = KNOB_INDEX["target"]
R_TIE_BREAK = KNOB_INDEX["tie_break"]
RULES_LEN = 32
assert len(KNOB_INDEX) <= RULES_LEN


class _Offsets:
    """Hands out consecutive regions of the workspace."""

    def __init__(self, start: int) -> None:
        self.next = start

    def take(self, size: int) -> int:
        start, self.next = self.next, self.next + size
        return start


_o = _Offsets(RULES_LEN)
# per card kind, derived from the rules by `prepare_workspace`
HAND_VALUE = _o.take(KINDS)  # first value when played
HAND_VALUE2 = _o.take(KINDS)  # second value when played (Swedish ace), else 0
TABLE_VALUE = _o.take(KINDS)  # lowest value on the table
TABLE_HIGH = _o.take(KINDS)  # 1 if it may also count 13 more on the table (Swedish ace)
CARD_POINTS = _o.take(KINDS)  # aces and kasinos
CARD_KEY = _o.take(KINDS)  # (points, 1 card, spade) packed as KEY_POINTS/KEY_CARDS/1 units
# the deal
DECK = _o.take(DECK_CAP)
HAND = _o.take(MAX_PLAYERS * HAND_CAP)
HAND_N = _o.take(MAX_PLAYERS)
TABLE = _o.take(TABLE_CAP)
OWNER = _o.take(DECK_CAP)  # per card id: the seat whose pile holds it, or -1
SWEEPS = _o.take(MAX_PLAYERS)
SCORED_SWEEPS = _o.take(MAX_PLAYERS)
IMMEDIATE = _o.take(MAX_PLAYERS)  # points scored at capture this deal (Finnish)
GAME_SCORE = _o.take(MAX_PLAYERS)  # game points before this deal
STRATEGY = _o.take(MAX_PLAYERS)
RESULT = _o.take(MAX_PLAYERS * N_COLUMNS)
# scalars
TABLE_N = _o.take(1)
DECK_N = _o.take(1)
NEXT_CARD = _o.take(1)
LAST_CAPTURER = _o.take(1)
LAST_ROUND = _o.take(1)
RNG = _o.take(1)  # the deal's random stream state (uint64 bits)
DEALER = _o.take(1)
CARRY_IN = _o.take(1)
CARRY_OUT = _o.take(1)
# scratch for move generation
GROUP_VALUES = _o.take(1)  # bit v: the current hand can play v and some group sums to v
BUCKET_N = _o.take(MAX_VALUE + 1)  # groups per value (valid for the values in GROUP_VALUES)
BUCKET = _o.take((MAX_VALUE + 1) * BUCKET_CAP)  # group masks, by value
BUCKET_KEY = _o.take((MAX_VALUE + 1) * BUCKET_CAP)  # each group's summed CARD_KEY
OPTIONS_N = _o.take(1)
OPTIONS = _o.take(OPTION_CAP)
MOVES_N = _o.take(1)
MOVE_SLOT = _o.take(MOVE_CAP)
MOVE_MASK = _o.take(MOVE_CAP)
STACK = _o.take(4 * (TABLE_CAP + 1))
SMALL_TABLE = 8  # tables this small list their groups from a table of all subset sums
SUBSET_SUM = _o.take(1 << SMALL_TABLE)
SUBSET_HIGH = _o.take(1 << SMALL_TABLE)
SUBSET_KEY = _o.take(1 << SMALL_TABLE)
SIZE = _o.next


def new_workspace(rules_array: np.ndarray) -> np.ndarray:
    ws = np.zeros(SIZE, dtype=np.int64)
    ws[: rules_array.shape[0]] = rules_array
    return ws
