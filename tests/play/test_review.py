"""`simcasino review`: where nothing is hidden the judge's values are the exact ones, worked
out here independently by trying every continuation in the reference engine; the verb's
table, summary and chart; its errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cli import ok, run, table
from helpers.hidden import deal_hidden
from helpers.kernel_probes import worlds_played
from helpers.positions import recorded_views

from simcasino.advice.conditions import card_of, parse_rule
from simcasino.advice.follow import Follow
from simcasino.cli import main
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, View
from simcasino.core.rng import seed_key, shuffled_deck
from simcasino.core.rules import Rules
from simcasino.play.game import EndOfRecord, Game
from simcasino.play.record import load_record
from simcasino.play.review import MISTAKE, Review, Verdict, judge, review, summary
from simcasino.reference.referee import play_deal
from simcasino.reference.state import DealState
from simcasino.strategies import parse_strategy


class _Branch(Exception):
    def __init__(self, view: View) -> None:
        self.view = view


class _Prefix:
    """Plays the given moves in order (by ply), then stops the deal at the next decision."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves

    def choose(self, view: View) -> Move:
        if len(view.played) < len(self.moves):
            return self.moves[len(view.played)]
        raise _Branch(view)


def exact_margin(rules: Rules, deck: list[int], moves: list[Move], seat: int) -> int:
    """The deal's margin for ``seat`` (its points less the other's) after ``moves`` when both
    play best from there on: plain minimax over every continuation (two players)."""
    try:
        result = play_deal(DealState.dealt(rules, deck, 0, 1), [_Prefix(moves)] * 2)
    except _Branch as branch:
        values = [exact_margin(rules, deck, [*moves, m], seat) for m in branch.view.moves]
        return max(values) if branch.view.seat == seat else min(values)
    return result.seats[seat].points - result.seats[1 - seat].points


class _Moves:
    """A watcher keeping every (view, move) of the playback."""

    def __init__(self) -> None:
        self.moves: list[tuple[View, Move]] = []

    def deal_started(self, *args) -> None:
        pass

    def moved(self, view, move, state, replayed) -> None:
        self.moves.append((view, move))

    def deal_over(self, *args) -> None:
        pass


@pytest.mark.parametrize("seed", [1, 2])
def test_review_gives_the_exact_values_where_nothing_is_hidden(tmp_path: Path, seed: int) -> None:
    """Two players, the stock empty, two cards or fewer in hand: the judge's values of the move
    played and of the best move are the minimax values of the rest of the deal."""
    path = tmp_path / "deal.jsonl"
    ok("replay", "--seed", str(seed), "-s", "greedy", "-s", "random", "--record", str(path))
    record = load_record(path)
    watcher = _Moves()
    try:
        Game(record.header, [None, None], watcher, record=record).play()
    except EndOfRecord:
        pass
    rules, deck = record.header.rules, shuffled_deck(seed_key(seed), 0, 0, 52)[0]
    verdicts = review(record, 0, worlds=4).verdicts
    ours = [(ply, view, move) for ply, (view, move) in enumerate(watcher.moves) if view.seat == 0]
    assert len(verdicts) == len(ours)
    played = [m for _, m in watcher.moves]
    checked = 0
    for verdict, (ply, view, move) in zip(verdicts, ours):
        if view.stock_left or len(view.hand) > 2:
            continue
        values = {m: exact_margin(rules, deck, [*played[:ply], m], 0) for m in view.moves}
        assert verdict.exact
        assert verdict.played == move_name(move, view.table)
        assert verdict.played_value == pytest.approx(values[move])
        assert verdict.best_value == pytest.approx(max(values.values()))
        assert (verdict.best == verdict.played) == (values[move] == max(values.values()))  # ties: the move played
        checked += 1
    assert checked == 2  # seat 0's last two moves


def test_the_loss_and_the_mistake_mark() -> None:
    close = Verdict(0, 1, "trail 5C", 1.0, "QD 3H", 1.5, 0.2, False)
    bad = Verdict(0, 2, "trail 5C", -2.0, "QD 3H", 1.0, 0.0, True)
    assert close.loss == pytest.approx(0.5) and not close.mistake  # a mistake loses *over* 0.5
    assert bad.loss == pytest.approx(3.0) and bad.mistake
    verdicts = [close, bad, Verdict(1, 1, "trail 2S", 0.0, "trail 2S", 0.0, 0.0, True)]
    line = summary(Review(verdicts, frozenset({0, 1})))
    assert line.startswith("3 moves in 2 deals: 1.75 points lost a deal (3.50 in all), 0.50 mistakes a deal (1 in all")
    assert f"over {MISTAKE}" in line


def test_per_deal_figures_count_only_the_deals_played_to_their_end() -> None:
    """A game stopped inside its second deal: the deal's figures are those of the first deal
    alone; the totals count every move judged."""
    verdicts = [Verdict(0, 1, "trail 5C", -2.0, "QD 3H", 1.0, 0.0, True), Verdict(1, 1, "trail 2S", 0.0, "QD", 0.2,
                                                                                    0.1, False)]
    line = summary(Review(verdicts, frozenset({0})))
    assert line.startswith("2 moves in 2 deals, 1 not finished: 3.00 points lost a deal over the 1 finished "
                           "(3.20 in all), 1.00 mistakes a deal (1 in all")
    assert summary(Review(verdicts[1:], frozenset())).startswith("1 move in 1 deal, 1 not finished: no deal finished")


