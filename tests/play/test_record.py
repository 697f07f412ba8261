"""Game records: written by ``replay --record`` and ``play``, loaded back, played back to the
same deal; a damaged or hand-edited record is a one-line error naming its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cli import ok, run
from helpers.paths import DATA

from simcasino.cli import main
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules
from simcasino.play.game import EndOfRecord, Game
from simcasino.play.record import Header, RecordError, load_record
from simcasino.reference.game import single_deal
from simcasino.strategies import parse_strategy


class Collect:
    """A watcher keeping every deal's result and every move's position."""

    def __init__(self) -> None:
        self.results, self.moves = [], []

    def deal_started(self, number, dealer, scores) -> None:
        pass

    def moved(self, view, move, state, replayed) -> None:
        self.moves.append((view, move))

    def deal_over(self, number, result, scores) -> None:
        self.results.append(result)


def played_back(path: Path) -> Collect:
    record = load_record(path)
    watcher = Collect()
    try:
        Game(record.header, [None] * record.header.rules.players, watcher, record=record).play()
    except EndOfRecord:
        pass
    return watcher


@pytest.mark.parametrize(("rules", "seats"), [("swedish", ["greedy", "random"]),
                                              ("finnish", ["greedy", "heuristic", "random"]),
                                              ("misere", ["greedy", "random"]),
                                              ("rakennuskasino", ["heuristic", "greedy"])])
def test_a_replayed_deal_round_trips_through_its_record(tmp_path: Path, rules: str, seats: list[str]) -> None:
    path = tmp_path / "deal.jsonl"
    args = ["--rules", rules, "--seed", "4", "--deal", "2"] + [a for s in seats for a in ("-s", s)]
    assert f"wrote {path}" in ok("replay", *args, "--record", str(path)).stdout
    record = load_record(path)
    resolved = Rules.preset(rules).replace(players=len(seats))
    assert record.header == Header(resolved, 4, tuple(seats))
    expected = single_deal(resolved, [parse_strategy(s).python() for s in seats], seed_key(4), 2)
    again = played_back(path)
    assert [r.row() for r in again.results[0].seats] == [r.row() for r in expected.seats]
    assert record.deals[0].points == [s.points for s in expected.seats]
    assert len(record.deals[0].decisions) == len(again.moves)


@pytest.mark.parametrize("rules", ["swedish", "finnish", "misere", "rakennuskasino"])
def test_records_of_version_0_2_still_read_and_play_back(rules: str) -> None:
    """Records written by simcasino 0.2 (replay --record: moves named ``QD 3H 9S``, a §6 Misère
    pick, §6 builds) play back move by move to the points they recorded."""
    path = DATA / f"record-0.2-{rules}.jsonl"
    record = load_record(path)
    again = played_back(path)
    assert [s.points for s in again.results[0].seats] == record.deals[0].points
    assert len(again.moves) == len(record.deals[0].decisions)
    assert any(" takes " not in d.move and not d.move.startswith(("trail", "build")) for d in record.deals[0].decisions)


def test_the_rules_are_kept_as_preset_and_changed_knobs() -> None:
    rules = Rules.preset("finnish").replace(target=21, ace_hand=(1, 14))
    table = rules.to_table(changed_only=True)
    assert table == {"preset": "finnish", "target": 21, "ace_hand": [1, 14]}
    from simcasino.core.rules import from_table

    assert from_table(table) == rules


@pytest.fixture
def deal_record(tmp_path: Path) -> Path:
    path = tmp_path / "deal.jsonl"
    ok("replay", "--seed", "1", "-s", "greedy", "-s", "random", "--record", str(path))
    return path


def edited(path: Path, line: int, text: str | None) -> Path:
    """``path`` with line ``line`` (from 1) replaced by ``text`` (None: removed)."""
    lines = path.read_text().splitlines()
    lines[line - 1 : line] = [] if text is None else [text]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("line", "text", "message"), [
    (1, '{"format": "chess"}', "line 1: not a simcasino game record"),
    (1, None, "line 1: not a simcasino game record"),
    (3, "{not json", "line 3: not JSON"),
    (3, "[1, 2]", "line 3: expected a JSON object"),
    (3, '{"seat": 7, "move": "trail 5C"}', "line 3: expected {\"seat\": 0-1"),
    (3, '{"seat": 1, "move": "trail 5C"}', "line 3: seat 0 is to make a move here, not seat 1"),
    (2, '{"deal": 3, "stream": [0, 0], "dealer": 1}', "line 2: deal 3 starts where deal 0 was expected"),
    (2, '{"deal": 0, "stream": [0], "dealer": 1}', "line 2: \"stream\" must be two non-negative integers"),
    (2, '{"deal": 0, "stream": [1, 0], "dealer": 5}', "line 2: \"dealer\" must be a seat 0-1"),
])
def test_a_damaged_record_is_a_one_line_error_naming_the_line(deal_record: Path, line: int, text: str | None,
                                                              message: str) -> None:
    path = edited(deal_record, line, text)
    result = run("review", str(path), "--seat", "0", "--worlds", "1")
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {path}") and message in result.output, result.output
    assert result.output.count("\n") == 1


def test_a_move_edited_to_a_card_not_in_hand_is_named_with_its_line(deal_record: Path) -> None:
    """Line 3 is seat 0's first move; the card seat 1 plays next (line 4) is not in its hand."""
    lines = deal_record.read_text().splitlines()
    words = json.loads(lines[3])["move"].split()
    other = words[1] if words[0] == "trail" else words[0]
    path = edited(deal_record, 3, json.dumps({"seat": 0, "move": f"trail {other}"}))
    result = run("review", str(path), "--seat", "0", "--worlds", "1")
    assert result.exit_code == 2
    why = f"'trail {other}' is not a legal move here: R-TURN: seat 0 holds no {other} (its hand: "
    assert result.output.startswith(f"error: {path} line 3: {why}") and result.output.count("\n") == 1


