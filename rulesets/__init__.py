"""Bundled rulesets (YAML package data)."""
