"""What a position offers: every legal move with what it takes, its immediate points, and
how each strategy that scores moves sees it. With §6 builds the table may hold builds
(``5H+7C=Q@1``, see `simcasino.core.table.parse_item`) and the moves include build moves,
which the heuristic and the search judge as they judge the others. And the narrowest question
a position asks, `capture_options`: what can this card take from this table?"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from simcasino.advice.sight import unseen_cards
from simcasino.core.cards import card_code, card_ids, parse_card, parse_cards
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules, resolve
from simcasino.core.table import item_code, parse_item
from simcasino.loop.position import search_values
from simcasino.reference.captures import mask_cards
from simcasino.reference.state import position_view
from simcasino.strategies import StrategySpec, parse_strategy
from simcasino.strategies.greedy import capture_key
from simcasino.strategies.heuristic import MILLI, Heuristic


def capture_options(
    card: str, table: Sequence[str], rules: Rules | str | dict = "swedish", engine: str = "numba"
) -> list[tuple[str, ...]]:
    """Every distinct capture ``card`` may make on ``table`` (R-CAPTURE, R-ACE-SE, R-VAL-FI).

    Each option is a non-empty tuple of table card codes in table order; options that take
    the same cards appear once. ``capture_options("10H", ["2C", "3C", "5C", "7C"])`` gives
    ``[("2C", "3C", "5C"), ("3C", "7C")]`` — never all four.
    """
    if isinstance(table, str):
        table = table.replace(",", " ").split()
    resolved = resolve(rules)
    played, *cards = card_ids([parse_card(card), *(parse_card(c) for c in table)], resolved.decks)
    if engine == "reference":
        from simcasino.reference.captures import allowed_captures

        masks = allowed_captures(played, cards, resolved)
    elif engine == "numba":
        from simcasino.engine.captures import capture_masks_of

        masks = capture_masks_of(played, cards, resolved)
    else:
        raise ValueError(f"unknown engine {engine!r}: choose from numba, reference")
    options = dict.fromkeys(
        tuple(card_code(c) for i, c in enumerate(cards) if m >> i & 1) for m in masks
    )
    return list(options)


def immediate_points(view: View, move: Move) -> int:
    """Points the move scores at once: the rule points of the cards taken, a scoring tabbe,
    a mulle (greedy's measure)."""
    return capture_key(view, move)[0] if move.is_capture else 0


def _search_view(
    view: View, unseen: Sequence[int], spec: StrategySpec
) -> dict[Move, tuple[float, float]]:
    """The search's (mean, standard error) per candidate move. The unseen cards are dealt to
    the other seats (as many as the player holds) and the stock in card order; the search
    draws its own worlds from them, so where they lie does not matter."""
    if not isinstance(spec, StrategySpec) or spec.name != "search":
        raise ValueError(f"analyze's search column needs a search strategy; got {spec.label!r}")
    cards, hands = list(unseen), []
    for _ in range(view.rules.players):
        hands.append(cards[: len(view.hand)])
        cards = cards[len(view.hand) :]
    return search_values(view, spec, hands, cards)


def analyze(
    hand: str | Sequence[str],
    table: str | Sequence[str],
    rules: Rules | str | dict = "swedish",
    seen: str | Sequence[str] = (),
    heuristic: dict[str, float] | None = None,
    search: str = "search",
) -> pl.DataFrame:
    """One row per legal move of ``hand`` on ``table`` (``seen``: cards already played or
    captured): ``move, takes, cards, points`` (immediate), ``heuristic`` (its value in points
    under the given weights), and ``search`` / ``search_se``: the search strategy's expected
    margin in points (ours minus the best other's at the end of the deal) with its standard
    error, blank for moves outside its candidates. Best heuristic first."""
    resolved = resolve(rules)
    items = table.replace(",", " ").split() if isinstance(table, str) else list(table)
    view = position_view(
        resolved, parse_cards(hand), [parse_item(t) for t in items], parse_cards(seen)
    )
    if not view.hand:
        raise ValueError("the hand is empty: give at least one card to play")
    if len(view.hand) > resolved.hand_cards:
        raise ValueError(
            f"a hand of {len(view.hand)} cards: {resolved.name} hands hold at most "
            f"{resolved.hand_cards}"
        )
    judge, unseen = Heuristic(heuristic), unseen_cards(view)
    searched = _search_view(view, unseen.unseen, parse_strategy(search))
    rows = []
    for move in view.moves:
        taken = [item for i, item in enumerate(view.table) if move.taken >> i & 1]
        rows.append(
            {
                "move": move_name(move, view.table),
                "takes": " ".join(item_code(item) for item in taken),
                "cards": len(mask_cards(move.taken, view.table)) + 1 if taken else 0,
                "points": immediate_points(view, move),
                "heuristic": judge.value(view, move, unseen) / (MILLI * MILLI),
                "search": searched.get(move, (None, None))[0],
                "search_se": searched.get(move, (None, None))[1],
            }
        )
    frame = pl.DataFrame(rows).with_columns(
        pl.col("heuristic", "search", "search_se").cast(pl.Float64).round(3)
    )
    return frame.sort("heuristic", descending=True, maintain_order=True)
