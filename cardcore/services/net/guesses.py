"""Wrong guesses per address: table codes that are not there, keys that are not a seat's.

Codes are short (anyone may watch a table with its code) and keys long, but a client
could still try many; every ``no_table`` and ``bad_secret`` answer is counted against
its address over a sliding window, and an address past the limit is refused
(``rate_limited``) for a while, whichever connection it comes on.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field


@dataclass
class Guesses:
    #: Wrong guesses an address may make within ``window`` seconds (0: no limit).
    limit: int = 30
    window: float = 60.0
    #: How long an address past the limit is refused (seconds).
    lockout: float = 300.0
    _misses: dict[str, deque[float]] = field(default_factory=dict)
    _locked: dict[str, float] = field(default_factory=dict)

    def locked_for(self, address: str, now: float | None = None) -> float:
        """Seconds the address is still refused (0: it may try)."""
        until = self._locked.get(address)
        if until is None:
            return 0.0
        left = until - (time.monotonic() if now is None else now)
        if left <= 0:
            del self._locked[address]
            return 0.0
        return left

    def missed(self, address: str, now: float | None = None) -> bool:
        """Count a wrong guess; True when it puts the address past the limit."""
        if not self.limit:
            return False
        now = time.monotonic() if now is None else now
        misses = self._misses.setdefault(address, deque())
        misses.append(now)
        while misses and misses[0] <= now - self.window:
            misses.popleft()
        if len(misses) <= self.limit:
            return False
        del self._misses[address]
        self._locked[address] = now + self.lockout
        return True

    def forget_old(self, now: float | None = None) -> None:
        """Drop the addresses with nothing in the window (memory stays bounded)."""
        now = time.monotonic() if now is None else now
        for address in [a for a, m in self._misses.items() if not m or m[-1] <= now - self.window]:
            del self._misses[address]
        for address in [a for a, until in self._locked.items() if until <= now]:
            del self._locked[address]
