"""Every check module; importing this package registers them all."""

from auditor.checks import db21, record, standard  # noqa: F401
