"""The public capture question: what can this card take from this table?"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.cards import card_code, card_ids, parse_card
from simcasino.core.rules import Rules, resolve


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
    options = dict.fromkeys(tuple(card_code(c) for i, c in enumerate(cards) if m >> i & 1) for m in masks)
    return list(options)
