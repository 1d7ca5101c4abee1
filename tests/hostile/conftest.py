"""The hostile tests' runs of the command line as real processes are never left running (``hostile_cli.stop_all``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hostile_cli import stop_all


@pytest.fixture(autouse=True)
def _no_run_left_going() -> Iterator[None]:
    yield
    stop_all()
