"""Formatters: every output is made from the same `Finding` models and input summaries."""
