"""Strategies whose choices a test knows in advance: a move named by its cards, always trail,
sweep when possible, a script of plays by number, and a recorder of every decision."""

from __future__ import annotations

from helpers.cards import cards, codes
from simcasino.core.cards import card_code, parse_card
from simcasino.core.protocol import Move, View


def find_move(view: View, card: str, took: str = "") -> Move:
    """The move playing ``card`` and taking the table cards ``took`` (empty: a trail)."""
    played = parse_card(card)
    assert played in view.hand, f"{card} not in hand {codes(view.hand)}"
    mask = 0
    for c in cards(took):
        assert c in view.table, f"{card_code(c)} not on table {codes(view.table)}"
        mask |= 1 << view.table.index(c)
    index = view.hand.index(played)
    return Move.capture(index, played, mask) if mask else Move.trail(index, played)


class TrailFirst:
    """Always trails the first card in hand (legal on every turn: R-OPTIONAL)."""

    def choose(self, view: View) -> Move:
        return Move.trail(0, view.hand[0])


class Sweeper:
    """Sweeps the table when some card can (first such move in canonical order), else
    trails the first card in hand."""

    def choose(self, view: View) -> Move:
        if view.table:
            for move in view.moves:
                if move.sweeps(view.table):
                    return move
        return Move.trail(0, view.hand[0])


class Scripted:
    """Plays the scripted step for the deal's play number (1-based: len(view.played) + 1),
    ``{play: (seat, card, took)}``; other plays go to ``fallback``. Records every view."""

    def __init__(self, steps: dict[int, tuple[int, str, str]], fallback) -> None:
        self.steps = steps
        self.fallback = fallback
        self.views: list[View] = []

    def choose(self, view: View) -> Move:
        self.views.append(view)
        number = len(view.played) + 1
        if number in self.steps:
            seat, card, took = self.steps[number]
            assert view.seat == seat, f"play {number}: seat {view.seat} is to play, script says {seat}"
            move = find_move(view, card, took)
            assert move in view.moves, f"play {number}: {card} taking {took!r} is not legal"
            return move
        return self.fallback.choose(view)


class Recorder:
    """Wraps a strategy and logs (view, move) of every decision in a shared list."""

    def __init__(self, inner, log: list) -> None:
        self.inner, self.log = inner, log

    def choose(self, view: View) -> Move:
        move = self.inner.choose(view)
        self.log.append((view, move))
        return move
