"""What a position offers: every legal move with what it takes, its immediate points, and
how each strategy that scores moves sees it."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from simcasino.cards import card_code, parse_cards
from simcasino.reference.captures import mask_cards
from simcasino.reference.deal import position_view
from simcasino.rules import Rules, resolve
from simcasino.strategies.greedy import capture_key
from simcasino.strategies.heuristic import MILLI, Heuristic, unseen_cards
from simcasino.strategies.protocol import Move, View


def _codes(cards: Sequence[int]) -> str:
    return " ".join(card_code(c) for c in cards)


def immediate_points(view: View, move: Move) -> int:
    """Points the move scores at once: the rule points of the cards taken, a scoring tabbe,
    a mulle (greedy's measure)."""
    return 0 if move.is_trail else capture_key(view, move)[0]


def analyze(hand: str | Sequence[str], table: str | Sequence[str], rules: Rules | str | dict = "swedish",
            seen: str | Sequence[str] = (), heuristic: dict[str, float] | None = None) -> pl.DataFrame:
    """One row per legal move of ``hand`` on ``table`` (``seen``: cards already played or
    captured): ``move, takes, cards, points`` (immediate) and ``heuristic`` (its value in
    points under the given weights), best heuristic first."""
    view = position_view(resolve(rules), parse_cards(hand), parse_cards(table), parse_cards(seen))
    if not view.hand:
        raise ValueError("the hand is empty: give at least one card to play")
    judge, unseen = Heuristic(heuristic), unseen_cards(view)
    rows = []
    for move in view.moves:
        taken = mask_cards(move.mask, view.table)
        rows.append({
            "move": f"{card_code(move.card)} " + (f"takes {_codes(taken)}" if taken else "trails"),
            "takes": _codes(taken),
            "cards": len(taken) + (1 if taken else 0),
            "points": immediate_points(view, move),
            "heuristic": judge.value(view, move, unseen) / MILLI,
        })
    return pl.DataFrame(rows).sort("heuristic", descending=True, maintain_order=True)
