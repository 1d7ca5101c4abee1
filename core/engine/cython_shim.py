"""Cython's pure-Python mode names, for the pure-Python build where Cython (a build requirement only) is not
installed: a module typed in the ``.py`` itself (``solver_moves``, ``solver_search``) imports ``cython`` and
falls back to this.

Every decorator returns its function unchanged, a declared C array is a list of zeros and a cast is the
value itself, so the module runs as the plain Python it is written in.  The compiled build never imports
this: Cython reads the same decorators as C types.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

compiled = False


class _Type:
    """A C type: ``cython.int``, or ``cython.int[8]`` for an array."""

    def __init__(self, size: builtins.int = 0) -> None:
        self.size = size

    def __getitem__(self, size: builtins.int) -> _Type:
        return _Type(size)


int = ulonglong = longlong = bint = Py_ssize_t = p_int = p_ulonglong = _Type()
NULL = None


def _same(function: Callable[..., Any]) -> Callable[..., Any]:
    return function


cclass = cfunc = ccall = inline = final = _same


def locals(**_types: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return _same


def returns(_type: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return _same


def exceptval(*_args: Any, **_kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return _same


boundscheck = wraparound = exceptval


def declare(t: Any = None, value: Any = None, **_attributes: Any) -> Any:
    """A typed variable: its value, or a list of zeros for an array (an attribute's declaration: nothing)."""
    if value is not None:
        return value
    if isinstance(t, _Type) and t.size:
        return [0] * t.size
    return None


def cast(_type: Any, value: Any) -> Any:
    return value
