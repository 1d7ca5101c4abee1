# Types for the compiled auction (Cython's "augmenting .pxd": auction.py stays plain Python).  The two statements
# of the auction's turn and end are C functions, which the engine's uniform auction (state.pxd) cimports.
import cython


@cython.locals(_=cython.Py_ssize_t)
cpdef Py_ssize_t next_caller(out, Py_ssize_t seat, Py_ssize_t players) except? -2

cpdef bint closed(Py_ssize_t passes, Py_ssize_t players, Py_ssize_t holder) except? -1
