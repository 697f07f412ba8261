"""Moves in words: the one name a move has wherever it is shown or stored, and reading it back.

Why one name: a record must survive being read (and edited) by a person, a player at the
table thinks in cards, and a move shown by `replay`, `analyze`, `play` and `review` should
read the same everywhere. A name says the card played and what it does, with table items in
card notation (`simcasino.core.cards`):

* ``QD takes 3H 9S``: play QD and take 3H and 9S (a build on the table is named by its
  cards, ``QD takes 5H+7C``);
* ``trail 5C``: put 5C on the table;
* ``build 3H on 7H to 10``: §6 Builds, 3H onto 7H declared as 10.

Reading is lenient: ``takes`` may be left out (``QD 3H 9S``, the names records of version 0.2
stored), the order of the taken items and the case do not matter, and ``to`` may be left
out of a build when only one value is possible. A name is read here (`read_name`) and
matched against the legal moves of the position by `reference.moves.read_move`, which says
why a name that is not legal is not (the rule it breaks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from simcasino.core.cards import card_code, parse_card
from simcasino.core.protocol import Move, MoveKind, View
from simcasino.core.table import Build, is_build, value_name

FILLER_WORDS = {"TAKES", "TAKE", "TAKING", "X"}  # allowed between the card and what it takes
VALUE_NAMES = {"J": 11, "Q": 12, "K": 13}
Key = tuple[
    MoveKind, int, Counter, int
]  # what a name says: kind, card kind, items (as card kinds), build value


def item_name(item: int | Build, card: Callable[[int], str] = card_code) -> str:
    """A table item as a name token: ``7H``, or a build's cards joined by ``+``."""
    return "+".join(card(c) for c in item.cards) if is_build(item) else card(item)


def move_name(
    move: Move, table: Sequence[int | Build], card: Callable[[int], str] = card_code
) -> str:
    """The name of ``move`` made on ``table`` (``card`` writes a card: the screen paints it)."""
    if move.is_trail:
        return f"trail {card(move.card)}"
    if move.is_build:
        return (
            f"build {card(move.card)} on {item_name(table[move.target], card)} to "
            f"{value_name(move.value)}"
        )
    taken = [item_name(item, card) for i, item in enumerate(table) if move.taken >> i & 1]
    return f"{card(move.card)} takes {' '.join(taken)}"


def position_text(view: View) -> tuple[str, str, str]:
    """The hand, table and cards seen (in the piles) of ``view`` as `simcasino.analyze` reads
    them, builds as ``5H+7C=Q@1`` (``==`` for a double build)."""

    def item(thing: int | Build) -> str:
        if not is_build(thing):
            return card_code(thing)
        return (
            f"{item_name(thing)}={'=' if thing.double else ''}"
            f"{value_name(thing.value)}@{thing.owner}"
        )

    seen = [card for card, owner in enumerate(view.captured_by) if owner >= 0]
    return (
        " ".join(card_code(c) for c in view.hand),
        " ".join(item(i) for i in view.table),
        " ".join(card_code(c) for c in seen),
    )


def named_moves(view: View, wanted: Key) -> list[Move]:
    """The legal moves of ``view`` that a name (`read_name`) names: one, or several builds
    when the name leaves the value out."""
    return [move for move in view.moves if _matches(wanted, name_key(view.table, move))]


def name_key(table: Sequence[int | Build], move: Move) -> Key:
    """What identifies a move: its kind, the card's kind, the items it addresses (as sorted
    card kinds) and the declared build value."""
    if move.is_build:
        return MoveKind.BUILD, move.card % 52, Counter([item_kinds(table[move.target])]), move.value
    items = Counter(item_kinds(item) for i, item in enumerate(table) if move.taken >> i & 1)
    return move.kind, move.card % 52, items, 0


def item_kinds(item: int | Build) -> tuple[int, ...]:
    cards = item.cards if is_build(item) else (item,)
    return tuple(sorted(c % 52 for c in cards))


def _matches(wanted: Key, key: Key) -> bool:
    kind, card, items, value = wanted
    return (kind, card, items) == key[:3] and value in (0, key[3])


def read_name(text: str) -> Key:
    """``text`` as a move key (build value 0 when not given); ValueError if it reads as none."""
    words = [w for w in text.replace(",", " ").upper().split() if w not in FILLER_WORDS]
    if not words:
        raise ValueError(
            "an empty move: give its number or name it, e.g. 'QD takes 3H 9S', 'trail 5C'"
        )
    if words[0] == "TRAIL":
        if len(words) != 2:
            raise ValueError(f"{text.strip()!r}: a trail names one card, e.g. 'trail 5C'")
        return MoveKind.TRAIL, parse_card(words[1]), Counter(), 0
    if words[0] == "BUILD":
        return _read_build(text, words[1:])
    card = parse_card(words[0])
    if len(words) == 1:
        raise ValueError(
            f"{text.strip()!r}: say what {words[0]} takes (e.g. '{words[0]} takes 3H 9S') "
            f"or 'trail {words[0]}'"
        )
    return MoveKind.CAPTURE, card, Counter(_read_item(w) for w in words[1:]), 0


def _read_build(text: str, words: list[str]) -> Key:
    """``CARD on ITEM [to VALUE]`` after the word ``build``."""
    if len(words) not in (3, 5) or words[1] != "ON" or (len(words) == 5 and words[3] != "TO"):
        raise ValueError(
            f"{text.strip()!r}: a build reads 'build 3H on 7H' or 'build 3H on 7H to 10'"
        )
    value = _read_value(words[4]) if len(words) == 5 else 0
    return MoveKind.BUILD, parse_card(words[0]), Counter([_read_item(words[2])]), value


def _read_value(word: str) -> int:
    value = VALUE_NAMES.get(word) or (int(word) if word.isdigit() else 0)
    if not 2 <= value <= 16:
        raise ValueError(f"bad build value {word!r}: expected 2-16, J, Q or K")
    return value


def _read_item(word: str) -> tuple[int, ...]:
    """A table item token: a card, or a build's cards joined by ``+`` (brackets and ``=...``
    allowed)."""
    cards = word.strip("[]").split("=")[0].split("+")
    return tuple(sorted(parse_card(c) for c in cards))
