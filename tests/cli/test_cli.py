"""The command line: each verb end to end through click's CliRunner, checked against the API.

Runs use the reference engine and a few deals so the file stays fast; one test runs the
default (numba) engine and checks it prints the same table as the reference.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from helpers.cli import ok, run, table
from helpers.paths import ROOT

import simcasino
from simcasino.cli.common import plain
from simcasino.core.rules import PRESETS, Rules, from_toml

REF = ("--engine", "reference")


# --- help ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [[], ["simulate"], ["games"], ["rules"], ["rules", "list"], ["rules", "show"], ["replay"],
     ["strategies"], ["strategies", "list"], ["analyze"]],
)
def test_every_help_says_what_and_gives_an_example(command: list[str]) -> None:
    text = ok(*command, "--help").stdout
    assert "Example" in text
    example = text.split("Example", 1)[1]
    assert "simcasino " + " ".join(command) in example  # the example uses this very command


# --- simulate ----------------------------------------------------------------------------------

def test_simulate_prints_one_row_per_seat_and_writes_the_api_frame(tmp_path: Path) -> None:
    out = tmp_path / "deals.parquet"
    args = ["--rules", "finnish", "--players", "3", "-s", "greedy", "-s", "random", "-s", "greedy"]
    result = ok("simulate", *args, "--deals", "20", "--seed", "1", *REF, "--out", str(out))
    expected = simcasino.simulate("finnish", ("greedy", "random", "greedy"), deals=20, seed=1, engine="reference")
    written = pl.read_parquet(out)
    assert written.equals(expected)
    rows = table(result.stdout)
    assert [r["strategy"] for r in rows] == ["greedy", "random", "greedy"]
    for seat, row in enumerate(rows):
        mine = expected.filter(pl.col("seat") == seat)
        assert row["deals"] == "20"
        for column in ("points", "cards", "spades", "aces", "tabbes", "sweeps"):
            assert float(row[column]) == pytest.approx(mine[column].mean(), abs=1e-3), column
    assert "deals/s" in result.stdout
    assert "finnish rules, 3 players" in result.stdout
    assert f"wrote {out}" in result.stdout


def test_simulate_progress_goes_to_stderr_not_stdout() -> None:
    result = ok("simulate", "--deals", "20", *REF)
    assert re.search(r"simulate \[#+\] 100.0% +20 deals", result.stderr)
    assert "deals/s  ETA" not in result.stdout


def test_one_strategy_plays_every_seat_of_the_preset() -> None:
    rows = table(ok("simulate", "-s", "random", "--deals", "20", *REF).stdout)
    assert [r["strategy"] for r in rows] == ["random", "random"]  # swedish preset: 2 players


def test_players_with_one_strategy_fills_every_seat() -> None:
    rows = table(ok("simulate", "--players", "4", "--deals", "20", *REF).stdout)
    assert [r["strategy"] for r in rows] == ["greedy"] * 4


def test_rule_override_changes_the_players() -> None:
    rows = table(ok("simulate", "--rule", "players=3", "--deals", "20", *REF).stdout)
    assert len(rows) == 3


def test_default_engine_prints_the_same_table_as_the_reference() -> None:
    """Runs the numba engine (the default); it must agree with the reference deal for deal."""
    args = ("simulate", "--rules", "finnish", "-s", "greedy", "-s", "random", "--deals", "20", "--seed", "5")
    fast, slow = ok(*args), ok(*args, *REF)
    assert "numba engine" in fast.stdout
    assert table(fast.stdout) == table(slow.stdout)


# --- games --------------------------------------------------------------------------------------

def test_games_summary_matches_play_games(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    result = ok("games", "-s", "greedy", "-s", "random", "--games", "6", "--seed", "2", *REF, "--out", str(out))
    expected = simcasino.play_games("swedish", ("greedy", "random"), games=6, seed=2, engine="reference")
    assert pl.read_parquet(out).equals(expected)
    rows = table(result.stdout)
    assert [r["strategy"] for r in rows] == ["greedy", "random"]
    for seat, row in enumerate(rows):
        mine = expected.filter(pl.col("seat") == seat)
        assert row["games"] == "6"
        assert float(row["win %"]) == pytest.approx(100 * mine["won"].mean(), abs=0.05)
        assert float(row["mean score"]) == pytest.approx(mine["score"].mean(), abs=0.005)
        assert float(row["deals per game"]) == pytest.approx(mine["deals"].mean(), abs=0.005)
    assert "games to 16" in result.stdout


# --- rules --------------------------------------------------------------------------------------

def test_a_strategy_file_plays_at_a_mixed_table() -> None:
    """The README's example: a plain-Python file from strategies/ picks a mixed table (the
    reference engine referees, greedy decides in the kernel)."""
    example = str(ROOT / "strategies" / "spade_hoarder.py")
    result = ok("simulate", "-s", example, "-s", "greedy", "--deals", "20", "--seed", "1")
    assert "seat 0 spade_hoarder" in result.stdout and "mixed engine" in result.stdout
    rows = table(result.stdout)
    assert [r["strategy"] for r in rows] == ["spade_hoarder", "greedy"]


def test_strategies_list_names_every_strategy_with_its_description() -> None:
    from simcasino.strategies import KERNEL_ORDER, module

    lines = ok("strategies", "list").stdout.splitlines()
    for name in KERNEL_ORDER:
        assert any(line.startswith(name) and plain(module(name).DESCRIPTION) in line for line in lines)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk to write to)")
def test_output_that_cannot_be_written_is_one_line_not_a_traceback() -> None:
    """stdout on a full disk: one error line, exit code 2."""
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "simcasino", "strategies", "list"], stdout=full,
                                stderr=subprocess.PIPE, text=True)
    assert result.returncode == 2 and result.stderr == "error: writing the output: No space left on device\n"


def test_the_list_and_every_strategy_option_name_follow_and_the_card() -> None:
    """follow= is every strategy's knob: the list shows its forms and every claim by id, and
    each -s help points there."""
    from simcasino.advice.claims import CLAIMS

    listed = ok("strategies", "list").stdout
    assert "follow=card" in listed and all(f"follow={c.id:<4} {c.tactic}" in listed for c in CLAIMS)
    for verb in (["simulate"], ["games"], ["compare"]):
        assert "follow=card" in " ".join(ok(*verb, "--help").stdout.split()), verb


HELPS = [[], ["simulate"], ["games"], ["replay"], ["compare"], ["analyze"], ["rules", "list"], ["rules", "show"],
         ["rules", "tune"], ["strategies", "list"], ["experiment", "run"], ["experiment", "resume"],
         ["experiment", "show"], ["experiment", "list"], ["report"], ["play"], ["review"], ["findings", "run"],
         ["findings", "teach"]]


def test_no_markup_reaches_the_terminal() -> None:
    """The parameters' descriptions are written for the docs (``worlds``); the terminal shows them plain."""
    assert "`" not in ok("strategies", "list").stdout
    assert "max_worlds=1024  worlds a close decision may take, worlds more at a time" in ok("strategies", "list").stdout
    for verb in HELPS:
        assert "`" not in ok(*verb, "--help").stdout, verb


