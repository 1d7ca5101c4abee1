# The compiled search's base (Cython's "augmenting .pxd": solver_search.py keeps its own types, written where its
# code is): ``Search`` extends ``solver_bounds.Bounds`` (and so ``solver_moves.Moves``), cimported so that the
# search reads the hand's C arrays and calls the bounds' and the moves' methods as C.
# The transposition table's memory (compiled only: the pure build keeps a dict).
from libc.stdlib cimport free, malloc, realloc

from fivehundred.engine.solver_bounds cimport Bounds
