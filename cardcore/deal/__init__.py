"""The public path ``cardcore.deal``: plugins written outside the repo import it. The module is
``cardcore.engine.deal`` (docs/design.md, Where things are); this package re-exports it."""
# relayout: keep-file (a package, not a module, so that git follows a branch's changes to
# the old file into the new one when it merges)

from cardcore.engine.deal import *  # noqa: F403
