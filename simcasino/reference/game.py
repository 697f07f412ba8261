"""Reference engine: a game of deals to the target score (§5), and single deals as `simulate` plays
them.

`GameState` is the game between its deals: the scores, the points tied deals carry on, whose
deal it is (R-ROTATE) and who has won. Every game loop in Python runs on it (`play_game`
here, the game at the terminal in `play.game`): ask it for the next deal's `DealState`,
play that deal, hand it the result. The kernel's own game loop (`loop.games`) mirrors it and
the agreement tests hold the two to identical games.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from simcasino.core.protocol import Strategy
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules, from_table
from simcasino.reference.deal import Carry, DealResult
from simcasino.reference.referee import Seat, play_deal
from simcasino.reference.state import DealState, versioned

MAX_DEALS_PER_GAME = 1000  # a game this long has no winner (it never happens in practice)
JSON_FORMAT = "simcasino-game-state"
JSON_VERSION = 1


@dataclass
class GameResult:
    scores: list[int]
    winner: int  # the winning unit (seat, or team = seat % units); -1 if the deal limit was hit
    deals: int


@dataclass
class GameState:
    """A game between its deals: game ``game`` of stream key ``key`` (its deal d is shuffled
    from random stream (key, game, d)); seat n-1 deals first, then the deal passes left."""

    rules: Rules
    key: int
    game: int = 0
    scores: list[int] = field(default_factory=list)  # per seat (partners share their team's)
    carry: Carry = Carry()  # points the last deal's ties carry into the next
    dealer: int = -1
    deals: int = 0  # deals finished
    winner: int = -1  # the winning unit, once there is one

    def __post_init__(self) -> None:
        self.scores = self.scores or [0] * self.rules.players
        self.dealer = self.rules.players - 1 if self.dealer < 0 else self.dealer

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, game: int = 0) -> GameState:
        """Game ``game`` of ``seed`` as `play_games` plays it (and `play`, as game 0)."""
        return cls(rules, seed_key(seed), game)

    @property
    def is_over(self) -> bool:
        return self.winner >= 0 or self.deals >= MAX_DEALS_PER_GAME

    def next_deal(
        self, stream: tuple[int, int] | None = None, dealer: int | None = None
    ) -> DealState:
        """The next deal, dealt: from random stream (key, game, deal number) unless another
        ``stream`` is given, by the game's dealer unless another ``dealer`` is (a record says)."""
        self.dealer = self.dealer if dealer is None else dealer
        return DealState.shuffled(
            self.rules,
            self.key,
            stream or (self.game, self.deals),
            self.dealer,
            self.scores,
            self.carry,
        )

    def end_deal(self, result: DealResult) -> None:
        """Count a finished deal: its points, a mid-deal win (§5 Finnish) or the winner by
        `decide_winner`, the carried points, and the deal passing left (R-ROTATE)."""
        self.scores = [s + r.points for s, r in zip(self.scores, result.seats)]
        self.deals += 1
        if result.winner >= 0:
            self.winner = result.winner % self.rules.units
            return
        self.winner = decide_winner(self.rules, self.scores, result, self.deals)
        self.carry = result.carry_out
        self.dealer = (self.dealer + 1) % self.rules.players

    def result(self) -> GameResult:
        return GameResult(self.scores, self.winner, self.deals)

    def to_json(self) -> str:
        """The game between its deals as JSON text (versioned: ``format``, ``version``);
        `from_json` reads it back, so a game can be stored and taken up again.

        >>> game = GameState.new(Rules.preset("finnish"), seed=1)
        >>> GameState.from_json(game.to_json()) == game
        True
        """
        return json.dumps(
            {
                "format": JSON_FORMAT,
                "version": JSON_VERSION,
                "rules": self.rules.to_table(),
                "key": self.key,
                "game": self.game,
                "scores": self.scores,
                "carry": list(self.carry),
                "dealer": self.dealer,
                "deals": self.deals,
                "winner": self.winner,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """A game from `to_json`'s text; ValueError if it is not one this version reads."""
        data = versioned(text, JSON_FORMAT, JSON_VERSION, "game state")
        try:
            return cls(
                from_table(data["rules"], where="game state rules"),
                int(data["key"]),
                int(data["game"]),
                [int(s) for s in data["scores"]],
                Carry(*data["carry"]),
                int(data["dealer"]),
                int(data["deals"]),
                int(data["winner"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"a damaged game state: {type(err).__name__}: {err}") from None


def run_deal(
    rules: Rules,
    strategies: Sequence[Seat | Strategy],
    key: int,
    a: int,
    b: int,
    dealer: int,
    game_scores: list[int] | None = None,
    carry_in: Carry = Carry(),
) -> DealResult:
    """Shuffle the deck of stream (key, a, b) and play it; the same stream feeds random choices."""
    return play_deal(
        DealState.shuffled(rules, key, (a, b), dealer, game_scores, carry_in), strategies
    )


def single_deal(
    rules: Rules, strategies: Sequence[Seat | Strategy], key: int, deal: int
) -> DealResult:
    """Deal number ``deal`` of a `simulate` batch: stream (key, deal, 0), the last seat deals."""
    return run_deal(rules, strategies, key, deal, 0, rules.players - 1)


def decide_winner(rules: Rules, scores: list[int], last: DealResult, deals: int = 1) -> int:
    """§5 after ``deals`` deals: once someone reached the target (or, with ``game_deals``,
    the agreed deals are played) the highest total wins, ties by ``tie_break``; with
    ``low_wins`` (§6 Misère, Krypkasino) the unique lowest total wins.

    Returns the winning unit (team or seat), or -1 to deal again (nobody there yet, or a
    tie left open). Partners share a score, so only units are compared.
    """
    scores = scores[: rules.units]
    over = max(scores) >= rules.target or 0 < rules.game_deals <= deals
    if not over:
        return -1
    best = min(scores) if rules.low_wins else max(scores)
    tied = [i for i, s in enumerate(scores) if s == best]
    if len(tied) > 1 and rules.tie_break == "spades":
        tied = _most(tied, lambda i: last.seats[i].spades)
    elif len(tied) > 1 and rules.tie_break == "finnish":

        def chain(i: int) -> tuple[int, int, int]:
            s = last.seats[i]
            kasinos = (
                s.aces * rules.ace_points
                + s.big_kasino * rules.big_kasino_points
                + s.small_kasino * rules.small_kasino_points
            )
            return (kasinos, s.spades, s.cards)

        tied = _most(tied, chain)
    return tied[0] if len(tied) == 1 else -1


def _most(seats: list[int], key) -> list[int]:
    best = max(key(i) for i in seats)
    return [i for i in seats if key(i) == best]


def play_game(
    rules: Rules, strategies: Sequence[Seat | Strategy], key: int, game: int
) -> GameResult:
    """R-TARGET, R-ROTATE: deals until someone wins (see `GameState`)."""
    state = GameState(rules, key, game)
    while not state.is_over:
        state.end_deal(
            run_deal(
                rules, strategies, key, game, state.deals, state.dealer, state.scores, state.carry
            )
        )
    return state.result()
