"""The verbs of a person at the table: ``play`` (a game against the bots, kept as a record)
and ``review`` (every move of a record's seat judged by the search)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simcasino.cli.common import build_rules, check_writable, echo_table, rules_options

if TYPE_CHECKING:
    from simcasino.advice.conditions import Rule
    from simcasino.core.protocol import View
    from simcasino.core.rules import Rules
    from simcasino.play.game import GameOutcome, Player
    from simcasino.play.record import GameRecord, Header, RecordWriter
    from simcasino.play.review import Review
    from simcasino.play.screen import Screen

RECORD_PATH = click.Path(dir_okay=False, path_type=Path)


@click.command("play")
@rules_options
@click.option("--players", type=int, help="Number of players, 2-4 (default: the rules' players).")
@click.option(
    "--vs",
    "bots",
    multiple=True,
    metavar="NAME",
    help="The bots' strategy: once for every bot, or once per bot seat in seat order (default: "
    "search).",
)
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Your seat (0 leads deal 1).",
)
@click.option(
    "--seed",
    type=int,
    help="The game's seed: the same seed deals the same cards (default: the clock).",
)
@click.option(
    "--record",
    type=RECORD_PATH,
    metavar="FILE.jsonl",
    help="Where the game's record goes (default: game-<seed>.jsonl here).",
)
@click.option(
    "--resume",
    type=RECORD_PATH,
    metavar="FILE.jsonl",
    help="Go on with the game of this record (its rules, seed and seats), appending to it.",
)
def play_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    bots: tuple[str, ...],
    seat: int,
    seed: int | None,
    record: Path | None,
    resume: Path | None,
) -> None:
    """Play a whole game of Kasino in the terminal against the bots.

    At your turn the screen shows the table, the piles, the cards gone and your numbered
    legal moves. Answer with a number or name the move: 'QD takes 3H 9S' (play QD, take 3H
    and 9S), 'trail 5C', 'build 3H on 7H'. '?' shows the position's analysis (as 'simcasino
    analyze'), 'q' stops. Every move goes to the record as it is made, so a stopped game
    goes on with --resume; 'simcasino review FILE' then judges your moves.

    \b
    Example:
      simcasino play --rules swedish --vs search --seed 7 --record game.jsonl
      simcasino play --rules finnish --players 3 --vs heuristic --vs search
      simcasino play --resume game.jsonl
    """
    from simcasino.play.record import RecordWriter, load_record

    if resume:
        given = [
            name
            for name, value in (
                ("--rules", rules_name),
                ("--rules-file", rules_file),
                ("--rule", overrides),
                ("--players", players),
                ("--vs", bots),
                ("--seed", seed),
                ("--record", record),
            )
            if value
        ]
        if given:
            raise ValueError(
                f"{given[0]} with --resume: the game goes on with the record's own settings"
            )
        game_record = load_record(resume)
        header = game_record.header
        if not header.humans:
            raise ValueError(f"{resume}: no human seat in this record, so nothing to resume")
        writer = RecordWriter(resume)
        deals = len(game_record.deals)
        click.echo(f"resuming {resume}: {deals} deal{'s' * (deals != 1)} recorded")
    else:
        header = new_header(
            build_rules(rules_name, rules_file, overrides, players), bots, seat, seed
        )
        writer, game_record = RecordWriter(new_record_path(record, header.seed), header), None
    try:
        outcome = run_game(header, writer, game_record)
    finally:
        writer.close()
    click.echo(outcome_line(header, outcome, writer.path))


def new_record_path(record: Path | None, seed: int) -> Path:
    """``--record``, which must not hold a record already (a game is never overwritten), or
    the first free name of game-<seed>.jsonl, game-<seed>-2.jsonl, ..."""
    if record is not None:
        if record.exists():
            raise ValueError(
                f"--record {record}: the file exists; go on with its game with --resume {record}, "
                "or choose another file"
            )
        return record
    names = (Path(f"game-{seed}{f'-{n}' if n > 1 else ''}.jsonl") for n in range(1, 1_000_000))
    return next(path for path in names if not path.exists())


def new_header(rules: Rules, bots: Sequence[str], seat: int, seed: int | None) -> Header:
    """A new game's header: the person at ``seat``, a bot at every other seat."""
    from simcasino.play.bots import make_bot
    from simcasino.play.record import HUMAN, Header

    if seat >= rules.players:
        raise ValueError(
            f"--seat {seat}: a game of {rules.players} players has seats 0-{rules.players - 1}"
        )
    count = rules.players - 1
    if len(bots) not in (0, 1, count):
        raise ValueError(
            f"{len(bots)} bots (--vs) for {count} bot seats: give one --vs for all, or one per bot "
            "seat"
        )
    names = list(bots) if len(bots) == count else [bots[0] if bots else "search"] * count
    labels = [make_bot(name, rules.builds).label for name in names]
    labels.insert(seat, HUMAN)
    return Header(rules, int(time.time()) % 1_000_000 if seed is None else seed, tuple(labels))


