import sys

from auditor.cli import command_line

sys.exit(command_line())
