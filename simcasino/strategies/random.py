"""`random`: uniform over the legal moves — the floor of the strategy ladder."""

from __future__ import annotations

from simcasino.strategies.protocol import Move, View

NAME = "random"
DESCRIPTION = "uniform over the legal moves (trails and captures alike)"


class Random:
    """Plain-Python form: draws from the deal's own random stream, so it matches the kernel."""

    def choose(self, view: View) -> Move:
        return view.moves[view.draw(len(view.moves))]


def make(params: dict[str, float]) -> Random:
    """The plain-Python strategy for the reference engine."""
    return Random()
