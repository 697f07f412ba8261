"""The public names each show themselves in a doctest: a real, small example in the docstring,
pasted from a run, and run here in the quick tier, so an answer that changes fails until the
docs say it too. (The game states' doctests run in `tests/api/test_public_api.py`.)"""

from __future__ import annotations

import doctest
import importlib

import pytest

# each module whose docstrings hold examples: the public names in it that must show one
DOCUMENTED = {
    "simcasino.core.rules": ("Rules",),
    "simcasino.core.protocol": ("Move", "View"),
    "simcasino.strategies": ("parse_strategy",),
    "simcasino.experiment.compare": ("compare",),
    "simcasino.interop.evaluate": ("evaluate",),
}


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_doctests_of_the_public_names(name: str) -> None:
    module = importlib.import_module(name)
    for public in DOCUMENTED[name]:
        assert ">>>" in (getattr(module, public).__doc__ or ""), f"{name}.{public} shows no example"
    result = doctest.testmod(module, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name} (printed above)"
