"""Run an experiment: split the decks into chunks, play the missing ones on the backend,
store each as it finishes, stop early when the SPRT has decided, and summarise.

Every summary shown is a look, noted in the run folder (`store.RunStore.record_look`): the
summary a run writes when it ends, `experiment show`, a report. A run that goes on past a look
(resumed, or grown with more decks) prints anytime intervals (`summary.interval_kind`).

Resuming is the same call on the same folder: chunks already stored are read, checked and
kept, and only the missing ones are played, so an interrupted run ends with exactly the
tables of an uninterrupted one. Chunks go out in index order with a bounded number in
flight, so an early stop wastes little work and memory stays flat however many decks.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simcasino import __version__
from simcasino.core.rng import seed_key
from simcasino.experiment.backends import open_executor
from simcasino.experiment.chunk import DECK_KINDS, KINDS, Plan, play_chunk, warm_up
from simcasino.experiment.result import Comparison, Tabular, comparison_of
from simcasino.experiment.spec import Spec, spec_from_table
from simcasino.experiment.stopping import Chunks, SprtWalk
from simcasino.experiment.store import MANIFEST, RunStore, run_id
from simcasino.experiment.summary import (
    COMPARISON_KINDS,
    comparison_dicts,
    interval_kind,
    selfplay_dict,
    summary_frame,
    totals,
    used_chunks,
)
from simcasino.simulation import StrategyError

GAME_WEIGHT = 6  # a game is about six deals: how much a game counts for the ETA
Progress = Callable[[float, int], None]  # (fraction done, deals played so far in this call)


@dataclass(frozen=True)
class RunResult(Tabular):
    """A finished run: its folder (None for in-memory runs), summary table and JSON data;
    ``comparisons`` the same figures as typed `Comparison` objects."""

    folder: Path | None
    spec: Spec
    table: pl.DataFrame
    data: dict[str, Any]

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        """Each comparison of the run, in the spec's order (`result.Comparison`)."""
        rules, data = self.spec.rules, self.data
        return tuple(
            comparison_of(
                item,
                self.table,
                rules.name,
                rules.players,
                self.spec.seed,
                data["deals_played"],
                bool(data.get("interrupted")),
            )
            for item in data["comparisons"]
        )

    def to_frame(self) -> pl.DataFrame:
        """The summary table (summary.parquet): one row per (comparison, measure)."""
        return self.table

    def to_dict(self) -> dict[str, Any]:
        """The summary's JSON data (summary.json)."""
        return self.data

    def __repr__(self) -> str:
        where = f" in {self.folder}" if self.folder else ""
        head = f"RunResult: {self.spec.name}{where}, {len(self.data['comparisons'])} comparisons"
        return "\n".join([head, *(c.headline() for c in self.comparisons)])

    def _repr_html_(self) -> str:
        return "".join(c._repr_html_() for c in self.comparisons)


def make_plan(spec: Spec) -> Plan:
    """The work of a spec; the engine key is `rng.seed_key` (numpy SeedSequence of the seed)."""
    pairs = tuple((spec.arms[a], spec.arms[b]) for a, b in spec.comparisons)
    return Plan(
        spec.rules,
        pairs,
        seed_key(spec.seed),
        spec.chunk,
        spec.decks,
        spec.games,
        run_id(spec.to_table(in_memory=True)),
        spec.selfplay,
        deck_values=spec.sprt is not None,
    )


def manifest_of(spec: Spec, plan: Plan) -> dict[str, Any]:
    """What the run folder records: the spec (round-trips), strategies with their parameters,
    the resolved rules, seed, engine key and package version."""
    strategies = {
        name: {"name": s.name, "params": dict(getattr(s, "params", {}))}
        for name, s in spec.arms.items()
    }
    return {
        "run_id": plan.run_id,
        "version": __version__,
        "spec": spec.to_table(),
        "strategies": strategies,
        "rules": spec.to_table()["rules"],
        "seed": spec.seed,
        "engine_key": str(plan.key),
        "comparisons": [list(c) for c in spec.comparisons],
    }


def default_folder(spec: Spec) -> Path:
    return Path("runs") / f"{spec.name}-seed{spec.seed}"


