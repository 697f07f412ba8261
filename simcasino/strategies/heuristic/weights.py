"""The heuristic's weights: one per tactic of docs/rules.md §7 (and the material), by name.

A weight's name is the name of its term everywhere: the kernel's feature function in
`terms`, the method of the plain-Python twin in `python`, the tests, the ablations. Weights
are points per unit of their feature; the kernel reads them in milli-points from the seat's
parameters, one slot each, in the order of `PARAMS` (the slot constants below are derived
from the names, never written by position).
"""

from __future__ import annotations

from simcasino.strategies.words import Vocabulary

# weight name -> (default, what it weighs); weights are in points per unit
PARAMS: dict[str, tuple[float, str]] = {
    "ace_value": (1.5, "rule points (aces, kasinos) a capture takes"),
    "spade_value": (0.9, "each spade a capture takes (most spades)"),
    "card_value": (0.125, "each card a capture takes (most cards)"),
    "trail_points": (2.5, "S1: cost of trailing a point card, per rule point"),
    "trail_spades": (0.5, "S2: cost of trailing a spade"),
    "trail_dead_rank": (
        0.25,
        "S3: bonus for trailing a card whose rank is dead (every other card of it seen)",
    ),
    "hold_twos": (0.3, "cost of playing a non-spade 2 while 2♠ is unseen"),
    "hold_tens": (0.5, "cost of playing a non-diamond 10 while 10♦ is unseen"),
    "tabbe_denial": (
        1.0,
        "cost of leaving a table one unseen card can sweep (§6: or a build it can take)",
    ),
    "finnish_threats": (
        0.5,
        "F1: cost per unseen A/2♠/10♦ playing as 14+ that could capture from the table left",
    ),
    "lone_ace": (0.25, "F3: cost of keeping an ace as the last card"),
    "storan_early": (0.25, "F5: bonus for a capture with 10♦ played as 14+ (bank it early)"),
    "risky_storan": (1.0, "bonus for trailing a ten to catch it with 10♦ when no one else can"),
    "trail_rank": (1.5, "cost per rank of the trailed card, in 13ths (negative: trail high cards)"),
    "builds": (
        0.5,
        "§6: worth of a build it can take next turn, per its cards' material; "
        "0: never build unless obliged",
    ),
}
ORDER = tuple(PARAMS)  # the kernel's parameter slots
# what a weight stands for, in words a club player reads ("the heuristic without ...")
WORDS: dict[str, str] = {
    "ace_value": "valuing points (S8)",
    "spade_value": "valuing spades (S8, F2)",
    "card_value": "valuing cards",
    "trail_points": "keeping point cards back (S1)",
    "trail_spades": "keeping spades back (S2)",
    "trail_dead_rank": "trailing dead ranks (S3)",
    "hold_twos": "holding twos (S4)",
    "hold_tens": "holding tens (S5)",
    "tabbe_denial": "tabbe denial (S6)",
    "finnish_threats": "leaving no 14-16 (F1)",
    "lone_ace": "no ace kept for last (F3)",
    "storan_early": "10♦ early (F5)",
    "risky_storan": "risky storan (S7)",
    "trail_rank": "trailing low cards first",
    "builds": "building (§6)",
}
# several weights that are one piece of advice, named together when all are off
GROUPS: dict[
    str, tuple[str, ...]
] = {  # the largest first: "without any advice" rather than its parts
    "any advice of §7 (on material alone)": (
        "trail_points",
        "trail_spades",
        "trail_dead_rank",
        "hold_twos",
        "hold_tens",
        "tabbe_denial",
        "finnish_threats",
        "lone_ace",
        "storan_early",
        "risky_storan",
    ),
    "careful trailing (S1-S3)": ("trail_points", "trail_spades", "trail_dead_rank"),
    "the Finnish advice (F1, F3, F5)": ("finnish_threats", "lone_ace", "storan_early"),
}
SLOT = {name: slot for slot, name in enumerate(ORDER)}
ACE_VALUE = SLOT["ace_value"]
SPADE_VALUE = SLOT["spade_value"]
CARD_VALUE = SLOT["card_value"]
TRAIL_POINTS = SLOT["trail_points"]
TRAIL_SPADES = SLOT["trail_spades"]
TRAIL_DEAD_RANK = SLOT["trail_dead_rank"]
HOLD_TWOS = SLOT["hold_twos"]
HOLD_TENS = SLOT["hold_tens"]
TABBE_DENIAL = SLOT["tabbe_denial"]
FINNISH_THREATS = SLOT["finnish_threats"]
LONE_ACE = SLOT["lone_ace"]
STORAN_EARLY = SLOT["storan_early"]
RISKY_STORAN = SLOT["risky_storan"]
TRAIL_RANK = SLOT["trail_rank"]
BUILDS = SLOT["builds"]

MILLI = 1000  # weights in milli-points, features in milli-units: a term is in micro-points
NO_BUILD = 1 << 50  # micro-points off every build move when the ``builds`` weight is 0


def describe(params: dict[str, float]) -> str:
    """The heuristic with these weights in words: "the heuristic without careful trailing
    (S1-S3)", "the heuristic without holding tens (S5) or holding twos (S4)", "the heuristic
    with holding twos (S4) at 3" (for sentences, not arm labels)."""
    off = [name for name, value in params.items() if value == 0 and PARAMS[name][0] != 0]
    parts = []
    for words, names in GROUPS.items():
        if all(name in off for name in names):
            parts.append(words)
            off = [name for name in off if name not in names]
    parts += [WORDS[name] for name in off]
    changed = [
        f"{WORDS[name]} at {value:g}"
        for name, value in params.items()
        if value not in (0, PARAMS[name][0])
    ]
    text = "the heuristic"
    if parts:
        text += " without " + _listed(parts, "or")
    if changed:
        text += (" and" if parts else "") + " with " + _listed(changed, "and")
    return text


# the weights in words for the pages that say what was compared (`strategies.words`)
VOCABULARY = Vocabulary(
    {name: default for name, (default, _) in PARAMS.items()}, WORDS, GROUPS, describe
)


def _listed(items: list[str], last: str) -> str:
    """ "a", "a or b", "a, b or c": so that "without holding tens (S5) or holding twos (S4)"
    cannot be read as holding twos."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def weights_milli(params: dict[str, float]) -> list[int]:
    """Weights in milli-points, in `ORDER`, defaults filled in."""
    return [round(params.get(name, default) * MILLI) for name, (default, _) in PARAMS.items()]
