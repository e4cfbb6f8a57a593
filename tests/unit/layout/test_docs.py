"""The README and docs/ stay true: the README stays short, every relative link (and its #anchor)
resolves, and every `tatami ...` command and `make <target>` they show exists, with its options."""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tatami.cli import main

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
README_MAX_LINES = 200

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]+`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")
TATAMI = {"tatami", ".venv/bin/tatami"}
HELP = {"--help", "-h"}


def relative(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def prose(text: str) -> str:
    """The page without its code: fenced blocks and inline spans."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("Before deploying: `tatami doctor`")
    'before-deploying-tatami-doctor'
    >>> slug("The counters' shard curve")
    'the-counters-shard-curve'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@functools.cache
def anchors(page: Path) -> frozenset[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text())):
        base = slug(heading)
        anchor, n = base, 0
        while anchor in found:
            n += 1
            anchor = f"{base}-{n}"
        found.add(anchor)
    return frozenset(found)


def links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in LINK.findall(prose(page.read_text()))
        if not re.match(r"^[a-z]+:", target)  # https:, mailto:
    ]


def shell_lines() -> list[tuple[Path, str]]:
    """Every command line of the pages' code blocks (a `$ ` prompt dropped), and every inline code
    span that is a command (`tatami ...`, `make ...`)."""
    found: list[tuple[Path, str]] = []
    for page in PAGES:
        text = page.read_text()
        for block in FENCE.findall(text):
            for line in block.splitlines():
                found.append((page, line.strip().removeprefix("$ ")))
        for span in INLINE_CODE.findall(FENCE.sub("", text)):
            found.append((page, span.strip("`").replace("[", "").replace("]", "")))
    return [(page, line) for page, line in found if program(line) in TATAMI | {"make"}]


def words(line: str) -> list[str]:
    """The command's words, environment assignments before it dropped."""
    tokens = line.split()
    while tokens and ENV_ASSIGNMENT.match(tokens[0]):
        tokens.pop(0)
    return tokens


def program(line: str) -> str:
    tokens = words(line)
    return tokens[0] if tokens else ""


def arguments(line: str) -> list[str]:
    tokens = shlex.split(" ".join(words(line)), comments=True)
    return [token for token in tokens[1:] if token != "..."]


@functools.cache
def make_targets() -> frozenset[str]:
    makefile = (ROOT / "Makefile").read_text()
    return frozenset(re.findall(r"^(\w[\w.-]*)\s*:(?!=)", makefile, re.MULTILINE))


def option(command: click.Command, name: str) -> click.Option | None:
    for param in command.params:
        if isinstance(param, click.Option) and name in (*param.opts, *param.secondary_opts):
            return param
    return None


def resolve(args: list[str]) -> tuple[list[str], list[str]]:
    """The command path `args` names in the `tatami` group, and what does not exist: a subcommand
    of a group, or an option of the command it is given to."""
    command: click.Command = main
    path: list[str] = []
    problems: list[str] = []
    at = 0
    while at < len(args):
        token = args[at]
        if token.startswith("-") and token != "-":
            name = token.partition("=")[0]
            found = option(command, name)
            if found is None and name not in HELP:
                problems.append(f"`{' '.join(['tatami', *path])}` has no option {name}")
            elif found is not None and "=" not in token and not (found.is_flag or found.count):
                at += 1  # its value
        elif isinstance(command, click.Group):
            if token not in command.commands:
                problems.append(f"`{' '.join(['tatami', *path])}` has no command {token!r}")
                break
            command = command.commands[token]
            path.append(token)
        at += 1
    return path, problems


@functools.cache
def shows_help(path: tuple[str, ...]) -> bool:
    return CliRunner().invoke(main, [*path, "--help"]).exit_code == 0


LINKS = links()
COMMANDS = shell_lines()


def test_readme_is_short() -> None:
    lines = len(README.read_text().splitlines())
    assert lines < README_MAX_LINES, f"README.md has {lines} lines: move reference into docs/"


@pytest.mark.parametrize(("page", "target"), LINKS, ids=[f"{relative(p)}->{t}" for p, t in LINKS])
def test_every_relative_link_resolves(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    assert file.exists(), f"{relative(page)} links to {target}, which does not exist"
    assert file.is_relative_to(ROOT), f"{relative(page)} links outside the repository: {target}"
    if anchor and file.suffix == ".md":
        assert anchor in anchors(file), f"{relative(page)}: {relative(file)} has no heading #{anchor}"


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_inline_code_stays_on_one_line(page: Path) -> None:
    """The checks below read inline code line by line: a span across a line break would be missed."""
    split = [line for line in FENCE.sub("", page.read_text()).splitlines() if line.count("`") % 2]
    assert not split, f"{relative(page)}: inline code broken across lines: {split}"


def test_the_pages_show_commands() -> None:
    """The parsing below finds what it checks (a broken pattern would check nothing)."""
    assert {".venv/bin/tatami", "make"} <= {program(line) for _, line in COMMANDS}
    assert len(LINKS) > 20


@pytest.mark.parametrize(("page", "line"), COMMANDS, ids=[f"{relative(p)}: {ln}" for p, ln in COMMANDS])
def test_every_command_shown_exists(page: Path, line: str) -> None:
    args = arguments(line)
    if program(line) == "make":
        missing = [target for target in args if target not in make_targets()]
        assert not missing, f"{relative(page)}: no Makefile target {missing} in {line!r}"
        return
    path, problems = resolve(args)
    assert not problems, f"{relative(page)}: {line!r}: " + "; ".join(problems)
    assert shows_help(tuple(path)), f"{relative(page)}: `{' '.join(['tatami', *path])} --help` fails"
