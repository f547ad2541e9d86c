"""Canasta for cardcore: partnership rummy with two decks and jokers (D24-D47)."""

from cardcore import compiled

__path__ = compiled.path(__name__, __path__)  # its compiled modules first, when built (make native)
