"""pytest's set-up for the tests, which live in folders by layer (docs/architecture.md, "Which
tests to run when"). What they share is plain code in ``helpers/``; its asserts are rewritten as
a test's are, so a helper's failing check shows its values."""

import pytest

pytest.register_assert_rewrite("helpers")
