"""One immutable `Rules` value carrying every knob of the rule book, and the named presets.

Each field cites the rule of shared/RULES.md it sets. A `Rules` is validated when made, so
an engine never sees an impossible combination; `to_array` turns it into the small integer
array the numba kernel reads, which is why one compiled kernel serves every preset.

Points the rule book leaves open are knobs, with the most common reading as default:

- ``spades_tie = "split"`` (Finnish, 3–4 players): exactly two players tied for most spades
  get half the spade points each; three or more tied get nothing.
- ``cards_tie = "carry"``: a tied most-cards point is added to the next deal's most-cards
  point (it carries on while deals tie); in single-deal simulations it is simply lost.
- ``tie_break = "finnish"``: players tied at the top after a deal are split by the points
  from aces and kasinos in that deal, then most spades, then most cards in that deal; any
  tie left over is settled by dealing again, as with ``tie_break = "play_on"``.
- ``mokki_limit``: a sweep scores only if, when it is made, no player has that many game
  points (0 turns the limit off).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from simcasino.cards import BIG_KASINO, SMALL_KASINO, is_ace

SPADES_TIE = ("nobody", "split")
CARDS_TIE = ("nobody", "carry")
TIE_BREAK = ("spades", "finnish", "play_on")


@dataclass(frozen=True)
class Rules:
    """Every knob of the Swedish and Finnish rule books. Defaults are Swedish Kasino."""

    name: str = "swedish"
    description: str = "Swedish Kasino: ace 1 or 14, 11 points a deal plus tabbes, to 16."
    players: int = 2  # R-REDEAL: 2, 3 or 4 players
    # R-ACE-SE / R-VAL-FI: the values a card may take when played, and when on the table.
    ace_hand: tuple[int, ...] = (1, 14)
    ace_table: tuple[int, ...] = (1, 14)
    small_kasino_hand: int = 2  # 2♠ from hand: 2, or 15 (Finnish)
    big_kasino_hand: int = 10  # 10♦ from hand: 10, or 16 (Finnish)
    must_capture_max: bool = False  # R-OPTIONAL house rule: a capture takes the most cards
    # §4 scoring
    most_spades_points: int = 2
    spades_tie: str = "nobody"
    most_cards_points: int = 1
    cards_tie: str = "nobody"
    ace_points: int = 1
    big_kasino_points: int = 2
    small_kasino_points: int = 1
    sistan_points: int = 1  # R-SISTAN
    tabbe_points: int = 1  # R-TABBE
    mokki_last_round: bool = False  # R-MOKKI-LAST: no sweep points in the last round
    mokki_limit: int = 0  # R-MOKKI-10: no sweep points once anyone has this many (0: off)
    mokki_cancel: bool = False  # R-MOKKI-CANCEL
    # §5 the game
    immediate_scoring: bool = False  # Finnish: aces and kasinos score when captured
    target: int = 16  # R-TARGET
    tie_break: str = "spades"
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
            raise ValueError(f"unknown rules {name!r}: choose from {', '.join(PRESETS)}")
        return PRESETS[key]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed, validated; unknown knob names are refused."""
        unknown = sorted(set(changes) - set(knob_names()) - {"name", "description"})
        if unknown:
            raise ValueError(f"unknown rule knob {unknown[0]!r}: knobs are {', '.join(knob_names())}")
        return dataclasses.replace(self, **changes)

    def knobs(self) -> dict[str, Any]:
        """The knob values by name (without the name and description)."""
        return {k: getattr(self, k) for k in knob_names()}

    def to_array(self) -> np.ndarray:
        """The knobs as int64, in the order of `KNOB_INDEX`, for the numba kernel."""
        out = np.zeros(len(ARRAY_FIELDS), dtype=np.int64)
        for i, name in enumerate(ARRAY_FIELDS):
            out[i] = _encode(name, getattr(self, name))
        return out

    def card_points(self, card: int) -> int:
        """Points a card scores for its own sake (§4: aces and kasinos; Finnish: at capture)."""
        kind = card % 52
        return (
            self.ace_points * is_ace(kind)
            + self.big_kasino_points * (kind == BIG_KASINO)
            + self.small_kasino_points * (kind == SMALL_KASINO)
        )

    @property
    def deal_rounds(self) -> int:
        """Rounds of 4 cards to each hand in one deal (R-REDEAL): 6, 4 or 3."""
        return (52 - 4) // (4 * self.players)


def knob_names() -> list[str]:
    return [f.name for f in fields(Rules) if f.name not in ("name", "description", "extra")]


