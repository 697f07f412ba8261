"""The heuristic's own memory in the workspace (see `engine.memory`): its per-seat card
tables, its survey of one decision, and its values of the listed moves."""

from __future__ import annotations

from simcasino.engine import layout
from simcasino.engine.memory import Area
from simcasino.strategies.heuristic.weights import ORDER

_area = Area("heuristic")
# per card id, worked out once from the weights (`kernel.prepare_seat`)
SEAT_CARD_VALUES = _area.region(
    layout.MAX_PLAYERS * 2 * layout.DECK_CAP
)  # per seat: trailing, then taking each card
CARD_HINTS = _area.region(layout.DECK_CAP)  # which of the rarer terms can apply to it
CARD_VALUE_NIBBLES = _area.region(
    layout.DECK_CAP
)  # 1 << 4 * (v - 1) summed over the values v it plays as
# the survey of one decision (`survey`): these three worked out on first use (-1: not yet),
UNSEEN_BITS = _area.region(
    1
)  # the values some card the deciding player cannot see can be played as
UNSEEN_SMALL = _area.region(1)  # 1 if it cannot see some 2♠ ...
UNSEEN_BIG = _area.region(1)  # ... some 10♦
# and these three when it starts (the listing counts the hand)
THREATS = _area.region(
    1
)  # unseen point cards playable as 14, 15, 16: a count per value, a byte each
HAND_RANKS = _area.region(1)  # the hand's cards per rank (0: ace), 4 bits each
HAND_VALUE_NS = _area.region(
    1
)  # the hand's cards per value v it can be played as, 4 bits each (from v = 1)
# per listed move: its cheap terms, then its value (the search ranks its candidates by it)
MOVE_KEY = _area.region(layout.MOVE_CAP)
MOVE_VALUE = _area.region(layout.MOVE_CAP)
# the terms of one move (`kernel.move_terms`): one per weight, then the points no weight scales
TERMS = _area.region(len(ORDER) + 1)
TERMS_FIXED = TERMS + len(ORDER)
