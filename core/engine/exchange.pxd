# C types for the compiled engine (see state.pxd): the split of each hand by suit, once a hand's play begins.
import cython


@cython.locals(by_seat=list, held=list, buckets=list, card=cython.long, suit=cython.Py_ssize_t)
cpdef list _by_suit(list hands, list suit_of)


cdef class Exchange:
    # Compiled, the state is an extension type: its attributes are C fields (a slot read through Python's
    # generic attribute lookup costs some 140 instructions).  Declared here, on the base, since the
    # exchange steps read the whole state; ``GameState`` adds none.  Public: plugins, bots and tests read them.
    cdef public object _barred, _bidding, _buckets, _covered, _deck_order, _decided_by, _follow_names
    cdef public object _held, _leader, _led, _legal, _legal_step, _named, _next, _open, _open_hand_shown, _out
    cdef public object _power_led, _redeals, _reuse_deck, _side, _sitting_out, _step, _suit_of, _table, _trick
    cdef public object _trick_size, _turn, _unled, _won, dealer, deals, hands_log, misere_play_out, phase
    cdef public object result, rules, step, totals
    # The exchange's steps a deal goes through, as C calls from the engine (state.pxd, play.pxd).
    cpdef _take_kitty(self, contractor, contract)
    cpdef _discards_due(self)
    cpdef _discarded(self, seat, card)
    cpdef _advance(self)
    cpdef _to_step(self, steps)