def test_analyze_lists_every_legal_move_best_first() -> None:
    """10H on 2C 3C 5C 7C: trail, 2+3+5 or 3+7, never all four (R-CAPTURE)."""
    rows = table(ok("analyze", "--hand", "10H", "--table", "2C 3C 5C 7C").stdout)
    assert sorted(r["move"] for r in rows) == ["10H takes 2C 3C 5C", "10H takes 3C 7C", "trail 10H"]
    values = [float(r["heuristic"]) for r in rows]
    assert values == sorted(values, reverse=True)


def test_rules_list_names_every_preset_with_its_description() -> None:
    lines = ok("rules", "list").stdout.splitlines()
    assert len(lines) == len(PRESETS)
    for line, (name, rules) in zip(lines, PRESETS.items()):
        assert line.split()[0] == name
        assert line.endswith(rules.description)


def test_rules_show_lists_every_knob_and_reads_back(tmp_path: Path) -> None:
    text = ok("rules", "show", "finnish", "--rule", "target=21", "--rule", "ace_hand=[1, 14]").stdout
    for knob in Rules().knobs():
        assert any(line.split()[0] == knob for line in text.splitlines() if line.strip()), knob
    assert "# finnish: 16" in text  # a changed knob shows the preset's value
    path = tmp_path / "house.toml"
    path.write_text(text)
    assert from_toml(path) == Rules.preset("finnish").replace(target=21, ace_hand=(1, 14))


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_shows_reads_back_and_plays(tmp_path: Path, name: str) -> None:
    """Issue 6: `rules show` of every preset reads back; simulate and games accept each."""
    path = tmp_path / "preset.toml"
    path.write_text(ok("rules", "show", name).stdout)
    assert from_toml(path) == Rules.preset(name)
    rows = table(ok("simulate", "--rules", name, "--deals", "3", "-s", "greedy", "-s", "random", *REF).stdout)
    assert [row["strategy"] for row in rows] == ["greedy", "random"]
    assert f"games to {Rules.preset(name).target}" in ok("games", "--rules", name, "--games", "1", *REF).stdout


