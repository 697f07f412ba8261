"""The review of a record: every move of one seat judged by the search with a large budget.

Why the search as the judge: it is the strongest fair player the toolkit has, and its
verdict is in the unit players care about, the points of the deal (its `margin`: our side's
points against the best other side's at the end of the deal, the points already taken
included). Each decision of the seat is loaded as the position it was (the game's `DealState`) and
every legal move is tried in the same sampled worlds (paired, so the gaps between moves
are sharper than the values); where nothing is hidden (two players, the stock empty) the
search's exact solver gives every move's exact value instead. The loss of a move is the
best move's value less the played one's; a loss over `MISTAKE` points is a mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, View
from simcasino.loop.position import search_values
from simcasino.loop.seat import deal_history
from simcasino.play.game import EndOfRecord, Game
from simcasino.play.record import GameRecord
from simcasino.reference.deal import DealResult
from simcasino.reference.state import DealState
from simcasino.strategies import StrategySpec

MISTAKE = 0.5  # points lost by a move that make it a mistake
WORLDS = 256  # the judge's worlds per decision (the search plays with 32)


@dataclass(frozen=True)
class Verdict:
    """The judge's word on one move: what the move played and the best move were worth."""

    deal: int
    turn: int  # the seat's turn in the deal, from 1
    played: str
    played_value: float
    best: str
    best_value: float
    error: float  # the two values' standard errors combined, as if unpaired: wider than the paired loss's (0: exact)
    exact: bool

    @property
    def loss(self) -> float:
        return self.best_value - self.played_value

    @property
    def mistake(self) -> bool:
        return self.loss > MISTAKE


def judge_moves(view: View, state: DealState, worlds: int) -> dict[Move, tuple[float, float]]:
    """Every legal move's value in points and its standard error: the search over ``worlds``
    worlds with every move a candidate (exact where nothing is hidden)."""
    judge = StrategySpec("search", {"worlds": worlds, "moves": len(view.moves)})
    return search_values(view, judge, state.hands, state.stock, deal_history(state))


class Judge:
    """The `Watcher` that judges each move of ``seat`` as the record plays back."""

    def __init__(self, seat: int, worlds: int) -> None:
        self.seat, self.worlds = seat, worlds
        self.deal, self.turn = 0, 0
        self.verdicts: list[Verdict] = []

    def deal_started(self, number: int, dealer: int, scores: list[int]) -> None:
        self.deal, self.turn = number, 0

    def moved(self, view: View, move: Move, state: DealState, replayed: bool) -> None:
        if view.seat != self.seat or view.chooser_for >= 0:
            return
        self.turn += 1
        values = judge_moves(view, state, self.worlds)
        best = max(values, key=lambda m: (values[m][0], m == move))  # of equals, the move played
        (played_value, played_se), (best_value, best_se) = values[move], values[best]
        error = 0.0 if move == best else (played_se**2 + best_se**2) ** 0.5
        self.verdicts.append(Verdict(self.deal, self.turn, move_name(move, view.table), played_value,
                                     move_name(best, view.table), best_value, error, played_se == 0 and best_se == 0))

    def deal_over(self, number: int, result: DealResult, scores: list[int]) -> None:
        pass


def review(record: GameRecord, seat: int, worlds: int = WORLDS) -> list[Verdict]:
    """Every move ``seat`` made in ``record``, judged (a stopped game: the moves it has)."""
    players = record.header.rules.players
    if not 0 <= seat < players:
        raise ValueError(f"--seat {seat}: the record has seats 0-{players - 1}")
    if worlds < 1:
        raise ValueError(f"--worlds {worlds}: the judge needs at least one world")
    judge = Judge(seat, worlds)
    try:
        Game(record.header, [None] * players, judge, record=record).play()
    except EndOfRecord:
        pass
    return judge.verdicts


def summary(verdicts: list[Verdict]) -> str:
    """Points lost and mistakes, in all and a deal (the deals the seat played in)."""
    deals = len({v.deal for v in verdicts}) or 1
    lost, mistakes = sum(v.loss for v in verdicts), sum(v.mistake for v in verdicts)
    return (f"{len(verdicts)} moves in {deals} deal{'s' * (deals != 1)}: "
            f"{lost / deals:.2f} points lost a deal ({lost:.2f} in all), "
            f"{mistakes / deals:.2f} mistakes a deal ({mistakes} in all, a mistake loses over {MISTAKE} points)")
