"""Playing at the terminal: a game against the bots, its record, and the review of every move."""
