"""Built-in plugins: the reference rules and their parameters, registered before any other."""
