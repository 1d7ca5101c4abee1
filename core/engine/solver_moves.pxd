# C types for the solver's tables and moves (Cython's "augmenting .pxd": solver_moves.py keeps its own
# ``cython.locals``): ``Moves`` is an extension type whose C fields and methods are declared here, so that the
# search (solver_search.py, ``Search(Moves)``) cimports it and reads its arrays and calls its methods as C.


cdef class Moves:
    # The hand's play tables (from the play kernel): each card's suit, its power in a trick led in each suit
    # (``led * 64 + card``), the card a dummy's card covers, the de Bruijn table of ``low``/``high``, each suit's
    # cards, whether its touching cards play alike, each seat's side and the seat after it.
    cdef int suit[64]
    cdef int power[256]
    cdef unsigned long long under[64]
    cdef int bits[64]
    cdef unsigned long long suit_mask[5]
    cdef int mergeable[5]
    cdef int on_side[8]
    cdef int next_seat[8]
    # The position: each seat's hand, tricks won, each card's holder (1 + seat) and its place among the cards left
    # (``Search.key``), the cards still in play.
    cdef unsigned long long hands[8]
    cdef int won[8]
    cdef unsigned long long owner[64]
    cdef int rank_at[64]
    cdef unsigned long long present
    cdef int played, unled
    # The bounds' strongest cards per suit led (``top``), the plies' moves, a ply's scratch.
    cdef int tops[12]
    cdef int moves[5120]
    cdef int scratch[256]
    cdef int danger[5]
    cdef unsigned long long free_mask, joker_mask, cover_mask, crossing, everywhere
    cdef int players, hand_size, trick_size
    cdef bint compulsory, any_time, named_follow, ends_early, check, relative, quick, lows, key_unled
    cdef object lead_suits

    cdef inline int low(self, unsigned long long x) noexcept:
        return self.bits[((x & -x) * 0x03F79D71B4CB0A89ULL) >> 58]

    cdef inline int high(self, unsigned long long x) noexcept:
        x |= x >> 1
        x |= x >> 2
        x |= x >> 4
        x |= x >> 8
        x |= x >> 16
        x |= x >> 32
        return self.bits[((x ^ (x >> 1)) * 0x03F79D71B4CB0A89ULL) >> 58]

    cdef inline int count(self, unsigned long long x) noexcept:
        x = x - ((x >> 1) & 0x5555555555555555ULL)
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
        return (x * 0x0101010101010101ULL) >> 56

    cdef inline bint touches(self, int b, int prev) except *
    cdef int leads(self, int seat, int base) except *
    cdef int lowest(self, unsigned long long cards, int led) except *
    cdef int count_under(self, unsigned long long cards, int led, int p) except *
    cdef int misere_leads(self, int nl) except *
    cdef int misere_throws(self, int nl) except *
    cdef bint followed(self, int seat, int s) except *
    cdef int joker_leads(self, int seat, int base, int n, unsigned long long free, only_jokers) except *
    cdef int follows(self, int seat, int led, int best, int winner, int base) except *
    cdef int sort(self, int start, int count, int led) except *
    cdef int copy(self, int start, int count, int base, int n) except *
