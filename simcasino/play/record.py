"""The game record: a versioned JSON-lines file of one game (or one replayed deal).

Why JSON lines: a record is written a line at a time while the game goes on, so a game
stopped by ``q``, Ctrl-C or a crash keeps every move made; each line stands alone, so a
damaged or hand-edited line is named by its number. The lines (docs/play.md):

1. the header: ``{"format": "simcasino-game", "version": 1, "rules": {"preset": ...,
   knob: value, ...}, "seed": 7, "seats": ["human", "search", ...]}``;
2. per deal a start line ``{"deal": 0, "stream": [0, 0], "dealer": 1}`` (the deck is the
   shuffle of random stream (seed key, *stream*), `simcasino.core.rng.shuffled_deck`);
3. per decision ``{"seat": 0, "move": "QD takes 3H 9S"}`` in the order made (`core.notation`;
   records of version 0.2 wrote ``"QD 3H 9S"``, which reads as well), and under §6 Misère
   the next seat's pick among the card's captures ``{"seat": 1, "pick": ...}``;
4. per finished deal ``{"end": 0, "points": [5, 6]}``, each seat's points of that deal.

The moves are checked when the record is played back (`game`), against the legal moves of
each position; this module checks the shape of every line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from simcasino.core.notation import move_name
from simcasino.core.protocol import View
from simcasino.core.rules import Rules, from_table
from simcasino.reference.state import Action

FORMAT = "simcasino-game"
VERSION = 1
HUMAN = "human"  # the seat label of a person at the table


@dataclass(frozen=True)
class Header:
    """What a game is: its rules, its seed, and who sits where (strategy labels, or ``human``)."""

    rules: Rules
    seed: int
    seats: tuple[str, ...]

    @property
    def humans(self) -> list[int]:
        return [seat for seat, label in enumerate(self.seats) if label == HUMAN]


@dataclass(frozen=True)
class Decision:
    """One decision as recorded: the seat, the move's name, and whether it is a §6 Misère pick."""

    seat: int
    move: str
    pick: bool = False
    line: int = 0  # where it stands in the file (0: not read from one)


@dataclass
class RecordedDeal:
    """One deal of a record: how its deck was shuffled, who dealt, the decisions, its points."""

    number: int
    stream: tuple[int, int]
    dealer: int
    decisions: list[Decision] = field(default_factory=list)
    points: list[int] | None = None  # None: the record stops inside this deal
    line: int = 0


@dataclass
class GameRecord:
    path: Path
    header: Header
    deals: list[RecordedDeal]


class RecordWriter:
    """Appends record lines to a file, each flushed at once (a stopped game keeps every move)."""

    def __init__(self, path: Path, header: Header | None = None) -> None:
        """A new record at ``path`` starting with ``header``, or (no header) an existing one
        to append to (``play --resume``)."""
        self.path = path
        try:
            self.file: IO[str] = path.open("w" if header else "a", encoding="utf-8")
        except OSError as err:
            raise ValueError(f"cannot write the record {path}: {err.strerror}") from None
        if header:
            self._write(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "rules": header.rules.to_table(changed_only=True),
                    "seed": header.seed,
                    "seats": list(header.seats),
                }
            )

    def start_deal(self, number: int, stream: tuple[int, int], dealer: int) -> None:
        self._write({"deal": number, "stream": list(stream), "dealer": dealer})

    def decision(self, decision: Decision) -> None:
        self._write({"seat": decision.seat, "pick" if decision.pick else "move": decision.move})

    def end_deal(self, number: int, points: list[int]) -> None:
        self._write({"end": number, "points": points})

    def close(self) -> None:
        self.file.close()

    def _write(self, entry: dict[str, Any]) -> None:
        self.file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self.file.flush()


class DealRecorder:
    """A record of one bot deal as `simcasino replay` plays it (deal ``deal`` of a `simulate`
    batch: stream (seed key, deal, 0), the last seat deals): the deal loop tells it every
    decision (`watch`), then `finish` with the deal's points."""

    def __init__(self, path: Path, header: Header, deal: int) -> None:
        self.writer = RecordWriter(path, header)
        self.writer.start_deal(0, (deal, 0), header.rules.players - 1)

    def watch(self, view: View, action: Action) -> None:
        self.writer.decision(
            Decision(action.seat, move_name(action.move, action.table), action.pick)
        )

    def finish(self, points: list[int]) -> None:
        self.writer.end_deal(0, points)
        self.writer.close()


