"""``python -m fivehundred``: the command line, as ``fivehundred``."""

from fivehundred.cli.app import main

main()
