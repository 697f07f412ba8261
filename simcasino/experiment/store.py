"""The run folder: a manifest, one Parquet file per finished chunk, and the summary.

::

    runs/quick-seed1/
      manifest.json           spec (as a table), resolved rules, strategies and parameters,
                              seed, engine key, package version, run id
      chunks/decks-000000.parquet ...   integer sums of one chunk (see `chunk.play_chunk`)
      summary.parquet, summary.json     written at the end (see `summary`)
      looks.json              the decks at which results were shown (a summary written,
                              `experiment show`, a report): a run that goes on past a look
                              chose its size on its data, so its intervals are anytime ones

Why it survives kill -9: every file is written to a temporary name in the same folder and
renamed into place, which is atomic, so a chunk file is either whole or absent; a resumed
run plays exactly the chunks that are absent. Left-over temporary files are deleted. A file
that is unreadable, from another run, or simply unknown is an error naming it — never
silently mixed into the tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from simcasino import __version__
from simcasino.experiment.chunk import (
    CHUNK_SCHEMA,
    DECK_KINDS,
    KINDS,
    OPTIONAL_SCHEMA,
    SUMS_SCHEMA,
    Plan,
    measures,
)

MANIFEST = "manifest.json"
CHUNKS = "chunks"
TMP_MARK = ".tmp-"
CHUNK_NAME = re.compile(rf"({'|'.join(KINDS)})-(\d{{6}})\.parquet")
SUMMARY_FILES = ("summary.parquet", "summary.json")
LOOKS = "looks.json"


SIZES = (
    "decks",
    "games",
)  # how much a run plays: not part of its id, so that a run can be extended


def run_id(spec_table: dict[str, Any]) -> str:
    """A short hash of what decides each chunk's results: the spec but its sizes, and the
    package version. Chunk i of a run is the same whatever the run's total, so a run made
    with more decks shares every full chunk of a run made with fewer."""
    spec = {k: v for k, v in spec_table.items() if k not in SIZES}
    text = json.dumps({"spec": spec, "version": __version__}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """``write`` to a temporary file beside ``path``, then rename it into place."""
    tmp = path.with_name(f".{path.name}{TMP_MARK}{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise ValueError(f"cannot write {path}: {err}") from None


def write_json(path: Path, data: Any) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(json.dumps(data, indent=2) + "\n"))


class RunStore:
    """One run folder; `create_or_check` makes it or checks it holds the same run."""

    def __init__(self, folder: Path, manifest: dict[str, Any]) -> None:
        self.folder, self.manifest = folder, manifest

    @property
    def chunk_dir(self) -> Path:
        return self.folder / CHUNKS

    @classmethod
    def create_or_check(cls, folder: Path, manifest: dict[str, Any]) -> RunStore:
        """Open ``folder`` for this run: new (or empty) folders get the manifest; a folder
        with a manifest must hold the same run (same run id), or it is an error."""
        path = folder / MANIFEST
        if path.exists():
            old = read_manifest(folder)
            _same_run(folder, old, manifest)
            if any(old["spec"][k] != manifest["spec"][k] for k in SIZES):
                _extend(folder, old, manifest)
        elif folder.exists() and any(folder.iterdir()):
            raise ValueError(
                f"{folder} exists, is not empty and has no {MANIFEST}: choose another --out"
            )
        else:
            try:
                (folder / CHUNKS).mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise ValueError(f"cannot create {folder}: {err.strerror}") from None
            write_json(path, manifest)
        return cls(folder, manifest)

    @classmethod
    def existing(cls, folder: Path) -> RunStore:
        """A run folder made before (for resume and show)."""
        return cls(folder, read_manifest(folder))

    def write_chunk(self, frame: pl.DataFrame) -> None:
        kind, index = frame["kind"][0], frame["chunk"][0]
        atomic_write(self.chunk_dir / f"{kind}-{index:06d}.parquet", frame.write_parquet)

    def finished(self, plan: Plan) -> dict[tuple[str, int], pl.DataFrame]:
        """Every chunk file, checked against the plan, by (kind, index); temporary files
        left by an interrupted write are removed."""
        if not self.chunk_dir.is_dir():
            raise ValueError(f"{self.folder}: no {CHUNKS}/ folder: not a run folder, or damaged")
        done = {}
        for path in sorted(self.chunk_dir.iterdir()):
            if TMP_MARK in path.name:
                path.unlink(missing_ok=True)
                continue
            match = CHUNK_NAME.fullmatch(path.name)
            if not match:
                raise ValueError(
                    f"{path}: not a chunk file of this run; move it out of the run folder"
                )
            kind, index = match[1], int(match[2])
            done[kind, index] = check_chunk(path, read_chunk(path), plan, kind, index)
        return done

    def write_summary(self, frame: pl.DataFrame, data: dict[str, Any]) -> None:
        atomic_write(self.folder / SUMMARY_FILES[0], frame.write_parquet)
        write_json(self.folder / SUMMARY_FILES[1], data)

    def looks(self) -> list[int]:
        """The numbers of decks at which this run's results were shown, smallest first."""
        path = self.folder / LOOKS
        try:
            looks = json.loads(path.read_text())["decks"] if path.exists() else []
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
            raise ValueError(
                f"{path}: unreadable ({err}): damaged, or not written by simcasino"
            ) from None
        return sorted(looks)

    def record_look(self, decks: int) -> None:
        """Note that results over ``decks`` decks were shown (kept across growing the run)."""
        looks = self.looks()
        if decks not in looks:
            write_json(self.folder / LOOKS, {"decks": sorted([*looks, decks])})


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        if not folder.is_dir():
            raise ValueError(f"{folder} does not exist") from None
        raise ValueError(f"{folder}: no {MANIFEST}: not a run folder") from None
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: unreadable manifest: {err}") from None
    if not isinstance(manifest, dict) or not {"run_id", "spec", "version"} <= set(manifest):
        raise ValueError(f"{path}: not a simcasino run manifest (needs run_id, spec, version)")
    return manifest


