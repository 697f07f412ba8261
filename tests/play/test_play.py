"""`simcasino play`: whole games driven through the input stream (click's runner) with scripted
choices, bad ones included; stopping and resuming; the move names; the screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cards import cards
from helpers.cli import run
from helpers.paths import ROOT

from simcasino.cli import main
from simcasino.core.notation import move_name, position_text
from simcasino.core.protocol import Move
from simcasino.core.rules import Rules
from simcasino.core.table import Build
from simcasino.play.human import chosen_move
from simcasino.play.screen import Screen, listed_moves
from simcasino.reference.moves import read_move
from simcasino.reference.state import position_view
from simcasino.strategies import StrategySpec

FAST = ("--vs", "heuristic", "--rule", "target=6")  # one or two deals of Swedish Kasino
BAD_INPUTS = ["", "zz", "0", "99", "trail", "trail XX", "QD", "build 3H 7H", "help"]


def test_a_refusal_reads_without_the_rule_books_id() -> None:
    """What play shows a club player: the engine's reason without "R-TURN:" (`--debug` keeps it)."""
    from simcasino.play.human import without_rule_id

    said = "'trail KD' is not a legal move here: R-TURN: seat 0 holds no KD (its hand: QD 2H)"
    assert without_rule_id(said) == "'trail KD' is not a legal move here: seat 0 holds no KD (its hand: QD 2H)"
    assert without_rule_id("R-CAPTURE: 7C is not on the table") == "7C is not on the table"
    assert without_rule_id("no move number 0: choose 1-4") == "no move number 0: choose 1-4"


@pytest.mark.parametrize("debug", [False, True])
def test_play_shows_the_rule_id_only_under_debug(tmp_path: Path, debug: bool) -> None:
    args = [*(["--debug"] if debug else []), "play", *FAST, "--seed", "3", "--record", str(tmp_path / "g.jsonl")]
    out = CliRunner().invoke(main, args, input="QS takes 9H\nq\n").output  # 9H: not on seed 3's first table
    said = next(line for line in out.splitlines() if "not a legal move" in line)
    assert said.endswith("9H is not on the table") and ("R-CAPTURE: " in said) == debug


def record_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_whole_game_by_numbers_with_bad_answers_explained_and_asked_again(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(record)],
                                input="".join(a + "\n" for a in BAD_INPUTS) + "1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "type a number, a move's name" in out
    assert "bad card code 'ZZ'" in out
    assert out.count("? for the analysis, q to stop") == len(BAD_INPUTS)  # each answer not understood, and help
    assert "bad card code 'HELP'" not in out
    assert "no move number 0: choose 1-" in out and "no move number 99: choose 1-" in out
    assert "a trail names one card" in out
    assert "say what QD takes" in out
    assert "a build reads 'build 3H on 7H'" in out
    assert "won after" in out and f"the record is in {record}" in out
    lines = record_lines(record)
    assert lines[0]["format"] == "simcasino-game" and lines[0]["seats"] == ["human", "heuristic"]
    ends = [line for line in lines if "end" in line]
    assert ends, "every finished deal has its end line"
    final = re.findall(r"seat (\d) (\d+)", out.rsplit("won after", 1)[1])
    assert [int(points) for _, points in final] == [sum(e["points"][seat] for e in ends) for seat in range(2)]
    assert "end of deal 1" in out and "game" in out  # the score sheet after the deal


def test_moves_by_name_are_the_moves_played(tmp_path: Path) -> None:
    """The first position of seed 3 (hand 3H KC JH 6S, table AS 4D 4H KD): 'KC takes KD' by
    name, then trails by name; the record stores the canonical names."""
    record = tmp_path / "game.jsonl"
    answers = ["kc takes kd", "trail JH", "q"]
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(record)],
                                input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert "seat 0 (you): KC takes KD" in result.output
    moves = [line["move"] for line in record_lines(record) if line.get("seat") == 0]
    assert moves == ["KC takes KD", "trail JH"]
    assert "game stopped" in result.output and f"--resume {record}" in result.output


