"""Which agent steps wrote or ran the program, so that the SFT export can cut a conversation after its final
passing solution: tool arguments and shell commands are read for paths in solution/, each resolved against
the shell's working directory at that point (`cd solution && …` included; docs/export.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from swr.core.layout import FEEDBACK, SOLUTION
from swr.harness.trajectory import Step, ToolCall, Trajectory
from swr.sandbox import WORKDIR

Parts = tuple[str, ...]
PATH_KEYS = frozenset({"path", "file_path", "filepath", "filename", "file", "notebook_path"})
COMMAND_KEYS = ("command", "cmd")
# longest first: the tokenizer takes the first that matches
OPERATORS = (
    "<<<",
    "<<-",
    "&&",
    "||",
    ";;",
    "|&",
    ">>",
    "<<",
    ">&",
    "<&",
    "&>",
    ";",
    "|",
    "&",
    "(",
    ")",
    "<",
    ">",
    "\n",
)
SEPARATORS = frozenset({"&&", "||", ";;", "|&", ";", "|", "&", "(", ")", "\n"})
CANDIDATE = re.compile(r"[^\s'\"`()<>|;&{}$*?!\\,=:\[\]]+")  # runs of characters a path is made of


def resolve(path: str, cwd: Parts | None) -> Parts | None:
    """A path as parts relative to the workspace, or None when it lies outside or cannot be known."""
    base: Parts
    if path == WORKDIR or path.startswith(WORKDIR + "/"):
        base, rel = (), path[len(WORKDIR) :]
    elif path.startswith(("/", "~")) or cwd is None:
        return None
    else:
        base, rel = cwd, path
    parts: list[str] = list(base)
    for p in rel.split("/"):
        if p == "..":
            if not parts:
                return None
            parts.pop()
        elif p not in ("", "."):
            parts.append(p)
    return tuple(parts)


def is_program(parts: Parts | None) -> bool:
    """solution/ itself or anything in it, or the workspace's ./feedback."""
    return bool(parts) and (parts[0] == SOLUTION or parts == (FEEDBACK,))  # type: ignore[index]


def _quoted(cmd: str, i: int) -> tuple[str, int]:
    """The text of the quoted string starting at cmd[i] (a ' or "), and the index after it."""
    q = cmd[i]
    j, out = i + 1, []
    while j < len(cmd) and cmd[j] != q:
        if q == '"' and cmd[j] == "\\" and j + 1 < len(cmd):
            j += 1
        out.append(cmd[j])
        j += 1
    return "".join(out), j + 1


def shell_tokens(cmd: str) -> Iterator[tuple[str, str]]:
    """("word" | "op" | "data", text): bash words with quotes removed, operators, and here-document bodies
    (as data). Enough of bash to follow `cd` and find paths; not a full parser."""
    word: list[str]
    i, word, in_word, heredocs, want_delim = 0, [], False, [], False
    while i <= len(cmd):
        c = cmd[i] if i < len(cmd) else " "
        op = next((o for o in OPERATORS if cmd.startswith(o, i)), None)
        if c in " \t\r" or op or i == len(cmd):
            if in_word:
                text = "".join(word)
                if want_delim:
                    heredocs.append(text)
                    want_delim = False
                yield "word", text
            word, in_word = [], False
        if i == len(cmd):
            break
        if op:
            yield "op", op
            i += len(op)
            want_delim = want_delim or op in ("<<", "<<-")
            if op == "\n" and heredocs:  # the bodies follow, each up to its delimiter line
                for delim in heredocs:
                    end = re.compile(rf"^\t*{re.escape(delim)}[ \t]*$", re.M).search(cmd, i)
                    yield "data", cmd[i : end.start() if end else len(cmd)]
                    i = end.end() + 1 if end else len(cmd)
                heredocs = []
        elif c in " \t\r":
            i += 1
        elif c == "#" and not in_word:
            i = cmd.find("\n", i) if "\n" in cmd[i:] else len(cmd)
        elif c in "'\"":
            text, i = _quoted(cmd, i)
            word.append(text)
            in_word = True
        else:
            if c == "\\" and i + 1 < len(cmd):
                i += 1
            word.append(cmd[i])
            in_word, i = True, i + 1


def command_touches_program(cmd: str) -> bool:
    """Whether a shell command names solution/ or ./feedback: any path-like run of characters in its words
    and here-documents, resolved against the working directory that cd, pushd, popd and subshells give it
    at that point (a command run inside solution/ names it through its own words)."""
    cwd: Parts | None = ()
    subshells: list[Parts | None] = []
    dirs: list[Parts | None] = []
    head: str | None = None  # the current simple command's name, until its first argument is read
    for kind, text in shell_tokens(cmd):
        if kind == "op":
            if text == "(":
                subshells.append(cwd)
            elif text == ")" and subshells:
                cwd = subshells.pop()
            head = "" if text in SEPARATORS else head
            continue
        if any(is_program(resolve(p, cwd)) for p in CANDIDATE.findall(text)):
            return True
        if kind != "word":
            continue
        if not head:  # first word of a simple command
            head = text
            if text == "popd":
                cwd = dirs.pop() if dirs else None
        elif head in ("cd", "pushd") and not text.startswith("-"):
            if head == "pushd":
                dirs.append(cwd)
            cwd, head = resolve(text, cwd), "cd-done"
    return False


def call_touches_program(call: ToolCall) -> bool:
    """The feedback tool; a call with a string `command`/`cmd` (a shell: Bash, bash, …) whose command names
    the program; any other tool whose path argument (`path`, `file_path`, …) lies in solution/."""
    if call.function_name == FEEDBACK:
        return True
    args = call.arguments
    command = next((args[k] for k in COMMAND_KEYS if isinstance(args.get(k), str)), None)
    if command is not None:
        return command_touches_program(command)
    return any(is_program(resolve(v, ())) for k, v in args.items() if k in PATH_KEYS and isinstance(v, str))


def touches_program(step: Step) -> bool:
    """A step that wrote or ran the program (or looked at it: the cut errs late, never before an edit)."""
    return any(call_touches_program(c) for c in step.tool_calls or [])


def final_solution_step(traj: Trajectory) -> int | None:
    """Index of the last agent step that wrote or ran the program (`touches_program`); None if there is none."""
    last = None
    for i, step in enumerate(traj.steps):
        if step.source == "agent" and touches_program(step):
            last = i
    return last
