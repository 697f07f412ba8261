"""Old import paths of modules that moved out of `strategies` (the advice to its own layer, the
search's parts into `strategies.search`): importing one still works, gives the module where it
lives now, and warns once in one line (a DeprecationWarning naming the new path).

Why a finder and not a file at each old path: one table says what moved where, and no
left-behind module can drift from the one it stands for.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

MOVED = {
    "simcasino.strategies.claims": "simcasino.advice.claims",
    "simcasino.strategies.advice": "simcasino.advice.conditions",
    "simcasino.strategies.follow": "simcasino.advice.follow",
    "simcasino.strategies.memory": "simcasino.engine.memory",
    "simcasino.strategies.belief": "simcasino.strategies.search.belief",
    "simcasino.strategies.inference": "simcasino.strategies.search.inference",
    "simcasino.strategies.exact": "simcasino.strategies.search.exact",
    "simcasino.strategies.clairvoyant": "simcasino.strategies.search.clairvoyant",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path of `MOVED` and loads it as the module at its new path."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {MOVED[spec.name]}: import it from there",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path is loaded already."""


def install() -> None:
    """Put the finder on the import path (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
