"""The README's console examples run as written, against a real `talespin serve`, and print what they show.

Every ```console block is run: each ``$ …`` command (with its ``\\`` continuation lines) in one bash session,
in a scratch folder that holds the repository's ``examples/``, with the README's ``localhost:8000`` turned
into the test server's free port. Its standard output is compared with the lines the README shows under
it after normalising what differs from run to run (campaign ids, tokens, hashes, times, dice a server
rolled); ``…`` in the README stands for any text. A ``# exit code N`` comment is checked too. ``make run``
is not run: the test starts the server itself and compares its first line with the README's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "web"))

from web_support import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
MARK = "@@@talespin-readme@@@"

_NORMALISE = [
    (re.compile(r'("(?:id|player_id|by)":\s*")[^"]*"'), r'\1ID"'),
    (re.compile(r'("(?:gm_token|invite_token|player_token)":\s*")[^"]*"'), r'\1TOKEN"'),
    (re.compile(r"(campaign=)[^&\"]*"), r"\1ID"),
    (re.compile(r"((?:token|invite)=)[^&\"]*"), r"\1TOKEN"),
]


@dataclass
class Example:
    """One ``$`` command of a console block and the output the README shows for it."""

    command: str
    expected: str
    exit_code: int | None


def _examples(text: str) -> list[Example]:
    found: list[Example] = []
    for block in re.findall(r"^```console\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = [lines[i][2:]]
            while command[-1].endswith("\\"):
                i += 1
                command.append(lines[i])
            i += 1
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            code = re.search(r"#\s*exit code (\d+)", command[0])
            found.append(
                Example("\n".join(command), "\n".join(output).strip("\n"), int(code[1]) if code else None)
            )
    return found


def _normalised(text: str) -> str:
    for pattern, replacement in _NORMALISE:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _matches(expected: str, actual: str) -> bool:
    """``actual`` is ``expected`` where each ``…`` stands for any text (within or across lines)."""
    pattern = ".*?".join(re.escape(part) for part in _normalised(expected).split("…"))
    return re.fullmatch(pattern, _normalised(actual), re.DOTALL) is not None


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_readme_console_examples_print_what_they_show(tmp_path: Path) -> None:
    """Each console example's output, normalised, is the README's (… standing for any text)."""
    examples = _examples(README.read_text(encoding="utf-8"))
    assert len(examples) > 10 and any("curl" in e.command for e in examples)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    port = free_port()
    runnable = [e for e in examples if not e.command.startswith("make ")]
    script = ["set +e"]
    for example in runnable:
        command = example.command.replace("localhost:8000", f"127.0.0.1:{port}")
        script += [f"echo '{MARK}'", command, f'echo "{MARK} $?"']
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    env |= {"PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "NO_COLOR": "1"}
    with ServerProcess(None, port, limits=None, cwd=tmp_path) as server:
        first_line = server.read_line()
        (make_run,) = [e for e in examples if e.command == "make run"]
        assert _matches(make_run.expected.replace("8000", str(port)), first_line), first_line
        done = subprocess.run(
            ["bash", "-c", "\n".join(script)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    outputs = done.stdout.split(f"{MARK}\n")[1:]
    assert len(outputs) == len(runnable), done.stderr[-2000:]
    for example, output in zip(runnable, outputs, strict=True):
        shown, _, code = output.rpartition(f"{MARK} ")
        assert _matches(example.expected, shown), (
            f"$ {example.command}\n--- README:\n{example.expected}\n--- ran:\n{shown}"
        )
        if example.exit_code is not None:
            assert int(code) == example.exit_code, example.command
