"""The simulator's bytes for a seed stay the same: every game dealt with planted faults,
a header fault and a floor's patterns, each file's SHA-256 against the digests of the
simulator before it was split into modules by idea (commit a2db239: game.py and table.py
of 883 and 631 lines). A change that moves code must not move a card; one that means to
change what is dealt records the new digests here, saying why."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from auditor.cli import main

# (game, the simulate command's arguments after --game)
DEALT = (
    ("standard", ["--rounds", "120", "--faults", "0.3", "--header-fault", "--seed", "b-standard",
                  "--option", "soft17=hit", "--option", "surrender=late"]),
    ("switch", ["--rounds", "120", "--faults", "0.3", "--header-fault", "--seed", "b-switch"]),
    ("db21", ["--rounds", "120", "--faults", "0.3", "--header-fault", "--seed", "b-db21"]),
    ("tensticks", ["--rounds", "120", "--faults", "0.3", "--header-fault", "--seed",
                   "b-tensticks"]),
    ("ladies", ["--rounds", "120", "--faults", "0.3", "--header-fault", "--seed", "b-ladies",
                "--decks", "1"]),
    ("standard", ["--tables", "2", "--rounds", "80", "--faults", "0.05", "--seed", "b-floor",
                  "--careless", "D-1001:4", "--collude", "D-1002:P-3:0.3", "--repeat-shoe"]),
)


def digests(out: Path) -> dict[str, str]:
    """Each file the simulator wrote under `out`, by its path there, with its SHA-256."""
    for number, (game, arguments) in enumerate(DEALT):
        assert main(["simulate", "--game", game, *arguments, "--out", str(out / str(number)),
                     "--quiet"]) == 0
    return {path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(out.rglob("*")) if path.is_file()}


EXPECTED = {  # made by this file run as a script with the simulator of commit a2db239
    "0/standard-T01.bjh": "9b8d0708528e5160eb16d58a6ab40232ba047d74d5d59d22fc5924adbb7d76c2",
    "0/standard-T01.truth.json": "b9515bcc661e38cb030c48543022318665400f251c434353d848ff1065e3a5c8",
    "1/switch-T01.bjh": "95b70032f4c9389bf1e83d06d53cc0315d0457c6b3a2f7bde1e9a41f314c7b12",
    "1/switch-T01.truth.json": "071afd53446d90783a9dcf55205453c87428f1d5c32ac104385290532b590d11",
    "2/db21-T01.bjh": "e42ebd4e4aedca9055579845b73df147228ae03614e4dabc7f5aae25c2c67804",
    "2/db21-T01.truth.json": "acc09b1ed97b82cc431a8f4c61157ddecf2bfd89f0fdc0722a59ecd1a897b9d6",
    "3/tensticks-T01.bjh": "af04cd3cc9dd49a35bbd88c649b883d6ca6ca877c4efaea41d7248da252ea256",
    "3/tensticks-T01.truth.json":
        "9df8bfa482c6ad7ac6731b512b2c69f76385e01b6f1a0f8fb01a00a0c0751a72",
    "4/ladies-T01.bjh": "3f3572800ef5880e415a50c0e9f2c28a737c3964555b70e61c5ee704ea8a3182",
    "4/ladies-T01.truth.json": "4d31f2d139e0d2bd31f4132cff314bb58a278432e7282ff6764d4389d2b272af",
    "5/standard-T01-01.bjh": "7634dbee4c4fa465474d8f05fcd54e92dc599523bba485935487498832b4797d",
    "5/standard-T01-01.truth.json":
        "874d5493edebaba55adb6d50d22fb50a8fe57e59e5f0c381c55bab929b5e04c3",
    "5/standard-T01-02.bjh": "465c39be4a69681955c79bf280cd074588e65421bfaf75229e4c6eed0428e83c",
    "5/standard-T01-02.truth.json":
        "8453f6eb4d88c7c7ce79c65bd34d240f34bee444a3b9ebdeb32f36ee213edfdd",
    "5/surveillance.truth.json": "ffdcd96a33307f57acb9838ecd93c7a336ce42eb866d14de063be60d845b6fa9",
}


def test_the_simulators_bytes_for_a_seed_are_as_before(tmp_path: Path) -> None:
    assert digests(tmp_path) == EXPECTED


if __name__ == "__main__":  # the digests printed, to be recorded above
    for name, digest in digests(Path(sys.argv[1])).items():
        print(f"    {name!r}: {digest!r},")
