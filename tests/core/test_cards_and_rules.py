"""Card notation (R-DECK) and the Rules value: presets, replace, tables, TOML, overrides."""

from __future__ import annotations

import pytest

from simcasino.core.cards import (
    BIG_KASINO,
    SMALL_KASINO,
    card_code,
    card_codes,
    deck,
    is_ace,
    is_spade,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from simcasino.core.rules import FINNISH, SWEDISH, Rules, from_table, from_toml, knob_names, parse_override, resolve

# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, rank, suit",
    [
        ("AS", 1, 0), ("2S", 2, 0), ("10D", 10, 2), ("TD", 10, 2), ("td", 10, 2), ("JH", 11, 1),
        ("QC", 12, 3), ("KC", 13, 3), ("as", 1, 0), ("qH", 12, 1), (" 7c ", 7, 3),
        ("A♠", 1, 0), ("10♦", 10, 2), ("T♦", 10, 2), ("q♥", 12, 1), ("9♣", 9, 3),
    ],
)
def test_parse_card_notation(code, rank, suit):
    """Cards: rank A 2..10 J Q K (T = 10), suit S H D C or ♠♥♦♣, case-insensitive."""
    card = parse_card(code)
    assert (rank_of(card), suit_of(card)) == (rank, suit)
    assert card == suit * 13 + rank - 1


def test_kasino_ids():
    assert parse_card("2S") == SMALL_KASINO == parse_card("2♠")
    assert parse_card("10D") == BIG_KASINO == parse_card("TD")


@pytest.mark.parametrize(
    "code", ["", "S", "1S", "11H", "0S", "010D", "10", "AX", "ZZ", "A S", "10SH", "²S", "٣S", "KK"]
)
def test_bad_card_codes_raise_naming_the_code(code):
    with pytest.raises(ValueError) as err:
        parse_card(code)
    assert repr(code) in str(err.value)


@pytest.mark.parametrize("value", [5, None, 1.0])
def test_non_string_card_code_raises(value):
    with pytest.raises(ValueError, match="bad card code"):
        parse_card(value)


def test_card_code_round_trip_all_52():
    assert [parse_card(card_code(c)) for c in range(52)] == list(range(52))
    assert card_code(35) == "10D" and card_code(0) == "AS" and card_code(51) == "KC"
    assert card_code(52 + 35) == "10D"  # a second-deck id has the same kind


def test_parse_cards_string_and_list():
    assert parse_cards("AS, 10D 2s") == [0, 35, 1]
    assert parse_cards(["AS", "10D"]) == [0, 35]
    assert card_codes([0, 35, 1]) == ["AS", "10D", "2S"]
    with pytest.raises(ValueError, match="'XX'"):
        parse_cards("AS XX")


def test_deck_r_deck():
    """R-DECK: 52 distinct cards (two decks: 104, identical kinds)."""
    assert deck() == list(range(52))
    two = deck(2)
    assert len(two) == 104 and sorted(c % 52 for c in two) == sorted(list(range(52)) * 2)
    with pytest.raises(ValueError, match="decks must be 1 or 2"):
        deck(3)
    assert sum(is_spade(c) for c in deck()) == 13
    assert sum(is_ace(c) for c in deck()) == 4


# --- presets -------------------------------------------------------------------------------


def test_swedish_preset_r_ace_se_and_scoring():
    r = Rules.preset("swedish")
    assert r is SWEDISH and r == Rules()
    assert r.ace_hand == (1, 14) and r.ace_table == (1, 14)  # R-ACE-SE
    assert (r.small_kasino_hand, r.big_kasino_hand) == (2, 10)  # R-VAL
    assert (r.most_spades_points, r.spades_tie, r.most_cards_points, r.cards_tie) == (2, "nobody", 1, "nobody")
    assert (r.ace_points, r.big_kasino_points, r.small_kasino_points,
            r.sistan_points, r.tabbe_points) == (1, 2, 1, 1, 1)
    assert not (r.mokki_last_round or r.mokki_limit or r.mokki_cancel or r.immediate_scoring or r.must_capture_max)
    assert (r.target, r.tie_break, r.players) == (16, "spades", 2)