def run_game(
    header: Header, writer: RecordWriter, game_record: GameRecord | None
) -> GameOutcome | None:
    """The game on the terminal; None when the player stopped it."""
    from simcasino.play.game import Game, StopGame
    from simcasino.play.screen import Screen, wants_colour

    humans = header.humans
    labels = [
        "you" if seat in humans and len(humans) == 1 else label
        for seat, label in enumerate(header.seats)
    ]
    screen = Screen(header.rules, labels, wants_colour(), click.echo)
    click.echo(
        f"{header.rules.name} rules, {header.rules.players} players, to {header.rules.target}; "
        f"seed {header.seed}; " + ", ".join(screen.seat(s) for s in range(header.rules.players))
    )
    try:
        players = seat_players(header, screen, game_record.path if game_record else None)
        return Game(header, players, screen, writer, game_record).play()
    except (StopGame, KeyboardInterrupt):
        return None


ANALYSIS_COLUMNS = (
    "  cards, points: what the move takes now; heuristic: its value to the heuristic (best first)\n"
    "  search: your expected margin at the deal's end for the best few, search_se its standard "
    "error"
)


def seat_players(header: Header, screen: Screen, source: Path | None) -> list[Player]:
    """A person at the human seats, a bot at the others (``source``: the record they come from).
    The bots' kernel is compiled (or loaded from the cache) in a thread behind the first
    screen, while the person looks at the deal and chooses a move (`progress.Preparation`); a
    bot that must answer before it is ready waits under a line saying so."""
    from simcasino.cli.progress import Preparation, prepare_engine
    from simcasino.play.bots import make_bot
    from simcasino.play.human import Human
    from simcasino.strategies import parse_strategy

    def analyse(view: View) -> None:
        from simcasino.analyze import analyze
        from simcasino.core.notation import position_text

        prepare_engine([parse_strategy("search")])  # the analysis asks the search
        hand, table, seen = position_text(view)
        echo_table(analyze(hand, table, header.rules, seen))
        click.echo(ANALYSIS_COLUMNS)

    debug = bool(click.get_current_context().find_root().params.get("debug"))
    human, players = Human(screen, analyse, rule_ids=debug), []
    for seat, label in enumerate(header.seats):
        try:
            players.append(human if seat in header.humans else make_bot(label, header.rules.builds))
        except ValueError as err:  # only a record's header can name a bot that cannot play
            raise ValueError(f"{source} line 1: seat {seat} is {label!r}: {err}") from None
    bots = [player for player in players if player is not human]
    preparation = Preparation([bot.strategy for bot in bots])
    for bot in bots:
        bot.ready = preparation.wait
    return players


def outcome_line(header: Header, outcome: GameOutcome | None, path: Path) -> str:
    if outcome is None:
        return (
            f"game stopped; the record so far is in {path}: go on with 'simcasino play "
            f"--resume {path}'"
        )
    rules, deals = header.rules, f"{outcome.deals} deal{'s' * (outcome.deals != 1)}"
    scores = ", ".join(
        f"{'team' if rules.partnership else 'seat'} {u} {outcome.scores[u]}"
        for u in range(rules.units)
    )
    if outcome.winner < 0:
        return f"no winner after {deals} ({scores}); the record is in {path}"
    members = [s for s in range(rules.players) if s % rules.units == outcome.winner]
    who = " and ".join(f"seat {s} ({header.seats[s]})" for s in members)
    return f"{who} won after {deals}: {scores}; the record is in {path}"


