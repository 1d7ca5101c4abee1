"""Optional dependencies, imported on first use with an error that names the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import FiveHundredError


class MissingExtraError(FiveHundredError, ImportError):
    """An optional dependency is not installed; the message names the ``pip install`` that adds it."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise ``MissingExtraError`` telling how to get it for ``feature``."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingExtraError(
            f"{feature} needs {module.split('.')[0]}, which is not installed: pip install 'fivehundred[{extra}]'"
        ) from e
