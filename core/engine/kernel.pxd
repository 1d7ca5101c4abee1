# Types for the compiled kernel (Cython's "augmenting .pxd": kernel.py stays plain Python).  The rules of the trick
# that the engine's play calls at every trick are C functions, which play.pxd cimports.
import cython


@cython.locals(seat=cython.Py_ssize_t, winner=cython.Py_ssize_t, best=cython.long, strength=cython.long,
               card=cython.long, i=cython.Py_ssize_t)
cpdef tuple trick_winner(row, cards, Py_ssize_t leader, next_seat, named=*, Py_ssize_t led=*)

cpdef bint play_over(Py_ssize_t played, Py_ssize_t hand_size, Py_ssize_t winner, decided)
