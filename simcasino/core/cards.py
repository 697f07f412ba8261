"""Cards: integer ids, the notation people type, and decks.

A card *kind* is an integer 0..51: ``suit * 13 + (rank - 1)`` with suits in the order
spades, hearts, diamonds, clubs and ranks 1 (ace) .. 13 (king). The engines work on card
*ids*: with one deck an id is its kind; with the double deck of Mulle and Krypkasino
(R-DECK) ids run 0..103 and ``id % 52`` is the kind, so two identical cards have different
ids and the same kind. Everything that scores or compares cards looks at the kind.

Notation: rank ``A 2..10 J Q K`` (``T`` also means 10) then suit ``S H D C`` (or ``♠♥♦♣``),
case-insensitive: ``AS 10D 2S QH KC``.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
KINDS = 52

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


def kind(suit: int, rank: int) -> int:
    """The kind id of a suit index (0..3) and rank (1..13)."""
    return suit * 13 + rank - 1


ACE_OF_SPADES = kind(SPADES, ACE)  # scores extra in Glimne's Mulle
SMALL_KASINO = kind(SPADES, 2)  # 2♠, "lillan"
BIG_KASINO = kind(DIAMONDS, 10)  # 10♦, "storan"


def rank_of(card: int) -> int:
    return card % KINDS % 13 + 1


def suit_of(card: int) -> int:
    return card % KINDS // 13


def is_spade(card: int) -> bool:
    return suit_of(card) == SPADES


def is_ace(card: int) -> bool:
    return rank_of(card) == ACE


def _parse_rank(text: str) -> int | None:
    names = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
    if text in names:
        return names[text]
    if text.isascii() and text.isdigit() and 2 <= int(text) <= 10 and not text.startswith("0"):
        return int(text)
    return None


def parse_card(code: str) -> int:
    """The kind id of a card code such as ``"10D"``, ``"as"`` or ``"Q♥"``.

    Raises ValueError naming the code when it is not a card.
    """
    if not isinstance(code, str):
        raise ValueError(f"bad card code {code!r}: expected a string like 'AS' or '10D'")
    text = code.strip().upper()
    if len(text) >= 2:
        suit_char = text[-1]
        suit = SUITS.find(suit_char) if suit_char in SUITS else SUIT_SYMBOLS.find(suit_char)
        rank = _parse_rank(text[:-1])
        if suit >= 0 and rank is not None:
            return kind(suit, rank)
    raise ValueError(
        f"bad card code {code!r}: expected rank A,2-10,J,Q,K (T for 10) then suit S,H,D,C"
    )


def parse_cards(codes: str | Iterable[str]) -> list[int]:
    """Kind ids of several codes, given as a list or as one string split on spaces/commas."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [parse_card(c) for c in codes]


def card_code(card: int) -> str:
    """The code of a card id or kind, e.g. ``35 -> "10D"``."""
    rank = rank_of(card)
    return RANK_NAMES.get(rank, str(rank)) + SUITS[suit_of(card)]


def card_codes(cards: Iterable[int]) -> list[str]:
    return [card_code(c) for c in cards]


def deck(decks: int = 1) -> list[int]:
    """Card ids of ``decks`` standard decks (R-DECK): 0..51, or 0..103 for two."""
    if decks not in (1, 2):
        raise ValueError(f"decks must be 1 or 2, got {decks!r}")
    return list(range(KINDS * decks))


def card_ids(kinds: Iterable[int], decks: int, used: set[int] | None = None) -> list[int]:
    """Card ids for card kinds named in a position (hand, table, seen), none twice (R-DECK):
    with two decks a kind named again is its second copy. ``used`` (the ids already given,
    updated) lets several lists share the decks. ValueError naming a card named more often
    than the decks hold it."""
    used = set() if used is None else used
    ids = []
    for kind in kinds:
        free = [c for c in range(kind % KINDS, KINDS * decks, KINDS) if c not in used]
        if not free:
            copies = "once (one deck)" if decks == 1 else "twice (two decks)"
            raise ValueError(f"card {card_code(kind)} is given more than {copies}")
        used.add(free[0])
        ids.append(free[0])
    return ids
