"""The kernel's play loop: the turn loop, the strategy switch, whole games, batches on all cores,
and single positions asked from Python."""
