"""Canasta's messages: its gettext domain (docs/languages.md).

Every sentence the game shows people (labels, log lines, why-not reasons, zone titles and
badges, the rules text) is marked with ``_`` and read in the language in use.
"""

from __future__ import annotations

from cardcore.language import Domain

DOMAIN = Domain("cardcore_canasta", "cardcore_canasta")
_ = DOMAIN.gettext
