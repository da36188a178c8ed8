"""The checks; importing this package imports (and so registers) every module in it."""

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module not in ("base", "judging", "runner"):
        importlib.import_module(f"{__name__}.{_module}")
