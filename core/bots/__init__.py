"""Players: random, heuristic and Monte Carlo bots (above the engine)."""
