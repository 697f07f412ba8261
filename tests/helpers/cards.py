"""Cards as the tests write them: codes to ids and back, a second deck's copy marked ``'``."""

from __future__ import annotations

from collections.abc import Iterable

from simcasino.core.cards import card_code, parse_card, parse_cards


def cards(codes: str | Iterable[str]) -> list[int]:
    return parse_cards(codes)


def ids(text: str) -> list[int]:
    """Card ids of codes; a trailing ' names the second deck's copy (R-DECK: kind + 52)."""
    return [parse_card(c.rstrip("'")) + 52 * c.endswith("'") for c in text.replace(",", " ").split()]


def codes(ids: Iterable[int]) -> list[str]:
    return [card_code(c) for c in ids]
