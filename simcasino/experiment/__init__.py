"""Experiments: TOML specs -> paired runs in chunks -> Parquet -> statistics.

Modules, one concept each: `spec` (the TOML file), `chunk` (what a worker computes),
`backends` (where chunks run), `store` (the run folder), `stopping` (the SPRT walked over
the chunks), `summary` (the statistics of a run), `metrics` (self-play's measures as text),
`runner` (ties them together), `compare` (a quick head-to-head from Python).
"""

from simcasino.experiment.compare import compare
from simcasino.experiment.runner import RunResult, resume, run_experiment
from simcasino.experiment.spec import Spec, load_spec, spec_from_table

__all__ = [
    "RunResult",
    "Spec",
    "compare",
    "load_spec",
    "resume",
    "run_experiment",
    "spec_from_table",
]
