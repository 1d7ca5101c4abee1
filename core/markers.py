"""The marker plugins use: ``from fivehundred import hookimpl``."""

import pluggy

hookimpl = pluggy.HookimplMarker("fivehundred")
