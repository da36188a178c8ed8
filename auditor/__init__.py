"""The blackjack compliance auditor: BJH hand histories against S.D. Admin. R. 20:18:15."""

try:  # written from the project's history when the package is built or installed
    from auditor._version import __version__
except ImportError:  # a source tree run without installing it
    __version__ = "0.0.0+unknown"
