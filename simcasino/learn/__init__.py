"""Learning the search's value of a round's end from its own deals (`rounds`), by a small
model fitted in numpy on two cores (`fit`); the verb is ``simcasino learn``."""
