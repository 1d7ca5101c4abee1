"""The ``fivehundred`` command line."""
