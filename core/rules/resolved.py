"""A ruleset written out whole (``fivehundred rules show NAME --yaml``): every field, the inherited ones
filled in, as YAML that loads back as the same ruleset (the same ``content_hash``): a place to start a house
rule from, or to read what a chain of ``extends`` comes to."""

from __future__ import annotations

from typing import Any

import yaml

from .ruleset import Ruleset


class _Flow(dict[str, Any]):
    """A mapping written on one line (a rung of the ladder)."""


class _Dumper(yaml.SafeDumper):
    """Lists of plain values and the ladder's rungs on one line each; the rest as blocks."""


def _list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flat = all(not isinstance(item, dict | list) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


def _flow(dumper: yaml.SafeDumper, data: _Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", dict(data), flow_style=True)


_Dumper.add_representer(list, _list)
_Dumper.add_representer(_Flow, _flow)


def ruleset_yaml(ruleset: Ruleset) -> str:
    """``ruleset`` as YAML, resolved: no ``extends``, every field given (a rung's fields at their defaults
    left out, as a rung written by hand leaves them)."""
    data = ruleset.model_dump(mode="json")
    data["auction"]["ladder"] = [_Flow(rung.model_dump(mode="json", exclude_defaults=True) | {"call": rung.call,
                                                                                              "value": rung.value})
                                 for rung in ruleset.auction.ladder]
    data = _compact(data)
    head = (f"# The ruleset {ruleset.name}, resolved: every field, inherited ones filled in (content hash "
            f"{ruleset.content_hash}).\n# To change a few rules, a file with 'extends: {ruleset.name}' and only "
            "what differs is shorter (docs/rulesets.md).\n")
    return head + yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


def _compact(value: Any) -> Any:
    """Each mapping in a list (a rung, a team, a packet) on one line when its values are plain."""
    if isinstance(value, dict):
        return type(value)({k: _compact(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_Flow(item) if isinstance(item, dict) and all(_plain(v) for v in item.values()) else _compact(item)
                for item in value]
    return value


def _plain(value: Any) -> bool:
    return not isinstance(value, dict | list) or (isinstance(value, list) and not any(
        isinstance(v, dict | list) for v in value))


__all__ = ["ruleset_yaml"]
