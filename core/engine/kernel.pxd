# Types for the compiled kernel (Cython's "augmenting .pxd": kernel.py stays plain Python).  The rules of the trick
# that the engine's play calls at every trick are C functions, which play.pxd cimports: ``trick_winner`` reads the
# play table's row and the trick as lists and answers a C pair (a tuple when Python calls it).
import cython


@cython.locals(seat=cython.Py_ssize_t, winner=cython.Py_ssize_t, best=cython.long, strength=cython.long,
               card=cython.long, i=cython.Py_ssize_t)
cpdef (Py_ssize_t, long) trick_winner(list row, list cards, Py_ssize_t leader, tuple next_seat, named=*,
                                      Py_ssize_t led=*) except *

cpdef bint play_over(Py_ssize_t played, Py_ssize_t hand_size, Py_ssize_t winner, decided)
