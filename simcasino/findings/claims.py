"""The claims of docs/rules.md §7 the findings answer: per claim what the rule book says, the
weights that switch it off (its ablation arm), the rule sets it is asked in and the words
its sentences use ("careful trailing against trailing anything").

A claim is asked in the rule sets its source plays (the Swedish pages and Pagat: Swedish;
the Finnish page: Finnish). F4 has no switch: counting the aces is the survey every term
reads, not a term of its own, so it is listed with the reason and never ablated.
"""

from __future__ import annotations

from dataclasses import dataclass

SWEDISH, FINNISH = "swedish", "finnish"


@dataclass(frozen=True)
class Claim:
    """One claim: ``off`` the heuristic weights set to 0 to play without it (empty: no switch,
    ``why_no_switch`` says why); ``tactic`` and ``without`` name the two sides in words."""

    id: str
    section: str
    says: str
    tactic: str
    without: str
    off: tuple[str, ...]
    rule_sets: tuple[str, ...]
    why_no_switch: str = ""

    @property
    def arm(self) -> str:
        """The claim's arm name in the ablation specs."""
        return f"no_{self.id}"

    @property
    def strategy(self) -> str:
        """The heuristic without the claim, as a strategy label."""
        return "heuristic:" + ",".join(f"{w}=0" for w in self.off)

    @property
    def switchable(self) -> bool:
        return bool(self.off)


CLAIMS: tuple[Claim, ...] = (
    Claim("S1", "§7.1", "Do not trail a point card (an ace, 2♠, 10♦) if you can avoid it.",
          "keeping point cards back", "trailing point cards freely", ("trail_points",), (SWEDISH,)),
    Claim("S2", "§7.1", "If you trail, prefer a card that is not a spade.",
          "trailing non-spades", "trailing spades freely", ("trail_spades",), (SWEDISH,)),
    Claim("S3", "§7.1", "Prefer to trail a card of a rank whose other cards are already gone.",
          "trailing dead ranks", "ignoring dead ranks", ("trail_dead_rank",), (SWEDISH,)),
    Claim("S4", "§7.2", "Keep a two that is not a spade while 2♠ is out, to take it later.",
          "holding twos", "playing twos freely", ("hold_twos",), (SWEDISH,)),
    Claim("S5", "§7.2", "Keep a ten that is not a diamond while 10♦ is out, to catch it.",
          "holding tens", "playing tens freely", ("hold_tens",), (SWEDISH,)),
    Claim("S6", "§7.4", "Leave a card on the table on purpose so that the next player cannot sweep "
          "(3-5-7-Q with a queen: take 5 + 7 only).", "tabbe denial", "taking all it can", ("tabbe_denial",),
          (SWEDISH,)),
    Claim("S7", "§7.5", "With 10♦ and another ten, trail the ten to take it with 10♦ next turn, when no "
          "one else can hold a ten.", "the risky storan", "never gambling a ten", ("risky_storan",), (SWEDISH,)),
    Claim("S8", "§7.3", "Spades before cards: Q♠ alone may beat three non-spades taken with a 9.",
          "valuing spades", "counting spades as plain cards", ("spade_value",), (SWEDISH,)),
    Claim("F1", "§7.6", "Never lay a card that makes 14, 15 or 16 with the table: an ace, 2♠ or 10♦ takes it.",
          "leaving no 14-16", "ignoring 14-16", ("finnish_threats",), (FINNISH,)),
    Claim("F2", "§7.6", "Concentrate on the spades.", "concentrating on spades", "counting spades as plain cards",
          ("spade_value",), (FINNISH,)),
    Claim("F3", "§7.6", "Do not keep an ace as your last card.", "no ace kept for last", "keeping any card last",
          ("lone_ace",), (FINNISH,)),
    Claim("F4", "§7.6", "Count the aces that have been played.", "counting aces", "", (), (FINNISH,),
          why_no_switch="the heuristic counts every card it has seen for every term (its survey of the unseen "
                        "cards); counting aces is not a term with a weight, so it cannot be switched off alone"),
    Claim("F5", "§7.6", "Play 10♦ early when it is safe to do so.", "banking 10♦ early", "holding 10♦",
          ("storan_early",), (FINNISH,)),
)
BY_ID = {claim.id: claim for claim in CLAIMS}


def claims_of(rule_set: str) -> tuple[Claim, ...]:
    """The switchable claims asked in ``rule_set``."""
    return tuple(c for c in CLAIMS if rule_set in c.rule_sets and c.switchable)
