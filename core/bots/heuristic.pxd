# C types for the compiled player's decisions before the play (Cython's "augmenting .pxd": heuristic.py stays
# plain Python, and the pure-Python player never reads this file).  The play's methods and the player's fields
# are declared on its bases: card_play.pxd, misere_play.pxd, trick_reading.pxd.
import cython

from fivehundred.bots.card_play cimport CardPlay
from fivehundred.bots.evaluation cimport _danger, _Denomination, _info, _key, _least_useful, _RulesInfo, misere_risk, own_tricks
from fivehundred.bots.situation cimport _as_seen, _card, _Play, _play_of, _Seen, _seen_of, _Track
from fivehundred.engine.state cimport GameState


cdef class HeuristicPlayer(CardPlay):
    @cython.locals(fixed=tuple, known=tuple, contractor=cython.long, controller=cython.long)
    cpdef _Seen _seen(self, GameState state, long seat)

    @cython.locals(seat=cython.long, info=_RulesInfo)
    cpdef act(self, GameState state, legal)

    @cython.locals(key=tuple)
    cpdef double _misere_risk(self, hand, d, long discards)
