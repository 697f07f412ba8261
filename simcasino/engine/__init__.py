"""The kernel's mechanics (numba): the workspace layout, captures, builds, legal moves, dealing,
playing a move and scoring. Nothing here chooses a move: the strategies do, asked by the play
loop."""
