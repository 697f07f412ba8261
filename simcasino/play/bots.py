"""The bots at the table: a strategy deciding for a seat, a kernel strategy through the kernel's
position API (`loop.seat.KernelSeat`), a plain-Python strategy file in Python (its failures
one line naming it and the position: `simulation.GuardedSeat`).

Why the kernel and not the strategies' Python forms: the search, the strongest opponent,
has none (thousands of playouts a decision need the kernel). A bot sees what its seat may
see; the kernel is handed the rest of the position from the referee's `DealState` (the
others' hands and the stock, which a fair strategy does not read) and the others' turns
this round, which the search's belief reads as the kernel's own play loop notes them.
"""

from __future__ import annotations

from collections.abc import Callable

from simcasino.core.protocol import Move, Stream
from simcasino.loop.seat import KernelSeat
from simcasino.reference.referee import Seat
from simcasino.reference.state import DealState
from simcasino.simulation import GuardedSeat
from simcasino.strategies import (
    PluginStrategy,
    PythonStrategy,
    StrategySpec,
    check_builds,
    parse_strategy,
)


class Bot:
    """A seat played by a strategy; under §6 Misère a kernel strategy's pick among another's
    captures is random's for random and greedy's for every other strategy (as in the kernel)."""

    def __init__(
        self, strategy: StrategySpec | PluginStrategy | PythonStrategy, source: str = ""
    ) -> None:
        self.strategy, self.source = strategy, source
        self.seat: Seat = (
            KernelSeat(strategy) if isinstance(strategy, StrategySpec) else GuardedSeat(strategy)
        )
        self.ready: Callable[[], None] = (
            _at_once  # waits until the bot can decide (its kernel compiled)
        )

    @property
    def label(self) -> str:
        """What the record names the seat by: the strategy's label, or a strategy file's path
        as given (so that `make_bot` finds it again on ``--resume``)."""
        return self.source if isinstance(self.strategy, PythonStrategy) else self.strategy.label

    def decide(self, state: DealState, stream: Stream) -> Move:
        self.ready()
        return self.seat.decide(state, stream)


def _at_once() -> None:
    """A bot ready as it is made (its kernel compiled or loaded by whoever made it)."""


def make_bot(name: str, builds: bool) -> Bot:
    """A bot from a strategy name (``search``, ``heuristic:tabbe_denial=0``, a .py file);
    ValueError for a strategy that reads the hidden cards (no fair opponent) or, with §6
    builds, one that does not play them."""
    strategy = parse_strategy(name)
    if isinstance(strategy, StrategySpec) and strategy.sees_hidden:
        raise ValueError(
            f"strategy {strategy.name!r} sees the hidden cards: it is a ceiling to measure "
            "against, not an opponent to play"
        )
    check_builds(builds, [strategy])
    return Bot(strategy, name)
