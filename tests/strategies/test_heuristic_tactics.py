"""Each tactic weight of `heuristic` changes decisions exactly in the situations it names
(docs/rules.md §7), on hand-built positions; a test per weight, named after it."""

from __future__ import annotations

from simcasino.core.cards import card_codes, parse_cards
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.reference.state import position_view
from simcasino.strategies.heuristic import PARAMS, Heuristic

SWEDISH, FINNISH = Rules.preset("swedish"), Rules.preset("finnish")


def position(rules: Rules, hand: str, table: str, seen: str = "") -> View:
    """Seat 0 to play ``hand`` on ``table``; ``seen`` cards are in a pile; the rest unseen."""
    return position_view(rules, parse_cards(hand), parse_cards(table), parse_cards(seen))


def describe(view: View, move: Move) -> str:
    taken = [c for i, c in enumerate(view.table) if move.taken >> i & 1]
    return " ".join(card_codes([move.card])) + (" takes " + " ".join(card_codes(taken)) if taken else " trails")


def choice(view: View, **params: float) -> str:
    return describe(view, Heuristic(params).choose(view))


def only(name: str, **changes: float) -> dict[str, float]:
    """Every tactic off except material and ``name`` (so each test sees one tactic alone),
    then ``changes``."""
    tactics = [p for p in PARAMS if p not in ("ace_value", "spade_value", "card_value")]
    return {**{p: 0.0 for p in tactics if p != name}, **changes}


def test_trail_points_keeps_point_cards() -> None:
    """S1 (§7.1): never trail a point card if avoidable."""
    view = position(SWEDISH, "AH 9D", "KC")
    assert choice(view, **only("trail_points")) == "9D trails"
    assert choice(view, **only("trail_points", trail_points=0)) == "AH trails"  # first in order


def test_trail_spades_prefers_a_non_spade() -> None:
    """S2 (§7.1): if you trail, prefer a card that is not a spade."""
    view = position(SWEDISH, "9S 9D", "KC")
    assert choice(view, **only("trail_spades")) == "9D trails"
    assert choice(view, **only("trail_spades", trail_spades=0)) == "9S trails"


def test_trail_dead_rank_prefers_dead_ranks() -> None:
    """S3 (§7.1): trail a rank whose other cards are gone (here the other 8s are seen)."""
    view = position(SWEDISH, "7H 8D", "KC", seen="8S 8H 8C")
    assert choice(view, **only("trail_dead_rank")) == "8D trails"
    assert choice(view, **only("trail_dead_rank", trail_dead_rank=0)) == "7H trails"


def test_hold_twos_keeps_a_non_spade_two_while_2s_unseen() -> None:
    """§7.2: 2♥ could take 2♠ later; with hold_twos it takes with the 5 instead."""
    view = position(SWEDISH, "2H 5C", "2D 5H")
    assert choice(view, **only("hold_twos")) == "5C takes 5H"
    assert choice(view, **only("hold_twos", hold_twos=0)) == "2H takes 2D"  # first of equals
    seen = position(SWEDISH, "2H 5C", "2D 5H", seen="2S")  # 2♠ already gone: no reason to hold
    assert choice(seen, **only("hold_twos")) == "2H takes 2D"


def test_hold_tens_keeps_a_non_diamond_ten_while_10d_unseen() -> None:
    view = position(SWEDISH, "10S 6C", "10H 6H")
    assert choice(view, **only("hold_tens", spade_value=0)) == "6C takes 6H"
    assert choice(view, **only("hold_tens", hold_tens=0, spade_value=0)) == "10S takes 10H"


def test_ace_value_prefers_points_over_cards() -> None:
    """§7.3: take A+3 with a 4 rather than 2+3+7 with a Q."""
    view = position(SWEDISH, "4H QH", "AC 3D 2C 7C")
    assert choice(view, **only("")) == "4H takes AC 3D"
    assert choice(view, **only("", ace_value=0)) == "QH takes 3D 2C 7C"


def test_spade_value_takes_spades_before_cards() -> None:
    """§7.3 (S8): Q♠ taking a queen (a spade, two cards) rather than three cards with a 9."""
    view = position(SWEDISH, "9H QS", "QD 2C 3D 4H")
    assert choice(view, **only("")) == "QS takes QD"
    assert choice(view, **only("", spade_value=0)) == "9H takes 2C 3D 4H"


