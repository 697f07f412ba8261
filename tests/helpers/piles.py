"""Deals scored from the piles a test gives (§4, §6), and piles of given spade and card counts."""

from __future__ import annotations

from helpers.cards import cards, ids
from simcasino.core.cards import is_spade
from simcasino.core.rules import Rules
from simcasino.reference.deal import Carry, DealResult, Tally, score_deal


def score_piles(rules: Rules, piles: dict[int, str | list[int]], rest_to: int | None = None,
                last_capturer: int = 0, sweeps: list[int] | None = None,
                scored: list[int] | None = None, carry_in: Carry = Carry(), mulles: list[int] | None = None,
                given: list[int] | None = None) -> DealResult:
    """Score a deal (§4, §6) whose piles are given: ``piles[seat]`` codes (as in `ids`) or
    ids; every other card goes to ``rest_to``. ``sweeps``: captures that emptied the table;
    ``scored``: those that passed the mökki limits (default: all); ``mulles`` (worth
    ``mulle_points`` each) and ``given`` (tabbes_given) per seat."""
    n = rules.players
    tally = Tally.start(n)
    for seat, pile in piles.items():
        for c in ids(pile) if isinstance(pile, str) else pile:
            assert c not in tally.owner
            tally.owner[c] = seat
    if rest_to is not None:
        for c in range(rules.deck_size):
            tally.owner.setdefault(c, rest_to)
    tally.last_capturer = last_capturer
    tally.sweeps = list(sweeps or [0] * n)
    tally.scored_sweeps = list(scored if scored is not None else tally.sweeps)
    tally.mulles = list(mulles or [0] * n)
    tally.mulle_scores = [m * rules.mulle_points for m in tally.mulles]  # as each mulle scores
    tally.given = list(given or [0] * n)
    return score_deal(rules, tally, carry_in)


SPADE_ORDER = cards("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S")
NON_SPADES = [c for c in range(52) if not is_spade(c)]


def piles_with(spades: list[int], counts: list[int]) -> dict[int, list[int]]:
    """Piles with the given spade and card counts (non-spades handed out in id order)."""
    assert sum(spades) == 13 and sum(counts) == 52
    piles, si, oi = {}, 0, 0
    for seat, (s, n) in enumerate(zip(spades, counts)):
        piles[seat] = SPADE_ORDER[si : si + s] + NON_SPADES[oi : oi + n - s]
        si, oi = si + s, oi + n - s
    return piles
