"""Casino for cardcore, and the fishing-game engine that Royal Casino configures.

Modules: ``rules`` (cards as ints, values, Options, the engine's configuration),
``combos`` (memoised subset sums over the table), ``moves`` (legal actions),
``state`` (apply, the deal, export, view, zones; the seating it asks), ``scoring``,
``text`` (the rules as played, in parts a game supplies), ``load`` (state_from_json: the
JSON's shape, then the rules' checks), ``game`` (the Game classes), ``plugin``.
"""
