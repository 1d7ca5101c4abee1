# C types for the compiled club player's pricing of the calls (an "augmenting .pxd", as club.pxd: call_pricing.py
# stays plain Python, and the pure-Python player never reads this file).  ``_Pricing`` becomes an extension type
# whose fields the auction's inner loop (``_rung_worth``) reads as C fields.
import cython

from fivehundred.bots.evaluation cimport _key


cdef class _Weights:
    # ClubParams' fields (all floats), as C doubles
    cdef public double trick_spread, trick_bias, kitty_tricks, partner_weight, exact_control, shown_weight
    cdef public double opponent_shown, partner_support, raise_support, misere_mid, misere_slope, open_risk, open_leads
    cdef public double open_attack, opponent_called, opponent_bids, joker_trumps, joker_no_trumps
    cdef public double no_trumps_bias, misere_long
    cdef public double partner_misere_risk, misere_worlds, min_gain, takeout_gain, sacrifice, game_bonus, fall_penalty
    cdef public double game_sacrifice, sacrifice_defence, misere_cards, misere_own_worlds, misere_exchange_worlds
    cdef public double misere_bid_worlds, misere_bid_shift

cpdef _weights(params)


cdef class _Pricing:
    cdef public object rules, swamp, slam
    cdef public long hand_size, kitty_size, players, teams, sides, target, overtrick_points, slam_scores, fall_at
    cdef public bint called_partner, win_needs_contract, fall
    cdef public list denomination, priced, side_slot, partner_call, value, tricks, at_least, exact, slam_rung, loss
    cdef public list call_key


@cython.locals(value=cython.long, gain=cython.double, loss=cython.double, all_tricks=cython.double)
cpdef double _worth(contract, double chance, double estimate, long total, _Pricing pricing, params)

@cython.locals(value=cython.long, gain=cython.double, loss=cython.double, all_tricks=cython.double, over=cython.double)
cpdef double _rung_worth(_Pricing pricing, Py_ssize_t rung, double chance, double estimate, long total, double every,
                         double game_bonus, double fall_penalty)

@cython.locals(w=_Weights)
cpdef double _misere_chance(double risk, params)

cpdef double _at_least(double estimate, double tricks, double spread)

@cython.locals(bids=list, to_price=list, a=cython.long, r=cython.long, first=cython.long)
cpdef tuple _offered(legal, long rungs, list priced)

@cython.locals(s=cython.long, call=cython.long, rungs=cython.Py_ssize_t, mine=cython.bint)
cpdef long _support(long seat, partners, list call_key, calls, long key)
cpdef bint _opponent_called(long seat, team_of, list call_key, calls, long key)

@cython.locals(s=cython.long, call=cython.long, rungs=cython.Py_ssize_t, team=cython.long, bids=cython.long)
cpdef long _opponent_bids(long seat, team_of, list call_key, calls)
