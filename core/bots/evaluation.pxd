# C types for the compiled players' hand evaluation (Cython's "augmenting .pxd", as core/engine/state.pxd:
# evaluation.py stays plain Python, and the pure-Python player never reads this file).
import cython



cdef class _Denomination:
    cdef public object trump, table
    cdef public list rank, size
    cdef public dict dangers, throws, holdings


cdef class _RulesInfo:
    cdef public object rules, deck, team_of, misere
    cdef public long players
    cdef public list partners
    cdef public dict denominations, layouts


@cython.locals(masks=cython.long[5], suit_of=list, rank=list, c=cython.long, s=cython.long, r=cython.long)
cpdef list _rank_masks(hand, _Denomination d)

@cython.locals(ranks=list, r=cython.long)
cpdef list _ranks(long mask)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, r=cython.long)
cpdef double _trump_tricks(list ranks)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, i=cython.Py_ssize_t, r=cython.long, higher=cython.long)
cpdef double _side_tricks(list ranks)

@cython.locals(length=cython.Py_ssize_t, tricks=cython.double, ace=cython.bint, r=cython.long)
cpdef double _no_trump_tricks(list ranks)

@cython.locals(masks=list, known=dict, tricks=cython.double, s=cython.long, size=list)
cpdef double own_tricks(hand, _Denomination d)

@cython.locals(jokers=cython.long, card=cython.long)
cpdef long jokers_held(hand)

@cython.locals(excess=cython.long)
cpdef double _danger(long suit, long others_below, long mine_below)

@cython.locals(groups=list, suit_of=list, rank=list, c=cython.long, g=list, r=cython.long, i=cython.Py_ssize_t,
               s=cython.long, x=cython.long)
cpdef list _misere_suits(hand, _Denomination d)

@cython.locals(rank=list, key=cython.long, c=cython.long, r=cython.long)
cpdef long _holding_key(list cards, long suit, _Denomination d)

@cython.locals(memo=cython.long, known=tuple, base=cython.double, best_key=tuple, c=cython.long, relief=cython.double,
               key=tuple)
cpdef tuple _suit_throw(list g, long s, _Denomination d)

@cython.locals(rest=list, groups=list, best_key=tuple, s=cython.long, g=list, throws=list, throw=tuple,
               _=cython.Py_ssize_t)
cpdef list misere_kept(hand, _Denomination d, long discards)

@cython.locals(info=_RulesInfo)
cpdef _RulesInfo _info(rules)

@cython.locals(key=cython.long, size=cython.long, rank=list)
cpdef double _suit_danger(list cards, long suit, _Denomination d)

cpdef double misere_risk(hand, _Denomination d, long discards)

@cython.locals(extra=cython.long, groups=list, s=cython.long)
cpdef long misere_length(hand, _Denomination d, long discards)

cpdef long _key(contract)

@cython.locals(suit_of=list, rank=list, counts=cython.long[5], c=cython.long, least=cython.double, i=cython.Py_ssize_t,
               s=cython.long, r=cython.long, keep=cython.double, higher=cython.long, x=cython.long,
               value=cython.double, trump=cython.long, cards=list, shown=list)
cpdef _least_useful(hand, _Denomination d, partner_cards=*)
