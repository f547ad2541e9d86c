"""Casino for cardcore, and the fishing-game engine that Royal Casino configures.

Modules: ``rules`` (cards as ints, values, Options, the engine's configuration),
``combos`` (memoised subset sums over the table), ``moves`` (legal actions),
``state`` (apply, the deal, zones; the seating it asks), ``parts`` (the state's parts
declared with the kit: export, view, determinize and loading follow), ``load`` (what
loading checks beyond the declaration: the rules), ``scoring``, ``text`` (the rules as
played, in parts a game supplies), ``game`` (the Game classes), ``plugin``.
"""

from cardcore import compiled

__path__ = compiled.path(__name__, __path__)  # its compiled modules first, when built (make native)
