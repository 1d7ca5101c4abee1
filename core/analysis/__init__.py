"""Reports and charts of a batch of records (the top layer below the command line)."""
