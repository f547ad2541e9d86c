"""Casino for cardcore, and the fishing-game engine that Royal Casino configures.

Modules: ``rules`` (cards as ints, values, Options, the engine's configuration),
``combos`` (memoised subset sums over the table), ``moves`` (legal actions),
``state`` (apply, the deal, export, view, zones), ``scoring``, ``text`` (the rules
as played), ``game`` (the Game classes and state_from_json), ``plugin``.
"""
