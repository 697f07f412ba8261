"""Built-in strategies, registered by name; each module holds one strategy.

A strategy is named on the command line and in specs as ``NAME`` or ``NAME:key=value,...``
(parameters come with the heuristic); every strategy also takes ``follow=ADVICE``: a claim of
docs/rules.md §7 or a rule with its conditions (`advice.conditions`), a card file, or ``card`` (the
shipped strategy card), which it is made to follow wherever it can (`follow`,
``greedy:follow=S1``, ``greedy:follow=S6@last-round``, ``greedy:follow=card``).
Every strategy has a number the numba kernel dispatches on (its place in `KERNEL_ORDER`) and
a plain-Python form the reference engine runs. A strategy's module is imported when it is
first asked for (`module`), so naming the strategies (`--help`) needs no compiler.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any

from simcasino.core import suggest
from simcasino.core.protocol import Move, Strategy, Stream, View, ask
from simcasino.strategies import moved

moved.install()


class Tier(IntEnum):
    """What a job compiles (`loop.dispatch`): a table's tier is the highest of its seats', so a
    table of random and greedy never compiles the heuristic (a first run in seconds), one
    without the search not the search, one without the clairvoyant (a ceiling for experiments)
    not the clairvoyant. A seat made to follow advice tests moves (`advice.claims`): ADVISED at
    least, which compiles the advice but no heuristic. Each tier includes those below it."""

    PLAIN = 0
    ADVISED = 1
    WEIGHED = 2
    SEARCHED = 3
    SEES_ALL = 4


PLAIN, ADVISED, WEIGHED, SEARCHED, SEES_ALL = (
    Tier.PLAIN,
    Tier.ADVISED,
    Tier.WEIGHED,
    Tier.SEARCHED,
    Tier.SEES_ALL,
)
TIER_NAMES = {
    PLAIN: "plain",
    ADVISED: "advised",
    WEIGHED: "weighed",
    SEARCHED: "searched",
    SEES_ALL: "clairvoyant",
}
TIER_WORDS = {
    PLAIN: "random and greedy",
    ADVISED: "the advice",
    WEIGHED: "the heuristic",
    SEARCHED: "the search",
    SEES_ALL: "the clairvoyant and the hand-seer",
}  # what each tier's kernel plays, in words


class FollowKind(StrEnum):
    """How a strategy follows advice (``follow=``): the play loop keeps the moves the advice
    allows and asks the strategy's ``choose_listed`` among them (BY_LIST), or the strategy
    restricts its own candidates (BY_ITSELF); CANNOT, and ``follow=`` is refused by name."""

    CANNOT = ""
    BY_LIST = "listed"
    BY_ITSELF = "itself"


BY_LIST, BY_ITSELF = FollowKind.BY_LIST, FollowKind.BY_ITSELF


@dataclass(frozen=True)
class Registered:
    """A built-in kernel strategy, registered once: its name, the tier a job compiles to play
    it, how it follows a claim ("" if it cannot: ``follow=`` is then refused by name), the
    memory areas it uses (`engine.memory`) and the module holding its parameters,
    ``kernel_params``, ``choose_kernel`` and its plain-Python form (by default
    ``simcasino.strategies.<name>``). Its kernel number is its place in `REGISTRY`, read by
    name (`KERNEL_ID`); the play loop's switch (`loop.dispatch`) is checked against this table
    when it is imported."""

    name: str
    tier: int
    follows: FollowKind
    memory: tuple[str, ...] = ()
    path: str = ""

    @property
    def module_path(self) -> str:
        return self.path or f"simcasino.strategies.{self.name}"


REGISTRY = (
    Registered("random", PLAIN, BY_LIST),
    Registered("greedy", PLAIN, BY_LIST, ("greedy",)),
    Registered("heuristic", WEIGHED, BY_LIST, ("heuristic",)),
    Registered(
        "search", SEARCHED, BY_ITSELF, ("heuristic", "search", "belief", "inference", "exact")
    ),
    Registered(
        "clairvoyant",
        SEES_ALL,
        BY_ITSELF,
        ("heuristic", "search", "exact"),
        "simcasino.strategies.search.clairvoyant",
    ),
    Registered(
        "hand-seer",
        SEES_ALL,
        BY_ITSELF,
        ("heuristic", "search", "exact"),
        "simcasino.strategies.search.hand_seer",
    ),
)
KERNEL_ORDER = tuple(entry.name for entry in REGISTRY)  # the built-ins by kernel number
KERNEL_ID: dict[str, int] = {name: i for i, name in enumerate(KERNEL_ORDER)}
# the numbers the kernel's switch tests (`loop.dispatch`), each read by name: a new entry adds its
# own
RANDOM_ID = KERNEL_ID["random"]
GREEDY_ID = KERNEL_ID["greedy"]
HEURISTIC_ID = KERNEL_ID["heuristic"]
SEARCH_ID = KERNEL_ID["search"]
CLAIRVOYANT_ID = KERNEL_ID["clairvoyant"]
HAND_SEER_ID = KERNEL_ID["hand-seer"]


# Plug-in strategies: written above this layer (OpenSpiel's bots, `simcasino.interop`), so named
# here by module path and loaded when asked for: name -> (module, its factory, the extra it needs).
PLUGINS = {
    "openspiel-ismcts": ("simcasino.interop.openspiel_bots", "ismcts_seat", "openspiel"),
    "openspiel-mcts": ("simcasino.interop.openspiel_bots", "mcts_seat", "openspiel"),
}

FOLLOW_KEY = "follow"  # the parameter every strategy takes: the advice it follows (`follow`)


def tier_of(seats: Sequence[object]) -> int:
    """The tier a table of these seats compiles (`PLAIN` ... `SEES_ALL`): the highest
    of its kernel seats', ADVISED at least for a seat made to follow advice (its move tests).
    Seats that do not play in the kernel add nothing."""
    tiers = [
        max(REGISTRY[seat.kernel_id].tier, ADVISED if seat.follow else PLAIN)
        for seat in seats
        if isinstance(seat, StrategySpec)
    ]
    return max(tiers, default=PLAIN)


def plain(seats: Sequence[object]) -> bool:
    """Do these seats compile only the plain tier (random and greedy, none following a claim)?"""
    return tier_of(seats) == PLAIN


def module(name: str) -> ModuleType:
    """The module of a built-in or plug-in strategy (ValueError naming the choices if unknown,
    or the extra to install if a plug-in's packages are missing)."""
    if name in PLUGINS:
        path, _, extra = PLUGINS[name]
        try:
            return importlib.import_module(path)
        except ImportError as error:
            raise ValueError(
                f"strategy {name!r} needs the {extra} extra (pip install 'simcasino[{extra}]'): "
                f"{error}"
            ) from None
    if name not in KERNEL_ID:
        raise ValueError(
            suggest.unknown(
                "strategy", name, (*KERNEL_ORDER, *PLUGINS), "simcasino strategies list"
            )
        )
    return importlib.import_module(REGISTRY[KERNEL_ID[name]].module_path)


@dataclass(frozen=True)
class Named:
    """A strategy by name, with its parameters (defaults left out) and the claim it is made to
    follow (`follow`; "" for none)."""

    name: str
    params: dict[str, float] = field(default_factory=dict)
    follow: str = ""

    @property
    def label(self) -> str:
        items = [f"{k}={v:g}" for k, v in sorted(self.params.items())]
        items += [f"{FOLLOW_KEY}={self.follow}"] if self.follow else []
        return self.name + (":" + ",".join(items) if items else "")

    @property
    def text(self) -> str:
        """What `parse_strategy` reads back as this strategy (specs and run manifests keep it)."""
        return self.label


@dataclass(frozen=True)
class PluginStrategy(Named):
    """A plug-in strategy (`PLUGINS`): it plays at a table the reference engine referees,
    where its factory's seat is handed the deal state (`reference.referee.Seat`)."""

    in_kernel = False

    def python(self) -> object:
        _, factory, _ = PLUGINS[self.name]
        return getattr(module(self.name), factory)(self.params)


@dataclass(frozen=True)
class StrategySpec(Named):
    """A built-in strategy by name, with its parameters (defaults left out)."""

    in_kernel = True  # the numba kernel can play it

    @property
    def kernel_id(self) -> int:
        return KERNEL_ID[self.name]

    @property
    def plays_builds(self) -> bool:
        """Does it know the §6 build moves and the builder's obligation (``PLAYS_BUILDS``)?"""
        return getattr(module(self.name), "PLAYS_BUILDS", False)

    @property
    def sees_hidden(self) -> bool:
        """Does it read the hidden cards (``SEES_HIDDEN``: a ceiling to measure against, not a fair
        player)?"""
        return getattr(module(self.name), "SEES_HIDDEN", False)

    @property
    def counts_cards(self) -> bool:
        """Does its kernel form read the hidden-card counts (the deal then keeps them)?"""
        return getattr(module(self.name), "COUNTS_CARDS", False)

    def kernel_params(self) -> list[int]:
        """The parameters as the kernel reads them (integers; none for most strategies), and
        the codes of the rules it follows in the last slots (`follow.FOLLOW_FIRST`)."""
        to_kernel = getattr(module(self.name), "kernel_params", None)
        values = to_kernel(self.params) if to_kernel else []
        if not self.follow:
            return values
        from simcasino.advice.follow import FOLLOW_FIRST

        return (
            values + [0] * (FOLLOW_FIRST - len(values)) + [rule.encode() for rule in self.rules()]
        )

    def rules(self) -> tuple[Any, ...]:
        """The rules it follows (`advice.conditions.card_of`: a card's are those of its own
        level)."""
        from simcasino.advice.conditions import card_of

        return card_of(self.follow, self.name) if self.follow else ()

    def python(self) -> Strategy:
        """A fresh plain-Python instance for the reference engine (made to follow its rules)."""
        strategy = module(self.name).make(self.params)
        if not self.follow:
            return strategy
        from simcasino.advice.follow import Follow

        return Follow(strategy, self.rules())


class _Function:
    """Adapts a plain function ``f(view) -> Move`` (or ``f(view, stream)``) to the protocol."""

    def __init__(self, function: Any) -> None:
        self.function = function

    def choose(self, view: View, stream: Stream | None = None) -> Move:
        return ask(self.function, view, stream)


@dataclass(frozen=True, eq=False)
class PythonStrategy:
    """A user's plain-Python strategy: it plays at a table the reference engine referees
    (`simulation`: a mixed table with kernel strategies, or the reference engine). Loaded
    from a file (``source``), it is named by that file in specs and pickles as it, so that
    worker processes load it again."""

    strategy: Strategy
    source: str = ""
    in_kernel = False

    def __reduce__(self) -> str | tuple[Any, ...]:
        return (load_strategy_file, (self.source,)) if self.source else super().__reduce__()

    @property
    def text(self) -> str:
        """The file it was loaded from, which `parse_strategy` reads back (ValueError for a
        strategy object given in Python: it has no name to be found by)."""
        if not self.source:
            raise ValueError(
                f"strategy {self.label!r} is a Python object: a run folder names its strategies by "
                "text, so give its file (a .py defining choose(view)); simcasino.compare plays an "
                "object in memory"
            )
        return self.source

    @property
    def name(self) -> str:
        target = getattr(self.strategy, "function", self.strategy)
        return (
            getattr(target, "name", None)
            or getattr(target, "__name__", None)
            or type(target).__name__
        )

    @property
    def label(self) -> str:
        return self.name

    def python(self) -> Strategy:
        return self.strategy


def parse_strategy(text: Any) -> StrategySpec | PluginStrategy | PythonStrategy:
    """``"greedy"`` or ``"name:key=value,..."`` -> StrategySpec (PluginStrategy for a name of
    `PLUGINS`); an object with a
    ``choose(view)`` method, or a function of the view, -> PythonStrategy. ValueError if unknown.
    (An object with ``decide(state, stream)`` is a seat handed the whole `DealState`, trusted
    to read only what its seat sees, as `interop.evaluate.PolicySeat` does: a PythonStrategy.)

    >>> spec = parse_strategy("heuristic:hold_twos=0")
    >>> spec.name, spec.params, spec.label
    ('heuristic', {'hold_twos': 0.0}, 'heuristic:hold_twos=0')
    >>> parse_strategy(lambda view: view.moves[0]).label  # a plain-Python strategy, named after its function
    '<lambda>'
    """  # noqa: E501 (a doctest line)
    if isinstance(text, (Named, PythonStrategy)):
        return text
    if hasattr(text, "choose") or hasattr(text, "decide"):
        return PythonStrategy(text)
    if callable(text):
        return PythonStrategy(_Function(text))
    if not isinstance(text, str):
        raise ValueError(
            f"strategy must be a name such as 'greedy' or an object with choose(view); got {text!r}"
        )
    if text.strip().endswith(".py"):
        return load_strategy_file(text.strip())
    return _parse_name(text)


def built_in(text: str, who: str = "the strategy") -> StrategySpec:
    """``text`` as a built-in strategy, which the kernel plays (a teacher, a pupil, a dataset's
    player); ValueError in one line naming ``who`` for a strategy file or function."""
    spec = parse_strategy(text)
    if not isinstance(spec, StrategySpec):
        raise ValueError(f"{text!r}: {who} must be a built-in strategy, not a file")
    return spec


@functools.lru_cache(maxsize=1024)
def _parse_name(text: str) -> StrategySpec | PluginStrategy:
    """``"name:key=value,..."`` read once per process: a job names its strategies at every step
    (the command line, the spec, the summary's words) and a ``follow=`` is checked against its
    card, so without this the same text is read several times. The spec is frozen and its
    params are never written, so every caller may share it. (A strategy file is not cached: each
    parse loads its code anew.)"""
    name, _, rest = text.strip().partition(":")
    name = name.lower()
    known = params_of(name)
    params, follow = {}, ""
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq:
            raise ValueError(f"bad strategy parameter {item!r} in {text!r}: expected key=value")
        if key == FOLLOW_KEY:
            follow = _advice_text(value, name, text)
            continue
        if key not in known:
            choices = suggest.near_or_all(key, [*known, FOLLOW_KEY], "simcasino strategies list")
            raise ValueError(f"strategy {name!r} has no parameter {key!r}: {choices}")
        try:
            params[key] = float(value)
        except ValueError:
            raise ValueError(
                f"strategy parameter {key!r} in {text!r} must be a number; got {value!r}"
            ) from None
    if follow and not follows_claims(name):
        raise ValueError(
            f"strategy {name!r} cannot follow a claim ({FOLLOW_KEY}={follow} in {text!r}): "
            f"these can: {', '.join(e.name for e in REGISTRY if e.follows)}"
        )
    return (PluginStrategy if name in PLUGINS else StrategySpec)(name, params, follow)


def _advice_text(value: str, name: str, text: str) -> str:
    """The ``follow=`` value as kept in the strategy's text (a claim id in capitals), checked
    now so a bad rule, card or file is one line naming it (ValueError)."""
    from simcasino.advice.claims import CLAIM_IDS
    from simcasino.advice.conditions import card_of

    follow = value.upper() if value.upper() in CLAIM_IDS else value
    try:
        if not card_of(follow, name):
            raise ValueError(f"the card has no rule for {name!r}")
    except ValueError as error:
        raise ValueError(f"{FOLLOW_KEY}={value} in {text!r}: {error}") from None
    return follow


def follows_claims(name: str) -> bool:
    """Can strategy ``name`` follow a claim (its `Registered.follows`; plug-ins cannot)?"""
    return name in KERNEL_ID and bool(REGISTRY[KERNEL_ID[name]].follows)


def load_strategy_file(path: str) -> PythonStrategy:
    """A plain-Python strategy from a file defining ``choose(view)`` (see strategies/ at the
    top of the repository for an example); it is named after the file."""
    choose = user_function(path, "strategy file", "choose", "choose(view)")
    choose.name = Path(path).stem
    return PythonStrategy(_Function(choose), path)


def user_function(path: str, kind: str, name: str, signature: str) -> Callable:
    """Function ``name`` of the user's Python file at ``path`` (a ``kind``: "strategy file",
    "policy file"); a missing file, code that fails to load or a missing function is a
    ValueError of one line that says which, since the traceback would be of our loader."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"{kind} {path!r} not found")
    spec = importlib.util.spec_from_file_location(f"simcasino_user_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the user's code: report it in one line
        raise ValueError(
            f"{kind} {path!r} failed to load: {type(error).__name__}: {error}"
        ) from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"{kind} {path!r} defines no function {signature}")
    return function


def check_builds(builds: bool, seats: Sequence[StrategySpec | PythonStrategy]) -> None:
    """Refuse, with builds (§6) in the rules, a built-in strategy that does not know them: it
    would misjudge build moves and break the builder's obligation. Plain-Python strategies
    choose from the legal moves they are shown, so they may play."""
    for seat in seats:
        if builds and isinstance(seat, StrategySpec) and not seat.plays_builds:
            known = ", ".join(name for name in KERNEL_ORDER if StrategySpec(name).plays_builds)
            raise ValueError(
                f"strategy {seat.name!r} does not play builds (rule knob 'builds') yet; these do: "
                f"{known}"
            )


def params_of(name: str) -> dict[str, tuple[float, str]]:
    """A strategy's parameters: name -> (default, what it does)."""
    return getattr(module(name), "PARAMS", {})
