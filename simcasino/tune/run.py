"""Run a house-rule sweep and tabulate it: every setting is an experiment run folder under
``OUT/settings/`` (chunked, resumable, the same tables for any number of workers), and the
sweep's answer is one polars table, a row per setting, written as ``OUT/tune.parquet`` and
``OUT/tune.csv``.

Why the experiment runner: a sweep is many experiments with the same shape, and the runner
already stores each chunk as it finishes, resumes after an interrupt without playing a deck
twice, spreads chunks over worker processes (or Dask), and derives every deck from (seed,
index). A sweep adds the self-play chunks (`experiment.chunk`) and this table. All settings
use the sweep's seed, so they are dealt the same decks: differences between settings are not
the luck of different cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simcasino import __version__
from simcasino.experiment.backends import open_executor
from simcasino.experiment.metrics import SELF_METRICS, SELFPLAY_KEYS, Metric, cell_text
from simcasino.experiment.result import Tabular
from simcasino.experiment.runner import Progress, RunResult, execute, make_plan, manifest_of
from simcasino.experiment.store import RunStore, atomic_write, write_json
from simcasino.tune.sweep import Setting, TuneSpec, setting_spec, show, spec_from_table

TUNE_FILE = "tune.json"
SETTINGS = "settings"
TABLE_FILES = ("tune.parquet", "tune.csv")


def metrics(spec: TuneSpec) -> list[Metric]:
    """The sweep's measures, in table order: game length, the first player's edge in points
    and in wins, the spread of a player's points, tabbes per deal, how often the most cards
    were tied, then the skill gap of each ladder rung over the next (points, wins)."""
    rungs = [s.label for s in spec.ladder]
    pairs = list(zip(rungs, rungs[1:]))
    return [
        *SELF_METRICS,
        *(
            Metric(
                f"gap_{a}_vs_{b}",
                f"{a} − {b} pts/deal",
                f"skill gap {a} − {b}",
                f"points per deal ({a} − {b})",
                reference="zero",
                paired=True,
            )
            for a, b in pairs
        ),
        *(
            Metric(
                f"wins_{a}_vs_{b}",
                f"{a} wins vs {b} %",
                f"{a}'s game wins against {b}",
                f"share of games {a} wins against {b}",
                percent=True,
                reference="fair",
                paired=True,
            )
            for a, b in pairs
        ),
    ]


@dataclass(frozen=True)
class TuneResult(Tabular):
    """A finished sweep: its folder, spec, settings and table (`table_schema` columns)."""

    folder: Path
    spec: TuneSpec
    settings: list[Setting]
    table: pl.DataFrame

    def to_frame(self) -> pl.DataFrame:
        """The sweep's table: a row a setting, each metric's mean and 95% interval."""
        return self.table

    def to_dict(self) -> dict[str, Any]:
        """The sweep as data: its name, folder and the table's rows."""
        return {
            "name": self.spec.name,
            "folder": str(self.folder),
            "settings": self.table.to_dicts(),
        }

    def __repr__(self) -> str:
        head = f"TuneResult: {self.spec.name} in {self.folder}, {len(self.settings)} settings"
        return f"{head}\n{display_table(self.spec, self.table)}"

    def _repr_html_(self) -> str:
        return (
            f"<p><b>{self.spec.name}</b>, {len(self.settings)} settings</p>"
            + display_table(self.spec, self.table)._repr_html_()
        )


def default_folder(spec: TuneSpec) -> Path:
    return Path("runs") / f"{spec.name}-seed{spec.seed}"


def run_tune(
    spec: TuneSpec,
    out: Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: Progress | None = None,
) -> TuneResult:
    """Play (or resume) every setting of the sweep into ``out`` and write its table."""
    folder = out or default_folder(spec)
    _open(folder, spec)
    settings = spec.settings()
    overall = _Overall(progress, len(settings))
    results = []
    with open_executor(workers, scheduler, dask_local) as (executor, slots):
        for index, point in enumerate(settings, 1):
            experiment = setting_spec(spec, index, point)
            plan = make_plan(experiment)
            store = RunStore.create_or_check(
                folder / SETTINGS / point.folder(index), manifest_of(experiment, plan)
            )
            results.append(
                execute(experiment, plan, store, executor, slots, overall.part(index - 1))
            )
    table = tune_table(spec, settings, results)
    atomic_write(folder / TABLE_FILES[0], table.write_parquet)
    atomic_write(folder / TABLE_FILES[1], table.write_csv)
    return TuneResult(folder, spec, settings, table)


def load_result(folder: Path) -> TuneResult:
    """A finished sweep's folder read back (for ``simcasino report``)."""
    spec, _ = read_record(folder)
    try:
        table = pl.read_parquet(folder / TABLE_FILES[0])
    except Exception as err:  # polars raises several types for a missing or damaged file
        raise ValueError(
            f"{folder}: no readable {TABLE_FILES[0]} ({type(err).__name__}): finish the sweep "
            f"with 'simcasino rules tune' first"
        ) from None
    return TuneResult(folder, spec, spec.settings(), table)


