"""Ten sticks 21, 20:18:15:30.02 (game=tensticks), a module per idea: the bonus card
(`bonus_card`), the lights and the prize (`lights`), the punched player's card across
files (`punch_card`); `common` holds what they share. The registry of games
(auditor/checks/games.py) lists each module."""
