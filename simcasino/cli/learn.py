"""The ``learn`` verb: the search's value of a round's end made again from a seed
(`simcasino.learn`), written as a value file; the engine is imported only when it starts."""

from __future__ import annotations

from pathlib import Path

import click

from simcasino.cli.common import build_rules, check_writable, rules_options


@click.command("learn")
@rules_options
@click.option(
    "--deals",
    type=click.IntRange(min=10),
    default=6000,
    show_default=True,
    help="Deals the search plays each iteration, both seats (each gives five rounds' ends a seat).",
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Rounds of data and fit: the first plays the search without a value, each next one with "
    "the last fit.",
)
@click.option(
    "--budget",
    type=click.IntRange(min=8),
    default=1024,
    show_default=True,
    help="Playouts a decision of the learning player (the default search takes 4,096).",
)
@click.option(
    "--at",
    type=click.Choice(["last", "every"]),
    default="last",
    show_default=True,
    help="Where the value is learned and then used: the last round's start (search:value=2), or "
    "every round's end (search:value=1).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Master seed: the same seed makes the same file.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.json",
    required=True,
    help="The value file to write (checked before any work).",
)
def learn_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    deals: int,
    iterations: int,
    budget: int,
    at: str,
    seed: int,
    out: Path,
) -> None:
    """Learn the value of a round's end (two players) from the search's own deals: the search
    plays, every round's end is recorded with the margin the deal then gave, a small model is
    fitted (held-out deals report its error), and the search plays again with it. The file
    says the commit and seed that made it; `search:value=1` plays with the shipped file of
    its rules, or with yours through SIMCASINO_VALUE=FILE (refused for other rules).

    \b
    Examples:
      simcasino learn --rules swedish --seed 46 --out swedish-2p.json
      simcasino learn --rules finnish --deals 200 --iterations 1 --out tiny.json
      SIMCASINO_VALUE=swedish-2p.json simcasino compare search:value=1 search --decks 500
    """
    rules = build_rules(rules_name, rules_file, overrides)
    if rules.players != 2:
        raise ValueError(
            f"learn: a round's value is for two players; these rules have {rules.players}"
        )
    check_writable(out, "--out")
    from simcasino.learn.rounds import EVERY, LAST, learn_value

    click.echo(
        f"learning the value of a round's end, {rules.name}: {iterations} iteration(s) of "
        f"{deals:,} deals, search budget {budget:,}, seed {seed}"
    )
    made, _ = learn_value(
        rules, deals, iterations, seed, budget, LAST if at == "last" else EVERY, click.echo
    )
    made.save(out)
    click.echo(f"wrote {out}: commit {made.made['commit']}, seed {seed}")


COMMANDS = (learn_command,)