def test_partnership_from_the_command_line() -> None:
    """§6 Partnerships: --players 4 with --rule partnership=2; partners show one row."""
    rows = table(ok("simulate", "--rules", "swedish", "--players", "4", "--rule", "partnership=2",
                    "--deals", "3", *REF).stdout)
    assert rows[0]["points"] == rows[2]["points"] and rows[1]["points"] == rows[3]["points"]


def test_rules_file_from_rules_show_drives_a_run(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(ok("rules", "show", "swedish", "--rule", "target=11").stdout)
    result = ok("games", "--rules-file", str(path), "--games", "3", *REF)
    assert "games to 11" in result.stdout


# --- replay -------------------------------------------------------------------------------------

def test_replay_shows_every_move_by_round_and_the_simulate_result() -> None:
    result = ok("replay", "--rules", "finnish", "--seed", "1", "--deal", "3", "-s", "greedy", "-s", "random")
    lines = result.stdout.splitlines()
    moves = [line for line in lines if line.startswith("  seat ")]
    assert len(moves) == 48  # 2 players: 6 rounds of 4 cards each
    assert moves[0].startswith("  seat 0 [") and moves[1].startswith("  seat 1 [")
    assert "table [" in moves[0] and ("trail" in moves[0] or "takes" in moves[0])
    assert sum(line.startswith("round ") for line in lines) == 6
    assert "round 6 of 6: 4 more cards to each hand (last round)" in lines
    frame = simcasino.simulate("finnish", ("greedy", "random"), deals=4, seed=1, engine="reference")
    deal = frame.filter(pl.col("deal") == 3).sort("seat")
    rows = table(result.stdout)
    assert [int(r["points"]) for r in rows] == deal["points"].to_list()
    assert [int(r["cards"]) for r in rows] == deal["cards"].to_list()
    assert f"total: {deal['points'].sum()} points, 52 cards" in lines


def test_replay_shows_builds() -> None:
    """§6 Builds: the move log names each build move (as `play` names it) and shows builds on
    the table as [cards=value by seat]."""
    lines = ok("replay", "--rules", "rakennuskasino", "--seed", "1", "-s", "greedy", "-s", "random").stdout.splitlines()
    built = [line for line in lines if ": build " in line]
    assert built and all(re.search(r": build \S+ on \S+ to \w+$", line) for line in built)
    assert any("table [" in line and "[" in line.split("table [", 1)[1] and " by seat " in line for line in lines)


def test_analyze_lists_build_moves() -> None:
    """§6 Builds: a build on the table is written 5H+7C=Q@1; analyze lists the build moves
    with the heuristic's and the search's view of them, best heuristic first."""
    rows = table(ok("analyze", "--rules", "rakennuskasino", "--hand", "3C QH", "--table", "9D 5H+7C=Q@1").stdout)
    assert sorted(r["move"] for r in rows) == sorted(["trail 3C", "build 3C on 9D to Q", "trail QH", "QH takes 5H+7C"])
    assert "null" not in {r["heuristic"] for r in rows}
    values = [float(r["heuristic"]) for r in rows]
    assert values == sorted(values, reverse=True)
    assert rows[0]["move"] == "QH takes 5H+7C"  # the opponent's build, before it takes it
    assert rows[0]["takes"] == "[5H+7C=Q by seat 1]"
    assert any(r["search"] != "null" for r in rows)


# --- bad input: one line on stderr, exit 2 ---------------------------------------------------------

@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "--rules", "nordic"], "unknown rules 'nordic'"),
        (["simulate", "--rule", "colour=red"], "unknown rule knob 'colour'"),
        (["simulate", "--rule", "target=many"], "rule knob 'target' must be a whole number"),
        (["simulate", "--rule", "target"], "expected KNOB=VALUE"),
        (["simulate", "-s", "clever"], "unknown strategy 'clever'"),
        (["simulate", "-s", "greedy:depth=2"], "has no parameter 'depth'"),
        (["analyze", "--hand", "AS 1Z"], "bad card code '1Z'"),
        (["analyze", "--hand", "AS", "--table", "AS"], "card AS is given more than once (one deck)"),
        (["analyze", "--hand", "AS 2S 3S 4S 5S", "--table", "7C"], "a hand of 5 cards: swedish hands hold at most 4"),
        (["simulate", "--rule", "target=21", "--rule", "target=31"], "rule knob 'target' given twice"),
        (["simulate", "--out", "deals.txt", *REF], "Parquet (.parquet) or CSV (.csv)"),
        (["experiment", "resume", "no/such/run"], "no/such/run does not exist"),
        (["simulate", "-s", "greedy", "-s", "random", "--players", "3"], "2 strategies (-s) for 3 players"),
        (["simulate", "--players", "5"], "5 players need two decks"),
        (["simulate", "--deals", "0", *REF], "'--deals': 0 is not in the range x>=1"),
        (["simulate", "--deals", "-3", *REF], "'--deals': -3 is not in the range x>=1"),
        (["simulate", "--seed", "-1", "--deals", "2", *REF], "'--seed': -1 is not in the range x>=0"),
        (["simulate", "--engine", "gpu"], "unknown engine 'gpu'"),
        (["simulate", "--deals", "many"], "'many' is not a valid integer"),
        (["simulate", "--rules", "finnish", "--rules-file", "x.toml"], "not both"),
        (["simulate", "--out", "no/such/folder/deals.parquet", *REF], "does not exist"),
        (["simulate", "--colour"], "No such option"),
        (["games", "--games", "0", *REF], "'--games': 0 is not in the range x>=1"),
        (["rules", "show", "nordic"], "unknown rules 'nordic'"),
        (["rules", "show", "finnish", "--rule", "mokki_limit=20"], "never applies"),
        (["replay", "--deal", "-1"], "'--deal'"),
        (["replay", "-s", "clever"], "unknown strategy"),
        (["simulate", "-s", "strategies/no_such_file.py"], "not found"),
        (["simulate", "-s", "strategies/spade_hoarder.py", "--engine", "numba"], "only engine='mixed' or 'reference'"),
        (["simulate", "-s", "search", "-s", "greedy", *REF], "has no Python form: it plays in the kernel"),
        (["simulate", "-s", "search:worlds=0", "-s", "greedy", "--deals", "2"], "worlds >= 1, depth"),
        (["simulate", "--rules", "misere", "--rule", "builds=true"], "does not combine with 'low_wins'"),
        (["analyze", "--rules", "rakennuskasino", "--hand", "AS", "--table", "5H+7C=X"], "bad build '5H+7C=X'"),
        (["deal"], "No such command 'deal'"),
        (["--colour"], "No such option"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(args: list[str], needle: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert needle in result.stderr


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("[rules\ntarget = ", "malformed TOML"),
        ("[rules]\npreset = 'finnish'\ntarget = 'x'\n", "rule knob 'target' must be a whole number"),
        ("[rules]\ncolour = 'red'\n", "unknown rule knob 'colour'"),
        ("# no rules here\n", "no [rules] table"),
    ],
)
def test_bad_rules_file_is_one_error_line(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(content)
    result = run("simulate", "--rules-file", str(path), "--deals", "2", *REF)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}")
    assert result.stderr.count("\n") == 1
    assert needle in result.stderr


