"""A seat's invite: four words a person can read aloud (docs/protocol.md, "Links and codes").

An invite is four words drawn from a fixed list of 2048 plain English words
(``invite_words.txt``, made for cardcore: distinct, 3 to 8 letters, no two that sound
alike), joined by dashes: ``maple-river-stone-tiger``, 44 random bits. It claims its seat
once; the seat's token (the claimer's key for coming back) and the owner's key stay 128
random bits (``seats.new_secret``): nobody reads those aloud.

An invite as typed (any case, spaces, dashes, dots or commas between the words) is
``canonical`` before it is compared: the server compares that, and the client keeps its
seat under it. Anything that is not four words of the list is left as it is: invites made
before words (22 URL-safe characters, case matters) still claim their seats. So the list
stays as it is once invites are out: a word taken out of it would leave the invites that
hold it claimable only as written (lower case, dashes).
"""

from __future__ import annotations

import math
import re
import secrets
from functools import cache
from pathlib import Path

#: Words in an invite.
INVITE_WORDS = 4
_SEPARATORS = re.compile(r"[\s\-_.,;:+/]+")


@cache
def words() -> tuple[str, ...]:
    """The list (2048 distinct words, lower case)."""
    text = (Path(__file__).parent / "invite_words.txt").read_text(encoding="ascii")
    return tuple(text.split())


@cache
def _word_set() -> frozenset[str]:
    return frozenset(words())


def invite_bits() -> float:
    """The random bits in an invite: 4 × log2(2048) = 44."""
    return INVITE_WORDS * math.log2(len(words()))


def new_invite() -> str:
    """Four words drawn by ``secrets``, joined by dashes."""
    return "-".join(secrets.choice(words()) for _ in range(INVITE_WORDS))


def canonical(text: str) -> str:
    """``text`` as the invite it names: four words of the list, in any case and with any
    separators, become ``word-word-word-word``; anything else comes back stripped, as it
    is (an older invite, whose case matters, or a wrong guess)."""
    parts = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if len(parts) == INVITE_WORDS and all(w in _word_set() for w in parts):
        return "-".join(parts)
    return text.strip()

