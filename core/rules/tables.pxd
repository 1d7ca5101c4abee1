# Types for the compiled play tables (Cython's "augmenting .pxd": tables.py stays plain Python).  Follow suit, the
# rule the engine's play loop asks at every card a follower plays, is a C function, which play.pxd cimports (the
# hand by suit a list; the cards held a list, or the play kernel's mask).

cpdef follow_suit(list hand, held, Py_ssize_t led, bint jokers_compulsory)
