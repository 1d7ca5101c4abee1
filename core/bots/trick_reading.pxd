# C types for the compiled players' reading of the play (Cython's "augmenting .pxd": trick_reading.py stays plain
# Python, and the pure-Python player never reads this file).  ``TrickReader`` is an extension type holding the
# player's fields (Python classes may subclass it, and do); its hot methods are cpdef with C-typed locals, and a
# subclass overrides them as ever.  Cython compiles no closure in a cpdef function (a generator expression, a
# lambda, an inner function): those methods count in plain loops.
import cython

from fivehundred.bots.evaluation cimport _RulesInfo
from fivehundred.bots.situation cimport _as_seen, _card, _Play, _play_of, _Seen, _Track
from fivehundred.engine.kernel cimport trick_winner
from fivehundred.engine.reading cimport trick_voids


cdef class TrickReader:
    cdef public long seat
    cdef public object rng, _estimates, _in_play
    cdef public dict _risks
    cdef public _RulesInfo _rules_info
    cdef public _Track _track

    @cython.locals(n=cython.long, contractor=cython.long, track=_Track, suit_of=list, nxt=list, void=list,
                   unplayed=list, c=cython.long, leader=cython.long, s=cython.long, plain=cython.bint,
                   compulsory=cython.bint, done=cython.Py_ssize_t, i=cython.Py_ssize_t,
                   power=list, top=list, opponents=list, ours=cython.bint, out=list, shown=dict, exposed=set,
                   unseen=list, row=list, seen=_Seen, u=cython.long)
    cpdef _Play _situation(self, long seat, obs, _RulesInfo info)

    @cython.locals(seats=list, s=cython.long, _=cython.long)
    cpdef list _remaining(self, _Play p)

    @cython.locals(led=cython.long, best=cython.long, winner=cython.long)
    cpdef tuple _trick_state(self, _Play p)

    @cython.locals(n=cython.long, named=cython.long)
    cpdef long _strength(self, _Play p, long action, long led)

    @cython.locals(power=list, void=list, short=cython.bint, s=cython.long, r=cython.long, v=cython.long,
                   x=cython.long, hidden=list)
    cpdef bint _can_beat(self, _Play p, seats, long led, long best)

    @cython.locals(s=cython.long, row=list, r=cython.long, c=cython.long)
    cpdef bint _master(self, _Play p, long card)

    @cython.locals(r=cython.long, c=cython.long, suit_of=list, follows=cython.bint, ruffs=cython.bint)
    cpdef bint _laid_out_ruffs(self, _Play p, long s)

    @cython.locals(s=cython.long, power=list, mine=cython.long, x=cython.long)
    cpdef long _below(self, _Play p, long card)


@cython.locals(x=cython.long)
cpdef bint _any_above(list row, list cards, long power)

@cython.locals(suit_of=list, power=list, follows=cython.bint, c=cython.long)
cpdef bint _beats(_Play p, cards, long led, long best)

@cython.locals(below=cython.long, x=cython.long)
cpdef long _count_below(list row, list cards, long power)

@cython.locals(a=cython.long)
cpdef bint _following(legal, list suit_of, long led)

@cython.locals(known=tuple, out=list, suit_of=list, c=cython.long, mine=bytearray, dropped=cython.Py_ssize_t,
               t=cython.Py_ssize_t, i=cython.Py_ssize_t, played=tuple, s=cython.long, cards=list, kept=list)
cpdef list _unseen_by_suit(seat, _Seen obs, _Track track)

@cython.locals(i=cython.Py_ssize_t, x=cython.long)
cpdef void _drop(list cards, long card)

@cython.locals(void=list, o=cython.long)
cpdef bint _ruffable(_Play p, long s)

@cython.locals(o=cython.long)
cpdef bint _all_void(list void, seats, long suit)

cpdef bint _holds_all(frozenset cards, hand)

cpdef long _led(obs, table)

@cython.locals(won=cython.long, s=cython.long)
cpdef bint _exact_in(obs, _RulesInfo info)

@cython.locals(i=cython.Py_ssize_t, a=object, b=object)
cpdef bint _continues(tricks, known)
