"""The game as a state machine: a hand's steps, legality, the play loops (above the rules)."""
