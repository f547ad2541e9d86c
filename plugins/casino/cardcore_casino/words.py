"""Casino's messages: its gettext domain, shared by the fishing games' engine (docs/languages.md).

Every sentence the engine shows people (labels, log lines, why-not reasons, zone titles and
badges, the rules text) is marked with ``_`` here and read in the language in use.
"""

from __future__ import annotations

from cardcore.language import Domain

DOMAIN = Domain("cardcore_casino", "cardcore_casino")
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext
