# C types for the compiled players' reading of the play (Cython's "augmenting .pxd", as core/engine/state.pxd:
# situation.py stays plain Python, and the pure-Python player never reads this file).
import cython

from fivehundred.bots.evaluation cimport _RulesInfo


# The play's per-decision objects as extension types: built without a generated __init__, their fields
# read as C fields where a local is typed as one.
cdef class _Track:
    cdef public tuple key
    cdef public bint misere, exact, void_plain, void_compulsory
    cdef public object log, contract
    cdef public frozenset laid_out
    cdef public object tricks
    cdef public list next_seat, unplayed, void, suit_of, power
    cdef public object out_seats, table
    cdef public dict opponents, unseen


cdef class _Seen:
    cdef public long seat, contractor, leader, sitting_out
    cdef public object phase, contract, nomination, led, open_hand, step, log
    cdef public tuple hand, calls, discards, tricks, current_trick, tricks_won, totals, open_hands


cdef class _Play:
    cdef public long seat, contractor, trick_size
    cdef public _Seen obs
    cdef public object info, table, trump
    cdef public bint our_contract, misere, exact
    cdef public list out, top, void, next_seat, opponents, suit_of, power
    cdef public dict shown
    cdef public tuple dangers


@cython.locals(p=_Play)
cpdef _Play _play_of(long seat, _Seen obs, _RulesInfo info, _Track track, trump, long contractor, bint our_contract, list out,
                      list top, list void, list next_seat, long trick_size, list opponents, dict shown)

@cython.locals(o=_Seen)
cpdef _Seen _seen_of(long seat, phase, tuple hand, tuple calls, contract, long contractor, nomination, tuple discards,
                      tuple tricks, tuple current_trick, led, long leader, tuple tricks_won, tuple totals, open_hand,
                      tuple open_hands, long sitting_out, log)

cpdef _Seen _as_seen(obs)

cpdef long _card(long action)
