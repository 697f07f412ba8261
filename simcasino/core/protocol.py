"""The plain-Python strategy protocol: what a player sees, and the move it answers with.

A Python strategy is any object with a ``choose(view: View) -> Move`` method (or a plain
function of the same shape) that returns one of ``view.moves``. The view holds only what a
player at the table may see (own hand, table, everything played and captured so far, scores,
rules) — never another hand or the stock. A strategy that draws random numbers takes the
table's random stream as a second argument, ``choose(view, stream)``, and draws with
``stream.draw(n)`` (`Stream`): the referee hands it the deal's stream, so a table plays the
same moves from the same seed, and nothing but the referee holds the stream. The reference
engine calls it; the numba kernel's jitted strategies make the same decisions from the same
information.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Protocol

from simcasino.core.rules import Rules
from simcasino.core.table import Build


class MoveKind(IntEnum):
    """What a move does with its card; the order is the canonical order within a card."""

    TRAIL = 0  # the card stays on the table
    CAPTURE = 1  # the card takes table items (R-CAPTURE)
    BUILD = 2  # §6 Builds: the card goes onto one table item, declaring a value


class _Maker:
    """A constructor of `Move` read on the class (``Move.build(...)``); read on a move, the
    attribute of simcasino 0.2 it replaced (``move.build``, the declared value then) is
    answered with what to read instead, never a bound method that is always true."""

    def __init__(self, make: Callable[..., Move], old: str) -> None:
        self.make, self.old = make, old

    def __get__(self, move: Move | None, cls: type) -> Callable[..., Move]:
        if move is not None:
            raise AttributeError(self.old)
        return self.make.__get__(cls, cls)


_OLD_BUILD = (
    "Move.build is the constructor of a build move since simcasino 0.3; the declared value of "
    "simcasino 0.2's move.build is move.value (and move.is_build tells a build)"
)
_OLD_MASK = (
    "Move has no mask since simcasino 0.3: read move.taken (a capture's bitmask over the table) or "
    "move.target (the table position a build goes onto)"
)


class Move(NamedTuple):
    """Play ``hand[hand_index]`` (card id ``card``) as a trail, a capture or (§6) a build.

    Made by `trail`, `capture` or `build`: a capture's ``taken`` is a bitmask over table
    positions (bit i = ``table[i]``); a build's ``target`` is the table position the card
    goes onto and ``value`` the value it declares. The fields a kind does not use keep their
    defaults, so two moves are equal exactly when they play the same card the same way, and
    sorting moves gives the canonical order (by hand position, trail before captures,
    captures by ascending mask, then builds by target and value).

    >>> from simcasino import Move, card_code
    >>> from simcasino.core.cards import parse_card
    >>> move = Move.capture(1, parse_card("10D"), 0b101)  # hand[1] takes table[0] and table[2]
    >>> move, move.is_capture, card_code(move.card)
    (Move.capture(1, 35, 0b101), True, '10D')
    >>> sorted([move, Move.capture(1, move.card, 0b1), Move.trail(1, move.card)])
    [Move.trail(1, 35), Move.capture(1, 35, 0b1), Move.capture(1, 35, 0b101)]
    """

    hand_index: int
    card: int
    kind: MoveKind = MoveKind.TRAIL
    taken: int = 0
    target: int = -1
    value: int = 0

    @classmethod
    def trail(cls, hand_index: int, card: int) -> Move:
        return cls(hand_index, card)

    @classmethod
    def capture(cls, hand_index: int, card: int, taken: int) -> Move:
        return cls(hand_index, card, MoveKind.CAPTURE, taken)

    def _build(cls, hand_index: int, card: int, target: int, value: int) -> Move:
        return cls(hand_index, card, MoveKind.BUILD, target=target, value=value)

    build = _Maker(_build, _OLD_BUILD)

    @property
    def mask(self) -> int:
        raise AttributeError(_OLD_MASK)

    @property
    def is_trail(self) -> bool:
        return self.kind == MoveKind.TRAIL

    @property
    def is_capture(self) -> bool:
        return self.kind == MoveKind.CAPTURE

    @property
    def is_build(self) -> bool:
        return self.kind == MoveKind.BUILD

    def __repr__(self) -> str:
        if self.is_capture:
            return f"Move.capture({self.hand_index}, {self.card}, {self.taken:#b})"
        if self.is_build:
            return f"Move.build({self.hand_index}, {self.card}, {self.target}, {self.value})"
        return (
            f"Move.trail({self.hand_index}, {self.card})"
            if self.is_trail
            else f"Move{tuple(self)!r}"
        )

    def sweeps(self, table: Sequence[object]) -> bool:
        """Does this move take every item of ``table`` (R-TABBE: a sweep)?"""
        return self.is_capture and self.taken == (1 << len(table)) - 1


@dataclass(frozen=True)
class View:
    """One player's view of the game at a decision, with the legal moves in canonical order.

    Canonical order: ``sorted(moves)`` (see `Move`). ``table`` holds card ids and, with
    builds, `simcasino.core.table.Build` items.
    With ``chooser_for`` set (§6 Misère: the opponent chooses), ``moves`` are the captures
    of the card seat ``chooser_for`` plays (its hand positions), and ``hand`` is still this
    seat's own hand.

    The view of seat 0 at the first turn of a deal (a `DealState` hands it out):

    >>> from simcasino import DealState, Rules, card_codes
    >>> view = DealState.new(Rules(), seed=1).observation(0)
    >>> card_codes(view.hand), card_codes(view.table), view.stock_left
    (['10C', '4C', '5C', '6H'], ['9C', '10H', 'QC', '2S'], 40)
    >>> view.moves[:2]  # trail the 10♣, or take the 10♥ with it
    (Move.trail(0, 48), Move.capture(0, 48, 0b10))
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
    # §6 Misère: >= 0 when this seat picks, among ``moves``, the capture that seat's card makes
    chooser_for: int = -1

    def __getattr__(self, name: str) -> Any:
        if name == "draw":
            raise AttributeError(
                "View.draw is gone (the view holds what a player sees): a strategy that draws "
                "random numbers takes the table's random stream, choose(view, stream), and calls "
                "stream.draw(n)"
            )
        raise AttributeError(f"'View' object has no attribute {name!r}")


class Stream:
    """The table's random stream, handed to a decision: ``draw(n)`` is a uniform number in
    [0, n). ``state`` is the counter-based stream's state (`core.rng`), which the kernel's
    strategies load and hand back, so every seat of a table draws from one stream in turn,
    as in the kernel's own play loop."""

    def __init__(self, state: int) -> None:
        self.state = state

    def draw(self, n: int) -> int:
        """A uniform number in [0, n) (ValueError for n < 1)."""
        from simcasino.core.rng import (
            draw_below,
        )  # here: naming strategies (--help) loads no compiler

        if n < 1:
            raise ValueError(f"draw(n) needs n >= 1; got {n}")
        self.state, value = draw_below(self.state, n)
        return value

    def __repr__(self) -> str:
        return f"Stream({self.state})"


class Strategy(Protocol):
    def choose(self, view: View) -> Move: ...


def takes_stream(choose: Callable[..., Move]) -> bool:
    """Does ``choose`` take the random stream, a second parameter (``choose(view, stream)``)?"""
    try:
        parameters = list(inspect.signature(choose).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in parameters)


def ask(choose: Callable[..., Move], view: View, stream: Stream | None) -> Move:
    """``choose``'s move at ``view`` (a strategy's ``choose``, or a function of the view),
    handed ``stream`` if it takes one (`takes_stream`)."""
    return choose(view, stream) if takes_stream(choose) else choose(view)
