"""The standard rules of chapter 20:18:15, which every variation builds on, a module per
idea: wagers and their pay (`wagers`), the player's choices (`player`), the shoe and the
dealer's hand (`dealer`). The registry of games (auditor/checks/games.py) lists each
module among the checks of every game."""
