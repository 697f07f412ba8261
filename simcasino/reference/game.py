"""Reference engine: whole games to the target score (§5), and batches of single deals."""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.core.protocol import Strategy
from simcasino.core.rng import shuffled_deck
from simcasino.core.rules import Rules
from simcasino.reference.deal import Carry, DealResult, play_deal

MAX_DEALS_PER_GAME = 1000  # a game this long has no winner (it never happens in practice)


@dataclass
class GameResult:
    scores: list[int]
    winner: int  # the winning unit (seat, or team = seat % units); -1 if the deal limit was hit
    deals: int


def run_deal(rules: Rules, strategies: list[Strategy], key: int, a: int, b: int, dealer: int,
             game_scores: list[int] | None = None, carry_in: Carry = Carry(), log: bool = False) -> DealResult:
    """Shuffle the deck of stream (key, a, b) and play it; the same stream feeds random choices."""
    deck, state = shuffled_deck(key, a, b, rules.deck_size)
    return play_deal(rules, strategies, deck, dealer, state, game_scores, carry_in, log)


def single_deal(rules: Rules, strategies: list[Strategy], key: int, deal: int, log: bool = False) -> DealResult:
    """Deal number ``deal`` of a `simulate` batch: stream (key, deal, 0), the last seat deals."""
    return run_deal(rules, strategies, key, deal, 0, rules.players - 1, log=log)


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
            kasinos = (s.aces * rules.ace_points + s.big_kasino * rules.big_kasino_points
                       + s.small_kasino * rules.small_kasino_points)
            return (kasinos, s.spades, s.cards)
        tied = _most(tied, chain)
    return tied[0] if len(tied) == 1 else -1


def _most(seats: list[int], key) -> list[int]:
    best = max(key(i) for i in seats)
    return [i for i in seats if key(i) == best]


def play_game(rules: Rules, strategies: list[Strategy], key: int, game: int) -> GameResult:
    """R-TARGET, R-ROTATE: deals until someone wins; seat n-1 deals first, then the deal passes left."""
    n = rules.players
    scores, carry, dealer = [0] * n, Carry(), n - 1
    for deal_no in range(MAX_DEALS_PER_GAME):
        result = run_deal(rules, strategies, key, game, deal_no, dealer, scores, carry)
        scores = [s + r.points for s, r in zip(scores, result.seats)]
        if result.winner >= 0:
            return GameResult(scores, result.winner % rules.units, deal_no + 1)
        carry = result.carry_out
        winner = decide_winner(rules, scores, result, deal_no + 1)
        if winner >= 0:
            return GameResult(scores, winner, deal_no + 1)
        dealer = (dealer + 1) % n
    return GameResult(scores, -1, MAX_DEALS_PER_GAME)
