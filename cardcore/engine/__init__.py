"""The engine: cards, deals, seats, the game interface, matches, records as text, replays,
bots, the author's kit and the conformance kit. It does no I/O and imports no service or
application."""

#: cardcore's version, written into every record (``cardcore.__version__`` re-exports it).
__version__ = "0.1.0"
