"""The tests of an optional extra (``pip install 'fivehundred[NAME]'``) skip where it is not installed, as
after ``pip install '.[test]'``; with ``FIVEHUNDRED_REQUIRE_EXTRAS=1`` (``.ci/run``'s extras lane, which
installs them all) a missing one fails instead, so that a lane meant to run them cannot skip them."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

REQUIRE_ENV = "FIVEHUNDRED_REQUIRE_EXTRAS"


def need(module: str, extra: str) -> ModuleType:
    """``module``, imported; the calling test module skips without it (fails under ``REQUIRE_ENV=1``)."""
    if os.environ.get(REQUIRE_ENV) == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"needs an optional extra: pip install 'fivehundred[{extra}]' "
                                              f"({REQUIRE_ENV}=1 makes this a failure)")
