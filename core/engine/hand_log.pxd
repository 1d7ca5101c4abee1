# Types for the compiled hand record (Cython's "augmenting .pxd": hand_log.py stays plain Python).  ``Trick`` and
# ``HandLog`` are extension types whose fields are C fields (public: everything reads the record), which the engine's
# play (play.pxd) and hand set-up (state.pxd) cimport to make and read them without Python's generic calls.
import cython


cdef class Trick:
    cdef public object leader, cards, winner, named, follow_names


cdef class HandLog:
    cdef public object number, dealer, hands, kitty, dead, misdeal, calls, contract, contractor, discards, discarders
    cdef public object nomination, nominated, played_out, discards_owed, aside, steps, tricks, tricks_won, scores
    cdef public object totals, outcome


@cython.locals(log=HandLog)
cpdef HandLog new_log(number, dealer, list hands, list kitty, list dead)