def test_review_of_a_played_game_judges_the_human_seat_and_draws_the_chart(tmp_path: Path) -> None:
    record, chart = tmp_path / "game.jsonl", tmp_path / "loss.png"
    played = CliRunner().invoke(main, ["play", "--vs", "heuristic", "--rule", "target=6", "--seed", "3",
                                       "--record", str(record)], input="1\n" * 400)
    assert played.exit_code == 0, played.output
    result = ok("review", str(record), "--worlds", "8", "--report", str(chart))
    out = result.stdout
    assert out.startswith(f"review of seat 0 (human) in {record}: 8 worlds a move")
    assert "| deal | turn | played" in out and "moves in" in out and "points lost a deal" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    humans = [line for line in out.splitlines() if line.startswith("|    1 |")]
    assert humans[0].split("|")[3].strip() == "trail 3H"  # answering 1 trails the first card


def test_review_of_a_bot_seat_of_a_replayed_deal_as_pdf(tmp_path: Path) -> None:
    record, chart = tmp_path / "deal.jsonl", tmp_path / "loss.pdf"
    ok("replay", "--seed", "2", "-s", "greedy", "-s", "heuristic", "--record", str(record))
    out = ok("review", str(record), "--seat", "1", "--worlds", "4", "--report", str(chart)).stdout
    assert out.startswith(f"review of seat 1 (heuristic) in {record}")
    assert chart.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize(("args", "message"), [
    ([], "has no human seat: choose the seat to judge with --seat"),
    (["--seat", "5"], "--seat 5: the record has seats 0-1"),
    (["--seat", "0", "--report", "x.svg"], "--report x.svg: the chart is drawn as PNG (.png) or PDF (.pdf)"),
    (["--seat", "0", "--worlds", "0"], "--worlds 0: the judge needs at least one world"),
    (["--seat", "0", "--report", "/proc/x.png"], "--report /proc/x.png: cannot write there"),
])
def test_review_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    record = tmp_path / "deal.jsonl"
    ok("replay", "--seed", "2", "-s", "greedy", "-s", "greedy", "--record", str(record))
    result = run("review", str(record), *args)
    assert result.exit_code == 2 and result.output.startswith("error: ") and message in result.output


def test_review_of_a_stopped_game_judges_the_moves_it_has(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    stopped = CliRunner().invoke(main, ["play", "--vs", "heuristic", "--seed", "3", "--record", str(record)],
                                 input="1\n2\n1\nq\n")
    assert stopped.exit_code == 0 and "game stopped" in stopped.output
    judged = review(load_record(record), 0, worlds=4)
    verdicts = judged.verdicts
    assert [(v.deal, v.turn) for v in verdicts] == [(0, 1), (0, 2), (0, 3)]
    assert judged.finished == frozenset()
    assert "no deal finished" in summary(judged)
    assert verdicts[0].played == "trail 3H"


@pytest.mark.parametrize("worlds", [64, 512])
def test_the_judge_takes_the_worlds_asked_for(worlds: int) -> None:
    """``--worlds N`` means N worlds for every move, however many moves are legal (the
    search's default budget would otherwise share 4,096 playouts among them)."""
    views = [v for v in recorded_views(Rules.preset("swedish"), deals=2) if v.stock_left and len(v.moves) > 8]
    assert views
    for view in views[:3]:
        assert worlds_played(view, judge(view, worlds), *deal_hidden(view, 1)) == worlds


def test_review_with_a_card_marks_each_move_a_rule_sets_aside_and_says_the_rule(tmp_path: Path) -> None:
    """greedy's own deal under its card: a move is marked where greedy following the card plays
    another move, and each rule marked is said in words below the table."""
    record = tmp_path / "deal.jsonl"
    ok("replay", "--seed", "4", "-s", "greedy", "-s", "greedy", "--record", str(record))
    out = ok("review", str(record), "--seat", "0", "--worlds", "4", "--card", "card").stdout
    rows = table(out)
    marked = [r for r in rows if r["card"]]
    assert all(r["card"].startswith("broke ") for r in marked)
    card = card_of("card", "greedy")
    follower = Follow(parse_strategy("greedy").python(), card)
    views = [v for v in recorded_views_of(record) if v.seat == 0 and v.chooser_for < 0]
    differ = [follower.choose(v) != parse_strategy("greedy").python().choose(v) for v in views]
    assert [bool(r["card"]) for r in rows] == differ and any(differ)
    assert f"{len(marked)} of {len(rows)} moves broke a rule of the card:" in out
    for text in {r["card"].removeprefix("broke ") for r in marked}:
        assert f"  {text}: {parse_rule(text).words}" in out


def test_review_refuses_an_unknown_card_in_one_line_before_judging(tmp_path: Path) -> None:
    record = tmp_path / "deal.jsonl"
    ok("replay", "--seed", "2", "-s", "greedy", "-s", "greedy", "--record", str(record))
    result = run("review", str(record), "--seat", "0", "--card", "S9@last-round")
    assert result.exit_code == 2 and result.output.startswith("error: --card S9@last-round: unknown rule")


class _Views:
    """A `Watcher` that keeps every view of a record played back."""

    def __init__(self) -> None:
        self.seen: list[View] = []

    def deal_started(self, number: int, dealer: int, scores: list[int]) -> None:
        pass

    def moved(self, view: View, move: Move, state: DealState, replayed: bool) -> None:
        self.seen.append(view)

    def deal_over(self, number: int, result: object, scores: list[int]) -> None:
        pass


def recorded_views_of(path: Path) -> list[View]:
    record, watcher = load_record(path), _Views()
    try:
        Game(record.header, [None] * record.header.rules.players, watcher, record=record).play()
    except EndOfRecord:
        pass
    return watcher.seen
