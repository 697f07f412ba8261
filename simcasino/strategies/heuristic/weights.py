"""The heuristic's weights: one per tactic of docs/rules.md §7 (and the material), by name.

A weight's name is the name of its term everywhere: the kernel's feature function in
`terms`, the method of the plain-Python twin in `python`, the tests, the ablations. Weights
are points per unit of their feature; the kernel reads them in milli-points from the seat's
parameters, one slot each, in the order of `PARAMS` (the slot constants below are derived
from the names, never written by position).
"""

from __future__ import annotations

# weight name -> (default, what it weighs); weights are in points per unit
PARAMS: dict[str, tuple[float, str]] = {
    "ace_value": (1.5, "rule points (aces, kasinos) a capture takes"),
    "spade_value": (0.9, "each spade a capture takes (most spades)"),
    "card_value": (0.125, "each card a capture takes (most cards)"),
    "trail_safety": (2.5, "cost of trailing point cards and spades; dead ranks are cheaper"),
    "hold_twos": (0.3, "cost of playing a non-spade 2 while 2♠ is unseen"),
    "hold_tens": (0.5, "cost of playing a non-diamond 10 while 10♦ is unseen"),
    "tabbe_denial": (1.0, "cost of leaving a table one unseen card can sweep (§6: or a build it can take)"),
    "finnish_avoid": (0.5, "cost of leaving 14/15/16 for an unseen A/2♠/10♦; 10♦ early; no lone ace"),
    "risky_storan": (1.0, "bonus for trailing a ten to catch it with 10♦ when no one else can"),
    "trail_rank": (1.5, "cost per rank of the trailed card, in 13ths (negative: trail high cards)"),
    "builds": (0.5, "§6: worth of a build it can take next turn, per its cards' material; "
                    "0: never build unless obliged"),
}
ORDER = tuple(PARAMS)  # the kernel's parameter slots
SLOT = {name: slot for slot, name in enumerate(ORDER)}
ACE_VALUE = SLOT["ace_value"]
SPADE_VALUE = SLOT["spade_value"]
CARD_VALUE = SLOT["card_value"]
TRAIL_SAFETY = SLOT["trail_safety"]
HOLD_TWOS = SLOT["hold_twos"]
HOLD_TENS = SLOT["hold_tens"]
TABBE_DENIAL = SLOT["tabbe_denial"]
FINNISH_AVOID = SLOT["finnish_avoid"]
RISKY_STORAN = SLOT["risky_storan"]
TRAIL_RANK = SLOT["trail_rank"]
BUILDS = SLOT["builds"]

MILLI = 1000  # weights in milli-points, features in milli-units: a term is in micro-points
NO_BUILD = 1 << 50  # micro-points off every build move when the ``builds`` weight is 0


def weights_milli(params: dict[str, float]) -> list[int]:
    """Weights in milli-points, in `ORDER`, defaults filled in."""
    return [round(params.get(name, default) * MILLI) for name, (default, _) in PARAMS.items()]
