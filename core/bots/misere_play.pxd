# C types for the compiled players' play of a misère (Cython's "augmenting .pxd": misere_play.py stays plain
# Python, and the pure-Python player never reads this file).
import cython

from fivehundred.bots.evaluation cimport _danger
from fivehundred.bots.situation cimport _card, _Play
from fivehundred.bots.trick_reading cimport TrickReader, _count_below, _following


cdef class MiserePlay(TrickReader):
    @cython.locals(total=cython.double, term=cython.double)
    cpdef double _hand_danger(self, _Play p, hand)

    @cython.locals(suit_of=list, terms=list, fewer=list, c=cython.long, s=cython.long, row=list, mine=cython.long,
                   others=cython.long, own=cython.long, x=cython.long)
    cpdef tuple _danger_terms(self, _Play p, hand)

    @cython.locals(s=cython.long, later=cython.double, row=list, mine=cython.long, higher=cython.long,
                   lower=cython.long, unseen=cython.long, held=cython.long, miss=cython.double, win=cython.double,
                   d=cython.long, x=cython.long, terms=list, fewer=list, suit_of=list, i=cython.Py_ssize_t)
    cpdef double _misere_lead_cost(self, _Play p, long card)

    @cython.locals(cards=list, c=cython.long, least=cython.double, cost=cython.double, suit_of=list, power=list,
                   contractor=cython.long, s=cython.long, row=list, theirs=list, under=cython.long, key=tuple,
                   best_key=tuple)
    cpdef _misere_lead(self, _Play p, legal)

    @cython.locals(led=cython.long, best=cython.long, winner=cython.long, strength=dict, following=cython.bint,
                   under=list, a=cython.long)
    cpdef _misere_follow(self, _Play p, legal)
