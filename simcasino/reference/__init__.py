"""The pure-Python reference engine: the test oracle and the speed baseline."""