def _extend(folder: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    """The same run asked for more decks or games: its full chunks count as they are, a short
    last chunk is played again in full, and the manifest records the new sizes."""
    before, after = old["spec"], new["spec"]
    fewer = [k for k in SIZES if after[k] < before[k]]
    if fewer:
        raise ValueError(
            f"{folder} holds a run asked to play {before[fewer[0]]:,} {fewer[0]}; it cannot shrink "
            f"to {after[fewer[0]]:,}: ask for at least as many, or choose another --out"
        )
    chunk = before["chunk"]
    for kind in KINDS:
        total = before["decks"] if kind in DECK_KINDS else before["games"]
        if total % chunk:
            (folder / CHUNKS / f"{kind}-{total // chunk:06d}.parquet").unlink(missing_ok=True)
    for stale in SUMMARY_FILES:
        (folder / stale).unlink(missing_ok=True)
    write_json(folder / MANIFEST, new)


def _same_run(folder: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    if old["run_id"] == new["run_id"]:
        return
    if old["version"] != new["version"]:
        raise ValueError(
            f"{folder} was made by simcasino {old['version']}, this is {new['version']}: "
            f"results could differ; play its spec again into another folder (--out DIR)"
        )
    differs = sorted(
        k for k in set(old["spec"]) | set(new["spec"]) if old["spec"].get(k) != new["spec"].get(k)
    )
    key = differs[0] if differs else "spec"
    raise ValueError(
        f"{folder} holds another run ({key} {old['spec'].get(key)!r}, now "
        f"{new['spec'].get(key)!r}): choose another --out, or resume it with 'simcasino experiment "
        f"resume {folder}'"
    )


def read_chunk(path: Path) -> pl.DataFrame:
    try:
        return pl.read_parquet(path)
    except Exception as err:  # polars raises several types for a damaged file
        raise ValueError(
            f"{path}: corrupt chunk file ({type(err).__name__}); delete it and resume "
            f"to play those decks again"
        ) from None


def check_chunk(path: Path, frame: pl.DataFrame, plan: Plan, kind: str, index: int) -> pl.DataFrame:
    """The frame if it is this run's chunk ``kind, index`` whole; else a ValueError naming the file.
    A chunk written before chunks kept histograms or deck values reads with those columns null
    (the SPRT then looks at that chunk's end only)."""
    if set(SUMS_SCHEMA) <= set(frame.columns) <= set(CHUNK_SCHEMA):
        missing = [
            pl.lit(None, dtype=t).alias(c)
            for c, t in OPTIONAL_SCHEMA.items()
            if c not in frame.columns
        ]
        frame = frame.with_columns(missing).select(list(CHUNK_SCHEMA))
    if dict(frame.schema) != CHUNK_SCHEMA:
        raise ValueError(f"{path}: not a chunk file (columns {', '.join(frame.columns)})")
    if index >= plan.chunks(kind) or (frame["run_id"] != plan.run_id).any():
        raise ValueError(f"{path}: a chunk of another run; move it out of the run folder")
    first, decks = plan.deck_range(kind, index)
    pairs = 1 if kind.startswith("self_") else len(plan.pairs)
    expected = {(c, m) for c in range(pairs) for m in measures(kind)}
    rows = set(zip(frame["comparison"], frame["measure"]))
    same = (frame["kind"] == kind).all() and (frame["chunk"] == index).all()
    if (
        not same
        or rows != expected
        or frame.height != len(expected)
        or (frame["first"] != first).any()
        or (frame["decks"] != decks).any()
    ):
        raise ValueError(
            f"{path}: chunk contents do not match its name and the manifest; delete it and resume"
        )
    return frame
