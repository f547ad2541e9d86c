"""Casino's messages: its gettext domain, shared by the fishing games' engine (docs/languages.md).

Every sentence the engine shows people (labels, log lines, why-not reasons, zone titles and
badges, the rules text) is marked with ``_`` here and read in the language in use.
"""

from __future__ import annotations

from cardcore.language import N_, Domain

DOMAIN = Domain("cardcore_casino", "cardcore_casino")
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext

#: The score rows' keys as the score sheet words them (the key, "_" as a space), for the
#: front ends to look up with ``Game.translate``; Royal Casino's rows share them.
SHEET_WORDS = (N_("cards"), N_("spades"), N_("big casino"), N_("little casino"), N_("aces"),
               N_("sweeps"))
