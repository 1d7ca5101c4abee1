# Types for the compiled engine (Cython's "augmenting .pxd": state.py stays plain Python, and the pure-Python
# engine never reads this file).  The state is an extension type (its fields declared on ``Exchange``,
# exchange.pxd; its bases ``Reading`` and ``Play`` in reading.pxd and play.pxd, which types the trick loop).
import cython

from fivehundred.engine.play cimport Play
from fivehundred.rules.auction cimport closed, next_caller


cdef class GameState(Play):
    # What a bot reads at each decision, as C calls from the compiled bots (core/bots/heuristic.pxd)
    cpdef current_player(self)
    cpdef tuple hand(self, seat)
    cpdef tuple trick_view(self)
    cpdef tuple cards_seen(self, seat)
    # ``other``: the copy, whose private fields it sets as C fields
    @cython.locals(other=GameState)
    cpdef GameState clone(self)
    # The steps of a deal the engine goes through, as C calls.
    cpdef deal(self, rng)
    cpdef _deal_from(self, deck)
    cpdef _start_hand(self, hands, kitty, dead)
    cpdef _open_auction(self)
    cpdef _auction_turns(self, acts, draws)
    cpdef _auction_over(self)
    cpdef _discard_drawn(self, draw)


@cython.locals(offers=list, passed=list, calls=list, n=cython.Py_ssize_t, passes=cython.Py_ssize_t,
               standing=cython.Py_ssize_t, holder=cython.Py_ssize_t, seat=cython.Py_ssize_t, step=cython.Py_ssize_t,
               offered=tuple, call=cython.long, draw=cython.double)
cpdef _uniform_calls(GameState state, list draws)
