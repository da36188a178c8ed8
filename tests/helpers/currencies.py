"""The sample logs' night moved to four currencies and none, as the currency tests audit it."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import SAMPLES

# The sample logs all declare USD (ten sticks none): four of them are moved to other money.
CURRENCY_OF = {"db21-t07-2026-11-20.bjh": "USD", "db21-t08-2026-11-21.bjh": "CAD",
               "standard-t11-2026-11-20.bjh": "EUR", "standard-t12-2026-11-21.bjh": "MXN",
               "switch-bjs2-evening.bjh": "USD", "switch-bjs5-late.bjh": "CAD",
               "tensticks-t31-2026-11-20.bjh": None, "tensticks-t32-2026-11-21.bjh": None}


def four_currency_night(folder: Path) -> Path:
    """The sample logs of CURRENCY_OF written into `folder` in their currencies: `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, currency in CURRENCY_OF.items():
        text = (SAMPLES / name).read_text(encoding="utf-8")
        if currency != "USD":
            text = text.replace("currency=USD", f"currency={currency}" if currency else "")
        (folder / name).write_text(text, encoding="utf-8")
    return folder
