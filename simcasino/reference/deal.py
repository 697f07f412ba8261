"""Reference engine: what one deal counts and how it scores (§4, §6), written for clarity.

The play of a deal is `reference.state.DealState`; what it counts as it goes (the piles,
the last capturer, sweeps, mulles, builds) is a `Tally`, which `score_deal` scores. This
is the oracle the kernel's scoring (`engine.scoring`) is held to; rule ids are cited in place.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from simcasino.core.cards import ACE_OF_SPADES, BIG_KASINO, SMALL_KASINO, is_ace, is_spade
from simcasino.core.columns import COLUMNS
from simcasino.core.rules import SPLIT_PLAYERS, Rules


@dataclass
class SeatResult:
    """What one seat took and scored in one deal (the `simulate` frame's columns)."""

    points: int = 0
    cards: int = 0
    spades: int = 0
    aces: int = 0
    big_kasino: int = 0
    small_kasino: int = 0
    sistan: int = 0
    tabbes: int = 0  # sweeps that scored, after the mökki limits and cancellation
    sweeps: int = 0  # every capture that emptied the table
    cards_points: int = 0  # points for most cards (with any carried-in points)
    spades_points: int = (
        0  # points for spades: most spades, and per spade where a variant counts them
    )
    mulles: int = 0  # §6 Mulle: captures of exactly one identical card
    tabbes_given: int = 0  # scored tabbes the next player made right after this seat's play
    mulles_points: int = 0  # §6 points for mulles (mulle_points each, or the played card's value)
    builds: int = 0  # §6 Builds: build moves made (new builds, raises, doubles)
    unheld_builds: int = (
        0  # §6 Builds: builds made without holding their value (build_penalty each)
    )

    def row(self) -> tuple[int, ...]:
        return tuple(getattr(self, c) for c in COLUMNS)


class Carry(NamedTuple):
    """Points a tied deal postpones to the next (``cards_tie`` / ``spades_tie`` = "carry")."""

    cards: int = 0
    spades: int = 0


@dataclass
class DealResult:
    seats: list[SeatResult]
    carry_out: Carry = Carry()  # points postponed to the next deal
    winner: int = -1  # a seat that won the game mid-deal (Finnish immediate scoring), else -1


SEAT_COUNTS = (
    "sweeps",
    "scored_sweeps",
    "given",
    "mulles",
    "mulle_scores",
    "builds",
    "unheld",
)  # per-seat lists


@dataclass
class Tally:
    """What a deal has counted so far: the piles (card id -> seat), the last capturer, and per
    seat the sweeps, scored sweeps and the rest `score_deal` needs."""

    owner: dict[int, int] = field(default_factory=dict)
    last_capturer: int = -1
    sweeps: list[int] = field(default_factory=list)  # every capture that emptied the table
    scored_sweeps: list[int] = field(
        default_factory=list
    )  # R-TABBE: those that scored (a double sweep twice)
    given: list[int] = field(default_factory=list)  # tabbes_given
    mulles: list[int] = field(default_factory=list)
    mulle_scores: list[int] = field(default_factory=list)  # points for mulles
    builds: list[int] = field(default_factory=list)  # §6 build moves made
    unheld: list[int] = field(default_factory=list)  # §6 builds made without holding the value

    @classmethod
    def start(cls, players: int) -> Tally:
        """Nothing counted yet, for ``players`` seats."""
        return cls(**{name: [0] * players for name in SEAT_COUNTS})

    def copy(self) -> Tally:
        return Tally(
            dict(self.owner),
            self.last_capturer,
            **{name: list(getattr(self, name)) for name in SEAT_COUNTS},
        )


def award_unique_max(counts: list[int], points: int, split: bool) -> list[int]:
    """§4 'most …' items: the unique leader gets ``points``; with ``split``, exactly two
    tied leaders get half each (Finnish spades for 3–4 players); otherwise nobody."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    award = [0] * len(counts)
    if len(leaders) == 1:
        award[leaders[0]] = points
    elif split and len(leaders) == 2:
        for i in leaders:
            award[i] = points // 2
    return award


def per_unit(counts: list[int], units: int) -> list[int]:
    """Per-seat counts summed per scoring unit (§6 Partnerships: seat % units)."""
    return [sum(counts[u::units]) for u in range(units)]


def score_deal(rules: Rules, tally: Tally, carry_in: Carry = Carry()) -> DealResult:
    """§4 (and the §6 variants): count every pile and score the deal, per unit (team or
    player); every seat gets its unit's row."""
    units = rules.units
    rows = [SeatResult() for _ in range(units)]
    aces_of_spades = [0] * units
    for card, owner in tally.owner.items():
        kind = card % 52
        s = rows[owner % units]
        aces_of_spades[owner % units] += kind == ACE_OF_SPADES
        s.cards += 1
        s.spades += is_spade(kind)
        s.aces += is_ace(kind)
        s.big_kasino += kind == BIG_KASINO
        s.small_kasino += kind == SMALL_KASINO
    if tally.last_capturer >= 0:
        rows[tally.last_capturer % units].sistan = 1
    scored = per_unit(tally.scored_sweeps, units)
    if rules.mokki_cancel and min(scored) > 0:  # R-MOKKI-CANCEL
        scored = [t - min(scored) for t in scored]
    split = rules.spades_tie == "split" and rules.players >= SPLIT_PLAYERS
    spades, spades_carry = _most_of(
        rules.spades_tie,
        [s.spades for s in rows],
        rules.most_spades_points + carry_in.spades,
        split,
    )
    cards, cards_carry = _most_of(
        rules.cards_tie, [s.cards for s in rows], rules.most_cards_points + carry_in.cards, False
    )
    for s, sweeps, tabbes, mulles, given in zip(
        rows,
        per_unit(tally.sweeps, units),
        scored,
        per_unit(tally.mulles, units),
        per_unit(tally.given, units),
    ):
        s.sweeps, s.tabbes, s.mulles, s.tabbes_given = sweeps, tabbes, mulles, given
    for s, mulle_points, builds, unheld in zip(
        rows,
        per_unit(tally.mulle_scores, units),
        per_unit(tally.builds, units),
        per_unit(tally.unheld, units),
    ):
        s.mulles_points, s.builds, s.unheld_builds = mulle_points, builds, unheld
    for i, s in enumerate(rows):
        s.cards_points = cards[i]
        s.spades_points = (
            spades[i]
            + spade_count_points(rules, s)
            + rules.ace_of_spades_points * aces_of_spades[i]
        )
        s.points = s.cards_points + s.spades_points + item_points(rules, s)
    seats = [dataclasses.replace(rows[seat % units]) for seat in range(rules.players)]
    return DealResult(seats=seats, carry_out=Carry(cards_carry, spades_carry))


def _most_of(tie: str, counts: list[int], points: int, split: bool) -> tuple[list[int], int]:
    """§4 a most-cards or most-spades item: each unit's award, and what a tie carries on
    (``tie`` = "carry": the whole item, else nothing)."""
    tied = counts.count(max(counts)) > 1
    return award_unique_max(counts, points, split), points if tied and tie == "carry" else 0


def spade_count_points(rules: Rules, s: SeatResult) -> int:
    """Points a variant gives per spade (Krypkasino) or per spade beyond a count (Överspader)."""
    over = max(0, s.spades - rules.spades_over) if rules.spades_over else 0
    return s.spades * rules.spade_points + over


def item_points(rules: Rules, s: SeatResult) -> int:
    """A row's points from everything but the spades and most-cards items (§4, §6)."""
    return (
        s.aces * rules.ace_points
        + s.big_kasino * rules.big_kasino_points
        + s.small_kasino * rules.small_kasino_points
        + s.sistan * rules.sistan_points
        + s.tabbes * rules.tabbe_points
        + s.tabbes_given * rules.tabbe_previous_points
        + s.mulles_points
        + s.unheld_builds * rules.build_penalty
    )


def partial_result(rules: Rules, immediate: list[int], winner: int) -> DealResult:
    """A deal cut short by a Finnish mid-deal win of ``winner``: only the immediate points
    (per unit) were scored."""
    seats = [SeatResult(points=immediate[seat % rules.units]) for seat in range(rules.players)]
    return DealResult(seats=seats, winner=winner)
