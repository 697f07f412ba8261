"""Datasets of strong play (`simcasino.interop.dataset`, `simcasino dataset`): the rows replay
to the deals `simulate` plays, the search's action values sit on legal actions only, parts
resume, and a folder made by another recipe or a strategy file is refused in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simcasino
from simcasino.core.rules import Rules
from simcasino.interop import dataset
from simcasino.interop.actions import PendingMove
from simcasino.interop.dataset import Recipe, play_deals, read_recipe, write_dataset
from simcasino.interop.encoding import ObservationKind, Tensor
from simcasino.interop.lean import LeanDeal


def _replayed(recipe: Recipe, rows: pl.DataFrame) -> list[int]:
    """Each deal's actions played again on a fresh deal of the seed: every row's observation
    and mask are what the environments show there; each seat's points at the end."""
    points = []
    tensor = Tensor(recipe.rules, ObservationKind())
    for (index,), deal_rows in rows.group_by(["deal"], maintain_order=True):
        deal = LeanDeal.new(recipe.rules, recipe.seed, index)
        decision = PendingMove(deal)
        for row in deal_rows.iter_rows(named=True):
            assert row["seat"] == deal.to_move
            assert np.array_equal(tensor.fill(decision, deal.to_move), np.array(row["observation"]))
            mask = np.zeros(len(row["mask"]), bool)
            mask[decision.legal_actions()] = True
            assert np.array_equal(mask, np.array(row["mask"]))
            decision.apply(row["action"])
        assert deal.is_over
        result = deal.result().seats
        seats = deal_rows.unique("seat", keep="first", maintain_order=True)
        assert all(p == result[s].points for s, p in seats.select("seat", "points").iter_rows())
        points += [seat.points for seat in result]
    return points


@pytest.mark.parametrize("preset,strategy,players", [("finnish", "greedy", 3), ("finnish", "search", 2),
                                                     ("misere", "greedy", 2), ("rakennuskasino", "heuristic", 2),
                                                     ("mulle_glimne", "greedy", 5)])
def test_the_rows_replay_to_the_deals_simulate_plays(preset: str, strategy: str, players: int) -> None:
    """§6 Misère's picks, §6 Builds and two decks included."""
    recipe = Recipe(Rules.preset(preset).replace(players=players), strategy, 4, 7)
    rows = play_deals(recipe, range(4))
    played = simcasino.simulate(recipe.rules, [strategy] * players, deals=4, seed=7)
    assert _replayed(recipe, rows) == played.sort("deal", "seat")["points"].to_list()
    assert rows["step"].to_list() == [s for _, g in rows.group_by("deal", maintain_order=True)
                                      for s in range(len(g))]


def test_the_searchs_values_sit_on_legal_actions_and_the_action_taken() -> None:
    rows = play_deals(Recipe(Rules.preset("swedish"), "search", 2, 3), range(2))
    q, mask = np.stack(rows["q"].to_numpy()), np.stack(rows["mask"].to_numpy())
    taken = q[np.arange(len(rows)), rows["action"].to_numpy()]
    assert not np.isfinite(q[~mask]).any() and np.isfinite(taken).all()
    assert 0.5 < np.isfinite(q[mask]).mean() <= 1  # the search weighs a few candidates
    greedy = play_deals(Recipe(Rules.preset("swedish"), "greedy", 1, 3), range(1))
    assert np.isnan(np.stack(greedy["q"].to_numpy())).all()  # a strategy that does not search


def test_parts_are_kept_and_a_run_again_makes_only_the_missing_one(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataset, "PART_DEALS", 2)
    recipe = Recipe(Rules.preset("swedish"), "greedy", 5, 2)
    paths = write_dataset(tmp_path, recipe, workers=1)
    assert [p.name for p in paths] == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    whole = pl.read_parquet(tmp_path / "*.parquet")
    assert whole["deal"].unique().sort().to_list() == [0, 1, 2, 3, 4]
    kept = paths[0].stat().st_mtime_ns
    paths[1].unlink()
    said: list[int] = []
    write_dataset(tmp_path, recipe, workers=1, say=said.append)
    assert said == [3, 5] and paths[0].stat().st_mtime_ns == kept
    assert pl.read_parquet(tmp_path / "*.parquet").equals(whole)
    assert read_recipe(tmp_path) == recipe
    with pytest.raises(ValueError, match="holds a dataset made otherwise \\(seed: 2 there, 3 now\\)"):
        write_dataset(tmp_path, Recipe(recipe.rules, "greedy", 5, 3))


def test_two_workers_write_the_rows_one_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataset, "PART_DEALS", 1)
    recipe = Recipe(Rules.preset("finnish"), "greedy", 2, 4)
    write_dataset(tmp_path / "one", recipe, workers=1)
    write_dataset(tmp_path / "two", recipe, workers=2)
    assert pl.read_parquet(tmp_path / "one" / "*.parquet").equals(pl.read_parquet(tmp_path / "two" / "*.parquet"))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simcasino", "dataset", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_the_verb_writes_the_folder_and_refuses_a_file_strategy_in_one_line(tmp_path: Path) -> None:
    done = _cli("--rules", "finnish", "-s", "greedy", "--deals", "3", "--seed", "5", "--out", "ds", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ds: 3 deals of greedy (finnish rules, 2 players, seed 5),")
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == ["dataset.json", "part-00000.parquet"]
    (tmp_path / "mine.py").write_text("def choose(view):\n    return view.moves[0]\n")
    refused = _cli("-s", "mine.py", "--out", "other", cwd=tmp_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines()[-1] == (
        "error: 'mine.py': a dataset's player must be a built-in strategy, not a file")


def test_the_imitation_example_trains_on_a_dataset_and_plays_at_the_table(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """experiments/imitation.py end to end on a tiny dataset: it fits, writes its weights
    with the dataset's recipe, and the same file seated by `simcasino.evaluate` plays legal
    moves with them."""
    import json

    from helpers.paths import ROOT

    from simcasino.interop.evaluate import load_policy

    write_dataset(tmp_path / "ds", Recipe(Rules.preset("swedish"), "greedy", 6, 1), workers=1)
    script = ROOT / "experiments" / "imitation.py"
    fitted = subprocess.run([sys.executable, str(script), str(tmp_path / "ds"), "--out", str(tmp_path / "w.npz"),
                             "--epochs", "2", "--hidden", "8"], capture_output=True, text=True)
    assert fitted.returncode == 0, fitted.stderr
    assert "epoch 2: training loss" in fitted.stdout and fitted.stdout.endswith(f"wrote {tmp_path / 'w.npz'}\n")
    with np.load(tmp_path / "w.npz") as stored:
        assert json.loads(str(stored["made"]))["dataset"]["strategy"] == "greedy"
    monkeypatch.setenv("IMITATION", str(tmp_path / "w.npz"))
    result = simcasino.evaluate(load_policy(str(script)).policy, "random", decks=5, seed=2)
    assert result.decks == 5 and result.deals_played == 10 and result.a == "policy"
