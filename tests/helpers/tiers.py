"""The two tiers of the suite (docs/architecture.md, "Which tests to run when"): a check that
repeats over many values runs a few representatives in the quick tier and every value in the
full suite."""

from __future__ import annotations

from collections.abc import Iterable

import pytest


def quick_tier(values: Iterable, quick: Iterable, *, unpack: bool = False) -> list:
    """A parametrization whose values outside ``quick`` are marked slow: the quick tier
    (``-m "not slow"``, the edit-test loop) runs the representatives, the full suite (CI)
    every value. ``unpack`` when the parametrization has several names (tuple values)."""
    keep = list(quick)
    return [value if value in keep else
            pytest.param(*(value if unpack else (value,)), marks=pytest.mark.slow) for value in values]
