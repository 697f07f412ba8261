"""The ``analyze`` verb: every legal move of one position, as the strategies judge it."""

from __future__ import annotations

import click

from simcasino.cli.common import PRESET_NAMES, build_rules, echo_table


@click.command("analyze")
@click.option("--hand", required=True, metavar="CARDS", help="Cards in hand, e.g. 'AS 10D 7H'.")
@click.option("--table", default="", metavar="CARDS", help="Cards on the table (default: none).")
@click.option(
    "--seen", default="", metavar="CARDS", help="Cards already played or captured (visible to all)."
)
@click.option(
    "--rules",
    "rules_name",
    default="swedish",
    metavar="PRESET",
    help=f"Rules preset: {PRESET_NAMES}.",
)
@click.option(
    "--rule", "overrides", multiple=True, metavar="KNOB=VALUE", help="Change one knob; repeatable."
)
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A heuristic weight for the heuristic column, e.g. -p tabbe_denial=0.",
)
def analyze_command(
    hand: str,
    table: str,
    seen: str,
    rules_name: str,
    overrides: tuple[str, ...],
    params: tuple[str, ...],
) -> None:
    """List every legal move of a hand on a table: what it takes, its immediate points, the
    heuristic's value of it (best first), and for the heuristic's best few the search's
    expected margin (our points minus the opponent's at the end of the deal, over sampled
    deals of the unseen cards) with its standard error.

    \b
    Example:
      simcasino analyze --rules finnish --hand "AS 9H 7D" --table "5C 9D 2H" --seen "2S"
    """
    from simcasino.analyze import analyze
    from simcasino.strategies import parse_strategy

    rules = build_rules(rules_name, None, overrides)
    weights = parse_strategy("heuristic:" + ",".join(params)).params if params else None
    echo_table(analyze(hand, table, rules, seen, weights))


COMMANDS = (analyze_command,)
