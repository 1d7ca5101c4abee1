"""What the research frameworks' adapters share (``fivehundred.openspiel``, ``fivehundred.pettingzoo``): a
ruleset as a game of a fixed shape, and an episode of it played through the engine's public state API."""
