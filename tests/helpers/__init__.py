"""What the tests share, one module per concern, imported by name from any test folder
(``from helpers.cli import ok``: pyproject.toml puts tests/ on the path; no test file imports
another). Plain functions and values, not fixtures: a test calls them with its own rules,
decks and positions."""
