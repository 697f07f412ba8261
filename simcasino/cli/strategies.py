"""The ``strategies`` verbs: what the built-in and plug-in strategies are and which parameters they
take."""

from __future__ import annotations

import click

from simcasino.cli.common import Group, plain
from simcasino.strategies import KERNEL_ORDER, PLUGINS, StrategySpec, module, params_of

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
    from simcasino.advice.claims import CLAIMS  # the kernel's vocabulary: not for --help

    width = max(len(name) for name in (*KERNEL_ORDER, *PLUGINS))
    for name in (*KERNEL_ORDER, *PLUGINS):
        try:
            strategy = module(name)
        except ValueError:  # a plug-in without its extra installed
            extra = PLUGINS[name][2]
            click.echo(
                f"{name:<{width}}  (plug-in: needs the {extra} extra, pip install "
                f"'simcasino[{extra}]')"
            )
            continue
        if name in PLUGINS:  # one module serves several plug-ins: each is described by its factory
            description = (
                f"[extra: {PLUGINS[name][2]}] {getattr(strategy, PLUGINS[name][1]).__doc__}"
            )
        else:
            description = (
                f"{SEES_HIDDEN_MARK} " if StrategySpec(name).sees_hidden else ""
            ) + strategy.DESCRIPTION
        click.echo(f"{name:<{width}}  {plain(description)}")
        for param, (default, what) in params_of(name).items():
            click.echo(f"{'':<{width}}    {param}={default:g}  {plain(what)}")
    click.echo("\n" + click.wrap_text(FOLLOW_HELP, width=100))
    for claim in CLAIMS:
        click.echo(f"  follow={claim.id:<4} {claim.tactic}")


FOLLOW_HELP = (
    "Every strategy but the plug-ins also takes follow=, advice it obeys wherever it can "
    "(docs/strategies.md): follow=card, the shipped strategy card's rules for its level (the card "
    "has them for greedy and the heuristic; card-finnish or card-swedish: one game's), "
    "follow=FILE.toml, a card of your own, follow=RULE@CONDITIONS (greedy:follow=S6@last-round), "
    "or a tactic of docs/rules.md §7 by its id:"
)


COMMANDS = (strategies_group,)
