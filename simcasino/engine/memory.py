"""The memory of the advice and of each strategy in the workspace, and the second block the
search's imagined deals use.

The engine's layout (`engine.layout`) ends at ENGINE_END, and its mechanics read nothing after
it. A block of the workspace goes on with one area per owner in `AREA_WORDS` (a strategy, a
part of one: the search's belief and its exact solver, or the advice's move tests), in the
table's order; inside its area an owner names its own regions (`Area.region`). So a new
strategy adds a line here and declares its regions in its own module; the mechanics never
change for it. Why here, below the advice and the players: both lay their regions out in it,
and neither may import the other's layer.

Why a table of sizes and not regions handed out as modules are imported: the offsets are
constants compiled into the kernel, so they must not depend on which module a process
happens to import first. An area too small for its owner's regions fails at import.

A workspace holds two blocks of BLOCK_SIZE words with this same layout: the real deal, then
the block where the search and the clairvoyant play their imagined deals (`playout_block`).
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic

from simcasino.engine import layout
from simcasino.engine.layout import Offsets, WsPointer

# words each owner may use: its regions' sizes (see each module), with room for the gaps `Offsets`
# leaves
AREA_WORDS = {
    "greedy": layout.MOVE_CAP + 64,
    "heuristic": 2 * layout.MOVE_CAP
    + 2 * layout.MAX_PLAYERS * layout.DECK_CAP
    + 2 * layout.DECK_CAP
    + 256,
    "belief": 4096,  # a memory of about 450 words and the evidence against DECK_CAP cards, per seat
    # per observer, seat and card: a log-likelihood
    "inference": layout.MAX_PLAYERS * layout.MAX_PLAYERS * layout.DECK_CAP + 64,
    # per ply: state, moves, node
    "exact": (2 * layout.HAND_CAP + 1) * layout.STATE_SIZE
    + 2 * layout.HAND_CAP * (2 * 256 + 8)
    + 256,
    "search": 3 * layout.MOVE_CAP + 2 * layout.STATE_SIZE + 256,
    "value": 512,  # the learned value of a round's end: about 260 weights and a boundary's features
    "claims": layout.MOVE_CAP + 64,  # the rule books' advice as move tests: a label per listed move
}
_STARTS: dict[str, int] = {}
_next = layout.ENGINE_END
for _owner, _words in AREA_WORDS.items():
    _STARTS[_owner], _next = _next, _next + _words
BLOCK_SIZE = _next
WORKSPACE_SIZE = 2 * BLOCK_SIZE


class Area:
    """The regions of one owner, handed out in its area (cache-line gaps as the engine's)."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.end = _STARTS[owner] + AREA_WORDS[owner]
        self._offsets = Offsets(_STARTS[owner])

    def region(self, size: int) -> int:
        """The offset of a new region of ``size`` words."""
        start = self._offsets.take(size)
        if self._offsets.next > self.end:
            raise ValueError(
                f"the memory of {self.owner!r} outgrows its area: raise AREA_WORDS[{self.owner!r}]"
            )
        return start


@intrinsic
def playout_block(typingctx, ws):
    """The pointer to the second block of a workspace (``ws + BLOCK_SIZE``)."""
    if ws != WsPointer:
        return None
    sig = WsPointer(ws)

    def codegen(context, builder, signature, args):
        return builder.gep(args[0], [context.get_constant(types.intp, BLOCK_SIZE)])

    return sig, codegen
