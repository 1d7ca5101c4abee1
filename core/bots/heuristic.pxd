# C types for the compiled player's hand counts (Cython's "augmenting .pxd", as core/engine/state.pxd:
# heuristic.py stays plain Python, and the pure-Python player never reads this file).
import cython

from fivehundred.bots.evaluation cimport _danger, _Denomination, _info, _key, _RulesInfo, misere_risk, own_tricks
from fivehundred.bots.situation cimport _as_seen, _card, _Play, _play_of, _Seen, _seen_of, _Track
from fivehundred.engine.state cimport GameState


# The player itself: an extension type (Python classes may subclass it, and do), whose hot methods are
# cpdef with C-typed locals; a subclass overrides them as ever.  Cython compiles no closure in a cpdef
# function (a generator expression, a lambda, an inner function): those methods count in plain loops.
cdef class HeuristicPlayer:
    cdef public long seat
    cdef public object rng, _estimates, _in_play
    cdef public dict _risks
    cdef public _RulesInfo _rules_info
    cdef public _Track _track

    @cython.locals(fixed=tuple, known=tuple, contractor=cython.long, controller=cython.long)
    cpdef _Seen _seen(self, GameState state, long seat)

    @cython.locals(seat=cython.long, info=_RulesInfo)
    cpdef act(self, GameState state, legal)

    @cython.locals(key=tuple)
    cpdef double _misere_risk(self, hand, d, long discards)

    @cython.locals(p=_Play, misere=cython.bint, seen=_Seen)
    cpdef _play(self, long seat, obs, info, legal)

    @cython.locals(n=cython.long, contractor=cython.long, track=_Track, suit_of=list, nxt=list, void=list,
                   unplayed=list, c=cython.long, leader=cython.long, s=cython.long, led=cython.long,
                   done=cython.Py_ssize_t, i=cython.Py_ssize_t,
                   power=list, top=list, opponents=list, ours=cython.bint, out=list, shown=dict, exposed=set,
                   unseen=list, row=list, seen=_Seen, u=cython.long)
    cpdef _Play _situation(self, long seat, obs, _RulesInfo info)

    @cython.locals(seats=list, s=cython.long, _=cython.long)
    cpdef list _remaining(self, _Play p)

    @cython.locals(led=cython.long, power=list, best=cython.long, winner=cython.long, seat=cython.long, c=cython.long,
                   trick=tuple, i=cython.Py_ssize_t)
    cpdef tuple _trick_state(self, _Play p)

    @cython.locals(n=cython.long, named=cython.long)
    cpdef long _strength(self, _Play p, long action, long led)

    @cython.locals(power=list, void=list, short=cython.bint, s=cython.long, r=cython.long, v=cython.long,
                   x=cython.long)
    cpdef bint _can_beat(self, _Play p, seats, long led, long best)

    @cython.locals(s=cython.long)
    cpdef bint _master(self, _Play p, long card)

    @cython.locals(led=cython.long, best=cython.long, winner=cython.long, remaining=list, opponents=list,
                   partner_winning=cython.bint, row=list, winners=list, heights=list, a=cython.long,
                   height=cython.long, i=cython.Py_ssize_t)
    cpdef _follow(self, _Play p, legal)

    @cython.locals(s=cython.long, power=list, mine=cython.long, x=cython.long)
    cpdef long _below(self, _Play p, long card)

    @cython.locals(suit_of=list, power=list, counts=cython.long[5], top=list, c=cython.long, s=cython.long,
                   a=cython.long, mine=cython.long, key=cython.long, best_key=cython.long, trumps=cython.long,
                   master=cython.bint)
    cpdef _cheapest(self, _Play p, legal)

    @cython.locals(hand=list, suit_of=list, void=list, opponents=list, by_suit=list, s=cython.long, c=cython.long,
                   theirs=cython.long, mine=list, cards=list, cash=list, side=list, longest=cython.long,
                   key=tuple, longest_key=tuple, power=list, row=list, i=cython.Py_ssize_t)
    cpdef _lead(self, _Play p, legal)

    @cython.locals(cards=list, c=cython.long, least=cython.double, cost=cython.double, suit_of=list, power=list,
                   contractor=cython.long, s=cython.long, row=list, theirs=list, under=cython.long, key=tuple,
                   best_key=tuple)
    cpdef _misere_lead(self, _Play p, legal)

    @cython.locals(total=cython.double, term=cython.double)
    cpdef double _hand_danger(self, _Play p, hand)

    @cython.locals(suit_of=list, terms=list, fewer=list, c=cython.long, s=cython.long, row=list, mine=cython.long,
                   others=cython.long, own=cython.long, x=cython.long)
    cpdef tuple _danger_terms(self, _Play p, hand)

    @cython.locals(s=cython.long, later=cython.double, row=list, mine=cython.long, higher=cython.long,
                   lower=cython.long, unseen=cython.long, held=cython.long, miss=cython.double, win=cython.double,
                   d=cython.long, x=cython.long, terms=list, fewer=list, suit_of=list, i=cython.Py_ssize_t)
    cpdef double _misere_lead_cost(self, _Play p, long card)

    @cython.locals(led=cython.long, best=cython.long, winner=cython.long, strength=dict, following=cython.bint,
                   under=list, a=cython.long)
    cpdef _misere_follow(self, _Play p, legal)


@cython.locals(x=cython.long)
cpdef bint _any_above(list row, list cards, long power)

@cython.locals(below=cython.long, x=cython.long)
cpdef long _count_below(list row, list cards, long power)

@cython.locals(a=cython.long)
cpdef bint _following(legal, list suit_of, long led)

@cython.locals(known=tuple, out=list, suit_of=list, c=cython.long, mine=bytearray, dropped=cython.Py_ssize_t,
               t=cython.Py_ssize_t, i=cython.Py_ssize_t, played=tuple, s=cython.long, cards=list, kept=list)
cpdef list _unseen_by_suit(seat, _Seen obs, _Track track)

@cython.locals(i=cython.Py_ssize_t, x=cython.long)
cpdef void _drop(list cards, long card)

@cython.locals(void=list, o=cython.long)
cpdef bint _ruffable(_Play p, long s)

@cython.locals(o=cython.long)
cpdef bint _all_void(list void, seats, long suit)

@cython.locals(suit_of=list, rank=list, counts=cython.long[5], c=cython.long, least=cython.double, i=cython.Py_ssize_t,
               s=cython.long, r=cython.long, keep=cython.double, higher=cython.long, x=cython.long,
               value=cython.double, trump=cython.long, cards=list, shown=list)
cpdef _least_useful(hand, _Denomination d, partner_cards=*)

cpdef bint _holds_all(frozenset cards, hand)

cpdef long _led(obs, table)

@cython.locals(won=cython.long, s=cython.long)
cpdef bint _exact_in(obs, _RulesInfo info)

@cython.locals(i=cython.Py_ssize_t, a=object, b=object)
cpdef bint _continues(tricks, known)
