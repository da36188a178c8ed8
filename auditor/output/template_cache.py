"""Compiled templates kept between runs (auditor/cache.py): Jinja compiles the report's
templates in about 0.3 s per process, and loads their bytecode in a few milliseconds.

Jinja keys each file by the template's name and path and checks it against a hash of the
template's source, so a changed template is compiled again. The folder is named by what
else the compiled code depends on: the Jinja and Python versions and the environment's
settings (delimiters, whitespace handling, autoescaping, extensions), the auditor's
version, and the names and source files of its filters, tests and `finalize`: Jinja bakes
into the compiled code how each filter is called (with the context or not) and the value
of constant expressions run through them, so a changed filter must not meet old code."""

from __future__ import annotations

import contextlib
import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jinja2 import Environment
from jinja2.bccache import Bucket, FileSystemBytecodeCache

from auditor.cache import key_of, private_folder, python_tag

_PACKAGE = str(Path(__file__).resolve().parent.parent)  # the auditor's own source files


class QuietBytecodeCache(FileSystemBytecodeCache):
    """Jinja's file cache, where a file that cannot be read or written means no cache, not
    an error: the template is then compiled as without one."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged or unreadable file: compile the template instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # a folder that cannot be written (full, read-only)
            super().dump_bytecode(bucket)


def settings_key(environment: Environment) -> str:
    """What the compiled code of `environment`'s templates depends on, besides their
    source, as a short hash."""
    import jinja2

    from auditor import __version__

    finalize = environment.finalize
    escaping: Any = environment.autoescape
    if callable(escaping):
        escaping = [(name, escaping(name)) for name in environment.list_templates()]
    settings = (
        jinja2.__version__, python_tag(),
        environment.block_start_string, environment.block_end_string,
        environment.variable_start_string, environment.variable_end_string,
        environment.comment_start_string, environment.comment_end_string,
        environment.line_statement_prefix, environment.line_comment_prefix,
        environment.trim_blocks, environment.lstrip_blocks, environment.newline_sequence,
        environment.keep_trailing_newline, environment.optimized, sorted(environment.extensions),
        None if finalize is None else f"{finalize.__module__}.{finalize.__qualname__}",
        escaping, __version__, sorted(environment.filters), sorted(environment.tests),
        _sources_of([*environment.filters.values(), *environment.tests.values(), finalize]),
    )
    return key_of(repr(settings))


def _sources_of(functions: Iterable[Any]) -> str:
    """A hash of the auditor's source files that define `functions` (Jinja's own are
    named by its version): a filter edited in place changes the key."""
    files = set()
    for function in functions:
        module = sys.modules.get(getattr(function, "__module__", None) or "")
        path = getattr(module, "__file__", None)
        if path and str(Path(path).resolve()).startswith(_PACKAGE):
            files.add(path)
    digest = hashlib.sha256()
    for path in sorted(files):
        with contextlib.suppress(OSError):
            digest.update(path.encode() + b"\0" + Path(path).read_bytes())
    return digest.hexdigest()


def use_template_cache(environment: Environment) -> None:
    """Give `environment` the private cache of compiled templates (after its settings are
    made); where the cache folder cannot be had, it compiles as before."""
    folder = private_folder(f"templates-{settings_key(environment)}")
    if folder is not None:
        environment.bytecode_cache = QuietBytecodeCache(str(folder))
