"""A game at the table, driven decision by decision: the reference engine referees, each seat's
player decides, every decision goes to the record as it is made, and a record plays back.

Why the reference engine: the game runs on `reference.game.GameState` and each deal on a
`reference.state.DealState`, the one game loop and the one deal loop of the toolkit, and a
person, a bot and a record's line are all just seats to them. A deal of a game is the deal
`simcasino games` would shuffle for it (random stream (seed key, 0, deal number), R-ROTATE),
so a record names only the moves.

Playing a record back (``play --resume``, `review`) replays its decisions through the same
engine, each checked against the position's legal moves; once they run out, the seats'
players go on (or, with none, the playback ends).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Protocol

from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, Stream, View
from simcasino.play.record import (
    Decision,
    GameRecord,
    Header,
    RecordedDeal,
    RecordError,
    RecordWriter,
)
from simcasino.reference.deal import DealResult
from simcasino.reference.game import GameState
from simcasino.reference.moves import read_move
from simcasino.reference.referee import play_deal
from simcasino.reference.state import DealState


class Player(Protocol):
    """Whoever decides for a seat: a person at the terminal or a bot (a
    `reference.referee.Seat`)."""

    def decide(self, state: DealState, stream: Stream) -> Move: ...


class Watcher(Protocol):
    """Who follows the game: the screen, or the review's judge."""

    def deal_started(self, number: int, dealer: int, scores: list[int]) -> None: ...

    def moved(self, view: View, move: Move, state: DealState, replayed: bool) -> None: ...

    def deal_over(self, number: int, result: DealResult, scores: list[int]) -> None: ...


class StopGame(Exception):
    """The player stopped the game (``q``, the end of the input, Ctrl-C); the record is kept."""


class EndOfRecord(StopGame):
    """A playback without players reached the last recorded decision."""


@dataclass(frozen=True)
class GameOutcome:
    scores: list[int]
    # the winning unit (seat, or team = seat % units); -1: none (stopped, or the deal limit)
    winner: int
    deals: int  # deals finished


class Game:
    """One game of ``header``'s rules, seed and seats, optionally going on from ``record``."""

    def __init__(
        self,
        header: Header,
        players: list[Player | None],
        watcher: Watcher,
        writer: RecordWriter | None = None,
        record: GameRecord | None = None,
    ) -> None:
        self.header, self.players, self.watcher, self.writer = header, players, watcher, writer
        self.record = record

    def play(self) -> GameOutcome:
        """Deal after deal until a unit wins (§5), on a `GameState`."""
        game = GameState.new(self.header.rules, self.header.seed)
        while not game.is_over:
            number = game.deals
            recorded = (
                self.record.deals[number]
                if self.record and number < len(self.record.deals)
                else None
            )
            stream, dealer = (
                (recorded.stream, recorded.dealer)
                if recorded
                else ((game.game, number), game.dealer)
            )
            if not recorded and self.writer:
                self.writer.start_deal(number, stream, dealer)
            self.watcher.deal_started(number, dealer, list(game.scores))
            result = self.play_deal(number, game.next_deal(stream, dealer), recorded)
            game.end_deal(result)
            self.watcher.deal_over(number, result, list(game.scores))
        if game.winner >= 0:
            self.check_no_more_deals(game.deals)
        return GameOutcome(game.scores, game.winner, game.deals)

    def play_deal(self, number: int, deal: DealState, recorded: RecordedDeal | None) -> DealResult:
        """One deal: the recorded decisions first, then the players; its points checked against
        the record's, or written to it."""
        queue = deque(recorded.decisions if recorded else [])
        result = play_deal(deal, [_Seat(self, queue, recorded)] * self.header.rules.players)
        points = [seat.points for seat in result.seats]
        if queue:
            raise self.record_error(queue[0], "a decision after the deal was over")
        if recorded and recorded.points is not None:
            if recorded.points != points:
                raise RecordError(
                    f"{self.record.path}: deal {recorded.number} ends with points {points}, "
                    f"not the recorded {recorded.points} (the record was edited)"
                )
        elif self.writer:
            self.writer.end_deal(number, points)
        return result

    def check_no_more_deals(self, deals: int) -> None:
        """A record goes no further than the end of its game."""
        if self.record and len(self.record.deals) > deals:
            extra = self.record.deals[deals]
            raise RecordError(
                f"{self.record.path} line {extra.line}: deal {extra.number} after the game was over"
            )

    def record_error(self, decision: Decision, message: str) -> RecordError:
        return RecordError(f"{self.record.path} line {decision.line}: {message}")


class _Seat:
    """The seat the deal loop asks: the next recorded decision while there is one (checked),
    else the seat's player; every decision is recorded and watched."""

    def __init__(self, game: Game, queue: deque[Decision], recorded: RecordedDeal | None) -> None:
        self.game, self.queue, self.recorded = game, queue, recorded

    def decide(self, state: DealState, stream: Stream) -> Move:
        view = state.observation(state.to_move)
        pick = view.chooser_for >= 0
        if self.queue:
            move, replayed = self._recorded(view, pick), True
        elif self.recorded and self.recorded.points is not None:
            raise RecordError(
                f"{self.game.record.path} line {self.recorded.line}: deal {self.recorded.number} "
                "has its end line, but its moves stop before the deal is over"
            )
        else:
            player = self.game.players[view.seat]
            if player is None:
                raise EndOfRecord()
            move, replayed = player.decide(state, stream), False
            if self.game.writer:
                self.game.writer.decision(Decision(view.seat, move_name(move, view.table), pick))
        self.game.watcher.moved(view, move, state, replayed)
        return move

    def _recorded(self, view: View, pick: bool) -> Move:
        decision = self.queue.popleft()
        what = (
            f"the pick among the captures of seat {view.chooser_for}'s card" if pick else "a move"
        )
        if decision.seat != view.seat or decision.pick != pick:
            raise self.game.record_error(
                decision,
                f"seat {view.seat} is to make {what} here, not "
                f"seat {decision.seat} {'a pick' if decision.pick else 'a move'}",
            )
        try:
            return read_move(view, decision.move)
        except ValueError as err:
            raise self.game.record_error(decision, str(err)) from None
