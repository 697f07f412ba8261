"""Advice with its conditions: a rule is *when* (what a player can check at the table) plus
*prefer* (a move test: a claim of docs/rules.md §7 or one of the simple tests in
`claims.EXTRA_IDS`), and a strategy card is a list of rules in the order they are applied.

Why conditions: the rule books' claims are said of every position, but what a tactic is worth
depends on when it is used (leaving no sweep pays in the last round and costs in the first).
A condition is one of a few quantities a player sees, compared with a number:

- ``last-round``: no card is left in the stock;
- ``stock<=N`` / ``stock>N``: cards not yet dealt;
- ``table<=N`` / ``table>N``: cards and builds on the table;
- ``hand<=N`` / ``hand>N``: cards in the player's hand;
- ``points-out<=N`` / ``points-out>N``: point cards (aces, 2♠, 10♦) the player cannot see.

A rule's text is its preference and its conditions joined by ``@`` and ``&``:
``S6@last-round``, ``lowest@stock<=8&table>2`` ("in the last round, leave nothing the next
player can sweep"). Every condition must hold for the rule to apply (none: always).

In the kernel a rule is one integer (`encode`): the preference's code in the low byte, then up
to `MAX_CONDITIONS` conditions of 16 bits each (term, number); `holds` reads it on the
workspace, `holds_in` (its plain-Python twin) on a `View`. A card of up to `MAX_RULES` rules
lies in a strategy's last parameter slots (`follow.FOLLOW_FIRST`).
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcasino.advice.claims import PYTHON, claim_code, preference_ids
from simcasino.advice.sight import is_unseen, unseen_cards
from simcasino.core.jit import kernel
from simcasino.core.protocol import View
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, hand_size

MAX_RULES = 12  # a card's rules at most (one parameter slot each)
MAX_CONDITIONS = 3  # a rule's conditions at most
MAX_NUMBER = 255  # a condition's number fits in a byte
SHIPPED_CARD = Path(__file__).with_name(
    "strategy_card.toml"
)  # `follow=card`; docs/strategy-card.toml links here

# The quantities a condition compares (term codes: 1 the last round, then two per quantity).
QUANTITIES = ("stock", "table", "hand", "points-out")
_LAST_ROUND = 1
_WORDS = {
    "stock": ("while the stock has at most {n} cards", "while the stock has more than {n} cards"),
    "table": ("with at most {n} cards on the table", "with more than {n} cards on the table"),
    "hand": ("holding at most {n} cards", "holding more than {n} cards"),
    "points-out": (
        "while at most {n} point cards are out of sight",
        "while more than {n} point cards are out of sight",
    ),
}
_CONDITION = re.compile(r"^(last-round)$|^([a-z-]+)(<=|>)(\d+)$")


@dataclass(frozen=True)
class Condition:
    """One condition: ``term`` 1 (the last round) or 2 + 2q (quantity q at most ``number``),
    3 + 2q (more than ``number``)."""

    term: int
    number: int = 0

    @property
    def quantity(self) -> str:
        """What it reads (the last round is a reading of the stock)."""
        return QUANTITIES[0 if self.term == _LAST_ROUND else (self.term - 2) // 2]

    @property
    def text(self) -> str:
        if self.term == _LAST_ROUND:
            return "last-round"
        quantity, more = QUANTITIES[(self.term - 2) // 2], (self.term - 2) % 2
        return f"{quantity}{'>' if more else '<='}{self.number}"

    @property
    def words(self) -> str:
        if self.term == _LAST_ROUND:
            return "in the last round"
        quantity, more = QUANTITIES[(self.term - 2) // 2], (self.term - 2) % 2
        return _WORDS[quantity][more].format(n=self.number).replace(" 1 cards", " 1 card")


@dataclass(frozen=True)
class Rule:
    """Prefer the moves ``prefer`` (a move test's id) allows, when every condition holds."""

    prefer: str
    when: tuple[Condition, ...] = ()

    @property
    def text(self) -> str:
        return self.prefer + ("@" + "&".join(c.text for c in self.when) if self.when else "")

    @property
    def words(self) -> str:
        """The rule in a player's words: its conditions, then what it prefers (the first
        paragraph of its move test's docstring)."""
        doc = " ".join((PYTHON[self.prefer].__doc__ or self.prefer).split("\n\n")[0].split())
        doc = doc.rstrip(".")
        prefer = (
            doc.split(": ", 1)[1] if doc.startswith(self.prefer + " ") else doc
        )  # "S6 (§7.4): leave …"
        when = " and ".join(c.words for c in self.when)
        return (
            f"{when[0].upper() + when[1:]}: {prefer[0].lower() + prefer[1:]}"
            if when
            else prefer[0].upper() + prefer[1:]
        )

    def encode(self) -> int:
        return encode(self)


def parse_condition(text: str) -> Condition:
    """``last-round``, ``stock<=8``, ``table>2`` … -> Condition (ValueError naming the forms)."""
    found = _CONDITION.match(text.strip().lower())
    if found is None or (found.group(2) and found.group(2) not in QUANTITIES):
        raise ValueError(
            f"unknown condition {text!r}: use last-round or QUANTITY<=N / QUANTITY>N with QUANTITY "
            f"one of {', '.join(QUANTITIES)}"
        )
    if found.group(1):
        return Condition(_LAST_ROUND)
    number = int(found.group(4))
    if number > MAX_NUMBER:
        raise ValueError(f"condition {text!r}: the number must be at most {MAX_NUMBER}")
    return Condition(2 + 2 * QUANTITIES.index(found.group(2)) + (found.group(3) == ">"), number)


def parse_rule(text: str) -> Rule:
    """``PREFER`` or ``PREFER@CONDITION&CONDITION`` -> Rule (ValueError in one line)."""
    prefer, _, rest = text.strip().partition("@")
    ids = {p.lower(): p for p in preference_ids()}
    if prefer.lower() not in ids:
        raise ValueError(
            f"unknown rule {text!r}: a rule is PREFER[@CONDITION&...] with PREFER one of "
            f"{', '.join(preference_ids())} (docs/rules.md §7 and the simple tests)"
        )
    when = tuple(parse_condition(c) for c in rest.split("&")) if rest else ()
    if len(when) > MAX_CONDITIONS:
        raise ValueError(f"rule {text!r}: at most {MAX_CONDITIONS} conditions")
    return Rule(ids[prefer.lower()], when)


def encode(rule: Rule) -> int:
    """The rule as the kernel reads it: the preference's code, then each condition's term and
    number in 16 bits."""
    value = claim_code(rule.prefer)
    for k, condition in enumerate(rule.when):
        value |= (condition.term | condition.number << 8) << (8 + 16 * k)
    return value


def read_card(path: Path | str, level: str = "", game: str = "") -> tuple[Rule, ...]:
    """The rules of a card file (TOML, ``[[rule]]`` tables with ``rule = "TEXT"``, an optional
    ``level`` and an optional ``game``), those of ``level`` or of no level and of ``game`` (none:
    the entries for every game), in file order (ValueError naming the file). The file is read
    once while it is unchanged (`_card_entries`)."""
    path = Path(path)
    try:
        stat = path.stat()
        entries = _card_entries(path.resolve(), stat.st_mtime_ns, stat.st_size)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"card {path}: {error}") from None
    if entries is None:
        raise ValueError(
            f'card {path}: expected [[rule]] tables each with rule = "PREFER@CONDITION"'
        )
    rules = tuple(
        parse_rule(e["rule"])
        for e in entries
        if (not level or e.get("level", level) == level) and e.get("game", "") == game
    )
    if len(rules) > MAX_RULES:
        raise ValueError(
            f"card {path}: {len(rules)} rules for {level or 'a player'}; at most {MAX_RULES}"
        )
    return rules


