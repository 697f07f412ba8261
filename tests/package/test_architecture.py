"""The house keeps its shape (docs/architecture.md): the layers and the no-circles contract of
import-linter hold, no module imports another's private names, the code is linted (ruff: sorted
imports, lines of at most 100 characters in the package (120 in tests and scripts)), the
command line's help starts without the engine, every module can be the first import of a fresh
process, and every file and name the code and docs cite in backticks exists."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys

import pytest
from helpers.paths import ROOT

PACKAGE = ROOT / "simcasino"


def modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


def test_import_contracts_hold() -> None:
    """pyproject.toml's [tool.importlinter]: data flows down the layers, no siblings import
    each other both ways at any depth, a run's summary imports nothing from the sweeps and the
    report none of the heuristic's internals."""
    script = ("import sys; from importlinter.cli import lint_imports; "
              "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    result = run(sys.executable, "-c", script)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


def test_no_module_imports_another_modules_private_names() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("simcasino"):
                offenders += [f"{path.relative_to(ROOT)}: {alias.name} from {node.module}" for alias in node.names
                              if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not offenders, offenders


def test_code_is_linted() -> None:
    """ruff with pyproject.toml's rules: pyflakes, pycodestyle (100 characters in the package, 120 in tests and
    scripts), sorted imports."""
    result = run(sys.executable, "-m", "ruff", "check", "simcasino", "tests", "benchmarks", "experiments", "strategies")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("verb", [["--help"], ["rules", "list"]])
def test_the_help_and_the_rules_list_import_no_kernel(verb: list[str]) -> None:
    """``simcasino --help`` and ``simcasino rules list`` need neither numba nor polars."""
    script = ("import sys; from simcasino.cli import main\n"
              f"try:\n    main({verb!r})\nexcept SystemExit:\n    pass\n"
              "print('loaded:', sorted({'numba', 'polars', 'matplotlib'} & set(sys.modules)))")
    result = run(sys.executable, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("loaded: []"), result.stdout


FIRST_IMPORTS = """
import importlib, sys, traceback
failed = {}
for module in sys.argv[1:]:
    for name in [n for n in sys.modules if n == "simcasino" or n.startswith("simcasino.")]:
        del sys.modules[name]
    try:
        importlib.import_module(module)
    except Exception:
        failed[module] = traceback.format_exc(limit=3)
print(failed)
sys.exit(1 if failed else 0)
"""


@pytest.mark.slow  # a fresh process (or many): the full suite runs it, the quick tier leaves it out
def test_every_module_can_be_the_first_import() -> None:
    """Each module imported first, with no module of the package loaded before it: a process
    that forgets the package between modules (the libraries below stay loaded, so it takes
    seconds, not a process start-up of numba and polars per module); two such processes at
    once, each with half the modules, as CI has two cores."""
    names = modules()
    halves = [subprocess.Popen([sys.executable, "-c", FIRST_IMPORTS, *names[k::2]], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k in (0, 1)]
    for process in halves:
        out, err = process.communicate()
        assert process.returncode == 0, out + err


CITING = [*PACKAGE.rglob("*.py"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md",
          *(ROOT / "benchmarks").glob("*.py"), *(ROOT / "tests").rglob("*.py")]
ROOTS = {"simcasino", *(p.stem for p in PACKAGE.iterdir() if not p.name.startswith("_"))}  # where a dotted name starts


def _file_exists(cited: str) -> bool:
    """A path as the docs cite it: from the repository's root or from a folder in it."""
    files = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob(cited.rsplit("/", 1)[-1]) if ".git" not in p.parts]
    return any(f == cited or f.endswith("/" + cited) for f in files)


def _name_exists(cited: str) -> bool:
    """``core.rules.Rules.to_table`` or ``simcasino.loop.position``: a module and attributes."""
    parts = cited.split(".")
    parts = parts if parts[0] == "simcasino" else ["simcasino", *parts]
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name, None)
        return found is not None
    return False


def test_every_file_and_name_cited_in_backticks_exists() -> None:
    """Docstrings and docs outlive restructures: a cited path or dotted name that is gone fails."""
    missing = []
    for path in CITING:
        for cited in re.findall(r"`([^`\s]+)`", path.read_text(encoding="utf-8")):
            cited = cited.removesuffix("()")
            if re.fullmatch(r"[\w][\w./-]*\.(py|md|toml)", cited):
                found = _file_exists(cited)
            elif re.fullmatch(r"[a-z_]+(\.[A-Za-z_]\w*)+", cited) and cited.split(".")[0] in ROOTS:
                found = _name_exists(cited)
            else:
                continue
            if not found:
                missing.append(f"{path.relative_to(ROOT)}: {cited}")
    assert not missing, "cited but not found:\n" + "\n".join(missing)
