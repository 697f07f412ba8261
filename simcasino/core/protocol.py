"""The plain-Python strategy protocol: what a player sees, and the move it answers with.

A Python strategy is any object with a ``choose(view: View) -> Move`` method (or a plain
function of the same shape) that returns one of ``view.moves``. The view holds only what a
player at the table may see (own hand, table, everything played and captured so far, scores,
rules) — never another hand or the stock. The reference engine calls it; the numba kernel's
jitted strategies make the same decisions from the same information.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from simcasino.core.rules import Rules
from simcasino.core.table import Build


class Move(NamedTuple):
    """Play ``hand[hand_index]`` (card id ``card``) and take the table items in ``mask``.

    ``mask`` is a bitmask over table positions (bit i = ``table[i]``); 0 means trail. With
    ``build`` set (§6 Builds) the card is not a capture: it goes onto the one item in ``mask``
    to make a build of that declared value.
    """

    hand_index: int
    card: int
    mask: int
    build: int = 0

    @property
    def is_trail(self) -> bool:
        return self.mask == 0

    @property
    def is_capture(self) -> bool:
        return self.mask != 0 and not self.build


@dataclass(frozen=True)
class View:
    """One player's view of the game at a decision, with the legal moves in canonical order.

    Canonical order: by hand position, then trail before captures, captures by ascending mask,
    then builds (§6) by target position and declared value. ``table`` holds card ids and,
    with builds, `simcasino.reference.table.Build` items.
    With ``chooser_for`` set (§6 Misère: the opponent chooses), ``moves`` are the captures
    of the card seat ``chooser_for`` plays (its hand positions), and ``hand`` is still this
    seat's own hand.
    """

    rules: Rules
    seat: int
    hand: tuple[int, ...]
    table: tuple[int | Build, ...]
    moves: tuple[Move, ...]
    sweep_scores: bool  # would emptying the table score a tabbe right now
    last_round: bool
    stock_left: int  # cards not yet dealt
    played: tuple[tuple[int, int], ...]  # (seat, card id) of every card played so far
    captured_by: tuple[int, ...]  # per card id: seat holding it in a pile, or -1
    scores: tuple[int, ...]  # game points so far (immediate points included)
    draw: Callable[[int], int]  # a uniform number in [0, n) from the deal's random stream
    # §6 Misère: >= 0 when this seat picks, among ``moves``, the capture that seat's card makes
    chooser_for: int = -1


class Strategy(Protocol):
    def choose(self, view: View) -> Move: ...