def test_card_value_takes_the_most_cards() -> None:
    """§4 most cards: 9 taking 2+3+4 (four cards) rather than a king taking a king (two)."""
    view = position(SWEDISH, "9H KC", "KD 2C 3D 4H")
    assert choice(view, **only("")) == "9H takes 2C 3D 4H"
    assert choice(view, **only("", card_value=0)) == "9H trails"  # nothing is worth anything: the first move


def test_trail_rank_trails_low_cards_first() -> None:
    """A low card trailed is more often taken back by the one who trailed it: trail the 3."""
    view = position(SWEDISH, "KH 3D", "JC")
    assert choice(view, **only("trail_rank")) == "3D trails"
    assert choice(view, **only("trail_rank", trail_rank=0)) == "KH trails"


def test_tabbe_denial_leaves_no_lone_card() -> None:
    """§7.4: table 3,5,7,Q holding a Q: take 5+7 and leave Q+3 rather than Q and a lone 3."""
    view = position(SWEDISH, "QH", "3C 5D 7D QD")
    assert choice(view, **only("tabbe_denial")) == "QH takes 5D 7D"
    assert choice(view, **only("tabbe_denial", tabbe_denial=0)) == "QH takes 5D 7D QD"


def test_finnish_threats_leaves_no_fourteen_for_an_unseen_ace() -> None:
    """F1 (§7.6): trailing the 9 onto a 5 makes 14 for an unseen ace; trail the 7 instead."""
    view = position(FINNISH, "9H 7D", "5C")
    assert choice(view, **only("finnish_threats")) == "7D trails"
    assert choice(view, **only("finnish_threats", finnish_threats=0)) == "9H trails"


def test_lone_ace_is_not_kept_for_last() -> None:
    """F3 (§7.6): do not keep an ace as the last card."""
    view = position(FINNISH, "KD AH", "QC")
    assert choice(view, **only("lone_ace")) == "AH trails"
    assert choice(view, **only("lone_ace", lone_ace=0)) == "KD trails"  # first of equals


def test_storan_early_banks_10d() -> None:
    """F5 (§7.6): play 10♦ early when it is safe: its capture as 16 beats an equal one."""
    view = position(FINNISH, "6H 10D", "6C 10S KC")
    blind = {"ace_value": 0, "spade_value": 0, "card_value": 0}
    assert choice(view, **only("storan_early", **blind)) == "10D takes 6C 10S"
    assert choice(view, **only("storan_early", storan_early=0, **blind)) == "6H trails"


def test_risky_storan_trails_a_ten_when_nobody_else_can_take_it() -> None:
    """§7.5: 10♦ and 10♠ in hand, 8,2 on the table, the other 10s seen: trail 10♠."""
    view = position(SWEDISH, "10D 10S", "8C 2H KC", seen="10H 10C")
    assert choice(view, **only("risky_storan")) == "10S trails"
    assert choice(view, **only("risky_storan", risky_storan=0)) == "10D takes 8C 2H"
    risky = position(SWEDISH, "10D 10S", "8C 2H KC")  # 10♥ and 10♣ unseen: someone could take it
    assert choice(risky, **only("risky_storan")) == "10D takes 8C 2H"


def test_mulle_is_valued_in_mulle() -> None:
    """§6 Mulle: taking the identical card alone (5 points) beats taking more cards without it."""
    mulle = Rules.preset("mulle")
    view = position(mulle, "7H", "7H 4D 3C 9S")
    assert choice(view) == "7H takes 7H"  # the second copy, alone
    assert choice(position(mulle.replace(mulle_points=0), "7H", "7H 4D 3C 9S")) == "7H takes 4D 3C"


def test_objective_flips_when_the_fewest_points_win() -> None:
    """§6 Misère: the heuristic avoids points (here a card that can capture must)."""
    forced = SWEDISH.replace(must_capture=True)
    assert choice(position(forced, "AS 9H", "AD 9C")) == "AS takes AD"
    assert choice(position(forced.replace(low_wins=True, tie_break="play_on"), "AS 9H", "AD 9C")) == "9H takes 9C"
