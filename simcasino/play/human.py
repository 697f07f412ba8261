"""The person at the table: shown the position, asked for a move until they give a legal one.

A move is chosen by its number in the list or by its name (`core.notation`: ``QD takes 3H 9S``,
``trail 5C``, ``build 3H on 7H``); ``?`` shows the position's analysis, ``q`` stops the
game, ``help`` says what the prompt takes. A move that cannot be read or is not legal is
explained, with what the prompt takes, and the question asked again: bad input never ends
the game. The end of the input and Ctrl-C stop it as ``q``
does (`StopGame`), so the record so far is kept.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

import click

from simcasino.core.cards import parse_card
from simcasino.core.protocol import Move, Stream, View
from simcasino.play.game import StopGame
from simcasino.play.screen import Screen, listed_moves
from simcasino.reference.moves import read_move
from simcasino.reference.state import DealState

RULE_ID = re.compile(r"\bR-[A-Z0-9-]+: ")  # docs/rules.md's ids open the engine's refusals
QUIT = ("q", "quit")
HELP_WORDS = ("help", "h")
PROMPT_WORDS = (
    "trail",
    "build",
    "takes",
    "on",
    "to",
    "help",
    "quit",
)  # the words offered for a misspelt one
OTHER_WORDS = (
    "take",
    "taking",
    "x",
    "j",
    "q",
    "k",
)  # read too: fillers, and a build's value by its rank
HELP = (
    "a number, a move's name (QD takes 3H 9S, trail 5C, build 3H on 7H), ? for the analysis, q "
    "to stop"
)


class Human:
    """Decides through the terminal; ``analyse`` prints the analysis of a view (``?``)."""

    def __init__(
        self, screen: Screen, analyse: Callable[[View], None], rule_ids: bool = False
    ) -> None:
        self.screen, self.analyse, self.rule_ids = screen, analyse, rule_ids

    def decide(self, state: DealState, stream: Stream) -> Move:
        view = state.observation(state.to_move)
        picking = view.chooser_for >= 0
        lines = (
            self.screen.choices(view)
            if picking
            else self.screen.position(view, state.tally.scored_sweeps)
        )
        for line in lines:
            self.screen.echo(line)
        while True:
            text = self.ask("your pick" if picking else "your move")
            if text.lower() in QUIT:
                raise StopGame()
            if text.lower() in HELP_WORDS:
                self.screen.echo(f"  type {HELP}")
                continue
            try:
                if text == "?" and not picking:
                    self.analyse(view)
                    continue
                return chosen_move(view, text, view.moves if picking else listed_moves(view))
            except ValueError as err:  # a move that is not one, or a position the analysis refuses
                self.screen.echo(f"  {err if self.rule_ids else without_rule_id(str(err))}")
                if text:
                    self.screen.echo(f"  type {HELP}")

    def ask(self, question: str) -> str:
        """One line of input; the end of the input or Ctrl-C stop the game."""
        try:
            return click.prompt(
                question, prompt_suffix="> ", default="", show_default=False
            ).strip()
        except click.Abort:
            raise StopGame() from None


def chosen_move(view: View, text: str, numbered: Sequence[Move]) -> Move:
    """The move ``text`` chooses: its number in ``numbered`` (from 1, as the screen listed
    them) or its name; a misspelt word of a move's name gets the nearest word offered."""
    if not text:
        raise ValueError(f"type {HELP}")
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= len(numbered):
            raise ValueError(f"no move number {number}: choose 1-{len(numbered)}")
        return numbered[number - 1]
    try:
        return read_move(view, text)
    except ValueError as err:
        raise ValueError(misspelt(text) or str(err)) from None


def without_rule_id(message: str) -> str:
    """A refusal in a club player's words: "R-CAPTURE: 5C cannot take ..." without the rule
    book's id in front, which only the rule book's readers know (`simcasino --debug play`
    keeps it)."""
    return RULE_ID.sub("", message)


def misspelt(text: str) -> str | None:
    """ "'tral' is no word of a move: did you mean 'trail 2C'?" for the first word of ``text``
    that is neither a card, a build on the table, a build's value nor a word the prompt takes,
    but near one (None when there is none such)."""
    words = text.split()
    for i, word in enumerate(words):
        if _known(word):
            continue
        near = difflib.get_close_matches(word.lower(), PROMPT_WORDS, n=1, cutoff=0.6)
        if near:
            meant = " ".join([*words[:i], near[0], *words[i + 1 :]])
            return f"'{word}' is no word of a move: did you mean '{meant}'?"
    return None


def _known(word: str) -> bool:
    """A card (``QD``), a build's cards (``5H+7C``, as the table shows it), a value or a word of a
    move's name."""
    if word.lower() in (*PROMPT_WORDS, *OTHER_WORDS) or word.isdigit():
        return True
    try:
        for card in word.strip("[],").split("=")[0].split("+"):
            parse_card(card)
    except ValueError:
        return False
    return True
