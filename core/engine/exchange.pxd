# C types for the compiled engine (see state.pxd): the split of each hand by suit, once a hand's play begins.
import cython


@cython.locals(by_seat=list, held=list, buckets=list, card=cython.long)
cpdef list _by_suit(list hands, list suit_of)