def test_finnish_preset_r_val_fi_and_mokki_limits():
    r = Rules.preset("finnish")
    assert r is FINNISH
    assert r.ace_hand == (14,) and r.ace_table == (1,)  # R-VAL-FI
    assert (r.small_kasino_hand, r.big_kasino_hand) == (15, 16)
    assert r.spades_tie == "split" and r.cards_tie == "nobody"
    assert r.sistan_points == 0
    assert r.mokki_last_round and r.mokki_limit == 10 and r.mokki_cancel  # R-MOKKI-LAST/-10/-CANCEL
    assert r.immediate_scoring and r.tie_break == "finnish" and r.target == 16


def test_fixed_totals_without_tabbes():
    """§4: 11 points a deal (Swedish), 10 (Finnish), before tabbes."""
    for r, total in ((SWEDISH, 11), (FINNISH, 10)):
        fixed = (r.most_spades_points + r.most_cards_points + 4 * r.ace_points + r.big_kasino_points
                 + r.small_kasino_points + r.sistan_points)
        assert fixed == total


def test_preset_lookup_case_and_errors():
    assert Rules.preset(" Finnish ") is FINNISH
    with pytest.raises(ValueError, match="unknown rules 'danish': did you mean swedish or finnish"):
        Rules.preset("danish")
    for bad in (5, None, ["finnish"]):
        with pytest.raises(ValueError, match="unknown rules"):
            Rules.preset(bad)


@pytest.mark.parametrize("players, rounds", [(2, 6), (3, 4), (4, 3)])
def test_deal_rounds_r_redeal(players, rounds):
    """R-REDEAL: 52 = 4 + rounds * 4 * players."""
    r = SWEDISH.replace(players=players)
    assert r.deal_rounds == rounds
    assert 4 + rounds * 4 * players == 52


def test_card_points():
    for r in (SWEDISH, FINNISH):
        assert r.card_points(parse_card("AH")) == 1
        assert r.card_points(parse_card("10D")) == 2
        assert r.card_points(parse_card("2S")) == 1
        assert r.card_points(parse_card("10H")) == 0 and r.card_points(parse_card("KS")) == 0


# --- replace and validation ----------------------------------------------------------------


def test_replace_returns_validated_copy():
    r = SWEDISH.replace(players=3, target=21, ace_hand=[14])
    assert (r.players, r.target, r.ace_hand) == (3, 21, (14,))
    assert SWEDISH.players == 2 and SWEDISH.target == 16  # the preset is untouched
    assert FINNISH.replace(players=4).mokki_cancel


def test_replace_unknown_knob():
    with pytest.raises(ValueError, match="unknown rule knob 'trgt'"):
        SWEDISH.replace(trgt=21)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"players": 7}, "'players' must be from 2 to 6; got 7"),
        ({"players": 5}, "5 players need two decks"),
        ({"players": 1}, "'players' must be from 2 to 6"),
        ({"players": "2"}, "'players' must be a whole number"),
        ({"players": True}, "'players' must be a whole number"),
        ({"target": 0}, "'target' must be from 1"),
        ({"target": 16.0}, "'target' must be a whole number"),
        ({"must_capture_max": 1}, "'must_capture_max' must be true or false"),
        ({"spades_tie": "everyone"}, "'spades_tie' must be one of nobody, split"),
        ({"cards_tie": "split"}, "'cards_tie' must be one of nobody, carry"),
        ({"tie_break": "coin"}, "'tie_break' must be one of spades, finnish, play_on"),
        ({"ace_hand": [7]}, "'ace_hand' must be a non-empty list of values from 1, 14"),
        ({"ace_table": []}, "'ace_table' must be a non-empty list"),
        ({"ace_hand": True}, "'ace_hand' must be a list"),
        ({"small_kasino_hand": 3}, "'small_kasino_hand' must be 2 or 15"),
        ({"big_kasino_hand": 12}, "'big_kasino_hand' must be 10 or 16"),
        ({"most_spades_points": -1}, "'most_spades_points' must be from 0 to 100"),
        ({"mokki_limit": 20}, "'mokki_limit' \\(20\\) above 'target' \\(16\\)"),
    ],
)
def test_bad_values_raise_clear_errors(changes, message):
    with pytest.raises(ValueError, match=message):
        SWEDISH.replace(**changes)


