"""The checks. Importing this package imports the registry of games (auditor/checks/games.py),
which imports every module of checks it lists, and so registers every check."""

from auditor.checks import games as games
