# C types for the compiled players' play of a trump or no-trump contract (Cython's "augmenting .pxd":
# card_play.py stays plain Python, and the pure-Python player never reads this file).
import cython

from fivehundred.bots.evaluation cimport _RulesInfo, jokers_held
from fivehundred.bots.misere_play cimport MiserePlay
from fivehundred.bots.situation cimport _card, _Play, _Seen
from fivehundred.bots.trick_reading cimport _all_void, _exact_in, _following, _ruffable


cdef class CardPlay(MiserePlay):
    @cython.locals(p=_Play, misere=cython.bint, seen=_Seen)
    cpdef _play(self, long seat, obs, info, legal)

    @cython.locals(led=cython.long, best=cython.long, winner=cython.long, remaining=list, opponents=list,
                   partner_winning=cython.bint, row=list, winners=list, heights=list, a=cython.long,
                   height=cython.long, i=cython.Py_ssize_t, second=cython.bint)
    cpdef _follow(self, _Play p, legal)

    @cython.locals(partners=list)
    cpdef bint _ducks_a_sure_winner(self, _Play p, long a, long led, legal, long best, list remaining,
                                    list opponents)

    @cython.locals(i=cython.Py_ssize_t)
    cpdef long _cover(self, _Play p, list winners, legal)

    @cython.locals(row=list, suit_of=list, over=cython.long, c=cython.long)
    cpdef long _trumps_over(self, _Play p, long trump, long height)

    @cython.locals(suit_of=list, power=list, counts=cython.long[5], top=list, c=cython.long, s=cython.long,
                   a=cython.long, mine=cython.long, key=cython.long, best_key=cython.long, trumps=cython.long,
                   master=cython.bint, stopper=cython.bint, short=cython.long)
    cpdef _cheapest(self, _Play p, legal)

    @cython.locals(hand=list, suit_of=list, void=list, opponents=list, by_suit=list, s=cython.long, c=cython.long,
                   theirs=cython.long, mine=list, cards=list, cash=list, side=list, longest=cython.long,
                   key=tuple, longest_key=tuple, power=list, row=list, i=cython.Py_ssize_t, kept=cython.bint,
                   master=cython.bint)
    cpdef _lead(self, _Play p, legal)

    @cython.locals(suit_of=list, row=list, s=cython.long, low=cython.long, a=cython.long, partner=cython.long,
                   least=cython.long, best=cython.long, c=cython.long)
    cpdef long _under_partners_card(self, _Play p, long lead, legal)

    cpdef bint _keeps_trumps(self, long mine, long theirs, bint master, bint contractor)
