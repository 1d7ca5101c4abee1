# Types for the compiled engine's play (Cython's "augmenting .pxd", as state.pxd): ``Play`` is an extension type
# with no fields of its own (exchange.pxd declares them), and the play loop gets C integers for seats, cards and
# draws, and the lists it indexes and pops.
import cython

from fivehundred.engine.hand_log cimport HandLog, Trick
from fivehundred.engine.kernel cimport play_over, trick_winner
from fivehundred.engine.reading cimport Reading
from fivehundred.rules.tables cimport follow_suit


cdef class Play(Reading):
    # A trick's end, as a C call from the play loop (``_tricks``, whose ``state`` is typed as ``Play``).
    @cython.locals(log=HandLog, tricks=list, check=object)
    cpdef Py_ssize_t _end_trick(self, Py_ssize_t leader, list trick, Py_ssize_t winner, named) except? -2
    # Every field of ``src`` into this state (``GameState.clone``), as C fields
    cpdef _copy_fields(self, Play src)
    cpdef _score_hand(self)
    cpdef _next_deal(self)


@cython.locals(suit_of=list, power=list, buckets=list, held=list, nxt=tuple, size=cython.Py_ssize_t,
               unled=list, log_tricks=list, acting=cython.bint, track_unled=cython.bint, hand_size=cython.Py_ssize_t,
               seat=cython.Py_ssize_t, hand=list, cards=list, jokers=list, others=cython.Py_ssize_t,
               i=cython.Py_ssize_t, n=cython.Py_ssize_t, s=cython.Py_ssize_t, card=cython.long,
               led=cython.long, row=list, leader=cython.Py_ssize_t, trick=list, pool=list, draw=cython.double,
               compulsory=cython.bint, _=cython.Py_ssize_t)
cpdef _tricks(Play state, list acts, draws)


# ``list.remove`` and ``list.pop`` as C loops on the play's lists of cards.
@cython.locals(i=cython.Py_ssize_t, held=cython.long)
cdef inline void _remove(list cards, long card) except *

@cython.locals(card=cython.long)
cdef inline long _pop(list cards, Py_ssize_t i) except? -1


@cython.locals(trick=Trick)
cdef Trick _trick(leader, list cards, winner, named, follow_names)
