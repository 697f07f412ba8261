"""What a deal pays each seat in a game-AI toolkit, the bounds of that pay, and its sum.

Why three utilities (the game parameter ``utility``): a toolkit's players maximise their
return, and what a seat plays for depends on the study:

- ``points`` (the default): the deal's points (`DealState.result`, the same scoring
  `simulate` reports), negated where the fewest points win (§6 Misère and Krypkasino:
  ``low_wins``), so a higher return is always better;
- ``difference``: the seat's points less the best of the other sides' (negated where the
  fewest win): zero-sum with two sides, what a seat playing to beat the table plays for;
- ``win``: +1 if the seat's side beats every other side, -1 if another side beats it, 0 if
  it ties the best.

Partners (§6 Partnerships) share their team's return; the other sides are the other teams.
"""

from __future__ import annotations

from simcasino.core.rules import Rules
from simcasino.reference.deal import Carry
from simcasino.reference.state import DealState

UTILITIES = ("points", "difference", "win")


def check_utility(utility: str) -> str:
    if utility not in UTILITIES:
        raise ValueError(
            f"game parameter 'utility' must be one of {', '.join(UTILITIES)}; got {utility!r}"
        )
    return utility


def returns(deal: DealState, utility: str = "points") -> list[float]:
    """Each seat's return in the finished deal (see the module docstring), 0 before the end."""
    if not deal.is_over:
        return [0.0] * deal.rules.players
    return returns_of(deal.rules, [seat.points for seat in deal.result().seats], utility)


def returns_of(rules: Rules, scored: list[int], utility: str = "points") -> list[float]:
    """Each seat's return when its side has ``scored`` these points (a deal's, or a whole
    game's: `interop.episode`), as the module docstring says."""
    sign = -1 if rules.low_wins else 1
    points = [sign * p for p in scored]
    if utility == "points":
        return [float(p) + 0.0 for p in points]  # + 0.0: never -0.0
    units = rules.units
    best_other = [
        max(points[v] for v in range(units) if v != seat % units) for seat in range(rules.players)
    ]
    margins = [points[seat] - best_other[seat] for seat in range(rules.players)]
    if utility == "difference":
        return [float(m) for m in margins]
    return [float((m > 0) - (m < 0)) for m in margins]


def plays_of(rules: Rules) -> list[int]:
    """The cards each seat is dealt in a deal (R-DEAL, R-REDEAL; with two decks a short last
    round goes out one card at a time from the leader, seat 0), so the plays it makes."""
    dealt = rules.deck_size - rules.table_cards
    return [
        dealt // rules.players + (seat < dealt % rules.players) for seat in range(rules.players)
    ]


def point_range(rules: Rules, carry: Carry = Carry()) -> tuple[int, int]:
    """The fewest and the most points one side can score in a deal, true bounds.

    Most: the side takes every card (all the card points, most cards, most spades and every
    spade, the sistan) and sweeps at every play it makes (R-TABBE: the next side must trail on
    the empty table, and the sweeper's next card can take that card alone; twice with §6
    Misère's double sweep; no sweep points in the last round under R-MOKKI-LAST), each sweep
    a mulle at its card's highest value (§6 Mulle) if that pays more. A deal can go that way,
    so no smaller bound holds for every deal. Fewest: nothing, less what a side can be made to
    pay: §6 Krypkasino's points to the seat before each sweep of the next seat (each of its
    plays), and the build penalty for a build at each of its own plays (§6 Builds). The side
    is the seats of a team in a partnership (the plays of its seats added up); points tied
    deals ``carry`` into the deal go to one side at most.
    """
    plays, units, n = plays_of(rules), rules.units, rules.players
    mine = max(sum(plays[u::units]) for u in range(units))
    nexts = max(sum(plays[(s + 1) % n] for s in range(u, n, units)) for u in range(units))
    sweeping = (
        mine - (n // units) * last_round_cards(rules) // n if rules.mokki_last_round else mine
    )
    per_sweep = (2 if rules.double_sweep else 1) * rules.tabbe_points
    per_given = (2 if rules.double_sweep else 1) * rules.tabbe_previous_points
    mulle = max(rules.mulle_points, 16 * rules.mulle_value)
    cards = sum(rules.card_points(c) for c in range(rules.deck_size))
    spades_over = max(0, 13 * rules.decks - rules.spades_over) if rules.spades_over else 0
    high = (
        cards
        + rules.most_spades_points
        + rules.most_cards_points
        + sum(carry)
        + spades_over
        + rules.sistan_points
        + sweeping * max(0, per_sweep)
        + mine * mulle
        + nexts * max(0, per_given)
    )
    low = (
        nexts * min(0, per_given)
        + mine * min(0, rules.build_penalty)
        + sweeping * min(0, per_sweep)
    )
    return low, high


def last_round_cards(rules: Rules) -> int:
    """The cards the last round deals to the hands (R-REDEAL; short with two decks)."""
    dealt, per_round = rules.deck_size - rules.table_cards, rules.players * rules.hand_cards
    return dealt - (rules.deal_rounds - 1) * per_round


def constant_total(rules: Rules) -> int | None:
    """The points every deal hands out in all, when the rules fix them, else None.

    Fixed when every point goes with a card, and every card ends in a pile (R-SISTAN; a
    position too large to list ends the deal the same way): no most-cards, most-spades or
    spades-over items (a tie scores nobody), no sistan point (a deal without a capture has
    none), every sweep's points paid by the seat before (§6 Krypkasino: +5 and -5), no mulle
    or build penalty points, and no mid-deal win cutting the deal short (§5 Finnish immediate
    scoring). Krypkasino is such a game (42 points a deal); Misère is not (its sweeps and its
    most-cards and most-spades items, which a tie leaves unscored, vary the total).
    """
    varying = (
        rules.most_cards_points
        or rules.most_spades_points
        or rules.spades_over
        or rules.sistan_points
        or rules.tabbe_points + rules.tabbe_previous_points
        or rules.mulle_points
        or rules.mulle_value
        or (rules.builds and rules.build_penalty)
        or rules.immediate_scoring
    )
    if varying:
        return None
    return sum(rules.card_points(c) for c in range(rules.deck_size))


def bounds(rules: Rules, utility: str = "points", carry: Carry = Carry()) -> tuple[float, float]:
    """The lowest and the highest return of a seat under ``rules`` and ``utility`` (true
    bounds: `point_range` for points, the widest gap between two sides for differences)."""
    if utility == "win":
        return -1.0, 1.0
    low, high = point_range(rules, carry)
    if utility == "difference":
        return float(low - high), float(high - low)
    return (
        (float(-high) + 0.0, float(-low) + 0.0)
        if rules.low_wins
        else (float(low) + 0.0, float(high))
    )


def utility_sum(rules: Rules, utility: str = "points") -> float | None:
    """What the seats' returns add up to in every deal, or None when it varies (general-sum):
    0 for differences and wins between two sides; the fixed total of points (`constant_total`,
    each seat counting its team's, negated where the fewest win) for points."""
    if utility != "points":
        return 0.0 if rules.units == 2 else None
    total = constant_total(rules)
    if total is None:
        return None
    return float((-total if rules.low_wins else total) * (rules.players // rules.units)) + 0.0
