"""The ``strategies`` verbs: what the built-in strategies are and which parameters they take."""

from __future__ import annotations

import click

from simcasino.cli.common import Group
from simcasino.strategies import KERNEL_ORDER, StrategySpec, module, params_of

SEES_HIDDEN_MARK = "[sees hidden cards]"  # a ceiling to measure against, never a fair player


@click.group("strategies", cls=Group)
def strategies_group() -> None:
    """List the built-in strategies.

    \b
    Example:
      simcasino strategies list
    """


@strategies_group.command("list")
def strategies_list() -> None:
    """Print every strategy with a one-line description and its parameters (defaults); a
    strategy that reads the other hands or the stock (the clairvoyant) is marked as such.

    A parameter is set where a strategy is named: -s heuristic:hold_twos=0,card_value=0.1

    \b
    Example:
      simcasino strategies list
    """
    width = max(len(name) for name in KERNEL_ORDER)
    for name in KERNEL_ORDER:
        mark = f"{SEES_HIDDEN_MARK} " if StrategySpec(name).sees_hidden else ""
        click.echo(f"{name:<{width}}  {mark}{module(name).DESCRIPTION}")
        for param, (default, what) in params_of(name).items():
            click.echo(f"{'':<{width}}    {param}={default:g}  {what}")


COMMANDS = (strategies_group,)