def _value_tuple(name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    try:
        values = tuple(sorted({int(v) for v in value}))
    except (TypeError, ValueError):
        raise ValueError(f"rule knob {name!r} must be a list of values from 1, 14; got {value!r}") from None
    if not values or not set(values) <= {1, 14}:
        raise ValueError(f"rule knob {name!r} must be a non-empty list of values from 1, 14; got {value!r}")
    return values


_CHOICES = {"spades_tie": SPADES_TIE, "cards_tie": CARDS_TIE, "tie_break": TIE_BREAK}
_RANGES = {
    "players": (2, 4),
    "small_kasino_hand": (2, 15),
    "big_kasino_hand": (10, 16),
    "target": (1, 10_000),
    "mokki_limit": (0, 10_000),
}


def _validate(rules: Rules) -> None:
    for f in fields(Rules):
        value = getattr(rules, f.name)
        if f.name in _CHOICES:
            if value not in _CHOICES[f.name]:
                raise ValueError(f"rule knob {f.name!r} must be one of {', '.join(_CHOICES[f.name])}; got {value!r}")
        elif f.type == "bool" and not isinstance(value, bool):
            raise ValueError(f"rule knob {f.name!r} must be true or false; got {value!r}")
        elif f.type == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"rule knob {f.name!r} must be a whole number; got {value!r}")
            low, high = _RANGES.get(f.name, (0, 100))
            if not low <= value <= high:
                raise ValueError(f"rule knob {f.name!r} must be from {low} to {high}; got {value}")
    if rules.small_kasino_hand not in (2, 15):
        raise ValueError(f"rule knob 'small_kasino_hand' must be 2 or 15; got {rules.small_kasino_hand}")
    if rules.big_kasino_hand not in (10, 16):
        raise ValueError(f"rule knob 'big_kasino_hand' must be 10 or 16; got {rules.big_kasino_hand}")
    if rules.mokki_limit and rules.mokki_limit > rules.target:
        raise ValueError(
            f"rule knob 'mokki_limit' ({rules.mokki_limit}) above 'target' ({rules.target}) never applies; use 0 to turn it off"
        )


# --- the kernel's view -------------------------------------------------------------------

ARRAY_FIELDS = (
    "players",
    "ace_hand",
    "ace_table",
    "small_kasino_hand",
    "big_kasino_hand",
    "must_capture_max",
    "most_spades_points",
    "spades_tie",
    "most_cards_points",
    "cards_tie",
    "ace_points",
    "big_kasino_points",
    "small_kasino_points",
    "sistan_points",
    "tabbe_points",
    "mokki_last_round",
    "mokki_limit",
    "mokki_cancel",
    "immediate_scoring",
    "target",
    "tie_break",
)
KNOB_INDEX = {name: i for i, name in enumerate(ARRAY_FIELDS)}


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
    description="Finnish Kasino: A 14/1, 2♠ 15/2, 10♦ 16/10 from hand/table; 10 points a deal, mökki limits.",
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
PRESETS: dict[str, Rules] = {r.name: r for r in (SWEDISH, FINNISH)}


def resolve(rules: Rules | str | dict[str, Any]) -> Rules:
    """Accept a Rules, a preset name, or a TOML-style table (see `from_table`)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, dict):
        return from_table(rules)
    raise ValueError(f"rules must be a preset name, a Rules or a table; got {type(rules).__name__}")


def from_table(table: dict[str, Any], where: str = "rules") -> Rules:
    """Rules from a table such as ``{"preset": "finnish", "players": 3, "target": 21}``."""
    if not isinstance(table, dict):
        raise ValueError(f"{where}: expected a table of rule knobs; got {table!r}")
    table = dict(table)
    preset = table.pop("preset", "swedish")
    changes = {}
    for key, value in table.items():
        if key not in knob_names():
            raise ValueError(f"{where}: unknown rule knob {key!r}: knobs are {', '.join(knob_names())}")
        changes[key] = tuple(value) if isinstance(value, list) else value
    try:
        return Rules.preset(preset).replace(**changes)
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def from_toml(path: str | Path) -> Rules:
    """Rules from a TOML file with a ``[rules]`` table (or the knobs at top level)."""
    data = read_toml(path)
    return from_table(data.get("rules", data), where=f"{path} [rules]")


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file's table; ValueError naming the file if it cannot be read or parsed."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except OSError as err:
        raise ValueError(f"{path}: cannot read: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: malformed TOML: {err}") from None


def parse_override(text: str) -> tuple[str, Any]:
    """``"target=21"`` -> ``("target", 21)``, values read as TOML (``ace_hand=[14]``, ``x=true``)."""
    if "=" not in text:
        raise ValueError(f"bad rule override {text!r}: expected KNOB=VALUE, e.g. target=21")
    key, raw = (s.strip() for s in text.split("=", 1))
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word such as play_on
    return key, tuple(value) if isinstance(value, list) else value