def test_a_misspelt_word_gets_the_nearest_one_offered_and_the_question_asked_again(tmp_path: Path) -> None:
    """The first hand of seed 3 is 3H KC JH 6S: 'tral 3H' offers 'trail 3H'; 'KC tkes KD' offers
    'KC takes KD'; a word near none of the prompt's ('xyzzy') gets the reader's own reason."""
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(record)],
                                input="tral 3H\nKC tkes KD\nxyzzy\ntrail 3H\nq\n")
    assert result.exit_code == 0, result.output
    assert "'tral' is no word of a move: did you mean 'trail 3H'?" in result.output
    assert "'tkes' is no word of a move: did you mean 'KC takes KD'?" in result.output
    assert "bad card code 'XYZZY'" in result.output
    assert "seat 0 (you): trail 3H" in result.output


def test_a_tabbe_is_called_a_tabbe_as_in_the_rule_book(tmp_path: Path) -> None:
    """R-TABBE: the screen marks a sweep with the rule book's word, as replay does."""
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(tmp_path / "g.jsonl")],
                                input="1\n" * 400)
    assert "— tabbe" in result.output and "sweep" not in result.output


def test_q_keeps_the_record_and_resume_plays_the_same_game(tmp_path: Path) -> None:
    """Stopping after a few moves and resuming with the same answers gives the very record of
    the game played without a stop."""
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    answers = ["1"] * 400
    ok = CliRunner().invoke(main, ["play", *FAST, "--seed", "5", "--record", str(whole)],
                            input="\n".join(answers) + "\n")
    assert ok.exit_code == 0, ok.output
    stopped = CliRunner().invoke(main, ["play", *FAST, "--seed", "5", "--record", str(split)],
                                 input="1\n1\n1\nq\n")
    assert stopped.exit_code == 0 and "game stopped" in stopped.output
    assert len([line for line in record_lines(split) if line.get("seat") == 0]) == 3
    resumed = CliRunner().invoke(main, ["play", "--resume", str(split)], input="\n".join(answers) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert "resuming" in resumed.output and "won after" in resumed.output
    assert split.read_text() == whole.read_text()


def test_the_default_record_name_takes_the_first_free_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game-3.jsonl").write_text("an earlier game\n")
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3"], input="q\n")
    assert result.exit_code == 0 and "the record so far is in game-3-2.jsonl" in result.output
    assert (tmp_path / "game-3.jsonl").read_text() == "an earlier game\n"


def test_a_strategy_file_bot_is_recorded_by_its_path_and_resumes(tmp_path: Path) -> None:
    bot, record = tmp_path / "firstmove.py", tmp_path / "g.jsonl"
    bot.write_text("def choose(view):\n    return view.moves[0]\n")
    first = CliRunner().invoke(main, ["play", "--vs", str(bot), "--seed", "3", "--record", str(record)],
                               input="1\nq\n")
    assert first.exit_code == 0, first.output
    assert record_lines(record)[0]["seats"] == ["human", str(bot)]
    again = CliRunner().invoke(main, ["play", "--resume", str(record)], input="q\n")
    assert again.exit_code == 0 and "resuming" in again.output, again.output


def test_the_end_of_the_input_stops_the_game_as_q_does(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(record)], input="1\n")
    assert result.exit_code == 0 and "game stopped" in result.output
    assert [line["move"] for line in record_lines(record) if line.get("seat") == 0] == ["trail 3H"]


