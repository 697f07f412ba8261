"""`heuristic`: a weighted evaluation of every legal move; its terms are the tactics of
docs/rules.md §7 (and the material a capture takes), each with a named weight, so an
experiment can switch one off (weight 0).

A move's value is in micro-points: each weight (milli-points) times its term (milli-units),
integers, so both forms agree exactly, plus what no weight scales (a scoring tabbe, §6 the
build penalty). The terms, each named after its weight (`weights.PARAMS`):

- ace_value, spade_value, card_value: a capture's rule points (a §6 mulle's included),
  spades and cards, the played card included;
- trail_points (S1), trail_spades (S2), trail_dead_rank (S3), a trail: minus its rule points;
  minus one for a spade; plus one if its rank is dead. trail_rank, a trail: minus rank/13
  (low cards go first: a low card on the table is more often taken back by the one who
  trailed it; measured: worth about half a point per deal against greedy);
- hold_twos / hold_tens (S4, S5): minus one point for playing a non-spade 2 while 2♠ is
  unseen (a non-diamond 10 while 10♦ is unseen), unless the move takes that kasino;
- tabbe_denial (S6): minus the tabbe and the rule points left if one unseen card can sweep
  the table left (1-3 items); with builds also each build left at its material times the
  chance an opponent takes it (an opponent's: certain if a card of its value is unseen, as
  its owner must hold one; ours: the chance the opponents' hands, as large as ours, hold one
  of the unseen cards of its value);
- finnish_threats (F1): minus one per unseen ace, 2♠ or 10♦ worth 14+ from hand that could
  capture from the table left; lone_ace (F3): minus one for keeping an ace as the last card;
  storan_early (F5): plus one for a capture with 10♦ played as 14+ (bank it early);
- risky_storan (S7): for trailing a non-diamond 10 while holding 10♦ when no unseen card
  could take that 10 and 10♦ could take it next turn, the material of 10♦ and that 10;
- builds (§6), build moves only: the material of the build's cards when another card in hand
  can take it next turn; weight 0 never builds unless nothing else is legal.

Two claims have no term of their own: S8 and F2 (spades before cards, an ace before a card
count) are the material weights themselves, spade_value and ace_value against card_value
(switch S8 off: spade_value 0); F4 (count the aces) is the survey every term reads, not a
term, so it cannot be weighed apart from the terms that count.

With builds a build on the table is a group of one (its value only) in every term that asks
what the table offers, and a capture of a build takes its cards' material. Where the fewest
points win (§6 Misère, Krypkasino) the value changes sign: the heuristic avoids what it
would otherwise seek. "Unseen" is what this player cannot see (`survey`). The best value
wins; ties go to the first move in canonical order.

The modules: `weights` (names, defaults, slots), `terms` (the kernel's term functions),
`survey` (what the player cannot see, in the kernel), `kernel` (the choice), `python` (the
plain-Python twin).
"""

from __future__ import annotations

from simcasino.strategies.heuristic.kernel import (
    choose_kernel,
    choose_listed,
    move_terms,
    move_value,
    prepare_seat,
    rank_moves,
)
from simcasino.strategies.heuristic.python import Heuristic, miss_milli, take_risk
from simcasino.strategies.heuristic.weights import (
    MILLI,
    ORDER,
    PARAMS,
    VOCABULARY,
    describe,
    weights_milli,
)

NAME = "heuristic"
DESCRIPTION = "weighs material and the §7 tactics (each a named weight: set 0 to switch it off)"
COUNTS_CARDS = True  # reads what nobody has seen yet (dealing.count_hidden)
PLAYS_BUILDS = True  # §6: see the module docstring

__all__ = [
    "DESCRIPTION",
    "MILLI",
    "NAME",
    "ORDER",
    "PARAMS",
    "VOCABULARY",
    "Heuristic",
    "choose_kernel",
    "choose_listed",
    "describe",
    "kernel_params",
    "make",
    "miss_milli",
    "move_terms",
    "move_value",
    "prepare_seat",
    "rank_moves",
    "take_risk",
    "weights_milli",
]


def make(params: dict[str, float]) -> Heuristic:
    """The plain-Python strategy for the reference engine."""
    return Heuristic(params)


def kernel_params(params: dict[str, float]) -> list[int]:
    """The weights as the kernel reads them (one parameter slot each, in `ORDER`)."""
    return weights_milli(params)