def test_a_deal_with_a_move_missing_before_its_end_is_refused(deal_record: Path) -> None:
    lines = deal_record.read_text().splitlines()
    edited(deal_record, len(lines) - 1, None)  # the last move
    with pytest.raises(RecordError, match="line 2: deal 0 has its end line, but its moves stop before"):
        played_back(deal_record)


def test_a_deal_after_the_end_of_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", "--vs", "heuristic", "--rule", "target=6", "--seed", "3",
                                       "--record", str(path)], input="1\n" * 400)
    assert "won after 1 deal:" in played.output
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, '{"deal": 1, "stream": [0, 1], "dealer": 0}']) + "\n")
    with pytest.raises(RecordError, match=f"line {len(lines) + 1}: deal 1 after the game was over"):
        played_back(path)


def test_an_edited_end_is_caught_when_the_deal_is_played_back(deal_record: Path) -> None:
    lines = deal_record.read_text().splitlines()
    end = json.loads(lines[-1])
    end["points"][0] += 1
    edited(deal_record, len(lines), json.dumps(end))
    with pytest.raises(RecordError, match="not the recorded"):
        played_back(deal_record)


def test_a_later_version_is_refused(deal_record: Path) -> None:
    lines = deal_record.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 2
    edited(deal_record, 1, json.dumps(header))
    with pytest.raises(RecordError, match="record version 2; this simcasino reads version 1"):
        load_record(deal_record)


def test_resuming_a_record_whose_bot_cannot_play_names_the_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    CliRunner().invoke(main, ["play", "--vs", "heuristic", "--seed", "3", "--record", str(path)], input="q\n")
    lines = path.read_text().splitlines()
    edited(path, 1, lines[0].replace('"heuristic"', '"nosuch"'))
    result = run("play", "--resume", str(path))
    assert result.exit_code == 2
    last = result.output.splitlines()[-1]
    assert last.startswith(f"error: {path} line 1: seat 1 is 'nosuch': unknown strategy 'nosuch'")


def test_a_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = run("review", str(tmp_path / "none.jsonl"))
    assert result.exit_code == 2 and result.output.startswith("error: cannot read the record")
