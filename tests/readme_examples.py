"""The README's YAML examples as printed: each ```yaml block, the file name the README gives it (a first
comment ``# NAME.yaml: …``, else the ruleset's ``name:`` plus ``.yaml``), and the README's shell lines
that use that file."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import yaml

README = Path(__file__).resolve().parents[1] / "README.md"


@dataclass(frozen=True)
class Example:
    file_name: str
    text: str
    line: int
    """The README's line where the block's text starts."""

    def write(self, folder: Path) -> Path:
        path = folder / self.file_name
        path.write_text(self.text, encoding="utf-8")
        return path


def _blocks(language: str) -> list[tuple[int, str]]:
    lines = README.read_text(encoding="utf-8").splitlines(keepends=True)
    found, start = [], None
    for number, line in enumerate(lines, 1):
        if start is None and line.strip() == f"```{language}":
            start = number + 1
        elif start is not None and line.strip() == "```":
            found.append((start, "".join(lines[start - 1:number - 1])))
            start = None
    return found


def yaml_examples() -> list[Example]:
    examples = []
    for line, text in _blocks("yaml"):
        named = re.match(r"#\s*([\w.-]+\.ya?ml)\b", text)
        file_name = named.group(1) if named else f"{yaml.safe_load(text)['name']}.yaml"
        examples.append(Example(file_name, text, line))
    return examples


def commands_using(file_name: str) -> list[list[str]]:
    """Every ``fivehundred …`` command of the README's shell blocks that names ``file_name``, as its
    arguments (``a && b`` is two commands)."""
    found = []
    for _, text in _blocks("sh"):
        for line in text.replace("\\\n", " ").splitlines():  # a line continued with a backslash is one
            if file_name not in line:
                continue
            for command in line.split("&&"):
                words = shlex.split(command, comments=True)
                if words[:1] == ["fivehundred"] and file_name in words:
                    found.append(words[1:])
    return found
