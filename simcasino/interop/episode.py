"""What one episode of an environment is: a deal (the default), or a whole game to the target.

Why games: win-rate research plays for the game, not the deal, and a game's deals are not
alike (the scores near the target change what a seat should risk; §5 Finnish wins mid-deal).
A game episode plays the deals `simcasino simulate --games` plays (`reference.game.GameState`:
game ``k`` of seed ``s``, the scores and the points tied deals carry on, the deal passing
left), the next dealt as soon as one ends, and pays at the game's end: the return of the game
(`outcome.returns_of` on the game's scores: ``points`` the game points, ``difference`` the
margin over the best other side; ``win`` +1 for the winning side, -1 for the others, 0 for
all when the game hits its deal limit).
"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.rules import Rules
from simcasino.interop.lean import LeanDeal
from simcasino.interop.outcome import bounds, returns, returns_of
from simcasino.reference.game import MAX_DEALS_PER_GAME, GameState
from simcasino.reference.state import DealState

EPISODES = ("deal", "game")


def check_episode(episode: str) -> str:
    if episode not in EPISODES:
        raise ValueError(
            f"episode must be one of {', '.join(map(repr, EPISODES))}; got {episode!r}"
        )
    return episode


class Episode:
    """The deals of one episode, dealt one after the other, and what the episode pays."""

    def __init__(self, rules: Rules, utility: str, episode: str = "deal") -> None:
        self.rules, self.utility, self.whole_game = rules, utility, check_episode(episode) == "game"
        self.game: GameState | None = None

    def first(self, seed: int, index: int, deck: Sequence[int] | None = None) -> LeanDeal:
        """Deal ``index`` of ``seed`` (its game ``index``, for game episodes), or ``deck``."""
        if deck is not None and self.whole_game:
            raise ValueError("a deck deals one deal: give it with episode='deal'")
        if deck is not None:
            return LeanDeal.dealt(self.rules, deck)
        if not self.whole_game:
            return LeanDeal.new(self.rules, seed, index)
        self.game = GameState.new(self.rules, seed, index)
        return LeanDeal.of(self.game.next_deal())

    def next(self, deal: DealState) -> LeanDeal | None:
        """The game's next deal once ``deal`` is over, or None when the episode ends there."""
        if self.game is None:
            return None
        self.game.end_deal(deal.result())
        return None if self.game.is_over else LeanDeal.of(self.game.next_deal())

    def returns(self, deal: DealState) -> list[float]:
        """Each seat's return at the episode's end (``deal`` its last deal)."""
        if self.game is None:
            return returns(deal, self.utility)
        if self.utility != "win":
            return returns_of(self.rules, self.game.scores, self.utility)
        units, winner = self.rules.units, self.game.winner
        return [
            0.0 if winner < 0 else (1.0 if s % units == winner else -1.0)
            for s in range(self.rules.players)
        ]

    @property
    def key(self) -> str:
        """The reset option naming an episode of a seed: ``deal`` k, or ``game`` k."""
        return "game" if self.whole_game else "deal"

    @property
    def deals(self) -> int:
        """The most deals an episode holds (a game's deal limit)."""
        return MAX_DEALS_PER_GAME if self.whole_game else 1

    def bounds(self) -> tuple[float, float]:
        """The lowest and the highest return: a deal's bounds (`outcome.bounds`, around 0)
        times the most deals an episode holds; a win is a win."""
        low, high = bounds(self.rules, self.utility)
        scale = 1 if self.utility == "win" else self.deals
        return low * scale, high * scale