@functools.lru_cache(maxsize=64)
def _card_entries(path: Path, modified: int, size: int) -> tuple[dict[str, Any], ...] | None:
    """The ``[[rule]]`` tables of the card file at ``path`` as it was when last modified (its
    time in nanoseconds and its size), None unless each is a table with a rule's text. Cached
    because a job asks for a seat's rules in every chunk (its kernel parameters), so a card
    would be read dozens of times in one comparison; keyed by the modification time and size,
    so an edited card is read again. The tables never leave this module, which only reads them."""
    entries = tomllib.loads(path.read_text()).get("rule", [])
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("rule"), str) for e in entries
    ):
        return None
    return tuple(entries)


def card_of(follow: str, level: str) -> tuple[Rule, ...]:
    """What ``follow=`` names: ``card`` (the shipped card's rules for ``level`` in every game),
    ``card-GAME`` (its card for one rule set, e.g. ``card-finnish``), a path to a card file
    (``.toml``), or one rule's text."""
    if follow == "card" or follow.startswith("card-"):
        game = follow.partition("-")[2]
        games = shipped_games()
        if game not in games:
            names = ", ".join("card-" + g if g else "card" for g in games)
            raise ValueError(f"unknown card {follow!r}: the shipped cards are {names}")
        return read_card(SHIPPED_CARD, level, game)
    if follow.endswith(".toml"):
        return read_card(follow, level)
    return (parse_rule(follow),)


def shipped_games() -> list[str]:
    """The games the shipped card has a card for ("": both games), in file order."""
    stat = SHIPPED_CARD.stat()
    entries = _card_entries(SHIPPED_CARD.resolve(), stat.st_mtime_ns, stat.st_size) or ()
    return list(dict.fromkeys(["", *(e.get("game", "") for e in entries)]))


# --- the conditions: the kernel form and its plain-Python twin ------------------------------------


@kernel
def holds(ws: WsPointer, seat: np.int64, rule: np.int64) -> bool:
    """Does every condition of ``rule`` (its code, `encode`) hold for ``seat`` now?"""
    conditions = rule >> 8
    while conditions:
        term, number = conditions & 255, conditions >> 8 & 255
        if term == _LAST_ROUND:
            if not ws[layout.LAST_ROUND]:
                return False
        else:
            quantity = _quantity(ws, seat, (term - 2) // 2)
            if (quantity > number) != ((term - 2) % 2 == 1):
                return False
        conditions >>= 16
    return True


@kernel
def _quantity(ws: WsPointer, seat: np.int64, which: np.int64) -> np.int64:
    """Quantity ``which`` of `QUANTITIES` as ``seat`` sees it."""
    if which == 0:
        return ws[layout.DECK_N] - ws[layout.NEXT_CARD]
    if which == 1:
        return ws[layout.TABLE_N]
    if which == 2:
        return hand_size(ws, seat)
    out = np.int64(0)
    for card in range(ws[layout.DECK_N]):
        if ws[layout.CARD_POINTS + card] > 0 and is_unseen(ws, seat, card):
            out += 1
    return out


def holds_in(view: View, rule: Rule) -> bool:
    """`holds`'s twin: does every condition of ``rule`` hold in ``view``?"""
    return all(_holds_one(view, c) for c in rule.when)


def _holds_one(view: View, condition: Condition) -> bool:
    if condition.term == _LAST_ROUND:
        return view.last_round
    which, more = (condition.term - 2) // 2, (condition.term - 2) % 2 == 1
    quantity = (
        view.stock_left,
        len(view.table),
        len(view.hand),
        sum(view.rules.card_points(c) > 0 for c in unseen_cards(view).unseen),
    )[which]
    return (quantity > condition.number) == more