class RecordError(ValueError):
    """A record line that is not what the format says (the message names the file and line)."""


def load_record(path: Path) -> GameRecord:
    """Read a record; RecordError naming the line of the first thing wrong with it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(
            f"cannot read the record {path}: {getattr(err, 'strerror', None) or err}"
        ) from None
    entries = [
        (number, _parse_line(path, number, text))
        for number, text in enumerate(lines, 1)
        if text.strip()
    ]
    if not entries:
        raise RecordError(f"{path}: an empty file, not a game record")
    header = _read_header(path, *entries[0])
    deals: list[RecordedDeal] = []
    for number, entry in entries[1:]:
        _read_entry(path, number, entry, header, deals)
    return GameRecord(path, header, deals)


def _parse_line(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} line {number}: not JSON ({err.msg})") from None
    if not isinstance(entry, dict):
        raise RecordError(
            f"{path} line {number}: expected a JSON object, got {text.strip()[:40]!r}"
        )
    return entry


def _read_header(path: Path, number: int, entry: dict[str, Any]) -> Header:
    where = f"{path} line {number}"
    if entry.get("format") != FORMAT:
        raise RecordError(f'{where}: not a simcasino game record (no "format": "{FORMAT}")')
    if entry.get("version") != VERSION:
        raise RecordError(
            f"{where}: record version {entry.get('version')!r}; this simcasino reads version "
            f"{VERSION}"
        )
    try:
        rules = from_table(entry.get("rules"), where="rules")
    except ValueError as err:
        raise RecordError(f"{where}: {err}") from None
    seed, seats = entry.get("seed"), entry.get("seats")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"{where}: the seed must be an integer, got {seed!r}")
    if (
        not isinstance(seats, list)
        or len(seats) != rules.players
        or not all(isinstance(s, str) for s in seats)
    ):
        raise RecordError(
            f'{where}: "seats" must list {rules.players} labels (one per player), got {seats!r}'
        )
    return Header(rules, seed, tuple(seats))


def _read_entry(
    path: Path, number: int, entry: dict[str, Any], header: Header, deals: list[RecordedDeal]
) -> None:
    """One line after the header: a deal's start, a decision, or a deal's end."""
    where, players = f"{path} line {number}", header.rules.players
    if "deal" in entry:
        stream, dealer = entry.get("stream"), entry.get("dealer")
        if entry["deal"] != len(deals) or (deals and deals[-1].points is None):
            raise RecordError(
                f"{where}: deal {entry['deal']!r} starts where deal {len(deals)} was expected "
                "(after the previous deal's end)"
            )
        if not (
            isinstance(stream, list) and len(stream) == 2 and all(_is_count(s) for s in stream)
        ):
            raise RecordError(
                f'{where}: "stream" must be two non-negative integers, got {stream!r}'
            )
        if not (_is_count(dealer) and dealer < players):
            raise RecordError(f'{where}: "dealer" must be a seat 0-{players - 1}, got {dealer!r}')
        deals.append(RecordedDeal(len(deals), (stream[0], stream[1]), dealer, line=number))
        return
    if not deals or deals[-1].points is not None:
        raise RecordError(
            f'{where}: a move or a deal\'s end outside a deal (no {{"deal": ...}} line before it)'
        )
    deal = deals[-1]
    if "end" in entry:
        points = entry.get("points")
        if entry["end"] != deal.number or not (
            isinstance(points, list)
            and len(points) == players
            and all(isinstance(p, int) for p in points)
        ):
            raise RecordError(
                f'{where}: expected {{"end": {deal.number}, "points": [one integer per seat]}}'
            )
        deal.points = points
        return
    seat, kind = entry.get("seat"), "pick" if "pick" in entry else "move"
    if not (_is_count(seat) and seat < players) or not isinstance(entry.get(kind), str):
        raise RecordError(
            f'{where}: expected {{"seat": 0-{players - 1}, "move": "QD 3H"}}, got {entry!r}'
        )
    deal.decisions.append(Decision(seat, entry[kind], kind == "pick", number))


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
