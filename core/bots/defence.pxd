# The misère defender compiled as an extension type (an "augmenting .pxd", as heuristic.pxd), so that
# ClubPlayer can be one too.  The keys its leads and sheds are chosen by are cpdef methods with C locals.
import cython

from fivehundred.bots.heuristic cimport HeuristicPlayer
from fivehundred.bots.situation cimport _card, _Play


cdef class MisereDefender(HeuristicPlayer):
    @cython.locals(row=list, suit_of=list, held=list, c=cython.long)
    cpdef _held_by(self, _Play p, long seat, long suit)

    @cython.locals(s=cython.long, row=list, mine=cython.long, best=tuple, key=tuple, held=object, below=cython.long,
                   x=cython.long, t=cython.long)
    cpdef tuple _attack(self, _Play p, long c, tuple targets, dict holdings, set blocked, set unblocking)

    @cython.locals(c=cython.long, s=cython.long, mine=cython.long, useless=cython.long, blocks=cython.long,
                   held=object, h=cython.long, t=cython.long, row=list)
    cpdef tuple _spare(self, _Play p, tuple targets, long a, bint attack)
