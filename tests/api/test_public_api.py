"""The public API answers a researcher's and a strategy writer's questions in one line: the
top-level names, the doctests of the game states (collected here), the names of simcasino 0.2
(``compare(deals=)``, ``move.build``, ``move.mask``, ``view.draw``) answered with what to use
now, a missing extra with what to install, and no side channel into a `DealState`."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

import simcasino
from simcasino.reference import game as game_module
from simcasino.reference import state as state_module


@pytest.mark.parametrize("module", [state_module, game_module], ids=lambda m: m.__name__)
def test_the_doctests_of_the_game_states(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 2


def test_a_strategy_writer_finds_its_names_at_the_top_level() -> None:
    for name in ("Action", "DealState", "GameState", "Move", "MoveKind", "View", "Stream", "move_name", "read_move",
                 "play_deal", "card_code", "card_codes"):
        assert name in simcasino.__all__ and getattr(simcasino, name) is not None
    assert simcasino.Action is state_module.Action


def test_the_names_of_version_0_2_say_what_to_use_now() -> None:
    move = simcasino.Move.build(0, 5, 1, 9)
    with pytest.raises(AttributeError, match="declared value of simcasino 0.2's move.build is move.value"):
        move.build
    with pytest.raises(AttributeError, match="read move.taken .* or move.target"):
        move.mask
    view = simcasino.DealState.new(simcasino.Rules()).observation(0)
    with pytest.raises(AttributeError, match=r"choose\(view, stream\), and calls stream.draw\(n\)"):
        view.draw
    with pytest.raises(TypeError, match="write decks=10"):
        simcasino.compare("greedy", "random", deals=10)


def test_a_strategy_that_draws_is_handed_the_tables_stream() -> None:
    """A ``choose(view, stream)`` draws from the table's stream: the same seed, the same moves."""
    def lucky(view, stream):
        return view.moves[stream.draw(len(view.moves))]

    one = simcasino.simulate("swedish", (lucky, "greedy"), deals=3, seed=2)
    assert one.equals(simcasino.simulate("swedish", (lucky, "greedy"), deals=3, seed=2))
    assert one["points"].to_list() == simcasino.simulate("swedish", ("random", "greedy"), deals=3, seed=2,
                                                         engine="reference")["points"].to_list()


def test_a_kernel_seat_writes_nothing_into_the_state() -> None:
    from simcasino.loop.seat import KernelSeat
    from simcasino.strategies import parse_strategy

    state = simcasino.DealState.new(simcasino.Rules(), seed=4)
    before, stream = state.to_json(), simcasino.Stream(state.rng)
    KernelSeat(parse_strategy("random")).decide(state, stream)
    assert state.to_json() == before and stream.state != state.rng


def test_arguments_out_of_range_name_the_argument_and_its_range() -> None:
    state = simcasino.DealState.new(simcasino.Rules())
    with pytest.raises(ValueError, match="seat 5: this table has seats 0-1"):
        state.determinize(5, seed=1)
    with pytest.raises(ValueError, match="dealer 3: this table has seats 0-1"):
        simcasino.DealState.new(simcasino.Rules(), seed=1, dealer=3)
    with pytest.raises(ValueError, match=r"deck: 3 cards, not each of the card ids 0-51 once"):
        simcasino.DealState.dealt(simcasino.Rules(), [0, 1, 2])


def test_importing_the_openspiel_game_without_its_extra_says_what_to_install() -> None:
    script = "import sys; sys.modules['pyspiel'] = None\nimport simcasino.interop.openspiel_game"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stderr.strip().splitlines()[-1] == (
        "ImportError: simcasino.interop.openspiel_game needs the openspiel extra: pip install 'simcasino[openspiel]'")
