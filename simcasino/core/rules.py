"""One immutable `Rules` value carrying every knob of the rule book, and the named presets.

Each field cites the rule of docs/rules.md it sets. A `Rules` is validated when made, so
an engine never sees an impossible combination; `to_array` turns it into the small integer
array the numba kernel reads, which is why one compiled kernel serves every preset.

Points the rule book leaves open are knobs, with the most common reading as default:

- ``spades_tie = "split"`` (Finnish): with 3–4 players, exactly two players (or teams) tied for
  most spades get half the spade points each; three or more tied get nothing, and with 2
  players a tie scores nothing, as the rule book grants the split for 3–4 players only.
  ``"carry"`` (a published Finnish reading): a tied most-spades point is added to the next
  deal's, like ``cards_tie = "carry"``.
- ``cards_tie = "carry"``: a tied most-cards point is added to the next deal's most-cards
  point (it carries on while deals tie); in single-deal simulations it is simply lost.
- ``tie_break = "finnish"``: players tied at the top after a deal are split by the points
  from aces and kasinos in that deal, then most spades, then most cards in that deal; any
  tie left over is settled by dealing again, as with ``tie_break = "play_on"``.
- ``mokki_limit``: a sweep scores only if, when it is made, no player has that many game
  points (0 turns the limit off).
- ``max_capture = "maximal"`` (Misère, Krypkasino: "take everything the card can take"): a
  capture that another capture of the same card contains is not allowed; several maximal
  captures may remain (table 2,3,5,7 with a 10: {3,7} and {2,3,5}). ``"most_cards"`` (the
  Swedish house rule): only the captures taking the most cards.
- ``must_capture`` is per card: a card that can capture may not be trailed, but the player
  may still play another card that captures nothing (*krypa*).
- ``opponent_chooses``: the next player in turn (an opponent, also in partnerships) picks
  among the played card's allowed captures when there are several.
- ``low_wins``: after a deal in which someone reached the target (or after ``game_deals``
  deals), the unique lowest total wins; a tie at the bottom is played on. Misère scores at
  the end of the deal (no Finnish mid-deal win).
- Short last round (two decks): the cards left go out one at a time from the leader, so
  hands differ by at most one card; the player before a sweeper is the seat to the right.
- Partnerships (``partnership`` = players per team): team of a seat = seat % teams, so
  partners sit opposite (4 players: 0+2, 1+3; 6 players in pairs: 0+3, 1+4, 2+5; in threes:
  0+2+4, 1+3+5). Piles, sweeps and points are pooled, and every seat's row shows its team's.
- ``builds`` (§6 Builds): the readings are listed in `simcasino.reference.builds`.
  ``build_penalty`` 0 forbids a build whose value the builder does not hold; any other value
  allows it at that cost (the rule book's −5).
- ``mulle_within`` (§6 Glimne's Mulle): a mulle is any capture that includes a card identical to
  the played one (inside a build too); ``mulle_value``: a mulle scores the played card's capture
  value (its highest, for a Swedish ace) instead of ``mulle_points``.
- Glimne's Mulle deals the 8 first-round table cards two at a time: two after each round of
  two to the hands, then the other four, two at a time.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simcasino.core import suggest
from simcasino.core.cards import ACE_OF_SPADES, BIG_KASINO, SMALL_KASINO, is_ace, is_spade, rank_of

if TYPE_CHECKING:
    import numpy as np

ON, OFF = ("on", "true", "yes"), ("off", "false", "no")  # the one spelling of a boolean, everywhere
KNOBS_LISTED = "simcasino rules show"  # where a misspelt knob's message sends for the full list
SPADES_TIE = ("nobody", "split", "carry")
SPLIT_PLAYERS = 3  # spades_tie = "split" applies with at least this many players (§4)
CARDS_TIE = ("nobody", "carry")
TIE_BREAK = ("spades", "finnish", "play_on")
MAX_CAPTURE = ("most_cards", "maximal")


@dataclass(frozen=True)
class Rules:
    """Every knob of the Swedish and Finnish rule books. Defaults are Swedish Kasino.

    A value: `replace` gives a new Rules, validated, and the values each card takes in both
    engines follow from the knobs.

    >>> from simcasino import Rules
    >>> from simcasino.core.cards import parse_card
    >>> rules = Rules.preset("finnish").replace(players=3)
    >>> rules.players, rules.target
    (3, 16)
    >>> Rules().hand_values(parse_card("10D")), rules.hand_values(parse_card("10D")) # 10♦ from hand
    ((10,), (16,))
    """

    name: str = "swedish"
    description: str = "Swedish Kasino: ace 1 or 14, 11 points a deal plus tabbes, to 16."
    players: int = 2  # R-REDEAL: 2, 3 or 4 players (5-6 with two decks)
    partnership: int = 0  # §6 Partnerships: players per team (0: everyone alone; 2; 3)
    # R-DECK, R-DEAL, R-REDEAL: decks, cards to each hand a round, to the table the first round
    decks: int = 1
    hand_cards: int = 4
    table_cards: int = 4
    # R-ACE-SE / R-VAL-FI: the values a card may take when played, and when on the table.
    ace_hand: tuple[int, ...] = (1, 14)
    ace_table: tuple[int, ...] = (1, 14)
    small_kasino_hand: int = 2  # 2♠ from hand: 2, or 15 (Finnish)
    big_kasino_hand: int = 10  # 10♦ from hand: 10, or 16 (Finnish)
    must_capture_max: bool = False  # R-OPTIONAL house rule: only the largest captures
    max_capture: str = "most_cards"  # what largest means: most cards, or maximal (Misère)
    must_capture: bool = False  # §6 Misère, Krypkasino: a card that can capture must
    opponent_chooses: bool = False  # §6 Misère: the next player picks among the captures
    # §4 scoring
    most_spades_points: int = 2
    spades_tie: str = "nobody"
    most_cards_points: int = 1
    cards_tie: str = "nobody"
    spades_over: int = 0  # §6 Överspader: 1 point per spade beyond this many (0: off)
    ace_points: int = 1
    spade_points: int = 0  # §6 Krypkasino: every spade scores this much
    big_kasino_points: int = 2
    small_kasino_points: int = 1
    sistan_points: int = 1  # R-SISTAN
    tabbe_points: int = 1  # R-TABBE
    tabbe_previous_points: int = 0  # §6 Krypkasino: to the player before a sweeper (-5)
    double_sweep: bool = False  # §6 Misère: a sweep of a single table card counts twice
    mulle_points: int = 0  # §6 Mulle: a card taking exactly one identical card
    mulle_within: bool = False  # §6 Glimne's Mulle: any capture including an identical card
    mulle_value: bool = False  # §6 Glimne's Mulle: a mulle scores the played card's value
    ace_of_spades_points: int = 0  # §6 Glimne's Mulle: A♠ scores this much more (A♠ 2)
    # §6 Builds (Rakennuskasino, Glimne's Mulle)
    builds: bool = False
    build_penalty: int = (
        0  # a build whose value the builder does not hold: 0 forbidden, else its cost
    )
    mokki_last_round: bool = False  # R-MOKKI-LAST: no sweep points in the last round
    mokki_limit: int = 0  # R-MOKKI-10: no sweep points once anyone has this many (0: off)
    mokki_cancel: bool = False  # R-MOKKI-CANCEL
    # §5 the game
    immediate_scoring: bool = False  # Finnish: aces and kasinos score when captured
    target: int = 16  # R-TARGET
    tie_break: str = "spades"
    low_wins: bool = False  # §6 Misère, Krypkasino: the fewest points win
    game_deals: int = 0  # §6 Krypkasino: a game is this many deals (0: to the target)
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ace_hand", _value_tuple("ace_hand", self.ace_hand))
        object.__setattr__(self, "ace_table", _value_tuple("ace_table", self.ace_table))
        _validate(self)

    @staticmethod
    def preset(name: str) -> Rules:
        """A named preset (see `PRESETS`); ValueError naming the choices if unknown."""
        key = name.strip().lower() if isinstance(name, str) else None
        if key not in PRESETS:
            choices = suggest.near_or_all(name, PRESETS, "simcasino rules list")
            raise ValueError(f"unknown rules {name!r}: {choices}")
        return PRESETS[key]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed, validated; unknown knob names are refused."""
        unknown = sorted(set(changes) - set(knob_names()) - {"name", "description"})
        if unknown:
            raise ValueError(suggest.unknown("rule knob", unknown[0], knob_names(), KNOBS_LISTED))
        return dataclasses.replace(self, **{k: as_switch(self, k, v) for k, v in changes.items()})

    def knobs(self) -> dict[str, Any]:
        """The knob values by name (without the name and description)."""
        return {k: getattr(self, k) for k in knob_names()}

    def to_table(self, changed_only: bool = False) -> dict[str, Any]:
        """The rules as the TOML-style table `from_table` reads back to these rules: the preset
        and every knob, or (``changed_only``) the knobs that differ from the preset. Specs, run
        manifests, game records and deal-state JSON all write rules through this."""
        preset = PRESETS.get(self.name, SWEDISH)
        knobs = {
            k: v for k, v in self.knobs().items() if not changed_only or v != getattr(preset, k)
        }
        return {
            "preset": preset.name,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in knobs.items()},
        }

    def to_array(self) -> np.ndarray:
        """The knobs as int64, in the order of `KNOB_INDEX`, then the values of each kind of card
        (`card_values`), for the numba kernel: a fresh copy of the array worked out once per
        rule set (a paired experiment plays deck by deck, each deck asking again: measured, a
        tenth of a tiny findings run)."""
        return _rules_array(self).copy()

    def hand_values(self, card: int) -> tuple[int, ...]:
        """The values a card may take when played from hand (R-ACE-SE / R-VAL-FI): the one
        definition both engines read (the kernel through `card_values`)."""
        kind = card % 52
        if kind == SMALL_KASINO:
            return (self.small_kasino_hand,)
        if kind == BIG_KASINO:
            return (self.big_kasino_hand,)
        return self.ace_hand if is_ace(kind) else (rank_of(kind),)

    def table_values(self, card: int) -> tuple[int, ...]:
        """The values a card may take while it lies on the table."""
        return self.ace_table if is_ace(card) else (rank_of(card),)

    def card_values(self) -> list[int]:
        """`CARD_FACTS` of each kind of card (52 of them) in a row, as `to_array` ends: so the
        kernel reads card values from the same definition as the reference engine."""
        out = []
        for kind in range(52):
            hand, table = self.hand_values(kind), self.table_values(kind)
            out += [
                hand[0],
                hand[1] if len(hand) > 1 else 0,
                table[0],
                int(len(table) > 1),
                self.card_points(kind),
            ]
        return out

    def card_points(self, card: int) -> int:
        """Points a card scores for its own sake (§4: aces and kasinos; Finnish: at capture)."""
        kind = card % 52
        return (
            self.ace_points * is_ace(kind)
            + self.spade_points * is_spade(kind)
            + self.ace_of_spades_points * (kind == ACE_OF_SPADES)
            + self.big_kasino_points * (kind == BIG_KASINO)
            + self.small_kasino_points * (kind == SMALL_KASINO)
        )

    @property
    def deck_size(self) -> int:
        return 52 * self.decks

    @property
    def units(self) -> int:
        """Scoring units: teams in a partnership, else players."""
        return self.players // self.partnership if self.partnership else self.players

    @property
    def deal_rounds(self) -> int:
        """Rounds of dealing in one deal (R-REDEAL), the last one possibly short."""
        after_first = self.deck_size - self.table_cards - self.players * self.hand_cards
        per_round = self.players * self.hand_cards
        return 1 + -(-after_first // per_round)


def knob_names() -> list[str]:
    return [f.name for f in fields(Rules) if f.name not in ("name", "description", "extra")]


def _value_tuple(name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    try:
        values = tuple(sorted({int(v) for v in value}))
    except (TypeError, ValueError):
        raise ValueError(
            f"rule knob {name!r} must be a list of values from 1, 14; got {value!r}"
        ) from None
    if not values or not set(values) <= {1, 14}:
        raise ValueError(
            f"rule knob {name!r} must be a non-empty list of values from 1, 14; got {value!r}"
        )
    return values


_CHOICES = {
    "spades_tie": SPADES_TIE,
    "cards_tie": CARDS_TIE,
    "tie_break": TIE_BREAK,
    "max_capture": MAX_CAPTURE,
}
_RANGES = {
    "players": (2, 6),
    "partnership": (0, 3),
    "decks": (1, 2),
    "hand_cards": (4, 5),
    "table_cards": (4, 8),
    "build_penalty": (-100, 0),
    "spades_over": (0, 13),
    "tabbe_previous_points": (-100, 100),
    "game_deals": (0, 1000),
    "small_kasino_hand": (2, 15),
    "big_kasino_hand": (10, 16),
    "target": (1, 10_000),
    "mokki_limit": (0, 10_000),
}


def as_switch(rules: Rules, knob: str, value: Any) -> Any:
    """A true/false knob's value written as a word (on/off, true/false, yes/no: `ON`, `OFF`)
    as the bool it means, so that ``--rule must_capture_max=on`` reads as ``--vary`` does;
    any other value as given (`_validate` judges it)."""
    if (
        isinstance(getattr(rules, knob, None), bool)
        and isinstance(value, str)
        and value.lower() in ON + OFF
    ):
        return value.lower() in ON
    return value


def _near(value: object, words: Sequence[str]) -> str:
    """ "; did you mean most_cards?" for a misspelt word of a knob's choices, else ""."""
    hint = suggest.did_you_mean(value, words) if isinstance(value, str) else ""
    return f"; {hint.strip()}" if hint else ""


def _validate(rules: Rules) -> None:
    for f in fields(Rules):
        value = getattr(rules, f.name)
        if f.name in _CHOICES:
            if value not in _CHOICES[f.name]:
                raise ValueError(
                    f"rule knob {f.name!r} must be one of {', '.join(_CHOICES[f.name])}; got "
                    f"{value!r}{_near(value, _CHOICES[f.name])}"
                )
        elif f.type == "bool" and not isinstance(value, bool):
            raise ValueError(
                f"rule knob {f.name!r} must be true or false (on/off, yes/no); got "
                f"{value!r}{_near(value, ON + OFF)}"
            )
        elif f.type == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"rule knob {f.name!r} must be a whole number; got {value!r}")
            low, high = _RANGES.get(f.name, (0, 100))
            if not low <= value <= high:
                raise ValueError(f"rule knob {f.name!r} must be from {low} to {high}; got {value}")
    if rules.small_kasino_hand not in (2, 15):
        raise ValueError(
            f"rule knob 'small_kasino_hand' must be 2 or 15; got {rules.small_kasino_hand}"
        )
    if rules.big_kasino_hand not in (10, 16):
        raise ValueError(
            f"rule knob 'big_kasino_hand' must be 10 or 16; got {rules.big_kasino_hand}"
        )
    _validate_variants(rules)
    if rules.mokki_limit and rules.mokki_limit > rules.target:
        raise ValueError(
            f"rule knob 'mokki_limit' ({rules.mokki_limit}) above 'target' ({rules.target}) never "
            "applies; use 0 to turn it off"
        )


def _validate_variants(rules: Rules) -> None:
    """Combinations of the §6 knobs that make no game."""
    if rules.players > 4 and rules.decks == 1:
        raise ValueError(
            f"{rules.players} players need two decks (decks = 2); one deck deals to 2-4"
        )
    if rules.partnership == 1 or (
        rules.partnership and (rules.players % rules.partnership or rules.units < 2)
    ):
        raise ValueError(
            f"rule knob 'partnership' ({rules.partnership}) must split {rules.players} players "
            "into 2 or more equal teams: 2 with 4 or 6 players, 3 with 6, or 0 for no teams"
        )
    if rules.low_wins and rules.immediate_scoring:
        raise ValueError(
            "rule knobs 'low_wins' and 'immediate_scoring' exclude each other: a low game ends "
            "after a deal"
        )
    if rules.low_wins and rules.tie_break != "play_on":
        raise ValueError(
            "rule knob 'low_wins' needs tie_break = \"play_on\": a tie at the bottom is played on"
        )
    if rules.tabbe_previous_points and rules.mokki_cancel:
        raise ValueError("rule knobs 'tabbe_previous_points' and 'mokki_cancel' exclude each other")
    misere = [
        k
        for k in ("low_wins", "must_capture", "opponent_chooses", "must_capture_max")
        if getattr(rules, k)
    ]
    if rules.builds and misere:
        raise ValueError(
            f"rule knob 'builds' does not combine with {misere[0]!r}: §6 allows builds in any "
            "variant but Misère"
        )
    if rules.build_penalty and not rules.builds:
        raise ValueError("rule knob 'build_penalty' needs builds = true")


# --- the kernel's view -------------------------------------------------------------------

ARRAY_FIELDS = tuple(knob_names())  # the knobs in field order, each an int64 of `Rules.to_array`
KNOB_INDEX = {name: i for i, name in enumerate(ARRAY_FIELDS)}
KNOB_SLOTS = 48  # room for the knobs, so a new knob moves no offset of the kernel
assert len(ARRAY_FIELDS) <= KNOB_SLOTS
# After the knobs, per kind of card (`Rules.card_values`): its hand value, its second hand
# value (0: none), its table value, 1 if it may also count 14 on the table, and its points.
CARD_FACTS = ("hand", "hand2", "table", "table_high", "points")
CARD_VALUES = KNOB_SLOTS
RULES_LEN = CARD_VALUES + 52 * len(CARD_FACTS)


def _encode(name: str, value: Any) -> int:
    """Integer form of a knob: value sets as bits (1 -> bit 0, 14 -> bit 1), choices by index."""
    if name in ("ace_hand", "ace_table"):
        return (1 if 1 in value else 0) | (2 if 14 in value else 0)
    if name in _CHOICES:
        return _CHOICES[name].index(value)
    return int(value)


# --- presets and TOML --------------------------------------------------------------------

SWEDISH = Rules()
FINNISH = Rules(
    name="finnish",
    description="Finnish Kasino: A 14/1, 2♠ 15/2, 10♦ 16/10 from hand/table; 10 points a deal, "
    "mökki limits.",
    ace_hand=(14,),
    ace_table=(1,),
    small_kasino_hand=15,
    big_kasino_hand=16,
    spades_tie="split",
    sistan_points=0,
    mokki_last_round=True,
    mokki_limit=10,
    mokki_cancel=True,
    immediate_scoring=True,
    tie_break="finnish",
)
OVERSPADER = Rules(
    name="overspader",
    description="Överspader: Swedish, but 1 point per spade beyond 6 instead of most spades; to "
    "21.",
    most_spades_points=0,
    spades_over=6,
    target=21,
)
MULLE = Rules(
    name="mulle",
    description="Mulle: two decks, 5 cards a hand (5 to the table first); mulle 5, most spades 1, "
    "no cards point; to 50.",
    decks=2,
    hand_cards=5,
    table_cards=5,
    most_spades_points=1,
    most_cards_points=0,
    mulle_points=5,
    target=50,
)
# §6 the misère family (Misère, Krypkasino): a card that can capture must take all it can,
# and the fewest points win
_TAKE_ALL_FEWEST_WIN = dict(
    must_capture=True,
    must_capture_max=True,
    max_capture="maximal",
    low_wins=True,
    tie_break="play_on",
)
MISERE = dataclasses.replace(
    FINNISH,
    name="misere",
    description="Misère: Finnish scoring, fewest points win; must take all a card can, the "
    "opponent picks which.",
    opponent_chooses=True,
    immediate_scoring=False,
    **_TAKE_ALL_FEWEST_WIN,
)
KRYPKASINO = Rules(
    name="krypkasino",
    description="Krypkasino: two decks, ace 14/1, must take all; 42 penalty points a deal, tabbe "
    "+5/-5; 4 deals, fewest win.",
    decks=2,
    ace_hand=(14,),
    ace_table=(1,),
    most_spades_points=0,
    most_cards_points=0,
    spade_points=1,
    big_kasino_points=3,
    sistan_points=0,
    tabbe_points=5,
    tabbe_previous_points=-5,
    game_deals=4,
    target=100,
    **_TAKE_ALL_FEWEST_WIN,
)
RAKENNUSKASINO = dataclasses.replace(
    FINNISH,
    name="rakennuskasino",
    description="Rakennuskasino: Finnish Kasino with builds (a card onto a table card or build, "
    "taken as a whole).",
    builds=True,
)
MULLE_GLIMNE = Rules(
    name="mulle_glimne",
    description="Glimne's Mulle: two decks, 4 a hand (8 to the table first), A 14/1, builds; "
    "mulle = card value; to 50.",
    decks=2,
    table_cards=8,
    ace_hand=(14,),
    ace_table=(1,),
    small_kasino_hand=15,
    big_kasino_hand=16,
    most_spades_points=0,
    most_cards_points=0,
    ace_points=0,
    spade_points=1,
    ace_of_spades_points=1,
    big_kasino_points=3,
    small_kasino_points=1,
    sistan_points=0,
    mulle_within=True,
    mulle_value=True,
    builds=True,
    target=50,
)
PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (SWEDISH, FINNISH, OVERSPADER, MULLE, MISERE, KRYPKASINO, RAKENNUSKASINO, MULLE_GLIMNE)
}

