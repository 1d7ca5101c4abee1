# C types for the compiled player's hand counts (Cython's "augmenting .pxd", as core/engine/state.pxd:
# heuristic.py stays plain Python, and the pure-Python player never reads this file).
import cython


@cython.locals(masks=list, suit_of=list, rank=list, c=cython.long, s=cython.long)
cpdef list _rank_masks(hand, d)

@cython.locals(ranks=list, r=cython.long)
cpdef list _ranks(object mask)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, r=cython.long)
cpdef double _trump_tricks(list ranks)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, i=cython.Py_ssize_t, r=cython.long, higher=cython.long)
cpdef double _side_tricks(list ranks)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, ace=cython.bint, r=cython.long)
cpdef double _no_trump_tricks(list ranks)

@cython.locals(masks=list, known=dict, tricks=cython.double, s=cython.long, size=list)
cpdef double own_tricks(hand, d)

@cython.locals(excess=cython.long)
cpdef double _danger(long suit, long others_below, long mine_below)


# The play's per-decision objects as extension types: built without a generated __init__, their fields
# read as C fields where a local is typed as one.
cdef class _Track:
    cdef public tuple key, tricks
    cdef public list next_seat, unplayed, void
    cdef public object out_seats, table
    cdef public dict opponents, unseen


cdef class _Play:
    cdef public long seat, contractor, trick_size
    cdef public object obs, info, table, trump
    cdef public bint our_contract
    cdef public list out, top, void, next_seat, opponents
    cdef public dict shown


cdef class _Seen:
    cdef public long seat, contractor, leader, sitting_out
    cdef public object phase, contract, nomination, led, open_hand, step, log
    cdef public tuple hand, calls, discards, tricks, current_trick, tricks_won, totals, open_hands
