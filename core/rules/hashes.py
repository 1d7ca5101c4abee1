"""The content hashes that shipped rulesets had before a change that leaves their play as it was.

A record names its ruleset's ``content_hash``; a change of a shipped ruleset's prose (its ``source``, its
``description``) changes the hash, and every record made before would then fail ``validate``'s check.  So
``Ruleset.content_hash`` gives, for content listed here (by the hash it computes now), the hash it had: the
rulesets cited their sources by file names of the project's notes until they cited them by title (“500
(juego de cartas)”, …); nothing else changed.  A change of any other field makes a new hash, as before.
"""

from __future__ import annotations

FORMER_HASHES: dict[str, str] = {
    "4df502bbff14d960": "d61a4591f0d1e6f0",  # american-1904
    "7b1aae1b1d063b7c": "e1d9503415bb2703",  # avondale-us
    "197d660cf6143efb": "d59044f1b9aa016f",  # canadian
    "ecd8f54e9e1d5c49": "6d6b2d43250fd652",  # five-handed
    "775bbd0c7517f861": "afc740f3c90b513f",  # french-canadian
    "08a6f2e924521627": "871feb20a44aa129",  # nullo
    "61c6b177b9505e78": "924ca7ec4892fea0",  # pagat-australian
    "d492c0e08a7b6f61": "2b572d19db3cf233",  # perfect
    "8718e1d025f9df95": "137ced169537d795",  # six-handed-individual
    "f70b8611f2bf5b33": "77e562852c229804",  # six-handed-three-teams
    "71a82c47663739dc": "0939f2676253086c",  # six-handed-two-jokers
    "fc1250245d882e07": "74704bc59271e7aa",  # six-handed
    "2007b96e2ac763c0": "8d8a97fae972abca",  # three-handed-dead-hand
    "c0f8a3e0fd9d12df": "00d948465b29b987",  # three-handed
    "feaba82f6ad18a5f": "ed94ef7310cb78b3",  # two-handed
}
"""The hash a shipped ruleset's content computes now → the hash its records carry."""