def read_record(folder: Path) -> tuple[TuneSpec, str]:
    """The sweep a folder holds and the version that made it; ValueError if it holds none."""
    path = folder / TUNE_FILE
    try:
        record = json.loads(path.read_text())
        return spec_from_table(record["tune"], str(path)), str(record["version"])
    except FileNotFoundError:
        raise ValueError(f"{folder}: no {TUNE_FILE}: not a sweep folder") from None
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: unreadable sweep record ({type(err).__name__})") from None


def is_tune_folder(folder: Path) -> bool:
    return (folder / TUNE_FILE).is_file()


def _open(folder: Path, spec: TuneSpec) -> None:
    """A new folder gets the sweep's record; one with a record must hold the same sweep."""
    record = {"version": __version__, "tune": spec.to_table()}
    if is_tune_folder(folder):
        old_spec, version = read_record(folder)
        if version != __version__:
            raise ValueError(
                f"{folder} was made by simcasino {version}, this is {__version__}: choose another "
                "--out"
            )
        if old_spec.to_table() != spec.to_table():
            old, new = old_spec.to_table(), spec.to_table()
            key = sorted(k for k in new if old.get(k) != new.get(k))[0]
            raise ValueError(
                f"{folder} holds another sweep ({key} {old.get(key)!r}, now {new.get(key)!r}): "
                f"choose another --out"
            )
        return
    if folder.exists() and any(folder.iterdir()):
        raise ValueError(
            f"{folder} exists, is not empty and has no {TUNE_FILE}: choose another --out"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot create {folder}: {err.strerror}") from None
    write_json(folder / TUNE_FILE, record)


class _Overall:
    """The runner's per-setting progress as the progress of the whole sweep."""

    def __init__(self, progress: Progress | None, settings: int) -> None:
        self.progress, self.settings, self.before, self.last = progress, settings, 0, 0

    def part(self, done: int) -> Callable[[float, int], None] | None:
        if self.progress is None:
            return None
        self.before += self.last
        self.last = 0

        def report(fraction: float, deals: int) -> None:
            self.last = deals
            self.progress((done + fraction) / self.settings, self.before + deals)

        return report


# --- the table ------------------------------------------------------------------------------------


def _estimates(result: RunResult) -> dict[str, dict[str, float] | None]:
    """Every metric's {mean, ci_low, ci_high} of one setting (None where nothing was played)."""
    own = result.data["selfplay"]
    out: dict[str, Any] = {key: own.get(name) for key, name in SELFPLAY_KEYS.items()}
    for c in result.data["comparisons"]:
        a, b = c["a"], c["b"]
        out[f"gap_{a}_vs_{b}"] = {
            "mean": c["mean_diff"],
            "ci_low": c["ci_low"],
            "ci_high": c["ci_high"],
        }
        games = c.get("games")
        out[f"wins_{a}_vs_{b}"] = games and {
            "mean": games["win_rate"],
            "ci_low": games["win_ci_low"],
            "ci_high": games["win_ci_high"],
        }
    return out


def tune_table(spec: TuneSpec, settings: list[Setting], results: list[RunResult]) -> pl.DataFrame:
    """One row per setting: its label, the value of each varied key (as text), decks and games
    played, each metric with its 95% CI (``M``, ``M_ci_low``, ``M_ci_high``), the fair share
    of wins (1 / players or teams) the win rates compare with, and the kind of the skill gaps'
    intervals (``gap_interval``: anytime where the setting's run went on after its results
    were seen, `experiment.summary.interval_kind`; the other intervals are fixed ones)."""
    rows = []
    for point, result in zip(settings, results):
        row: dict[str, Any] = {
            "setting": point.label,
            **{key: show(value) for key, value in point.values},
            "decks": result.data["selfplay"]["decks"],
            "games": result.data["selfplay"]["games"],
            "fair_share": 1 / point.rules.units,
            "gap_interval": result.data["interval"],
        }
        estimates = _estimates(result)
        for metric in metrics(spec):
            est = estimates[metric.key] or {}
            row |= {
                metric.key: est.get("mean"),
                f"{metric.key}_ci_low": est.get("ci_low"),
                f"{metric.key}_ci_high": est.get("ci_high"),
            }
        rows.append(row)
    return pl.DataFrame(rows, schema=table_schema(spec), orient="row")


def table_schema(spec: TuneSpec) -> dict[str, pl.DataType]:
    numbers = {
        f"{m.key}{suffix}": pl.Float64
        for m in metrics(spec)
        for suffix in ("", "_ci_low", "_ci_high")
    }
    return {
        "setting": pl.String,
        **{key: pl.String for key, _ in spec.axes},
        "decks": pl.Int64,
        "games": pl.Int64,
        "fair_share": pl.Float64,
        "gap_interval": pl.String,
        **numbers,
    }


def display_table(
    spec: TuneSpec, table: pl.DataFrame, shown: list[Metric] | None = None
) -> pl.DataFrame:
    """The table as a person reads it: per setting, each metric (all, or ``shown``) as
    ``mean [low, high]``, rates in percent."""
    columns = {"setting": table["setting"]}
    for m in metrics(spec) if shown is None else shown:
        cells = []
        for mean, low, high in table.select(
            m.key, f"{m.key}_ci_low", f"{m.key}_ci_high"
        ).iter_rows():
            cells.append("–" if mean is None else cell_text(m, mean, low, high))
        columns[m.header] = cells
    return pl.DataFrame(columns)