@click.command("review")
@click.argument("record", type=RECORD_PATH)
@click.option("--seat", type=int, help="Whose moves to judge (default: the human seat).")
@click.option(
    "--worlds",
    type=int,
    default=256,
    show_default=True,
    help="Worlds the judge (the search) samples per move; more is slower and surer.",
)
@click.option(
    "--report", type=RECORD_PATH, metavar="FILE.png|pdf", help="Also draw the loss of every move."
)
@click.option(
    "--card",
    metavar="CARD",
    help="Also mark each move a rule of a strategy card sets aside, and say the rule: card "
    "(the shipped card for a club player), card-swedish, card-finnish, a card file (.toml), "
    "or one rule (S6@last-round).",
)
def review_command(
    record: Path, seat: int | None, worlds: int, report: Path | None, card: str | None
) -> None:
    """Judge every move of one seat of a game record by the search with a large budget.

    Per move: the points of the deal the search expects from the move played and from the
    best move (its margin: the seat's side against the best other side), the loss, and a
    mark on mistakes (a loss of over 0.5 points); where nothing is hidden (two players, the
    stock empty) the values are exact. Then points lost and mistakes a deal.

    \b
    Example:
      simcasino review game.jsonl --report losses.png
      simcasino review deal.jsonl --seat 1 --worlds 512
      simcasino review game.jsonl --card card
    """
    from simcasino.cli.progress import showing_progress, stopped
    from simcasino.play.chart import check_chart_path
    from simcasino.play.record import load_record
    from simcasino.play.review import ReviewInterrupted, moves_of, review

    rules = _card_rules(card) if card else ()
    game_record = load_record(record)
    if seat is None:
        if not game_record.header.humans:
            raise ValueError(f"{record} has no human seat: choose the seat to judge with --seat")
        seat = game_record.header.humans[0]
    if report:
        check_chart_path(report)
        check_writable(report, "--report")  # before the judging, which can take minutes
    seats = game_record.header.seats
    label = f"seat {seat}" + (
        f" ({seats[seat]})" if 0 <= seat < len(seats) else ""
    )  # a bad --seat: review says
    from simcasino.strategies import parse_strategy

    with showing_progress([parse_strategy("search")], "review", "moves") as line:
        try:
            judged = review(
                game_record, seat, worlds, line.counter(max(1, moves_of(game_record, seat))), rules
            )
        except ReviewInterrupted as stop:
            line.close()
            _show_review(stop.review, label, record, worlds, report, bool(card), partial=True)
            stopped(line, "the moves judged so far are above, marked partial")
    _show_review(judged, label, record, worlds, report, bool(card))


def _card_rules(card: str) -> tuple[Rule, ...]:
    """What --card names, as the rules of greedy's card (ValueError naming the option)."""
    from simcasino.advice.conditions import card_of

    try:
        return card_of(card, "greedy")
    except ValueError as err:
        raise ValueError(f"--card {card}: {err}") from None


def _show_review(
    judged: Review,
    label: str,
    record: Path,
    worlds: int,
    report: Path | None,
    card: bool,
    partial: bool = False,
) -> None:
    """The verdicts as a table (with the card rule each move broke when ``card``), the summary
    line, and the chart when asked (``partial``: of the moves judged before Ctrl-C)."""
    import polars as pl

    from simcasino.play.chart import draw_losses
    from simcasino.play.review import card_lines, summary

    so_far = " (interrupted: the moves judged so far, partial)" if partial else ""
    click.echo(
        f"review of {label} in {record}: {worlds} worlds a move (exact where nothing is "
        f"hidden){so_far}"
    )
    verdicts = judged.verdicts
    if not verdicts:
        if partial:
            return
        raise ValueError(f"{record}: {label} made no move in this record")
    echo_table(
        pl.DataFrame(
            [
                {
                    "deal": v.deal + 1,
                    "turn": v.turn,
                    "played": v.played,
                    "expected": round(v.played_value, 2),
                    "best": v.best,
                    "best expected": round(v.best_value, 2),
                    "loss": round(v.loss, 2),
                    "±": round(v.error, 2),
                    "mark": " ".join(["MISTAKE"] * v.mistake + ["exact"] * v.exact),
                }
                | ({"card": f"broke {v.broke.text}" if v.broke else ""} if card else {})
                for v in verdicts
            ]
        )
    )
    click.echo(summary(judged))
    if card:
        for line in card_lines(judged):
            click.echo(line)
    if report:
        draw_losses(verdicts, f"review of {label}: points lost move by move{so_far}", report)
        click.echo(f"wrote {report}")


COMMANDS = (play_command, review_command)
