"""Ten sticks 21, 20:18:15:30.02 (game=tensticks): a module per idea.
"""
