"""The words cardcore shows: the language in use, gettext catalogs per domain (docs/languages.md).

English is the source language and the default: every message is written in English in the
code, marked with a domain's ``gettext`` (``_``), and looked up in the catalog of the language
in use when it is shown. Records, saves, the library and the protocol's codes stay English;
translation is presentation only.

The language in use is the process's (``set_language``: the command line, the launcher's
setting) unless a context says otherwise (``speaking``: a server renders a table's texts once
per language its clients speak). Catalogs are read on first use per (domain, language), so a
program that stays in English never opens one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from gettext import NullTranslations, translation
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import datetime

T = TypeVar("T")

#: The source language: messages as written in the code, no catalog needed.
ENGLISH = "en"
#: Every language cardcore ships complete catalogs for, by its code, named in itself.
LANGUAGES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia"}

_process_language = ENGLISH
_context_language: ContextVar[str | None] = ContextVar("cardcore_language", default=None)


class UnknownLanguage(ValueError):
    """A language code cardcore has no catalogs for."""

    def __init__(self, code: str) -> None:
        known = ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
        super().__init__(f"unknown language {code!r}: choose one of {known}")


def current() -> str:
    """The language texts are shown in here and now."""
    return _context_language.get() or _process_language


def set_language(code: str) -> None:
    """Make ``code`` the process's language (threads started later see it too)."""
    global _process_language
    _process_language = known(code)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Show texts in ``code`` inside the block only (this thread or task alone)."""
    token = _context_language.set(known(code))
    try:
        yield
    finally:
        _context_language.reset(token)


def in_english(words: Callable[[], T]) -> T:
    """``words()`` said in English, whatever the language in use: what records, saves and the
    library keep (a move's log label, the sheet's variant). Cheaper than ``speaking``: it is
    on every move's way."""
    token = _context_language.set(ENGLISH)
    try:
        return words()
    finally:
        _context_language.reset(token)


def known(code: str) -> str:
    """``code`` if cardcore speaks it (``id``, ``id_ID``, ``id-ID.UTF-8`` all mean ``id``)."""
    if code in LANGUAGES:  # the usual case, on a server's every update
        return code
    short = normal(code)
    if short not in LANGUAGES:
        raise UnknownLanguage(code)
    return short


def spoken(tag: str | None) -> str:
    """The language cardcore speaks to someone who asked for ``tag`` (a client's hello, a
    browser's choice): itself when known, else English (never an error: a client may speak
    a language this server has no catalogs for)."""
    short = normal(tag) if tag else ENGLISH
    return short if short in LANGUAGES else ENGLISH


def normal(code: str) -> str:
    """A locale or tag cut to its language: ``id_ID.UTF-8`` -> ``id``, ``en-GB`` -> ``en``."""
    return code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for: ``CARDCORE_LANG``, else the system locale.

    ``CARDCORE_LANG`` must name a known language; a system locale cardcore does not speak
    (``de_DE``, ``C``, ``POSIX``) means English, as it does for any program without that
    translation. ``LANGUAGE`` is a list (``id:en``); its first known entry wins.
    """
    chosen = environ.get("CARDCORE_LANG")
    if chosen:
        return known(chosen)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for entry in environ.get(variable, "").split(":"):
            if entry and normal(entry) in LANGUAGES:
                return normal(entry)
    return ENGLISH


class Domain:
    """One package's messages: ``_ = Domain("cardcore_casino", "cardcore_casino").gettext``.

    The catalogs are ``<package>/locale/<lang>/LC_MESSAGES/<name>.mo``. A language with no
    catalog in this package, or a message missing from one, shows the English text.
    """

    def __init__(self, name: str, package: str) -> None:
        self.name = name
        self.package = package
        self._catalogs: dict[str, NullTranslations] = {}

    def gettext(self, message: str) -> str:
        language = current()
        if language == ENGLISH:
            return message
        return self.catalog(language).gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        language = current()
        if language == ENGLISH:
            return singular if count == 1 else plural
        return self.catalog(language).ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        language = current()
        if language == ENGLISH:
            return message
        return self.catalog(language).pgettext(context, message)

    def catalog(self, language: str) -> NullTranslations:
        found = self._catalogs.get(language)
        if found is None:
            from importlib.resources import files  # with the first catalog: it costs a start

            localedir = files(self.package) / "locale"
            found = translation(self.name, str(localedir), [language], fallback=True)
            self._catalogs[language] = found
        return found


def number(value: float, digits: int = 0, *, grouping: bool = True) -> str:
    """``value`` as the language in use writes numbers (``1,234.5`` in English, ``1.234,5`` in
    Indonesian), ``digits`` after the point. English is Python's own formatting, so it needs no
    Babel; another language loads Babel on its first number."""
    language = current()
    if language == ENGLISH:
        return f"{value:{',' if grouping else ''}.{digits}f}"
    from babel.numbers import format_decimal

    pattern = ("#,##0" if grouping else "0") + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=language, decimal_quantization=True)


def percent(share: float) -> str:
    """A share (0.25) as a whole percentage in the language in use: ``25%``."""
    language = current()
    if language == ENGLISH:
        return f"{share:.0%}"
    from babel.numbers import format_percent

    return format_percent(share, locale=language)


def day(moment: float) -> str:
    """A time's local day: ``2026-12-01`` in English (as the records write it), else in the
    language's own words (``1 Des 2026``)."""
    import time

    language = current()
    if language == ENGLISH:
        return time.strftime("%Y-%m-%d", time.localtime(moment))
    from babel.dates import format_date

    return format_date(_local(moment), "medium", locale=language)


def day_and_time(moment: float) -> str:
    """A time's local day and minute: ``2026-12-01 14:05`` in English, else the language's
    own (``1 Des 2026 14.05``)."""
    import time

    language = current()
    if language == ENGLISH:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(moment))
    from babel.dates import format_date, format_time

    local = _local(moment)
    return f"{format_date(local, 'medium', locale=language)} {format_time(local, 'short', locale=language)}"


def _local(moment: float) -> datetime.datetime:
    import datetime

    return datetime.datetime.fromtimestamp(moment)


def N_(message: str) -> str:
    """Mark ``message`` for extraction where it is written; it is translated where shown."""
    return message


#: The core's own messages (the command line, the front end, the server's texts).
CORE = Domain("cardcore", "cardcore")
_ = CORE.gettext
ngettext = CORE.ngettext
pgettext = CORE.pgettext
