"""The public path ``cardcore.game``: plugins written outside the repo import it. The module is
``cardcore.engine.game`` (docs/design.md, Where things are); this package re-exports it."""
# relayout: keep-file (a package, not a module, so that git follows a branch's changes to
# the old file into the new one when it merges)

from cardcore.engine.game import *  # noqa: F403