def run_experiment(
    spec: Spec,
    out: Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Run (or resume, when ``out`` holds the same run) and write the summary into the folder."""
    plan = make_plan(spec)
    store = RunStore.create_or_check(out or default_folder(spec), manifest_of(spec, plan))
    with open_executor(workers, scheduler, dask_local) as (executor, slots):
        return execute(spec, plan, store, executor, slots, progress, says_done=True)


def resume(
    folder: Path,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: Progress | None = None,
) -> RunResult:
    """Finish the run in ``folder`` from its manifest (no spec file needed)."""
    return run_experiment(spec_of_folder(folder), folder, workers, scheduler, dask_local, progress)


def spec_of_folder(folder: Path) -> Spec:
    return spec_from_table(RunStore.existing(folder).manifest["spec"], str(folder / MANIFEST))


def execute(
    spec: Spec,
    plan: Plan,
    store: RunStore | None,
    executor: Executor,
    slots: int,
    progress: Progress | None = None,
    threads: int | None = 1,
    says_done: bool = False,
) -> RunResult:
    """Play every missing chunk, storing each, until done or the SPRT stops the run; write the
    summary into the store and note it as a look. ``says_done``: warn (`FinishedRun`) when the
    store held the run already done, for a caller who may not expect it (`run_experiment`'s)."""
    with _seeded(spec.seed):
        return _execute(spec, plan, store, executor, slots, progress, threads, says_done)


@contextmanager
def _seeded(seed: int) -> Iterator[None]:
    """A strategy's failure in a chunk names the run's seed (the chunk knows only its stream
    key)."""
    try:
        yield
    except StrategyError as err:
        err.seed = seed
        raise


def _execute(
    spec: Spec,
    plan: Plan,
    store: RunStore | None,
    executor: Executor,
    slots: int,
    progress: Progress | None,
    threads: int | None,
    says_done: bool,
) -> RunResult:
    chunks: dict[tuple[str, int], pl.DataFrame] = store.finished(plan) if store else {}
    warm_up(plan)
    walk = SprtWalk(plan, spec.sprt) if spec.sprt else None
    stop = walk.advance(chunks) if walk else None
    todo = [(k, i) for k in KINDS for i in range(plan.chunks(k)) if (k, i) not in chunks]
    meter = _Meter(plan, chunks, todo, progress)
    try:
        _play(plan, store, executor, slots, threads, chunks, todo, walk, stop, meter)
    except KeyboardInterrupt:
        if store is not None:  # the chunks are kept in the run folder: it resumes
            raise
        raise Interrupted(partial(spec, plan, chunks)) from None
    meter.finish()
    if says_done and store is not None and meter.played == meter.played_before:
        warnings.warn(
            f"{store.folder} holds this run already done: its results are read back and nothing "
            "is played (another folder plays it afresh)",
            FinishedRun,
            stacklevel=4,  # the caller of run_experiment
        )
    result = summarise(
        spec, plan, chunks, store.looks() if store else (), store.folder if store else None
    )
    if store:
        store.write_summary(result.table, result.data)
        store.record_look(result.data["decks"])
    return result


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run kept in memory (`compare`): what was played before it, as the
    summary of the chunks finished (`partial`; None before the first deal chunk)."""

    def __init__(self, result: RunResult | None) -> None:
        super().__init__()
        self.result = result


def partial(spec: Spec, plan: Plan, chunks: Chunks) -> RunResult | None:
    """The summary of the chunks finished so far, marked ``interrupted``; None without a deal
    chunk."""
    if ("decks", 0) not in chunks:
        return None
    result = summarise(spec, plan, chunks)
    result.data["interrupted"] = True
    return result


def _play(
    plan: Plan,
    store: RunStore | None,
    executor: Executor,
    slots: int,
    threads: int | None,
    chunks: dict[tuple[str, int], pl.DataFrame],
    todo: list[tuple[str, int]],
    walk: SprtWalk | None,
    stop: int | None,
    meter: _Meter,
) -> None:
    """Play the chunks ``todo`` into ``chunks`` (and the store), in index order with a bounded
    number in flight, until done or the SPRT's ``walk`` stops the run (at ``stop`` already)."""
    pending: dict[Future, tuple[str, int]] = {}
    while todo or pending:
        todo = [t for t in todo if not _beyond(t, stop)]
        while (
            todo and len(pending) < 2 * slots and not (walk and _ahead(todo[0], walk.next, slots))
        ):
            kind, index = todo.pop(0)
            pending[executor.submit(play_chunk, plan, kind, index, threads)] = (kind, index)
        finished, _ = wait(pending, timeout=WAKE, return_when=FIRST_COMPLETED)
        for future in sorted(finished, key=pending.__getitem__):
            key = pending.pop(future)
            frame = future.result()
            if store:
                store.write_chunk(frame)
            chunks[key] = frame
            meter.add(frame)
            stop = walk.advance(chunks) if walk else None
        for future in [f for f, t in pending.items() if _beyond(t, stop)]:
            if future.cancel():  # one already running finishes and is stored, though unused
                del pending[future]


WAKE = 0.25  # seconds: the longest the main thread sleeps waiting for chunks
# Why wake at all: Ctrl-C's signal may reach one of the process's other threads, and Python
# raises KeyboardInterrupt only once the main thread wakes; with nothing finishing (a chunk of
# the search takes minutes) it slept through Ctrl-C until a chunk came back.


def _ahead(task: tuple[str, int], checked: int, window: int) -> bool:
    """Too far past the chunks the SPRT has checked: wait, or an early stop wastes work. The
    window is one chunk per slot, so every chunk handed out runs at once (none waits in a
    queue, where it could not be cancelled) and an early stop wastes at most the chunks then
    running."""
    return task[0] == "decks" and task[1] >= checked + window


def _beyond(task: tuple[str, int], stop: int | None) -> bool:
    return stop is not None and task[0] == "decks" and task[1] > stop


class FinishedRun(UserWarning):
    """A run folder that held the run already done: its results were read back, nothing was
    played (the command line shows it as a note)."""


class _Meter:
    """Reports the fraction of the work done and the deals played so far, after each chunk:
    every chunk stored counts, also those played before a resume, so a run's bar ends at its
    summary's "deals played" (more after an SPRT stop: chunks played past it are left out)."""

    def __init__(
        self, plan: Plan, done: Chunks, todo: list[tuple[str, int]], progress: Progress | None
    ) -> None:
        self.plan, self.progress = plan, progress
        self.played = sum(int(frame["deals_played"][0]) for frame in done.values())
        self.total = sum(self._units(k, i) for k in KINDS for i in range(plan.chunks(k)))
        self.done = sum(self._units(*key) for key in done)
        self.played_before = self.played
        if progress and todo:  # a run already done shows no bar: nothing is played
            progress(self.done / self.total, self.played)

    def _units(self, kind: str, index: int) -> int:
        """Deals a chunk plays, about: each deck once per rotation and comparison (once in
        self-play)."""
        plays = 1 if kind.startswith("self_") else self.plan.rotations * len(self.plan.pairs)
        return (
            self.plan.deck_range(kind, index)[1]
            * plays
            * (1 if kind in DECK_KINDS else GAME_WEIGHT)
        )

    def finish(self) -> None:
        """All done (or stopped early: what was left is no longer needed)."""
        if self.progress and self.done < self.total:
            self.progress(1.0, self.played)

    def add(self, frame: pl.DataFrame) -> None:
        self.done += self._units(frame["kind"][0], frame["chunk"][0])
        self.played += frame["deals_played"][0]
        if self.progress:
            self.progress(self.done / self.total, self.played)


def summarise(
    spec: Spec, plan: Plan, chunks: Chunks, looks: Sequence[int] = (), folder: Path | None = None
) -> RunResult:
    """The summary of the chunks a finished (or stopped) run is made of, its intervals of the
    kind its ``looks`` (decks at which results were shown before) and stopping rule call for."""
    frames, walk = used_chunks(spec, plan, chunks)
    sums = totals(frames).filter(pl.col("kind").is_in(COMPARISON_KINDS))
    decks, games = (
        int(sums.filter(pl.col("kind") == kind)["decks"].max() or 0) for kind in COMPARISON_KINDS
    )
    kind, why = interval_kind(spec, decks, looks)
    decisions = walk.decisions if walk else []
    table = summary_frame(spec, plan, sums, kind, decisions)
    data = {
        "name": spec.name,
        "run_id": plan.run_id,
        "seed": spec.seed,
        "rules": spec.rules.name,
        "players": spec.rules.players,
        "decks": decks,
        "decks_asked": spec.decks,
        "games": games,
        "games_asked": spec.games,
        "deals_played": int(
            sum(f["deals_played"][0] for f in frames)
        ),  # in these results: the same for any workers
        # an SPRT deciding in the last chunk stops nothing
        "stopped_early": walk is not None and walk.stop is not None and decks < spec.decks,
        "interval": kind,
        "interval_why": why,
        "comparisons": comparison_dicts(spec, table, decisions),
    }
    if spec.sprt:
        data["sprt"] = {**dataclasses.asdict(spec.sprt), "comparisons": len(spec.comparisons)}
    if plan.selfplay:
        data["selfplay"] = selfplay_dict(plan, frames)
    return RunResult(folder, spec, table, data)


def progress_of(folder: Path) -> tuple[Spec, Plan, Chunks]:
    """A run folder's spec, plan and the chunks stored so far (for `experiment list`)."""
    spec = spec_of_folder(folder)
    plan = make_plan(spec)
    store = RunStore.existing(folder)
    if store.manifest["run_id"] != plan.run_id:
        raise ValueError(
            f"{folder}: made by simcasino {store.manifest['version']}, this is {__version__}"
        )
    return spec, plan, store.finished(plan)


def run_state(spec: Spec, plan: Plan, chunks: Chunks) -> str:
    """How far a run got, in words: "complete", "complete (the SPRT decided after 71,974
    decks)" when it stopped the run early, or "3/11 chunks stored"."""
    walk = SprtWalk(plan, spec.sprt) if spec.sprt else None
    stop = walk.advance(chunks) if walk else None
    needed = [
        (k, i)
        for k in KINDS
        for i in range(plan.chunks(k))
        if not (k == "decks" and _beyond((k, i), stop))
    ]
    stored = sum(1 for key in needed if key in chunks)
    if stored < len(needed):
        return f"{stored}/{len(needed)} chunks stored"
    if stop is not None and stop < plan.chunks("decks") - 1:
        return f"complete (the SPRT decided after {max(d.decks for d in walk.decisions):,} decks)"
    return "complete"


def look(folder: Path) -> tuple[Spec, Plan, Chunks, RunResult | None]:
    """A run folder's spec, plan, stored chunks and their summary as `experiment show` and a
    report show it (None before the first deal chunk); noted as a look at that many decks."""
    spec, plan, chunks = progress_of(folder)
    if ("decks", 0) not in chunks:
        return spec, plan, chunks, None
    store = RunStore.existing(folder)
    result = summarise(spec, plan, chunks, store.looks(), folder)
    store.record_look(result.data["decks"])
    return spec, plan, chunks, result