def test_finnish_target_below_mokki_limit_is_refused():
    with pytest.raises(ValueError, match="mokki_limit"):
        FINNISH.replace(target=5)
    assert FINNISH.replace(target=5, mokki_limit=0).target == 5


def test_knobs_and_to_array():
    assert "name" not in knob_names() and "target" in knob_names()
    assert SWEDISH.knobs()["target"] == 16
    from simcasino.core.rules import KNOB_INDEX

    a, b = SWEDISH.to_array(), FINNISH.to_array()
    assert a[KNOB_INDEX["ace_hand"]] == 3 and b[KNOB_INDEX["ace_hand"]] == 2  # bits: 1 -> 1, 14 -> 2
    assert b[KNOB_INDEX["ace_table"]] == 1
    assert b[KNOB_INDEX["tie_break"]] == 1 and b[KNOB_INDEX["spades_tie"]] == 1


def test_card_values_are_the_kernels_copy_of_the_rules_values():
    """R-ACE-SE, R-VAL-FI, §4: the kernel reads each card's values from the rules array, made
    by the same `hand_values`/`table_values`/`card_points` the reference engine calls."""
    from simcasino.core.cards import parse_card
    from simcasino.core.rules import CARD_FACTS, CARD_VALUES

    def facts(rules, code):
        at = CARD_VALUES + parse_card(code) % 52 * len(CARD_FACTS)
        return dict(zip(CARD_FACTS, rules.to_array()[at : at + len(CARD_FACTS)].tolist()))

    assert facts(SWEDISH, "AS") == dict(hand=1, hand2=14, table=1, table_high=1, points=SWEDISH.ace_points)
    assert facts(FINNISH, "AH") == dict(hand=14, hand2=0, table=1, table_high=0, points=1)
    assert facts(FINNISH, "10D") == dict(hand=16, hand2=0, table=10, table_high=0, points=2)
    assert facts(FINNISH, "2S") == dict(hand=15, hand2=0, table=2, table_high=0, points=1)
    assert facts(SWEDISH, "7C") == dict(hand=7, hand2=0, table=7, table_high=0, points=0)


def test_result_columns_are_one_list():
    """The reference engine's SeatResult and the kernel's result offsets follow core.columns."""
    import dataclasses

    from simcasino.core.columns import COLUMNS
    from simcasino.engine import layout
    from simcasino.reference.deal import SeatResult

    assert tuple(f.name for f in dataclasses.fields(SeatResult)) == COLUMNS
    assert (layout.C_POINTS, layout.C_TABBES, layout.C_UNHELD) == (0, COLUMNS.index("tabbes"), len(COLUMNS) - 1)
    assert layout.N_COLUMNS == len(COLUMNS)


# --- tables, TOML, overrides ---------------------------------------------------------------


def test_to_table_reads_back_to_the_same_rules():
    """One writer of rules tables (specs, manifests, records, deal-state JSON) for `from_table`."""
    from simcasino.core.rules import PRESETS

    for rules in [*PRESETS.values(), FINNISH.replace(players=3, ace_hand=(1, 14), target=21)]:
        assert from_table(rules.to_table()) == rules
        assert from_table(rules.to_table(changed_only=True)) == rules
    assert FINNISH.replace(target=21).to_table(changed_only=True) == {"preset": "finnish", "target": 21}
    assert SWEDISH.to_table()["ace_hand"] == [1, 14]


