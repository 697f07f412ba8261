"""Mixed tables: a plain-Python strategy among kernel ones. The reference engine referees and
each kernel seat decides through the kernel's position API (`loop.seat`); with kernel
strategies only, such a table plays the kernel's own deals and games, row for row; and
`simulate`, `games`, `compare` and experiment specs take a plain-Python seat."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from helpers.cli import ok
from helpers.paths import ROOT

import simcasino
from simcasino.core.rules import Rules
from simcasino.experiment.compare import compare
from simcasino.strategies import load_strategy_file

HOARDER = str(ROOT / "strategies" / "spade_hoarder.py")

TABLES = {  # rules, seats
    "swedish": (Rules.preset("swedish"), ("greedy", "heuristic")),
    "finnish-3": (Rules.preset("finnish").replace(players=3), ("heuristic", "greedy", "random")),
    "swedish-partners": (Rules.preset("swedish").replace(players=4, partnership=2),
                         ("heuristic", "greedy", "heuristic:tabbe_denial=0", "random")),
    "rakennuskasino": (Rules.preset("rakennuskasino"), ("heuristic", "greedy")),
    "misere-3": (Rules.preset("misere").replace(players=3), ("greedy", "heuristic", "random")),
    "krypkasino-4": (Rules.preset("krypkasino").replace(players=4), ("heuristic", "greedy", "greedy", "heuristic")),
}


@pytest.mark.parametrize("name", TABLES)
def test_a_mixed_table_of_kernel_strategies_plays_the_kernels_deals(name: str) -> None:
    rules, seats = TABLES[name]
    kernel = simcasino.simulate(rules, seats, deals=4, seed=3)
    assert simcasino.simulate(rules, seats, deals=4, seed=3, engine="mixed").equals(kernel)


@pytest.mark.parametrize("name", ["swedish", "finnish-3"])
def test_a_mixed_table_of_kernel_strategies_plays_the_kernels_games(name: str) -> None:
    rules, seats = TABLES[name]
    rules = rules.replace(target=11)
    kernel = simcasino.play_games(rules, seats, games=2, seed=1)
    assert simcasino.play_games(rules, seats, games=2, seed=1, engine="mixed").equals(kernel)


SEARCH_TABLES = {
    "swedish": (Rules.preset("swedish"), ("search:worlds=4", "random")),
    "finnish-3": (Rules.preset("finnish").replace(players=3), ("search:worlds=3", "random", "greedy")),
    "swedish-4": (Rules.preset("swedish").replace(players=4), ("random", "search:worlds=2", "heuristic", "random")),
    "misere": (Rules.preset("misere"), ("search:worlds=4", "random")),
}


@pytest.mark.parametrize("name", SEARCH_TABLES)
def test_the_search_at_a_mixed_table_decides_as_in_the_kernel(name: str) -> None:
    """The search draws its worlds from the deal's random stream and its belief reads the
    others' turns as the kernel notes them (after its own moves, while the table can be
    followed): handed both by the referee, it plays the kernel's games."""
    rules, seats = SEARCH_TABLES[name]
    kernel = simcasino.play_games(rules, seats, games=2, seed=1)
    assert simcasino.play_games(rules, seats, games=2, seed=1, engine="mixed").equals(kernel)


def test_a_plain_python_seat_sits_with_the_search() -> None:
    frame = simcasino.simulate("swedish", [HOARDER, "search:worlds=2"], deals=2, seed=1)
    assert frame["strategy"].to_list() == ["spade_hoarder", "search:worlds=2"] * 2
    assert frame["cards"].sum() == 2 * 52  # every card of both deals in a pile
    with pytest.raises(ValueError, match="only engine='mixed' or 'reference' can play it"):
        simcasino.simulate("swedish", [HOARDER, "greedy"], deals=1, engine="numba")


def test_a_python_file_of_greedys_twin_compares_as_greedy_does(tmp_path: Path) -> None:
    """compare on paired decks with a plain-Python seat: the file playing greedy's Python form
    against random gives greedy's own figures (the same deals, the same decisions)."""
    twin = tmp_path / "twin.py"
    twin.write_text("from simcasino.strategies.greedy import Greedy\n\n\ndef choose(view):\n"
                    "    return Greedy().choose(view)\n")
    mixed = compare(str(twin), "random", "finnish", players=3, decks=6, seed=4, games=2)
    kernel = compare("greedy", "random", "finnish", players=3, decks=6, seed=4, games=2)
    assert mixed.a == "twin" and kernel.a == "greedy"
    assert {k: v for k, v in mixed.to_dict().items() if k != "a"} == {
        k: v for k, v in kernel.to_dict().items() if k != "a"}


def test_compare_and_simulate_take_a_strategy_file_on_the_command_line() -> None:
    out = ok("compare", HOARDER, "greedy", "--decks", "3", "--seed", "1").stdout
    assert "spade_hoarder" in out and "greedy" in out
    out = ok("simulate", "-s", HOARDER, "-s", "search:worlds=2", "--deals", "2", "--seed", "1").stdout
    assert "mixed engine" in out and "spade_hoarder" in out


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_an_experiment_spec_with_a_strategy_file_runs_on_worker_processes(tmp_path: Path) -> None:
    """The arm is named by its file in the spec and the manifest, and pickles as its file, so
    worker processes load it again; the run resumes from its folder alone."""
    assert pickle.loads(pickle.dumps(load_strategy_file(HOARDER))).source == HOARDER
    spec = tmp_path / "mixed.toml"
    spec.write_text(f'name = "mixed"\nseed = 1\ndecks = 4\nchunk = 2\n[arms]\nhoarder = "{HOARDER}"\n'
                    'greedy = "greedy"\n[compare]\nbaseline = "greedy"\n')
    out = ok("experiment", "run", str(spec), "--out", str(tmp_path / "run"), "--workers", "2").stdout
    assert "hoarder" in out
    again = ok("experiment", "resume", str(tmp_path / "run"), "--workers", "1").stdout
    assert again == out
