"""The standard rules of chapter 20:18:15, which every variation builds on: a module per idea.
"""
