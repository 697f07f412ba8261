"""What a seat can see: the cards it cannot (not in its hand, not on the table, not played
or captured), read off a `View` in plain Python and off the workspace in the kernel.

Why a room of its own, below the players: the rule books' advice (`claims`, `conditions`)
and the heuristic both ask it, and what a claim means must not change when the heuristic is
retuned. The heuristic's own survey of a decision (`strategies.heuristic.survey`) keeps
counts for speed on top of this.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.protocol import View
from simcasino.core.table import item_cards
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, hand_card, hand_size


@dataclass(frozen=True)
class Seen:
    """What the deciding player cannot see: not in its hand, not on the table, not played or
    captured (card ids)."""

    unseen: tuple[int, ...]

    def has(self, kind: int) -> bool:
        return any(c % 52 == kind for c in self.unseen)


def unseen_cards(view: View) -> Seen:
    visible = (
        set(view.hand)
        | {c for item in view.table for c in item_cards(item)}
        | {card for _, card in view.played}
    )
    visible |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
    return Seen(tuple(c for c in range(len(view.captured_by)) if c not in visible))


@kernel
def is_unseen(ws: WsPointer, seat: np.int64, card: np.int64) -> bool:
    """Can ``seat`` not see ``card``: nobody has seen it and it is not in its hand?"""
    if ws[layout.SEEN + card]:
        return False
    for slot in range(hand_size(ws, seat)):
        if hand_card(ws, seat, slot) == card:
            return False
    return True
