"""A kernel strategy at a table the reference engine referees: the kernel seats of a mixed
table (plain-Python seats among them), the bots of `play`, what the judge of `review` loads.

Why through the position API: a plain-Python strategy plays only in Python, so such a table
is refereed by a `reference.state.DealState`, and a kernel seat's decision is asked of the
kernel at the position the state holds (`position.table_move`): a workspace is made and
loaded for every decision, which is what makes a mixed table slow (docs/python-api.md gives
the figures). The state hands the kernel what its workspace holds and a view leaves out —
the other hands and the stock (a fair strategy does not read them: the search deals its own
worlds), what scoring needs of the deal so far, the others' turns this round (the search's
belief reads them) and the deal's random stream — so the kernel decides as in its own play
loop, and a table of kernel strategies plays the same deals whichever way it is run. The
stream is the table's, handed to the decision (`reference.referee`): the seat loads it
into the workspace and hands it back advanced, writing nothing into the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.protocol import Move, Stream, ask
from simcasino.core.table import Build
from simcasino.loop.position import DealHistory, SeenTurn, table_move
from simcasino.reference.state import Action, DealState
from simcasino.strategies import StrategySpec


def deal_history(state: DealState) -> DealHistory:
    """What scoring needs of the deal so far that a view does not show."""
    units, tally = state.rules.units, state.tally
    return DealHistory(
        state.dealer,
        tally.last_capturer,
        tuple(tally.sweeps),
        tuple(tally.scored_sweeps),
        tuple(state.immediate[seat % units] for seat in range(state.rules.players)),
    )


def seen_turns(state: DealState, seat: int) -> list[SeenTurn]:
    """The other seats' turns this round as the kernel's belief notes them for ``seat``
    (`strategies.search.belief.observe`): after each of its own moves in this deal, the turns played
    until its next decision — the first, and the others while the table can be followed (no
    card trailed since was taken) — whether each captured and the loose cards it faced. None
    under §6 Builds (the position API notes loose cards only). A §6 Misère pick is part of
    its card's turn."""
    if state.rules.builds:
        return []
    plays = [a for a in state.history if not a.pick]
    ours = [i for i, a in enumerate(plays) if a.player == seat] + [len(plays)]
    turns: list[SeenTurn] = []
    for start, end in zip(ours, ours[1:]):
        table = plays[end].table if end < len(plays) else tuple(state.table)
        turns += _noted(plays[start + 1 : end], table, state.rounds)
    return turns


def _noted(window: list[Action], table: tuple[int | Build, ...], now: int) -> list[SeenTurn]:
    """The turns of ``window`` (played between two decisions of a seat, ``table`` lying at the
    second) the belief notes: those of round ``now``, all if every card trailed in it still
    lies on ``table``, else the first only."""
    followed = all(a.move.card in table for a in window if a.move.is_trail)
    return [
        SeenTurn(a.player, a.move.is_capture, tuple(a.table))
        for a in (window if followed else window[:1])
        if a.round == now
    ]


class KernelSeat:
    """``spec``'s kernel form deciding for the seat to move; ``table`` are every seat's
    strategies (what the search's playouts and §6 Misère picks assume of the others; a
    plain-Python seat counts as ``spec``). Its §6 Misère pick among another's captures is
    random's for random and greedy's for every other strategy, as in the kernel."""

    def __init__(self, spec: StrategySpec, table: Sequence[object] = ()) -> None:
        self.spec = spec
        self.table = [s if isinstance(s, StrategySpec) else spec for s in table]
        self.picker = StrategySpec("random" if spec.name == "random" else "greedy").python()

    def decide(self, state: DealState, stream: Stream) -> Move:
        """The kernel's move for the seat to move, drawing from (and advancing) ``stream``."""
        return self.decide_and_value(state, stream, values=False)[0]

    def decide_and_value(
        self, state: DealState, stream: Stream, values: bool = True
    ) -> tuple[Move, dict[Move, tuple[float, float]]]:
        """`decide`, with the search's mean margin and its standard error for each move it
        tried (`loop.position.search_values`; none for a strategy that does not search, or
        for a §6 Misère pick)."""
        view = state.observation(state.to_move)
        if view.chooser_for >= 0:
            return ask(self.picker.choose, view, stream), {}
        seats = self.table or [self.spec] * state.rules.players
        move, stream.state, valued = table_move(
            view,
            seats,
            state.hands,
            state.stock,
            seen_turns(state, view.seat),
            deal_history(state),
            stream.state,
            values,
        )
        return move, valued
