"""``python -m simcasino ...``: the command line without the installed script."""

from simcasino.cli import main

main()