def test_from_table_and_resolve():
    r = from_table({"preset": "finnish", "players": 3, "ace_hand": [14], "target": 21})
    assert (r.name, r.players, r.target, r.ace_hand) == ("finnish", 3, 21, (14,))
    assert resolve("finnish") is FINNISH
    assert resolve(SWEDISH) is SWEDISH
    assert resolve({"target": 11}).target == 11
    with pytest.raises(ValueError, match="rules must be a preset name"):
        resolve(16)
    with pytest.raises(ValueError, match="rules: unknown rule knob 'colour'"):
        from_table({"colour": "red"})
    with pytest.raises(ValueError, match="rules: rule knob 'players' must be from 2 to 6"):
        from_table({"players": 7})
    with pytest.raises(ValueError, match="rules: unknown rules 'x'"):
        from_table({"preset": "x"})


def test_from_toml(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('[rules]\npreset = "finnish"\nplayers = 4\nace_table = [1, 14]\ncards_tie = "carry"\n')
    r = from_toml(path)
    assert (r.players, r.ace_table, r.cards_tie, r.sistan_points) == (4, (1, 14), "carry", 0)
    top = tmp_path / "top.toml"
    top.write_text("target = 21\nmust_capture_max = true\n")
    assert from_toml(top).target == 21 and from_toml(top).must_capture_max is True


@pytest.mark.parametrize(
    "text, message",
    [
        ("[rules\ntarget = 1", "malformed TOML"),
        ("[rules]\ntarget = ", "malformed TOML"),
        ("[rules]\ncolour = 'red'", "unknown rule knob 'colour'"),
        ("[rules]\ntarget = 'high'", "'target' must be a whole number"),
        ("[rules]\nace_hand = {x = 1}", "'ace_hand' must be a list"),
        ("[rules]\nspades_tie = ['split']", "'spades_tie' must be one of"),
        ('preset = ["finnish"]', "unknown rules"),
        ("rules = 5", "expected a table of rule knobs"),
    ],
)
def test_bad_toml_raises_value_error_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        from_toml(path)
    assert str(path) in str(err.value)


def test_missing_toml_file(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        from_toml(tmp_path / "nope.toml")


def test_parse_override():
    assert parse_override("target=21") == ("target", 21)
    assert parse_override(" ace_hand = [14] ") == ("ace_hand", (14,))
    assert parse_override("tie_break=play_on") == ("tie_break", "play_on")
    assert parse_override("must_capture_max=true") == ("must_capture_max", True)
    assert parse_override('spades_tie="split"') == ("spades_tie", "split")
    key, value = parse_override("players=3")
    assert SWEDISH.replace(**{key: value}).players == 3
    with pytest.raises(ValueError, match="bad rule override 'target': expected KNOB=VALUE"):
        parse_override("target")
    key, value = parse_override("colour=red")
    with pytest.raises(ValueError, match="unknown rule knob 'colour'"):
        SWEDISH.replace(**{key: value})


def test_a_new_knob_shifts_every_other_and_the_kernel_follows_by_name() -> None:
    """Registration by name: a dummy knob put first in the rules array (in a fresh process, before
    the kernel's layout is read) moves every knob's slot by one, and the layout's slots move with
    their names; none is paired with its neighbour's."""
    import subprocess
    import sys

    code = (
        "import simcasino.core.rules as r\n"
        "before = dict(r.KNOB_INDEX)\n"
        "r.ARRAY_FIELDS = ('dummy',) + r.ARRAY_FIELDS\n"
        "r.KNOB_INDEX.clear(); r.KNOB_INDEX.update({n: i for i, n in enumerate(r.ARRAY_FIELDS)})\n"
        "from simcasino.engine import layout\n"
        "slots = {n: getattr(layout, n) for n in dir(layout) if n.startswith('R_')}\n"
        "slots = {n: v for n, v in slots.items() if isinstance(v, int)}\n"
        "assert slots and all(v - 1 in before.values() for v in slots.values()), slots\n"
        "assert layout.R_PLAYERS == before['players'] + 1 and layout.R_ACE_PTS == before['ace_points'] + 1\n"
        "print('wired by name:', len(slots))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wired by name:")
