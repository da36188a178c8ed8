"""What a run says of each waiver it was given: the model the waivers make (auditor/waivers.py),
the store keeps with the run and the outputs show. Apart from the waiver files' reading,
which knows the rule base and the checks, so that the store can read it back knowing neither."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class WaiverStatus(BaseModel):
    """A waiver as the run used it: applied, expired (not applied) or unused."""

    model_config = ConfigDict(defer_build=True)

    index: int
    line: int
    name: str | None
    status: Literal["applied", "expired", "unused"]
    matches: int  # findings it covers (an expired waiver: those it would have covered)
    justification: str
    approved_by: str
    expires: str
    matched_on: dict[str, str]
