"""The grammar: grammars/bjh.lark, its Lark parsers, and each statement's shape in words.

The grammar is the reference for the format: every faster reader of the package is held
to what Lark makes of a line with it. This module knows where the grammar's text is, how
its Lark parsers are built and kept in the user's cache (`cached_lark`), and what each
statement looks like (`STATEMENT_USAGE`, and the field terminal behind each of its
placeholders), for error messages and the README. It knows nothing of events.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from auditor.resources import data_dir

if TYPE_CHECKING:
    from lark import Lark

# Lark (and lark-cython) are imported only when a line needs them (`lark_parser`, the
# builders' `StatementBuilder`, the diagnosis): a record the fast paths read whole never
# loads them (their import is a large part of a short audit's start). `_PLUGINS` is found
# by the module's `__getattr__` below.


@cache
def _plugins() -> Any:
    """lark-cython's plugins, a drop-in speed-up (about 1.4x); None: plain lark."""
    try:
        import lark_cython
    except ImportError:  # pragma: no cover - depends on the platform
        return None
    return lark_cython.plugins


def __getattr__(name: str) -> Any:
    if name == "_PLUGINS":
        return _plugins()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# What each statement looks like, for error messages and the README.
STATEMENT_USAGE: dict[str, str] = {
    "bjh": "bjh 1",
    "casino": 'casino "NAME" [licence=ID]',
    "table": "table ID game=GAME decks=N [seats=N] [min=AMOUNT] [max=AMOUNT] [currency=CODE]",
    "option": "option KEY=VALUE",
    "shoe": "shoe ID [date=YYYY-MM-DD]",
    "shuffle": "shuffle",
    "cut": "cut",
    "cutcard": "cutcard",
    "burn": "burn CARD",
    "dealer": "dealer ID",
    "note": 'note "TEXT"',
    "close": "close",
    "round": "round ID [date=YYYY-MM-DD] [time=HH:MM:SS] [dealer=ID]",
    "end": "end",
    "sit": "sit SEAT player=ID [punchcard=ID punches=N]",
    "leave": "leave SEAT [punchcard=ID punches=N]",
    "bet": "bet TARGET KIND AMOUNT [tip]",
    "deal": "deal TARGET CARD",
    "peek": "peek",
    "switch": "switch SEAT",
    "hit": "hit HAND CARD",
    "stand": "stand HAND",
    "double": "double HAND AMOUNT CARD",
    "split": "split HAND NEWHAND AMOUNT",
    "surrender": "surrender HAND",
    "trade": "trade TARGET CARD",
    "light": "light SEAT N",
    "prize": "prize SEAT AMOUNT",
    "reveal": "reveal",
    "draw": "draw CARD",
    "settle": "settle TARGET KIND OUTCOME AMOUNT [tip]",
    "tuck": "tuck HAND",
    "discard": "discard HAND",
    "misdeal": "misdeal TARGET",
}

# The grammar's field terminal behind each placeholder of STATEMENT_USAGE, and how to say it.
_PLACEHOLDERS: dict[str, tuple[str, str]] = {
    "ID": ("ID", "an identifier (letters, digits, _ . -)"),
    "CODE": ("ID", "an identifier (letters, digits, _ . -)"),
    "N": ("INT", "a whole number"),
    "1": ("INT", "the version number 1"),
    "AMOUNT": ("AMOUNT", "an amount such as 25 or 12.50"),
    "CARD": ("CARD", "a card such as Tc (rank A 2-9 T J Q K, then suit c d h s)"),
    "SEAT": ("SEAT", "a seat s1 to s9"),
    "HAND": ("HAND", "a hand such as s3h1"),
    "NEWHAND": ("HAND", "a hand such as s3h2"),
    "TARGET": ("TARGET", "a hand (s3h1), a seat (s3) or dealer"),
    "KIND": ("WAGER_KIND", "a wager kind: main, insurance, supermatch, db21 or ladies"),
    "OUTCOME": ("OUTCOME", "an outcome: win, lose, push or void"),
    "GAME": ("GAME", "a game: standard, switch, db21, tensticks or ladies"),
    "YYYY-MM-DD": ("DATE", "a date YYYY-MM-DD"),
    "HH:MM:SS": ("CLOCK", "a time HH:MM:SS"),
    '"NAME"': ("STRING", 'a quoted string "..."'),
    '"TEXT"': ("STRING", 'a quoted string "..."'),
    "KEY=VALUE": ("OPTION_PAIR", "KEY=VALUE"),
}


@cache
def grammar_text() -> str:
    return (data_dir("grammars") / "bjh.lark").read_text(encoding="utf-8")


@cache
def lark_parser() -> Lark:
    return cached_lark("parser", grammar_text(), parser="lalr", lexer="contextual")


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """A Lark parser of `grammar`, as Lark built it, kept in the user's cache.

    Lark takes about 0.1 s to build one, and a process that meets a line the fast path
    cannot read needs two (this one, and the diagnosis's); Lark serializes a built parser
    as plain data, which loads in a few milliseconds. The file is named by a hash of all
    it was built from (grammar, options, the versions of Lark, lark-cython and Python),
    written whole or not at all (a temporary file renamed; Lark's own `cache=` writes in
    place), and read back only as plain data that names itself with that hash: anything
    else (a damaged or foreign file) and the parser is built as before."""
    import lark

    from auditor.cache import key_of, private_folder, python_tag, write_bytes

    found = _plugins()
    plugins = {"_plugins": found} if found else {}
    cython = ""
    if found:
        import lark_cython

        cython = getattr(lark_cython, "__version__", "lark-cython")
    key = key_of(grammar, repr(sorted(options.items())), lark.__version__, cython,
                 python_tag())
    folder = private_folder("grammar")
    path = None if folder is None else folder / f"lark-{name}-{key}.pickle"
    if path is not None:
        loaded = _load_lark(path, key, plugins)
        if loaded is not None:
            return loaded
    built = lark.Lark(grammar, **options, **plugins)
    if path is not None:
        import io
        import pickle

        saved = io.BytesIO()
        built.save(saved, exclude_options=("_plugins",))
        write_bytes(path, pickle.dumps({"key": key, "lark": pickle.loads(saved.getvalue())},
                                       protocol=pickle.HIGHEST_PROTOCOL))
    return built


def _load_lark(path: Any, key: str, plugins: dict[str, Any]) -> Lark | None:
    """The parser kept at `path`, if it is plain data naming itself `key`; else None."""
    import pickle

    from lark import Lark

    class PlainData(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:  # no object but plain data
            raise pickle.UnpicklingError(f"{module}.{name} is not plain data")

    try:
        with open(path, "rb") as file:
            kept = PlainData(file).load()
        if not isinstance(kept, dict) or kept.get("key") != key:
            return None
        return Lark.__new__(Lark)._load(kept["lark"], **plugins)
    except Exception:  # whatever is wrong with the file: the parser is built
        return None
