"""Capture values and capture enumeration of the reference engine (§1, R-CAPTURE)."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from simcasino.analyze import capture_options
from simcasino.core.cards import card_code, parse_card, rank_of
from simcasino.core.rules import FINNISH, SWEDISH
from simcasino.reference.captures import capture_masks, groups, mask_cards


def options(card, table, rules="swedish"):
    return set(capture_options(card, table.split(), rules, engine="reference"))


def opts(*groups_of_codes):
    return {tuple(g.split()) for g in groups_of_codes}


# --- R-VAL, R-ACE-SE, R-VAL-FI: values --------------------------------------------------------


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH], ids=["swedish", "finnish"])
def test_r_val_face_values(rules):
    """R-VAL: 2..10 face value, J 11, Q 12, K 13 (in hand and on the table)."""
    for code, value in [("3H", 3), ("9C", 9), ("10S", 10), ("10C", 10), ("JD", 11), ("QS", 12), ("KH", 13), ("2D", 2)]:
        assert rules.hand_values(parse_card(code)) == (value,)
        assert rules.table_values(parse_card(code)) == (value,)


def test_r_ace_se_values():
    """R-ACE-SE: an ace is 1 or 14, in hand and on the table; kasinos keep face value."""
    for ace in ("AS", "AH", "AD", "AC"):
        assert set(SWEDISH.hand_values(parse_card(ace))) == {1, 14}
        assert set(SWEDISH.table_values(parse_card(ace))) == {1, 14}
    assert SWEDISH.hand_values(parse_card("2S")) == (2,)
    assert SWEDISH.hand_values(parse_card("10D")) == (10,)


def test_r_val_fi_table():
    """R-VAL-FI table: ace 14/1, 2♠ 15/2, 10♦ 16/10 (hand/table)."""
    f = FINNISH
    for ace in ("AS", "AH", "AD", "AC"):
        assert f.hand_values(parse_card(ace)) == (14,)
        assert f.table_values(parse_card(ace)) == (1,)
    assert f.hand_values(parse_card("2S")) == (15,) and f.table_values(parse_card("2S")) == (2,)
    assert f.hand_values(parse_card("10D")) == (16,) and f.table_values(parse_card("10D")) == (10,)
    assert f.hand_values(parse_card("2H")) == (2,) and f.hand_values(parse_card("10C")) == (10,)


# --- R-ACE-SE captures ------------------------------------------------------------------------


def test_r_ace_se_ace_14_takes_a_5_8():
    """R-ACE-SE: played ace as 14 with table A, 5, 8 takes A(1)+5+8; as 1 (or 14 vs 14) the lone A."""
    assert options("AH", "AC 5D 8S") == opts("AC", "AC 5D 8S")


def test_r_ace_se_table_aces_independent():
    """R-ACE-SE: each table ace is 1 or 14 independently, even within one capture:
    an ace takes AS (as 14) together with AD (as 1) + K."""
    assert options("AH", "AS AD KC") == opts("AS", "AD", "AS AD", "AS KC", "AD KC", "AS AD KC")


def test_r_ace_se_table_ace_as_1_or_14_for_other_cards():
    assert options("KH", "AS QD") == opts("AS QD")  # 1 + 12
    assert options("2H", "AS AD") == opts("AS AD")  # 1 + 1
    assert options("5H", "AS 4D") == opts("AS 4D")
    assert options("AH", "AS") == opts("AS")  # played ace 1 takes a lone ace
    assert options("AH", "7C 7D") == opts("7C 7D")  # played ace as 14
    assert options("AH", "9C 4D") == set()  # 13 is not 1 or 14


def test_swedish_kasinos_are_face_value():
    assert options("2S", "2H") == opts("2H")
    assert options("10D", "10C") == opts("10C")
    assert options("10D", "6H 4C") == opts("6H 4C")
    assert options("2S", "7C 8D") == set()


# --- R-VAL-FI captures ------------------------------------------------------------------------


def test_r_val_fi_ace_never_takes_lone_ace():
    assert options("AH", "AC", "finnish") == set()
    assert options("AS", "AC AD", "finnish") == set()


def test_r_val_fi_2s_never_takes_a_2():
    assert options("2S", "2H", "finnish") == set()
    assert options("2S", "2H 2D 2C", "finnish") == set()


def test_r_val_fi_10d_never_takes_a_10():
    assert options("10D", "10C", "finnish") == set()
    assert options("10D", "10C 10H 10S", "finnish") == set()


def test_r_val_fi_examples():
    """R-VAL-FI: from hand A takes 9+5, 2♠ takes 7+8, 10♦ takes 6+10♣."""
    assert options("AH", "9C 5D", "finnish") == opts("9C 5D")
    assert options("2S", "7C 8D", "finnish") == opts("7C 8D")
    assert options("10D", "6H 10C", "finnish") == opts("6H 10C")


def test_r_val_fi_table_values():
    """R-VAL-FI: on the table an ace is 1, 2♠ is 2, 10♦ is 10."""
    assert options("AH", "AC KD", "finnish") == opts("AC KD")  # 1 + 13 = 14
    assert options("2H", "AC AD", "finnish") == opts("AC AD")
    assert options("2H", "2S", "finnish") == opts("2S")  # hold a non-spade two (§7.2)
    assert options("10H", "10D", "finnish") == opts("10D")
    assert options("5H", "AC 4D", "finnish") == opts("AC 4D")
    assert options("10S", "AC 9H", "finnish") == opts("AC 9H")
    assert options("KH", "AC QD", "finnish") == opts("AC QD")
    assert options("3H", "AC", "finnish") == set()


def test_finnish_table_ace_is_never_14():
    assert options("AH", "AC KD AD", "finnish") == opts("AC KD", "KD AD")


# --- R-CAPTURE ----------------------------------------------------------------------------------


def test_r_capture_2468_with_10_takes_all():
    """R-CAPTURE: table 2,4,6,8 with a 10 takes all four ({2,8} and {4,6})."""
    assert options("10H", "2C 4D 6S 8H") == opts("2C 8H", "4D 6S", "2C 4D 6S 8H")


def test_r_capture_2357_with_10_never_all_four():
    """R-CAPTURE: table 2,3,5,7 with a 10 gives {3,7} or {2,3,5}, never all four."""
    got = options("10H", "2C 3C 5C 7C")
    assert got == opts("3C 7C", "2C 3C 5C")
    assert ("2C", "3C", "5C", "7C") not in got


def test_r_capture_queen_takes_q_and_9_3():
    """R-CAPTURE: a queen takes Q and 9+3 together (two groups)."""
    assert options("QH", "QC 9D 3S") == opts("QC", "9D 3S", "QC 9D 3S")


def test_r_capture_jack_takes_5_4_2():
    assert options("JH", "5C 4D 2H") == opts("5C 4D 2H")


def test_r_capture_groups_are_disjoint():
    """A table card is in at most one group: 10 cannot take a lone 5 (5 used twice)."""
    assert options("10H", "5C") == set()
    assert options("10H", "5C 5D") == opts("5C 5D")
    assert options("5H", "5C 5D") == opts("5C", "5D", "5C 5D")  # two groups of one
    assert options("6S", "3C 3D 6H") == opts("3C 3D", "6H", "3C 3D 6H")
    assert options("9H", "2C 3D 4H 5C") == opts("4H 5C", "2C 3D 4H")  # overlapping groups never both


def test_r_capture_nothing_on_empty_table_or_too_big():
    assert options("KH", "") == set()
    assert options("3H", "5C 9D") == set()


def test_capture_options_shape():
    """Public API: tuples in table order, list in ascending-mask order, no duplicates."""
    got = capture_options("10H", ["2C", "3C", "5C", "7C"], "swedish", engine="reference")
    assert got == [("2C", "3C", "5C"), ("3C", "7C")]
    assert (capture_options("10H", "2C,4D 6S 8H", engine="reference")
            == [("4D", "6S"), ("2C", "8H"), ("2C", "4D", "6S", "8H")])
    with pytest.raises(ValueError, match="unknown engine 'bogus'"):
        capture_options("10H", ["2C"], engine="bogus")
    with pytest.raises(ValueError, match="'XY'"):
        capture_options("XY", ["2C"], engine="reference")


@pytest.mark.parametrize("engine", ["reference", "numba"])
def test_capture_options_refuse_a_card_given_twice(engine: str) -> None:
    """R-DECK: one deck holds each card once; two decks hold it twice, and then a card may
    take its twin (a mulle)."""
    with pytest.raises(ValueError, match=r"card 9H is given more than once \(one deck\)"):
        capture_options("9H", ["9H"], engine=engine)
    with pytest.raises(ValueError, match=r"card 9H is given more than once"):
        capture_options("10H", ["9H", "9H"], engine=engine)
    assert capture_options("9H", ["9H"], "mulle", engine=engine) == [("9H",)]
    with pytest.raises(ValueError, match=r"card 9H is given more than twice \(two decks\)"):
        capture_options("9H", ["9H", "9H"], "mulle", engine=engine)


def test_groups_and_mask_cards():
    table = [parse_card(c) for c in "2C 3C 5C 7C".split()]
    assert sorted(groups(10, table, SWEDISH)) == sorted([0b0111, 0b1010])
    assert [card_code(c) for c in mask_cards(0b1010, table)] == ["3C", "7C"]


# --- an independent oracle: partition of the captured set into groups ---------------------------


def oracle_captures(card: int, table: list[int], rules) -> set[int]:
    """Every mask whose cards split into groups each summing to one hand value (brute force)."""
    kind = card % 52
    if kind == parse_card("2S"):
        values = {rules.small_kasino_hand}
    elif kind == parse_card("10D"):
        values = {rules.big_kasino_hand}
    elif rank_of(kind) == 1:
        values = set(rules.ace_hand)
    else:
        values = {rank_of(kind)}

    def choices(c):
        return set(rules.ace_table) if rank_of(c) == 1 else {rank_of(c)}

    def sums(mask):
        out = {0}
        for i, c in enumerate(table):
            if mask >> i & 1:
                out = {s + v for s in out for v in choices(c)}
        return out

    found = set()
    for value in values:

        @lru_cache(maxsize=None)
        def splits(mask: int) -> bool:
            if mask == 0:
                return True
            low = mask & -mask
            rest = mask ^ low
            sub = rest
            while True:
                block = sub | low
                if value in sums(block) and splits(mask ^ block):
                    return True
                if sub == 0:
                    return False
                sub = (sub - 1) & rest

        found |= {m for m in range(1, 1 << len(table)) if splits(m)}
    return found


@pytest.mark.parametrize("rules", [SWEDISH, FINNISH, SWEDISH.replace(ace_hand=[14], ace_table=[1, 14])],
                         ids=["swedish", "finnish", "mixed"])
def test_capture_masks_match_partition_oracle(rules):
    """R-CAPTURE, R-ACE-SE, R-VAL-FI: the enumeration equals a brute-force partition search
    on random tables (weighted to low cards and aces so that many groups exist)."""
    rng = random.Random(20240611)
    low = [c for c in range(52) if rank_of(c) <= 6]
    for _ in range(150):
        pool = low if rng.random() < 0.6 else list(range(52))
        chosen = rng.sample(pool, rng.randint(1, 8))
        card, table = chosen[0], chosen[1:]
        got = capture_masks(card, table, rules)
        assert got == sorted(set(got)), "duplicates or unsorted"
        assert set(got) == oracle_captures(card, table, rules), (card_code(card), [card_code(c) for c in table])
