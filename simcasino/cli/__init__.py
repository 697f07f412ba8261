"""The ``simcasino`` command line: thin click wrappers over the library API, one module per
verb group. Every verb module is light to import (the engine, polars and matplotlib are
imported inside the verbs that use them), so ``simcasino --help`` starts at once."""

from __future__ import annotations

import click

from simcasino import __version__
from simcasino.cli import (
    analyze,
    dataset,
    deals,
    experiment,
    findings,
    learn,
    play,
    report,
    rules,
    strategies,
)
from simcasino.cli.common import Group

VERB_MODULES = (
    analyze,
    dataset,
    deals,
    experiment,
    findings,
    learn,
    play,
    report,
    rules,
    strategies,
)


@click.group(cls=Group)
@click.version_option(__version__, prog_name="simcasino")
@click.option(
    "--debug",
    is_flag=True,
    help="On an error, print its traceback too (a strategy file's own, where it "
    "raised), before the error line.",
)
def main(debug: bool) -> None:
    """Simulate Nordic Kasino by the million and measure which tactics win points.

    \b
    Examples:
      simcasino experiment run experiments/quick.toml
      simcasino simulate --rules finnish -s greedy -s random --deals 100000 --seed 1
      simcasino compare heuristic greedy --rules finnish --decks 20000 --seed 1
      simcasino games --rules swedish -s greedy -s random --games 1000
      simcasino rules list
      simcasino replay --rules finnish --seed 1 --deal 0
    """


for verb_module in VERB_MODULES:
    for command in verb_module.COMMANDS:
        main.add_command(command)