# a preset as a switch (`rules tune --vary mulle=off,on`): the knobs in which it differs from
# Swedish Kasino
SWITCHES: dict[str, dict[str, Any]] = {
    name: {k: v for k, v in rules.knobs().items() if v != SWEDISH.knobs()[k]}
    for name, rules in PRESETS.items()
    if name != "swedish"
}


def resolve(rules: Rules | str | dict[str, Any]) -> Rules:
    """Accept a Rules, a preset name, or a TOML-style table (see `from_table`)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, dict):
        return from_table(rules)
    raise ValueError(f"rules must be a preset name, a Rules or a table; got {type(rules).__name__}")


def states_players(rules: Rules | str | dict[str, Any]) -> bool:
    """Whether ``rules`` name a player count of their own: a table with ``players``, or a
    Rules whose count is not its preset's (a preset's name names none)."""
    if isinstance(rules, dict):
        return "players" in rules
    if isinstance(rules, Rules):
        return rules.players != PRESETS.get(rules.name, Rules()).players
    return False


def for_players(rules: Rules | str | dict[str, Any], players: int | None, what: str = "") -> Rules:
    """``rules`` for ``players`` players (None: as the rules say). Rules that state another
    count are a ValueError in one line, rather than one of the two silently winning."""
    resolved = resolve(rules)
    if players is None or players == resolved.players:
        return resolved
    if states_players(rules):
        raise ValueError(
            f"the rules are for {resolved.players} players, but {what or f'players={players}'}: "
            f"give one of them (or rules.replace(players={players}))"
        )
    return resolved.replace(players=players)


def from_table(table: dict[str, Any], where: str = "rules") -> Rules:
    """Rules from a table such as ``{"preset": "finnish", "players": 3, "target": 21}``."""
    if not isinstance(table, dict):
        raise ValueError(f"{where}: expected a table of rule knobs; got {table!r}")
    table = dict(table)
    preset = table.pop("preset", "swedish")
    changes = {}
    for key, value in table.items():
        if key not in knob_names():
            raise ValueError(
                f"{where}: {suggest.unknown('rule knob', key, knob_names(), KNOBS_LISTED)}"
            )
        changes[key] = tuple(value) if isinstance(value, list) else value
    try:
        return Rules.preset(preset).replace(**changes)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def from_toml(path: str | Path) -> Rules:
    """Rules from a TOML file with a ``[rules]`` table (or the knobs at top level); a file with
    neither is refused rather than read as Swedish Kasino."""
    data = read_toml(path)
    if "rules" in data:
        return from_table(data["rules"], where=f"{path} [rules]")
    if not data:
        raise ValueError(
            f"{path}: no [rules] table (and no rule knobs): write one, e.g. with 'simcasino rules "
            "show'"
        )
    return from_table(data, where=str(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file's table; ValueError naming the file if it cannot be read or parsed."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except OSError as err:
        raise ValueError(f"{path}: cannot read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: malformed TOML: {err}") from None


def parse_overrides(texts: Sequence[str]) -> dict[str, Any]:
    """``["target=21", "ace_hand=[14]"]`` -> knob changes; a knob given twice is refused (the
    second would silently win)."""
    changes: dict[str, Any] = {}
    for text in texts:
        key, value = parse_override(text)
        if key in changes:
            raise ValueError(
                f"rule knob {key!r} given twice ({key}={changes[key]!r} and {text!r}): give it once"
            )
        changes[key] = value
    return changes


def parse_override(text: str) -> tuple[str, Any]:
    """``"target=21"`` -> ``("target", 21)``, values read as TOML (``ace_hand=[14]``,
    ``x=true``)."""
    if "=" not in text:
        raise ValueError(f"bad rule override {text!r}: expected KNOB=VALUE, e.g. target=21")
    key, raw = (s.strip() for s in text.split("=", 1))
    return key, parse_value(raw)


def parse_value(raw: str) -> Any:
    """A knob value written as in TOML (``21``, ``[14]``, ``true``); a bare word (``play_on``) as
    text."""
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return tuple(value) if isinstance(value, list) else value


@functools.lru_cache(maxsize=64)
def _rules_array(rules: Rules) -> np.ndarray:
    """`Rules.to_array`, once per rule set (the rules are frozen, so they key a cache)."""
    import numpy as np  # here, so that reading rules (``simcasino rules list``) needs no numpy

    out = np.zeros(RULES_LEN, dtype=np.int64)
    for i, name in enumerate(ARRAY_FIELDS):
        out[i] = _encode(name, getattr(rules, name))
    out[CARD_VALUES:] = rules.card_values()
    return out
