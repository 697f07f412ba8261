"""The claims of docs/rules.md §7 the findings answer: per claim what the rule book says, the
words its sentences use ("careful trailing"), the rule sets it is asked in and the heuristic
weights that carry it (its dose–response: the weights at 0, ½×, 1×, 2×).

A claim is asked in the rule sets its source plays (the Swedish pages and Pagat: Swedish;
the Finnish page: Finnish). What a claim says of a move is its move test
(`simcasino.strategies.claims`); F4 has no weight of its own (counting the aces is the survey
every heuristic term reads), so it has no dose–response, but its move test measures it as
every other claim is measured.
"""

from __future__ import annotations

from dataclasses import dataclass

SWEDISH, FINNISH = "swedish", "finnish"


@dataclass(frozen=True)
class Claim:
    """One claim: ``tactic`` names it in words, ``weights`` the heuristic weights carrying it
    (empty: none)."""

    id: str
    section: str
    says: str
    tactic: str
    weights: tuple[str, ...]
    rule_sets: tuple[str, ...]


CLAIMS: tuple[Claim, ...] = (
    Claim("S1", "§7.1", "Do not trail a point card (an ace, 2♠, 10♦) if you can avoid it.",
          "keeping point cards back", ("trail_points",), (SWEDISH,)),
    Claim("S2", "§7.1", "If you trail, prefer a card that is not a spade.",
          "trailing non-spades", ("trail_spades",), (SWEDISH,)),
    Claim("S3", "§7.1", "Prefer to trail a card of a rank whose other cards are already gone.",
          "trailing dead ranks", ("trail_dead_rank",), (SWEDISH,)),
    Claim("S4", "§7.2", "Keep a two that is not a spade while 2♠ is out, to take it later.",
          "holding twos", ("hold_twos",), (SWEDISH,)),
    Claim("S5", "§7.2", "Keep a ten that is not a diamond while 10♦ is out, to catch it.",
          "holding tens", ("hold_tens",), (SWEDISH,)),
    Claim("S6", "§7.4", "Leave a card on the table on purpose so that the next player cannot sweep "
          "(3-5-7-Q with a queen: take 5 + 7 only).", "tabbe denial", ("tabbe_denial",),
          (SWEDISH,)),
    Claim("S7", "§7.5", "With 10♦ and another ten, trail the ten to take it with 10♦ next turn, when no "
          "one else can hold a ten.", "the risky storan", ("risky_storan",), (SWEDISH,)),
    Claim("S8", "§7.3", "Of the captures, an ace before a card count, spades before cards (with a 4 take A + 3 "
          "rather than 2 + 3 + 7 with a queen).",
          "valuing spades", ("spade_value",), (SWEDISH,)),
    Claim("F1", "§7.6", "Never lay a card that makes 14, 15 or 16 with the table: an ace, 2♠ or 10♦ takes it.",
          "leaving no 14-16", ("finnish_threats",), (FINNISH,)),
    Claim("F2", "§7.6", "Concentrate on the spades.", "concentrating on spades", ("spade_value",), (FINNISH,)),
    Claim("F3", "§7.6", "Do not keep an ace as your last card.", "no ace kept for last", ("lone_ace",), (FINNISH,)),
    Claim("F4", "§7.6", "Count the aces that have been played: leave no 14 on the table while one is out.",
          "counting aces", (), (FINNISH,)),
    Claim("F5", "§7.6", "Play 10♦ early when it is safe to do so.", "banking 10♦ early", ("storan_early",), (FINNISH,)),
)
BY_ID = {claim.id: claim for claim in CLAIMS}


def claims_of(rule_set: str) -> tuple[Claim, ...]:
    """The claims asked in ``rule_set``."""
    return tuple(c for c in CLAIMS if rule_set in c.rule_sets)
