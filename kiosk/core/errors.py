"""The one family of errors the core and the storage layer raise.

Core and storage raise; only the CLI and the UI decide what to show. Every message says what
happened, to which file or word, and what to do about it. An ``InputError`` also carries its facts
(the character, its position, the word, the alphabet) as attributes, so that a screen can say it
in the players' language; its English message is for the command line::

    KioskError
    ├── InputError            a player's entry cannot be judged (decided before any lookup)
    │   ├── InvalidCharacterError   a character that is not a letter of the pack's alphabet
    │   ├── TileError               letters that make no tile there (Catalan Q without U)
    │   ├── WordLengthError         too short, or longer than the pack allows (in tiles)
    │   └── WordCountError          no words, or more than the station allows
    ├── PackError             a lexicon pack cannot be used; the station keeps its last good one
    │   ├── PackCorruptError        damaged, truncated or appended to
    │   │   └── NotAPackError           missing, unreadable, or a file of another kind
    │   ├── PackVersionError        a format or normaliser version this build does not read
    │   ├── PackSignatureError      unsigned, unknown signer or a signature that does not verify
    │   └── PackEditionError        a word set that is not the edition a division or recipe expects
    ├── EditionTableError     a table of known editions that cannot be read, or contradicts another
    ├── SourceError           an organiser's word-list file or recipe cannot be read
    │   └── SourceLinesError        lines of a word list that are not words (a finding, not a mistake)
    ├── ConfigError           a station configuration file is wrong
    ├── PinError              a judge PIN that cannot be set, or a stored PIN hash that cannot be read
    ├── StorageError          the challenge log cannot be written or read
    └── OutputError           a file a command would write would destroy another, or cannot be written
"""

from __future__ import annotations

from kiosk.core.wording import Text, Wording, marked

__all__ = [
    "ConfigError",
    "EditionTableError",
    "InputError",
    "InvalidCharacterError",
    "KioskError",
    "NotAPackError",
    "OutputError",
    "PackCorruptError",
    "PackEditionError",
    "PackError",
    "PackSignatureError",
    "PackVersionError",
    "PinError",
    "SourceError",
    "SourceLinesError",
    "StorageError",
    "TileError",
    "WordCountError",
    "WordLengthError",
]


class KioskError(Exception):
    """Root of every error the kiosk and the pack builder raise on purpose.

    ``KioskError(marked("cannot read {path}: {detail}"), path=..., detail=...)`` keeps the message
    id and its values (``wording``), so that a screen says it in the station's language; the
    error's text (``str``) is the English. A message given already filled is English only; a
    ``Wording`` is kept as it is.

    ``summary`` says in a few words what kind of problem it is, for a screen in another language
    when the message itself was written whole (``wording`` then gives the summary in the screen's
    language and the English after it).
    """

    summary = marked("Something went wrong")

    def __init__(self, message: Text = "", /, **values: object) -> None:
        super().__init__(
            message if isinstance(message, Wording) and not values else Wording(str(message), **values)
        )

    @property
    def wording(self) -> Wording:
        """What went wrong, as the catalogue can say it in another language."""
        said = self.args[0] if self.args else ""
        if isinstance(said, Wording) and (said.values or said.message != str(said)):
            return said  # a message id and its values
        return Wording.summed_up(str(said), type(self).summary)


class InputError(KioskError):
    """A challenge entry that cannot be judged; the whole entry is refused before any lookup.

    ``word`` is the word as typed (empty when the problem is the whole entry) and ``alphabet``
    the name of the pack's alphabet profile (``kiosk.core.words.alphabet``).
    """

    def __init__(self, message: Text, /, *, word: str = "", alphabet: str = "english") -> None:
        super().__init__(message)
        self.word = word
        self.alphabet = alphabet

    summary = marked("This entry cannot be judged")


class InvalidCharacterError(InputError):
    """A character that is not a letter of the pack's alphabet (nor a fold of one): ``character``
    at ``position`` (from 1) of ``word``."""

    def __init__(
        self,
        message: Text,
        /,
        *,
        character: str = "",
        position: int = 0,
        word: str = "",
        alphabet: str = "english",
    ) -> None:
        super().__init__(message, word=word, alphabet=alphabet)
        self.character = character
        self.position = position


class TileError(InputError):
    """Letters that are no tile of the alphabet where they stand (Catalan Q without U, Y without N):
    the letters from ``position`` (from 1) of ``word`` cannot be read as tiles."""

    def __init__(self, message: Text, /, *, position: int, word: str, alphabet: str) -> None:
        super().__init__(message, word=word, alphabet=alphabet)
        self.position = position

    summary = marked("A character that is not a letter")


class WordLengthError(InputError):
    """A word shorter than two tiles or longer than the pack allows: ``tiles`` it has (the fewest
    it can be read as when too long, the most when too short) against ``limit``."""

    def __init__(
        self, message: Text, /, *, word: str = "", tiles: int = 0, limit: int = 0, alphabet: str = "english"
    ) -> None:
        super().__init__(message, word=word, alphabet=alphabet)
        self.tiles = tiles
        self.limit = limit

    summary = marked("A word too short or too long")


class WordCountError(InputError):
    """No words at all, or more words than one challenge may hold."""

    summary = marked("Too few or too many words")


class PackError(KioskError):
    """A lexicon pack that must not be used for judging."""

    summary = marked("This lexicon pack cannot be used")


class PackCorruptError(PackError):
    """The pack's bytes are not what its builder wrote."""

    summary = marked("The lexicon pack is damaged")


class NotAPackError(PackCorruptError):
    """No pack at all: the file is missing, a folder, unreadable, or of another kind (a word list...)."""

    summary = marked("This file is not a lexicon pack")


class PackVersionError(PackError):
    """The pack was written by a builder whose format this station does not read."""

    summary = marked("The lexicon pack was built for another version of the station")


class PackSignatureError(PackError):
    """The pack's signature is missing, unknown or wrong for the trusted keys configured."""

    summary = marked("The lexicon pack's signature is not trusted")


class PackEditionError(PackError):
    """The pack verifies, but its word set is not the edition a division or a recipe expects."""

    summary = marked("The lexicon pack is not the expected edition")


class EditionTableError(KioskError):
    """A table of known editions (built-in or an organiser's) is malformed or contradicts another."""

    summary = marked("The table of known editions cannot be used")


class SourceError(KioskError):
    """An organiser's word list or recipe is malformed."""

    summary = marked("A word list cannot be read")


class SourceLinesError(SourceError):
    """Lines of a word list that are not words: the build ran and found them."""

    summary = marked("A word list has lines that are not words")


class ConfigError(KioskError):
    """A station configuration file is malformed or names something that does not exist."""

    summary = marked("The station's configuration is wrong")


class PinError(KioskError):
    """A judge PIN that is too short or holds spaces, or a stored PIN hash this kiosk cannot read."""

    summary = marked("The judge PIN cannot be used")


class StorageError(KioskError):
    """The challenge log could not be written or read."""

    summary = marked("The challenge log cannot be used")


class OutputError(KioskError):
    """A file a command would write: it would destroy a file the user keeps, or cannot be written."""

    summary = marked("A file cannot be written")
