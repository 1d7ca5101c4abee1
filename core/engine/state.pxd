# Types for the compiled engine (Cython's "augmenting .pxd": state.py stays plain Python, and the pure-Python
# engine never reads this file).  The state is an extension type (its fields declared on ``Exchange``,
# exchange.pxd); the hottest loop gets C integers for seats, cards and trick strengths, and the lists it
# indexes and pops, so that Cython indexes them without Python's generic calls.
import cython

from fivehundred.engine.exchange cimport Exchange


cdef class GameState(Exchange):
    # What a bot reads at each decision, as C calls from the compiled bots (core/bots/heuristic.pxd)
    cpdef current_player(self)
    cpdef tuple hand(self, seat)
    cpdef tuple trick_view(self)
    cpdef tuple cards_seen(self, seat)


@cython.locals(suit_of=list, power=list, buckets=list, held=list, nxt=tuple, size=cython.Py_ssize_t,
               unled=list, log_tricks=list, won=list, track_unled=cython.bint, plain=cython.bint,
               hand_size=cython.Py_ssize_t, tricks_left=cython.Py_ssize_t, first_left=cython.Py_ssize_t,
               seat=cython.Py_ssize_t, hand=list, cards=list, jokers=list, others=cython.Py_ssize_t,
               i=cython.Py_ssize_t, n=cython.Py_ssize_t, s=cython.Py_ssize_t, card=cython.long,
               led=cython.long, row=list, best=cython.long, winner=cython.Py_ssize_t,
               leader=cython.Py_ssize_t, trick=list, pool=list, strength=cython.long, draw=cython.double, _=cython.Py_ssize_t)
cpdef _uniform_tricks(state, list draws)


@cython.locals(offers=tuple, next_seat=tuple, passed=list, calls=list, n=cython.Py_ssize_t, passes=cython.Py_ssize_t,
               standing=cython.Py_ssize_t, holder=cython.Py_ssize_t, seat=cython.Py_ssize_t, step=cython.Py_ssize_t,
               offered=tuple, call=cython.long, draw=cython.double)
cpdef _uniform_calls(state, list draws)


@cython.locals(deck=list, data=bytes, n=cython.Py_ssize_t, used=cython.Py_ssize_t, i=cython.Py_ssize_t,
               size=cython.ulong, m=cython.ulong, low=cython.ulong, j=cython.Py_ssize_t,
               wide=cython.bint)
cpdef list _shuffled(cards, rng)


@cython.locals(trick=object)
cdef _trick(leader, list cards, winner, named, follow_names)

cdef void _take(list cards, card)
