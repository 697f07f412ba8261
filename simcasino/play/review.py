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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simcasino.advice.conditions import Rule
from simcasino.advice.follow import set_aside_by
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
# the judge's worlds per decision, every move in each (the search plays 128 to 1,024 over 4 moves)
WORLDS = 256


@dataclass(frozen=True)
class Verdict:
    """The judge's word on one move: what the move played and the best move were worth."""

    deal: int
    turn: int  # the seat's turn in the deal, from 1
    played: str
    played_value: float
    best: str
    best_value: float
    # the two values' standard errors combined, as if unpaired: wider than the paired loss's
    # (0: exact)
    error: float
    exact: bool
    broke: Rule | None = None  # the card's rule that sets the move played aside (`review`'s card)

    @property
    def loss(self) -> float:
        return self.best_value - self.played_value

    @property
    def mistake(self) -> bool:
        return self.loss > MISTAKE


def judge_moves(view: View, state: DealState, worlds: int) -> dict[Move, tuple[float, float]]:
    """Every legal move's value in points and its standard error: the search over ``worlds``
    worlds with every move a candidate (exact where nothing is hidden)."""
    return search_values(view, judge(view, worlds), state.hands, state.stock, deal_history(state))


def judge(view: View, worlds: int) -> StrategySpec:
    """The search that judges ``view``: every move a candidate, in ``worlds`` worlds, no more
    and no fewer (``max_worlds`` given, so its default budget does not share 4,096 playouts
    among the legal moves)."""
    return StrategySpec(
        "search", {"worlds": worlds, "max_worlds": worlds, "moves": len(view.moves)}
    )


class Judge:
    """The `Watcher` that judges each move of ``seat`` as the record plays back, calling
    ``progress`` with the number judged; it notes which deals were played to their end."""

    def __init__(
        self,
        seat: int,
        worlds: int,
        progress: Callable[[int], None] | None = None,
        card: Sequence[Rule] = (),
    ) -> None:
        self.seat, self.worlds, self.progress, self.card = seat, worlds, progress, tuple(card)
        self.deal, self.turn = 0, 0
        self.verdicts: list[Verdict] = []
        self.finished: set[int] = set()

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
        self.verdicts.append(
            Verdict(
                self.deal,
                self.turn,
                move_name(move, view.table),
                played_value,
                move_name(best, view.table),
                best_value,
                error,
                played_se == 0 and best_se == 0,
                set_aside_by(self.card, view, move),
            )
        )
        if self.progress:
            self.progress(len(self.verdicts))

    def deal_over(self, number: int, result: DealResult, scores: list[int]) -> None:
        self.finished.add(number)


@dataclass(frozen=True)
class Review:
    """The verdicts on a seat's moves, and the deals of the record played to their end."""

    verdicts: list[Verdict]
    finished: frozenset[int]


class ReviewInterrupted(KeyboardInterrupt):
    """Ctrl-C during a review: the moves judged before it (`Review`)."""

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review


def moves_of(record: GameRecord, seat: int) -> int:
    """How many moves ``seat`` made in ``record`` (picks among another's captures left out)."""
    return sum(1 for deal in record.deals for d in deal.decisions if d.seat == seat and not d.pick)


def review(
    record: GameRecord,
    seat: int,
    worlds: int = WORLDS,
    progress: Callable[[int], None] | None = None,
    card: Sequence[Rule] = (),
) -> Review:
    """Every move ``seat`` made in ``record``, judged (a stopped game: the moves it has);
    ``progress`` is called with the number judged; each verdict names the rule of ``card``
    (`advice.conditions`) that sets the move played aside, if one does. Ctrl-C raises
    `ReviewInterrupted` with the moves judged so far."""
    players = record.header.rules.players
    if not 0 <= seat < players:
        raise ValueError(f"--seat {seat}: the record has seats 0-{players - 1}")
    if worlds < 1:
        raise ValueError(f"--worlds {worlds}: the judge needs at least one world")
    judge = Judge(seat, worlds, progress, card)
    try:
        Game(record.header, [None] * players, judge, record=record).play()
    except EndOfRecord:
        pass
    except KeyboardInterrupt:
        raise ReviewInterrupted(Review(judge.verdicts, frozenset(judge.finished))) from None
    return Review(judge.verdicts, frozenset(judge.finished))


def summary(result: Review) -> str:
    """Points lost and mistakes a deal, over the deals played to their end (a deal stopped
    half-way would make a deal's figures look smaller than they are), and in all."""
    verdicts = result.verdicts
    deals = len({v.deal for v in verdicts})
    whole = [v for v in verdicts if v.deal in result.finished]
    finished = len({v.deal for v in whole})
    lost, mistakes = sum(v.loss for v in verdicts), sum(v.mistake for v in verdicts)
    played = f"{len(verdicts)} move{'s' * (len(verdicts) != 1)} in {deals} deal{'s' * (deals != 1)}"
    if finished < deals:
        played += f", {deals - finished} not finished"
    over = "" if finished == deals else f" over the {finished} finished"
    per_deal = (
        f"{sum(v.loss for v in whole) / finished:.2f} points lost a deal{over} ({lost:.2f} in "
        f"all), {sum(v.mistake for v in whole) / finished:.2f} mistakes a deal"
        if finished
        else f"no deal finished: {lost:.2f} points lost"
    )
    return f"{played}: {per_deal} ({mistakes} in all, a mistake loses over {MISTAKE} points)"


def card_lines(result: Review) -> list[str]:
    """How many moves a card's rules set aside, then each such rule in a player's words."""
    broken = [v.broke for v in result.verdicts if v.broke is not None]
    count = len(result.verdicts)
    head = f"{len(broken)} of {count} move{'s' * (count != 1)} broke a rule of the card"
    return [head + (":" if broken else "")] + [
        f"  {rule.text}: {rule.words}" for rule in dict.fromkeys(broken)
    ]
