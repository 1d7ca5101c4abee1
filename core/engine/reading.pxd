# The compiled engine's declaration of ``Reading`` (reading.py), a base of ``GameState``: an extension type
# with no fields of its own (exchange.pxd declares them on ``Exchange``).
from fivehundred.engine.exchange cimport Exchange


cdef class Reading(Exchange):
    pass
