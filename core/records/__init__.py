"""Game records: writing, reading and validating them, Parquet rows (above the engine)."""
