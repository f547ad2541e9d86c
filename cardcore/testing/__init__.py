"""The public path ``cardcore.testing``: plugins written outside the repo import it. The module is
``cardcore.engine.testing`` (docs/design.md, Where things are); this package re-exports it."""
# relayout: keep-file (a package, not a module, so that git follows a branch's changes to
# the old file into the new one when it merges)

from cardcore.engine.testing import *  # noqa: F403