def test_ctrl_c_keeps_the_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a bot thinks (a KeyboardInterrupt anywhere in the game) stops it as q does:
    the player's move is kept, the bot's interrupted answer is not."""
    from simcasino.play import bots

    record, calls = tmp_path / "game.jsonl", []

    def interrupted(self, state, stream):
        calls.append(state)
        raise KeyboardInterrupt

    monkeypatch.setattr(bots.KernelSeat, "decide", interrupted)
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(record)], input="1\n")
    assert result.exit_code == 0 and calls and "game stopped" in result.output
    assert [line.get("move") for line in record_lines(record)[2:]] == ["trail 3H"]


def test_partners_score_as_teams(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--players", "4", "--rule", "partnership=2", "--vs", "heuristic",
                                       "--seed", "1", "--record", str(tmp_path / "g.jsonl")], input="q\n")
    assert result.exit_code == 0, result.output
    assert "score   team 0 (seats 0, 2) 0 · team 1 (seats 1, 3) 0" in result.output


def test_question_mark_shows_the_analysis_and_the_game_goes_on(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(tmp_path / "g.jsonl")],
                                input="?\nq\n")
    assert result.exit_code == 0, result.output
    assert "| move " in result.output and "KC takes KD" in result.output and "search_se" in result.output
    assert "heuristic: its value to the heuristic" in result.output  # the columns said in words


def test_three_players_and_misere_picks_play_to_the_end(tmp_path: Path) -> None:
    """§6 Misère: the next seat picks among the captures; a game of three, the person in the
    middle seat, always answering 1, ends."""
    record = tmp_path / "misere.jsonl"
    result = CliRunner().invoke(main, ["play", "--rules", "misere", "--players", "3", "--seat", "1",
                                       "--vs", "heuristic", "--vs", "greedy", "--seed", "2", "--rule", "target=8",
                                       "--rule", "mokki_limit=0",
                                       "--record", str(record)], input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert "won after" in result.output or "no winner" in result.output
    lines = record_lines(record)
    assert lines[0]["seats"] == ["heuristic", "human", "greedy"] and lines[0]["rules"]["preset"] == "misere"
    assert any("pick" in line for line in lines)


def test_the_person_picks_the_capture_a_bot_makes_under_misere(tmp_path: Path) -> None:
    """§6 Misère, seed 5: the heuristic's KD has two captures in deal 2 and the person picks."""
    record = tmp_path / "misere.jsonl"
    result = CliRunner().invoke(main, ["play", "--rules", "misere", "--vs", "heuristic", "--seed", "5", "--rule",
                                       "target=8", "--rule", "mokki_limit=0", "--record", str(record)],
                                input="1\n" * 600)
    assert result.exit_code == 0, result.output
    assert "seat 1 (heuristic) plays KD: you pick which capture it makes" in result.output
    assert "seat 0 (you) picks for seat 1 (heuristic): KD takes" in result.output
    assert {"seat": 0, "pick": "KD takes 3C 10C 8C 5H"} in record_lines(record)


