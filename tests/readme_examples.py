"""The YAML examples of the README and the docs pages as printed: each ```yaml block, the file name the page
gives it (a first comment ``# NAME.yaml: …``, else the ruleset's ``name:`` plus ``.yaml``), and the page's
shell lines that use that file."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
"""The README and the docs pages: a user copies examples from either."""


@dataclass(frozen=True)
class Example:
    file_name: str
    text: str
    line: int
    """The page's line where the block's text starts."""
    page: Path

    def write(self, folder: Path) -> Path:
        path = folder / self.file_name
        path.write_text(self.text, encoding="utf-8")
        return path


def _blocks(language: str, page: Path) -> list[tuple[int, str]]:
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
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
    for page in PAGES:
        for line, text in _blocks("yaml", page):
            named = re.match(r"#\s*([\w.-]+\.ya?ml)\b", text)
            loaded = yaml.safe_load(text)
            if not named and not (isinstance(loaded, dict) and "name" in loaded):
                continue  # a fragment of a ruleset (a field shown alone), not a file
            file_name = named.group(1) if named else f"{loaded['name']}.yaml"
            examples.append(Example(file_name, text, line, page))
    return examples


def commands_using(file_name: str, page: Path = README) -> list[list[str]]:
    """Every ``fivehundred …`` command of the page's shell blocks that names ``file_name``, as its
    arguments (``a && b`` is two commands)."""
    found = []
    for _, text in _blocks("sh", page):
        for line in text.replace("\\\n", " ").splitlines():  # a line continued with a backslash is one
            if file_name not in line:
                continue
            for command in line.split("&&"):
                words = shlex.split(command, comments=True)
                if words[:1] == ["fivehundred"] and file_name in words:
                    found.append(words[1:])
    return found
