# The compiled engine's declaration of ``Reading`` (reading.py), a base of ``GameState``: an extension type
# with no fields of its own (exchange.pxd declares them on ``Exchange``).
import cython

from fivehundred.engine.exchange cimport Exchange


cdef class Reading(Exchange):
    pass


# What one trick shows of the voids (``voids_shown``): a C function the compiled players' reading of the play
# (trick_reading.pxd) cimports, a trick at a time.
@cython.locals(led=cython.long, player=cython.long, suit=cython.long, i=cython.Py_ssize_t)
cpdef void trick_voids(list void, long leader, cards, named, next_seat, list suit_of, bint plain, bint compulsory,
                       laid_out=*)
