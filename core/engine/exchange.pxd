# C types for the compiled engine (see state.pxd): the split of each hand by suit, once a hand's play begins.
import cython


@cython.locals(by_seat=list, held=list, buckets=list, card=cython.long, suit=cython.Py_ssize_t)
cpdef list _by_suit(list hands, list suit_of)


cdef class Exchange:
    # Compiled, the state is an extension type: its attributes are C fields (a slot read through Python's
    # generic attribute lookup costs some 140 instructions).  Declared here, on the base, since the
    # exchange steps read the whole state; ``GameState`` adds none.
    # The public fields: the game's own, read (and some written) by plugins, bots, tools and tests.
    cdef public object dealer, deals, hands_log, misere_play_out, phase, result, rules, step, totals
    # Read-only from Python: the hand's cards, the auction in progress, the tricks won, the play's memory of the
    # trick, read (and changed in place: a card moved, a hand laid out, the tricks given) by the engine's own
    # modules that stay Python in the compiled build (effects, illegal, observation) and by the kernel, whose
    # ``state`` is untyped.  Everything else reads the state's public API (reading.py).
    cdef readonly object _bidding, _buckets, _covered, _decided_by, _follow_names, _held, _leader, _sitting_out
    cdef readonly object _unled, _won
    # Private: reached only by code typed with the state's class (its methods, ``_tricks``, ``_uniform_calls``).
    cdef object _barred, _deck_order, _led, _legal, _legal_step, _named, _next, _open, _open_hand_shown, _out
    cdef object _power_led, _redeals, _reuse_deck, _side, _step, _suit_of, _table, _trick, _trick_size, _turn
    # The exchange's steps a deal goes through, as C calls from the engine (state.pxd, play.pxd).
    cpdef _take_kitty(self, contractor, contract)
    cpdef _discards_due(self)
    cpdef _discarded(self, seat, card)
    cpdef _advance(self)
    cpdef _to_step(self, steps)
