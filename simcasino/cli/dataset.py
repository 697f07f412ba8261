"""The ``dataset`` verb: a strategy's deals written as parquet for imitation and offline
learning (`interop.dataset`); the engine is imported only when it starts."""

from __future__ import annotations

from pathlib import Path

import click

from simcasino.cli.common import build_rules, make_folder, rules_options


@click.command("dataset")
@rules_options
@click.option(
    "--players",
    type=int,
    help="Number of players, 2-4 (2-6 with two decks; default: the rules' players).",
)
@click.option(
    "-s",
    "--strategy",
    default="search",
    show_default=True,
    metavar="NAME",
    help="Who plays every seat: a built-in strategy, parameters allowed (search:budget=1024).",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Deals played, numbered as simulate numbers the deals of the seed.",
)
@click.option(
    "--seed",
    type=int,
    default=1,
    show_default=True,
    help="The deals' seed: the same seed and arguments make the same rows.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes playing parts side by side (default: one a core).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="FOLDER",
    required=True,
    help="The dataset's folder: dataset.json and parquet parts of 250 deals. Parts already "
    "there are kept, so a run again with the same arguments finishes an interrupted one.",
)
def dataset_command(
    rules_name: str | None,
    rules_file: Path | None,
    overrides: tuple[str, ...],
    players: int | None,
    strategy: str,
    deals: int,
    seed: int,
    workers: int | None,
    out: Path,
) -> None:
    """Write a strategy's deals (the search's by default) as parquet, a row for each action a
    seat takes: the seat's observation and legal actions (as the PettingZoo and Gymnasium
    environments give them), the action, the move in words, the search's value of each action
    and the deal's outcome for that seat. Read it with polars.scan_parquet("FOLDER/*.parquet");
    docs/interop.md gives the columns.

    \b
    Examples:
      simcasino dataset --rules swedish --deals 10000 --seed 1 --out swedish-search
      simcasino dataset --rules finnish -s search:budget=1024 --deals 500 --out small
      simcasino dataset -s heuristic --players 3 --deals 2000 --out heuristic-3p
    """
    rules = build_rules(rules_name, rules_file, overrides, players)
    folder = make_folder(out, "--out")
    from simcasino.cli.progress import resumable, showing_progress
    from simcasino.interop.dataset import Recipe, write_dataset

    recipe = Recipe(rules, strategy, deals, seed)
    again = (
        f"simcasino dataset {_arguments(rules_name, rules_file, overrides, players)}"
        f"-s {strategy} --deals {deals} --seed {seed} --out {out}"
    )
    with showing_progress([recipe.player], "dataset") as line, resumable(folder, again, line):
        paths = write_dataset(folder, recipe, workers, lambda done: line(done / deals, done))
    rows = sum(_rows(path) for path in paths)
    click.echo(
        f"wrote {folder}: {deals:,} deals of {strategy} ({rules.name} rules, {rules.players} "
        f"players, seed {seed}), {rows:,} rows in {len(paths)} part(s)"
    )


def _arguments(
    rules_name: str | None, rules_file: Path | None, overrides: tuple[str, ...], players: int | None
) -> str:
    """The rules' options as typed, for the line that says how to go on."""
    typed = [f"--rules {rules_name}"] if rules_name else []
    typed += [f"--rules-file {rules_file}"] if rules_file else []
    typed += [f"--rule {o}" for o in overrides] + ([f"--players {players}"] if players else [])
    return "".join(f"{t} " for t in typed)


def _rows(path: Path) -> int:
    import polars as pl

    return pl.scan_parquet(path).select(pl.len()).collect().item()


COMMANDS = (dataset_command,)
