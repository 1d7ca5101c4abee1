# C types for the compiled club player (an "augmenting .pxd", as heuristic.pxd: club.py stays plain Python, and
# the pure-Python player never reads this file); its pricing's types are call_pricing.pxd's.
import cython

from fivehundred.bots.call_pricing cimport (_at_least, _misere_chance, _offered, _opponent_bids, _opponent_called,
                                            _Pricing, _rung_worth, _support, _Weights, _weights, _worth)
from fivehundred.bots.defence cimport MisereDefender
from fivehundred.bots.evaluation cimport _key, _RulesInfo, jokers_held, own_tricks
from fivehundred.bots.situation cimport _as_seen, _Seen


cdef class ClubPlayer(MisereDefender):
    cdef public object params, _own, _side_of, _worths, _leads, _plain, _fellows, _throws, _auction, _misere_priced
    cdef public dict _side
    cdef public bint searches

    @cython.locals(key=tuple, cache=dict)
    cpdef double _own_tricks(self, hand, d)

    @cython.locals(memo_key=tuple, estimate=cython.double)
    cpdef double side_tricks(self, long seat, obs, _RulesInfo info, _Pricing pricing, contract, d, params)

    @cython.locals(estimate=cython.double, seen=_Seen)
    cpdef double _side_estimate(self, long seat, obs, _RulesInfo info, _Pricing pricing, contract, d, params)

    @cython.locals(own=cython.double, estimate=cython.double, helpers=cython.long, others=cython.long,
                   share=cython.double, bias=cython.double, kitty=cython.double, weight=cython.double,
                   partner_plays=cython.bint, rest=cython.double, w=_Weights)
    cpdef double estimate(self, long seat, hand, calls, _RulesInfo info, _Pricing pricing, contract, d, params,
                          shown=*)

    @cython.locals(chance=cython.double, estimate=cython.double)
    cpdef tuple make_chance(self, long seat, obs, _RulesInfo info, _Pricing pricing, contract, params)

    @cython.locals(discards=cython.long, risk=cython.double)
    cpdef double misere_danger(self, hand, _RulesInfo info, _Pricing pricing, contract, params)

    @cython.locals(total=cython.long, depends=tuple, worth=dict, denomination=list, side_slot=list,
                   spread=cython.double, game_bonus=cython.double, fall_penalty=cython.double,
                   scale=cython.double, estimates=list, everies=list, slot=cython.Py_ssize_t, r=cython.Py_ssize_t,
                   chance=cython.double, estimate=cython.double, tricks=cython.long, every=cython.double,
                   w=_Weights)
    cpdef dict call_worths(self, long seat, obs, _RulesInfo info, _Pricing pricing, params, rungs)
