"""Royal Casino's messages: its gettext domain (docs/languages.md). Its play is the fishing
engine's, whose labels, log lines and zones are Casino's messages (``cardcore_casino.words``);
here are Royal Casino's own: its description, options and parts of the rules text.
"""

from __future__ import annotations

from cardcore.language import Domain

DOMAIN = Domain("cardcore_royal_casino", "cardcore_royal_casino")
_ = DOMAIN.gettext