@pytest.mark.parametrize(("args", "message"), [
    (["--vs", "clairvoyant"], "sees the hidden cards"),
    (["--seat", "2"], "--seat 2: a game of 2 players has seats 0-1"),
    (["--vs", "greedy", "--vs", "random"], "2 bots (--vs) for 1 bot seats"),
    (["--resume", "x.jsonl", "--seed", "1"], "--seed with --resume"),
    (["--vs", "nosuch"], "unknown strategy 'nosuch'"),
    (["--record", "pyproject.toml"], "--record pyproject.toml: the file exists; go on with its game with --resume"),
])
def test_bad_options_are_one_line_errors(args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = run("play", *args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output and result.output.count("\n") == 1


# --- move names ----------------------------------------------------------------------------------


def test_every_legal_move_is_found_by_its_own_name() -> None:
    rules = Rules.preset("rakennuskasino")
    view = position_view(rules, cards("3H 7C 10S 4D"), [*cards("7H 3S"), Build(tuple(cards("5H 2C")), 7, 1)])
    for move in view.moves:
        assert read_move(view, move_name(move, view.table)) == move


def test_names_read_in_any_order_and_case_with_takes() -> None:
    view = position_view(Rules(), cards("QD 2H"), cards("3H 9S 5C"))
    move = read_move(view, "qd takes 9s 3h")
    assert move == Move.capture(0, cards("QD")[0], 0b011)
    assert read_move(view, "QD 3H 9S") == move  # as records of version 0.2 name it
    with pytest.raises(ValueError, match=r"R-TURN: seat 0 holds no KD \(its hand: QD 2H\)"):
        read_move(view, "KD 3H 9S")
    with pytest.raises(ValueError, match="R-CAPTURE: 7C is not on the table"):
        read_move(view, "QD 7C")
    with pytest.raises(ValueError, match="R-CAPTURE: QD cannot take 3H: they do not split into disjoint groups"):
        read_move(view, "QD 3H")


def test_the_screen_lists_each_cards_captures_before_its_trail_and_numbers_them_so() -> None:
    """QD takes 3H 9S; 2H takes nothing: the listing is card by card, the capture before the
    trail, and a number picks the move listed under it (not the engines' own order)."""
    view = position_view(Rules(), cards("QD 2H"), cards("3H 9S 5C"))
    listed = listed_moves(view)
    assert sorted(listed, key=str) == sorted(view.moves, key=str)
    assert [(m.hand_index, m.is_trail) for m in listed] == [(0, False), (0, True), (1, True)]
    assert chosen_move(view, "1", listed) == Move.capture(0, cards("QD")[0], 0b011)
    assert view.moves[0].is_trail  # the engines list the trail first


def test_a_build_value_is_asked_for_when_the_card_allows_two() -> None:
    """§6 Builds with Swedish aces (1 or 14 on the table, R-ACE-SE) and 10D played as 16:
    2H onto AC builds 3 (3S held) or 16 (10D held), so the name must say which."""
    rules = Rules().replace(builds=True, big_kasino_hand=16)
    view = position_view(rules, cards("2H 3S 10D"), cards("AC"))
    with pytest.raises(ValueError, match="can make a build of 3, 16: say which"):
        read_move(view, "build 2H on AC")
    assert read_move(view, "build 2H on AC to 16").value == 16
    assert read_move(view, "BUILD 2h ON ac TO 3").value == 3


def test_the_position_text_is_what_analyze_reads() -> None:
    view = position_view(Rules.preset("rakennuskasino"), cards("3H"), [7, Build(tuple(cards("5H 2C")), 7, 1, True)],
                         cards("KD"))
    assert position_text(view) == ("3H", "8S 5H+2C==7@1", "KD")


# --- the screen ----------------------------------------------------------------------------------


def test_colour_paints_red_suits_and_plain_text_has_no_escapes() -> None:
    view = position_view(Rules(), cards("QD 2S"), cards("3H 9S"))
    coloured = Screen(Rules(), ["you", "search"], True, print)
    plain = Screen(Rules(), ["you", "search"], False, print)
    assert "\x1b[31m" in coloured.card(cards("QD")[0]) and "\x1b[31m" not in coloured.card(cards("2S")[0])
    assert all("\x1b" not in line for line in plain.position(view, (0, 0)))


def test_no_color_turns_colour_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from simcasino.play import screen

    monkeypatch.setattr(screen.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not screen.wants_colour()
    monkeypatch.delenv("NO_COLOR")
    assert screen.wants_colour()


@pytest.mark.parametrize("verb", ["play", "review"])
def test_the_help_gives_an_example_of_the_verb(verb: str) -> None:
    text = run(verb, "--help").output
    assert f"simcasino {verb} " in text.split("Example", 1)[1]


class _Quiet:
    def deal_started(self, *args) -> None:
        pass

    def moved(self, *args) -> None:
        pass

    def deal_over(self, *args) -> None:
        pass


@pytest.mark.parametrize(("rules", "seats"), [("swedish", ["heuristic", "greedy"]),
                                              ("swedish", ["search:worlds=4", "random"]),
                                              ("finnish", ["heuristic", "heuristic", "greedy"]),
                                              ("rakennuskasino", ["heuristic", "greedy"]),
                                              ("misere", ["heuristic", "greedy", "heuristic"]),
                                              ("krypkasino", ["heuristic", "greedy", "heuristic", "greedy"])])
def test_bots_at_the_table_play_the_game_the_kernel_plays(rules: str, seats: list[str]) -> None:
    """A game of bots only, refereed by the reference engine with each bot's move asked of the
    kernel at the position the referee's state holds, ends with the scores of the same game
    played wholly in the kernel (`play_games`): the hidden hands, stock and history are right."""
    import simcasino
    from simcasino.play.bots import make_bot
    from simcasino.play.game import Game
    from simcasino.play.record import Header

    resolved = Rules.preset(rules).replace(players=len(seats))
    outcome = Game(Header(resolved, 1, tuple(seats)), [make_bot(s, resolved.builds) for s in seats], _Quiet()).play()
    kernel = simcasino.play_games(resolved, seats, games=1, seed=1, engine="numba", threads=1)
    assert outcome.scores == kernel["score"].to_list()
    assert [outcome.deals] * len(seats) == kernel["deals"].to_list()


class _Log:
    """Every decision with what the referee's state hands the kernel for it (and the deal's
    random stream as the decision began, which `_Noting` notes)."""

    def __init__(self) -> None:
        self.log, self.rng = [], 0

    def deal_started(self, *args) -> None:
        pass

    def moved(self, view, move, state, replayed) -> None:
        from simcasino.loop.seat import deal_history, seen_turns

        hidden = ([list(hand) for hand in state.hands], state.stock)
        self.log.append((view, move, hidden, deal_history(state), seen_turns(state, view.seat), self.rng))

    def deal_over(self, *args) -> None:
        pass


class _Noting:
    """A bot that notes the deal's random stream in the log before it decides."""

    def __init__(self, bot, log: _Log) -> None:
        self.bot, self.log = bot, log

    def decide(self, state, stream):
        self.log.rng = stream.state
        return self.bot.decide(state, stream)


def _offered(rules: Rules, table) -> int:
    """The values some cards of ``table`` add up to (bit v: value v), as the belief notes them."""

    reach = {0}
    for card in table:
        reach |= {r + v for r in reach for v in rules.table_values(card)}
    return sum(1 << v for v in reach if 0 < v <= 16)


@pytest.mark.parametrize("rules", ["swedish", "finnish"])
def test_the_turns_the_search_bot_is_given_are_those_the_kernel_notes(rules: str) -> None:
    """Two players: at the search's first decision of a round, the kernel's belief notes the
    other's reply (`noted_turns`) as the referee's state hands it to the bot at the next
    decision: the seat, whether it captured, the values the table it faced offered."""
    from helpers.kernel_probes import noted_turns

    from simcasino.play.bots import make_bot
    from simcasino.play.game import Game
    from simcasino.play.record import Header

    resolved, watcher = Rules.preset(rules), _Log()
    bots = [_Noting(make_bot("search", False), watcher), make_bot("heuristic", False)]
    Game(Header(resolved, 2, ("search", "heuristic")), bots, watcher).play()
    checked = 0
    for (view, _, (hands, stock), history, turns, rng), (reply, answer, *_), (after, *_, seen, _) in zip(
            watcher.log, watcher.log[1:], watcher.log[2:]):
        if view.seat != 0 or turns or after.stock_left != view.stock_left or after.seat != 0:
            continue
        taken = tuple(c for i, c in enumerate(reply.table) if answer.taken >> i & 1)
        kernel = noted_turns(view, StrategySpec("search"), hands, stock, [(answer.card, taken)], history, rng)
        assert [(t.seat, t.captured, _offered(resolved, t.table)) for t in seen] == \
            [(seat, captured, offered & (1 << 17) - 1) for seat, captured, offered in kernel]
        checked += 1
    assert checked >= 5


def test_the_bots_kernel_is_prepared_behind_the_first_screen(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """The first position is shown and the player's move taken while the bots' kernel compiles
    in a thread (a slow compile stood in for here); the bot that must answer waits under a line
    saying what is being prepared, never in silence."""
    import time

    from simcasino.cli import progress
    from simcasino.loop import entry

    monkeypatch.setattr(progress, "NOTE_AFTER", 0.05)
    monkeypatch.setattr(entry, "prepared", lambda tier: False)
    monkeypatch.setattr(entry, "cached", lambda tier: False)
    monkeypatch.setattr(entry, "prepare", lambda tier: time.sleep(1.0))
    result = CliRunner().invoke(main, ["play", *FAST, "--seed", "3", "--record", str(tmp_path / "g.jsonl")],
                                input="1\nq\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.index("hand ") < out.index("compiling the engine for the heuristic")
    assert "compiled the engine for the heuristic in" in out


@pytest.mark.parametrize(("preset", "said"), [("swedish", "this deal's points count at its end"),
                                              ("finnish", "aces and kasinos count when taken")])
def test_the_score_line_says_when_the_deals_points_join_it(preset: str, said: str) -> None:
    """docs/rules.md §5: Swedish scores a deal at its end; Finnish immediate scoring counts
    aces and kasinos as they are captured, so the game score moves during the deal."""
    rules = Rules.preset(preset)
    view = position_view(rules, cards("QD 2H"), cards("3H 9S 5C"))
    score_line = Screen(rules, ["you", "bot"], False, print).position(view, [0, 0])[1]
    assert score_line.startswith("score") and said in score_line
