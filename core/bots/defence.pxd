# The misère defender compiled as an extension type (an "augmenting .pxd", as heuristic.pxd), so that
# ClubPlayer can be one too.  Its methods stay Python methods of the type.
from fivehundred.bots.heuristic cimport HeuristicPlayer


cdef class MisereDefender(HeuristicPlayer):
    pass
