"""Batches of games: simulation, Dask clusters, paired comparisons (above records and bots)."""
