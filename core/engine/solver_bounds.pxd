# C types for the solver's bounds at a lead (Cython's "augmenting .pxd": solver_bounds.py keeps its own
# ``cython.locals``): ``Bounds`` extends ``Moves`` with the bounds' fields and methods, declared here so that the
# search (solver_search.py, ``Search(Bounds)``) cimports it and calls them as C.
from fivehundred.engine.solver_moves cimport Moves


cdef class Bounds(Moves):
    # The side's tricks from the lead on, set by ``bounds``: whoever plays what (``forced_*``), and when the
    # side plays for tricks and the others against it.
    cdef int least, most, forced_least, forced_most

    cdef int misere_seat(self) except *
    cdef bint leads_under(self, int leader) except *
    cdef bint misere_safe(self) except *
    cdef int top(self, unsigned long long cards, int slot) except *
    cdef int bounds(self, int leader, int left) except *
    cdef unsigned long long held(self, int seat) noexcept
    cdef int entry_tricks(self, int leader) except *
    cdef bint enters(self, int partner, int s) except *
    cdef int strongest(self, unsigned long long cards, int led) except *
    cdef int sure_tricks(self, int seat) except *
