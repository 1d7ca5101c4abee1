"""The rules as data: cards, rulesets, the plugin manager and the tables the hooks return (the bottom layer)."""
