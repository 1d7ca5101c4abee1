# C types for the compiled players' pricing of an open misère (Cython's "augmenting .pxd", as evaluation.pxd:
# misere_bids.py stays plain Python, and the pure-Python player never reads this file).
import cython

from fivehundred.bots.evaluation cimport _Denomination


@cython.locals(miss=cython.double, lead=cython.double, overtakes=cython.double)
cpdef double under_lead_chance(long below, long above, long defenders, double share)

@cython.locals(term=cython.double, below=cython.double, i=cython.long)
cpdef double at_least_of(long n, long k, double p)

@cython.locals(rank=list, size=cython.long, ranks=list, lowest=cython.long, below=cython.long, above=cython.long,
               forced=cython.double, held_by_one=cython.double, i=cython.Py_ssize_t, r=cython.long,
               under=cython.long, x=cython.long, c=cython.long)
cpdef double suit_forced_chance(kept, held, _Denomination misere, long defenders, double share, bint deep=*)

@cython.locals(chance=cython.double, suit_of=list, s=cython.long, cards=list, c=cython.long, suited=list)
cpdef double no_forcing_chance(held, kept, _Denomination misere, long defenders, double share, bint deep=*)
