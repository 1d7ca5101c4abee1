# C types for the compiled shuffle (Cython's "augmenting .pxd": shuffle.py stays plain Python).
import cython


@cython.locals(deck=list, data=bytes, n=cython.Py_ssize_t, used=cython.Py_ssize_t, i=cython.Py_ssize_t,
               size=cython.ulong, m=cython.ulong, low=cython.ulong, j=cython.Py_ssize_t,
               wide=cython.bint)
cpdef list shuffled(cards, rng)


cpdef bytes _random_bytes(rng, Py_ssize_t n)