def test_missing_rules_file_is_one_error_line(tmp_path: Path) -> None:
    result = run("replay", "--rules-file", str(tmp_path / "absent.toml"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'absent.toml'}: cannot read: No such file or directory\n"


def test_simulate_out_csv_is_csv(tmp_path: Path) -> None:
    """--out names the format by its suffix: a .csv file holds CSV, every row of the API's frame."""
    out = tmp_path / "deals.csv"
    ok("simulate", "-s", "greedy", "-s", "random", "--deals", "300", "--seed", "2", "--out", str(out))
    assert out.read_text().startswith("deal,seat,strategy,points")
    expected = simcasino.simulate("swedish", ("greedy", "random"), deals=300, seed=2)
    assert pl.read_csv(out)["points"].to_list() == expected["points"].to_list()


# --- errors that name the place: a strategy file's failure, an --out that cannot be written -------

RAISER = ("def choose(view):\n    if len(view.hand) == 2:\n        raise RuntimeError('my bug')\n"
          "    return view.moves[0]\n")
ILLEGAL = ("from simcasino.core.protocol import Move\n\n\ndef choose(view):\n    if len(view.hand) == 2:\n"
           "        return Move.capture(0, view.hand[0], 0b1111111)\n    return view.moves[0]\n")


def one_error_line(result) -> str:
    """The error line: the last on stderr, exit code 2, no traceback (the notes and progress
    of a run that started may come before it)."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("error: ") and "Traceback" not in result.stderr, result.stderr
    notes = ("playing at a mixed table", "compiling the engine", "compiled the engine",
             "loading the engine", "loaded the engine")
    assert all(line.startswith(notes) for line in lines[:-1])
    return lines[-1]


@pytest.mark.parametrize("verb", [["simulate", "--deals", "50"], ["games", "--games", "5"],
                                  ["compare-a", "--decks", "20"]])
@pytest.mark.parametrize(("code", "problem"), [(RAISER, "raised RuntimeError: my bug"),
                                               (ILLEGAL, "chose a capture with ")])
def test_a_strategy_file_that_fails_is_one_line_naming_file_deal_position_and_replay(
        tmp_path: Path, verb: list[str], code: str, problem: str) -> None:
    """The file, the seat, what went wrong (its exception, or the move and the rule it breaks),
    the deal and seed, the position in card names, and the command that replays that deal,
    which plays it again up to the failure."""
    strategy = tmp_path / "mine.py"
    strategy.write_text(code)
    seats = ["-s", str(strategy), "-s", "greedy"]
    args = ["compare", str(strategy), "greedy", *verb[1:]] if verb[0] == "compare-a" else [*verb, *seats]
    error = one_error_line(run(*args, "--seed", "4"))
    assert f"{strategy} (seat 0) {problem}" in error
    assert code == RAISER or "of table positions 0, 1, 2, 3, 4, 5, 6, which is not legal here (R-" in error
    assert re.search(r"in deal \d+ (of game \d+ )?of seed 4, at hand \S+ \S+, table ", error)
    assert ("(run again as 'simcasino --debug ...' for its traceback)" in error) == (code == RAISER)
    replay = error.split("replay it with: ")[1].split(" (run again")[0].strip()
    assert replay.startswith("simcasino replay --seed 4 ") and f"-s {strategy} -s greedy" in replay
    again = run(*replay.split()[1:])
    assert f"{strategy} (seat 0) {problem}" in one_error_line(again)
    assert "round 1 of 6" in again.stdout  # the moves up to the failure


def test_debug_shows_the_strategy_files_own_traceback(tmp_path: Path) -> None:
    strategy = tmp_path / "mine.py"
    strategy.write_text(RAISER)
    result = run("--debug", "simulate", "-s", str(strategy), "-s", "greedy", "--deals", "5")
    assert result.exit_code == 2
    assert f'File "{strategy}", line 3, in choose' in result.stderr and "RuntimeError: my bug" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("error: ")


@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "5", "--out", "FOLDER.parquet"],
    ["games", "--games", "5", "--out", "FOLDER.csv"],
    ["replay", "--record", "FOLDER.jsonl"],
    ["experiment", "run", "experiments/quick.toml", "--out", "FILE/run"],
    ["rules", "tune", "--vary", "target=11,16", "--out", "FILE/run"],
    ["findings", "run", "--quick", "--out", "FILE/run"],
    ["play", "--record", "FOLDER.jsonl", "--seed", "1"],
])
def test_an_out_that_cannot_be_written_is_one_line_before_any_work(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "FOLDER.parquet").mkdir()
    (tmp_path / "FOLDER.csv").mkdir()
    (tmp_path / "FOLDER.jsonl").mkdir()
    (tmp_path / "FILE").write_text("a file where a folder would go")
    spec = str(ROOT / "experiments" / "quick.toml")
    where = [spec if a == "experiments/quick.toml" else a.replace("FOLDER", str(tmp_path / "FOLDER")).replace(
        "FILE", str(tmp_path / "FILE")) for a in args]
    error = one_error_line(run(*where))
    assert str(tmp_path) in error


@pytest.mark.parametrize(("args", "option"), [
    (["compare", "greedy", "random", "--decks", "0"], "--decks"),
    (["compare", "greedy", "random", "--games", "1"], "--games"),
    (["compare", "greedy", "random", "--seed", "-1"], "--seed"),
    (["rules", "tune", "--vary", "target=11,16", "--games", "0"], "--games 0"),
    (["rules", "tune", "--vary", "target=11,16", "--base", "nordic"], "--base nordic"),
    (["rules", "tune", "--vary", "target=11,16", "--rule", "colour=red"], "--rule"),
    (["rules", "tune", "--vary", "target=11,16", "--strategy", "clever"], "--strategy clever"),
    (["play", "--players", "9"], "--players 9"),
    (["experiment", "run", "experiments/quick.toml", "--decks", "0"], "--decks"),
    (["findings", "teach", "--teacher", "clever"], "--teacher clever"),
    (["findings", "teach", "--pupil", "strategies/spade_hoarder.py"], "--pupil strategies/spade_hoarder.py"),
    (["findings", "teach", "--deals", "0"], "--deals"),
    (["findings", "teach", "--depth", "4"], "--depth"),
])
def test_command_line_errors_name_the_option_as_typed(args: list[str], option: str) -> None:
    spec = str(ROOT / "experiments" / "quick.toml")
    error = one_error_line(run(*[spec if a == "experiments/quick.toml" else a for a in args]))
    assert error.startswith(f"error: {option}") and "key '" not in error


def test_the_replay_command_names_every_seats_strategy_file(tmp_path: Path) -> None:
    """Two strategy files at one table: the replay names each by its own path."""
    strategy, other = tmp_path / "mine.py", ROOT / "strategies" / "spade_hoarder.py"
    strategy.write_text(RAISER)
    error = one_error_line(run("simulate", "-s", str(other), "-s", str(strategy), "--deals", "20", "--engine",
                               "reference", "--seed", "2"))
    assert f"{strategy} (seat 1) raised RuntimeError" in error
    assert error.endswith(f"-s {other} -s {strategy} (run again as 'simcasino --debug ...' for its traceback)")
