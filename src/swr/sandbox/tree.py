"""File operations on trees a sandbox made, on the host: they never follow a link, never recurse, keep
few descriptors open, refuse FIFOs and devices (so nothing blocks), and are bounded in depth, entries
and bytes. Whatever leaves a sandbox (artifacts, the kept solution, an agent's logs) goes through here."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
MAX_NOTES = 20  # entries named in notes; the rest are counted


@dataclass(frozen=True)
class Bounds:
    """How much of an agent-made tree swr reads or copies."""

    depth: int = 48
    entries: int = 100_000
    bytes: int = 1 << 30


class Rejected(Exception):
    """A tree that cannot leave its workspace as it stands (not a real directory, or beyond its bounds)."""


class Entry(NamedTuple):
    rel: str  # "/"-separated path below the walk's root
    depth: int  # 0 for the root's own entries
    dir_fd: int  # the open directory holding it; valid until the walk moves on
    name: str
    st: os.stat_result


def kind(mode: int) -> str:
    """What an lstat mode is, in words for notes and messages."""
    for test, name in (
        (stat.S_ISREG, "file"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISLNK, "symbolic link"),
        (stat.S_ISFIFO, "fifo"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return name
    return "device"


def _names(fd: int) -> list[str]:
    """A directory's entry names, sorted (so that bounds cut a tree the same way every time)."""
    with os.scandir(fd) as it:
        return sorted(e.name for e in it)


def walk(
    root: Path,
    bounds: Bounds,
    over: Callable[[str], None],
    skip: frozenset[str] = frozenset(),
    ignore: Callable[[str], bool] | None = None,
) -> Iterator[Entry]:
    """Every entry below root, depth first, parents before children, by lstat. Past a bound `over` is
    told why (it may raise) and the walk goes no deeper, or stops. `skip`: relative paths left out;
    `ignore`: a test of a relative path that leaves it out (neither counted nor entered)."""
    top = os.open(root, DIR_FLAGS)
    try:
        stack = [(top, "", iter(_names(top)))]
    except OSError:
        os.close(top)
        raise
    count = 0
    try:
        while stack:
            fd, rel, names = stack[-1]
            name = next(names, None)
            if name is None:
                os.close(stack.pop()[0])
                continue
            path = rel + name
            if path in skip or (ignore is not None and ignore(path)):
                continue
            count += 1
            if count > bounds.entries:
                over(f"more than {bounds.entries} entries")
                return
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            yield Entry(path, len(stack) - 1, fd, name, st)
            if not stat.S_ISDIR(st.st_mode):
                continue
            if len(stack) >= bounds.depth:
                over(f"{path}: nested deeper than {bounds.depth} directories")
                continue
            try:
                sub = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                stack.append((sub, path + "/", iter(_names(sub))))
            except OSError:
                os.close(sub)
    finally:
        for fd, _, _ in stack:
            os.close(fd)


def read_at(dir_fd: int, name: str, cap: int) -> bytes | None:
    """At most `cap` bytes of a regular file (None for anything else), without following a link or
    blocking on a FIFO."""
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], cap
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_file(directory: Path, name: str, cap: int) -> bytes | None:
    """A regular file directly in `directory` (one the agent could write to), read as read_at does."""
    try:
        dfd = os.open(directory, DIR_FLAGS)
    except OSError:
        return None
    try:
        return read_at(dfd, name, cap)
    finally:
        os.close(dfd)


def write_file(directory: Path, name: str, data: bytes) -> None:
    """Replace whatever `name` is in `directory` (a link, a FIFO, a tree) by a new regular file."""
    dfd = os.open(directory, DIR_FLAGS)
    try:
        _clear(dfd, name)
        fd = os.open(name, NEW_FLAGS, 0o644, dir_fd=dfd)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    finally:
        os.close(dfd)


def write_in(root: Path, parts: list[str], data: bytes, mode: int, replace: bool = False) -> Path:
    """Write a regular file at root/parts..., making missing directories, never through a link and never
    into a FIFO or device (OSError then). `replace`: whatever else stands on the way (a link, a file, a
    FIFO at a directory's place; anything at the file's place) is removed first, so the write always
    lands in root's own tree. Returns the first path it created (or the file)."""
    fd, made = os.open(root, DIR_FLAGS), None
    try:
        for i, part in enumerate(parts[:-1]):
            if replace:
                _clear_unless_dir(fd, part)
            try:
                os.mkdir(part, 0o755, dir_fd=fd)
                made = made or root.joinpath(*parts[: i + 1])
            except FileExistsError:
                pass
            sub = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = sub
        if replace:
            _clear(fd, parts[-1])
        out = os.open(
            parts[-1], os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644, dir_fd=fd
        )
        try:
            if not stat.S_ISREG(os.fstat(out).st_mode):
                raise OSError(f"{'/'.join(parts)} is not a regular file")
            os.ftruncate(out, 0)
            view = memoryview(data)
            while view:
                view = view[os.write(out, view) :]
            os.fchmod(out, mode)
        finally:
            os.close(out)
    finally:
        os.close(fd)
    return made or root.joinpath(*parts)


def _clear_unless_dir(dfd: int, name: str) -> None:
    """Remove `name` from dfd unless it is a real directory (a link to one is removed, not followed)."""
    try:
        if not stat.S_ISDIR(os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mode):
            os.unlink(name, dir_fd=dfd)
    except FileNotFoundError:
        pass


def open_in(root: Path, parts: list[str]) -> int | None:
    """An open descriptor of the real directory root/parts... (None if any step is a link, not a
    directory or missing): how a tree someone else made is entered without following its links. A
    part that would leave the tree ("..", "" or ".") is refused."""
    if any(part in ("", ".", "..") for part in parts):
        return None
    try:
        fd = os.open(root, DIR_FLAGS)
    except OSError:
        return None
    for part in parts:
        try:
            sub = os.open(part, DIR_FLAGS, dir_fd=fd)
        except OSError:
            os.close(fd)
            return None
        os.close(fd)
        fd = sub
    return fd


def read_in(root: Path, rel: str, cap: int) -> bytes | None:
    """At most `cap` bytes of the regular file root/rel ("/"-separated), read as read_at does; None if
    it or any directory on the way is a link, a special file or missing."""
    *parts, name = rel.split("/")
    fd = open_in(root, parts)
    if fd is None:
        return None
    try:
        return read_at(fd, name, cap)
    finally:
        os.close(fd)


def names_in(root: Path, rel: str = "") -> list[str]:
    """The sorted entry names of the real directory root/rel ([] if it is a link, a file or missing)."""
    fd = open_in(root, [p for p in rel.split("/") if p])
    if fd is None:
        return []
    try:
        return _names(fd)
    except OSError:
        return []
    finally:
        os.close(fd)


def _clear(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        _remove_dir(dfd, name)


def export(
    src: Path, dest: Path, bounds: Bounds, strict: bool = True, ignore: Callable[[str], bool] | None = None
) -> list[dict[str, Any]]:
    """Copy a tree out of a workspace: directories and regular files (no setuid, setgid or sticky bit;
    readable by all, executable if it was), links kept as inert entries that swr never follows, FIFOs,
    sockets and devices left behind (noted). Strict: Rejected past a bound or if src is not a real
    directory; else a note and a partial copy. `ignore`: relative paths left out (as walk's)."""
    try:
        top = os.lstat(src)
    except FileNotFoundError:
        raise Rejected(f"{src.name}/ does not exist") from None
    if not stat.S_ISDIR(top.st_mode):
        raise Rejected(f"{src.name} is a {kind(top.st_mode)}, not a directory")
    notes: list[dict[str, Any]] = []

    def over(why: str) -> None:
        if strict:
            raise Rejected(f"{src.name}/: {why}")
        notes.append({"kind": "not_kept", "path": src.name, "reason": why})

    dest.mkdir(mode=0o755, exist_ok=True)  # (swr's own choice of path: an empty directory at most)
    os.chmod(dest, 0o755)
    dirs = [os.open(dest, DIR_FLAGS)]
    left = [bounds.bytes]
    dropped = 0
    try:
        for e in walk(src, bounds, over, ignore=ignore):
            while len(dirs) > e.depth + 1:
                os.close(dirs.pop())
            if not _copy_entry(e, dirs, left, over):
                dropped += 1
                if dropped <= MAX_NOTES:
                    notes.append({"kind": "not_kept", "path": f"{src.name}/{e.rel}", "reason": kind(e.st.st_mode)})
    finally:
        for fd in dirs:
            os.close(fd)
    if dropped > MAX_NOTES:
        notes.append({"kind": "not_kept", "path": src.name, "reason": f"{dropped} special files in all"})
    return notes


def _copy_entry(e: Entry, dirs: list[int], left: list[int], over: Callable[[str], None]) -> bool:
    """One entry into the open destination directory dirs[-1]; False if it is not kept."""
    mode = e.st.st_mode
    if stat.S_ISDIR(mode):
        os.mkdir(e.name, 0o755, dir_fd=dirs[-1])
        fd = os.open(e.name, DIR_FLAGS, dir_fd=dirs[-1])
        os.fchmod(fd, 0o755)
        dirs.append(fd)
        return True
    if stat.S_ISLNK(mode):
        os.symlink(os.readlink(e.name, dir_fd=e.dir_fd), e.name, dir_fd=dirs[-1])
        return True
    if not stat.S_ISREG(mode):
        return False
    if e.st.st_size > left[0]:
        over(f"{e.rel}: past the bytes a copy may hold")
        return True  # noted by `over`
    try:
        src = os.open(e.name, READ_FLAGS, dir_fd=e.dir_fd)
    except OSError:
        return False
    try:
        st = os.fstat(src)
        if not stat.S_ISREG(st.st_mode):
            return False
        dst = os.open(e.name, NEW_FLAGS, 0o600, dir_fd=dirs[-1])
        try:
            left[0] -= _copy_bytes(src, dst, min(st.st_size, left[0]))
            os.fchmod(dst, 0o755 if st.st_mode & 0o111 else 0o644)
        finally:
            os.close(dst)
    finally:
        os.close(src)
    return True


def _copy_bytes(src: int, dst: int, cap: int) -> int:
    """Copy at most `cap` bytes in the kernel; returns how many."""
    done = 0
    while done < cap:
        n = os.sendfile(dst, src, None, min(cap - done, 1 << 24))
        if n == 0:
            break
        done += n
    return done


def remove_tree(path: Path) -> None:
    """`rm -rf`, bounded: no link followed, no recursion, two descriptors at any depth (a 1,200-deep
    or a million-entry tree goes like any other). What cannot be removed is left, never retried forever."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        return
    parent = os.open(path.parent, DIR_FLAGS)
    try:
        _remove_dir(parent, path.name)
    finally:
        os.close(parent)


def _remove_dir(parent: int, name: str) -> None:
    """Empty and remove parent/name: down into each subdirectory, back up through "..", each once."""
    fd = _open_dir(parent, name)
    if fd is None:
        return
    path: list[str] = []  # names from parent/name down to fd's directory
    pending: list[list[str]] = [_unlink_files(fd)]
    while True:
        if pending[-1]:
            sub = pending[-1].pop()
            child = _open_dir(fd, sub)
            if child is None:
                continue
            os.close(fd)
            fd = child
            path.append(sub)
            pending.append(_unlink_files(fd))
            continue
        pending.pop()
        if not path:
            os.close(fd)
            break
        up = os.open("..", DIR_FLAGS, dir_fd=fd)
        os.close(fd)
        fd = up
        _quiet(os.rmdir, path.pop(), fd)
    _quiet(os.rmdir, name, parent)


def _open_dir(parent: int, name: str) -> int | None:
    for _ in range(2):
        try:
            return os.open(name, DIR_FLAGS, dir_fd=parent)
        except PermissionError:  # not root: a directory the agent made unreadable, made ours again
            _quiet(lambda n, dir_fd: os.chmod(n, 0o700, dir_fd=dir_fd), name, parent)  # found by lstat: a directory
        except OSError:
            return None
    return None


def _unlink_files(fd: int) -> list[str]:
    """Unlink every non-directory in fd; return its subdirectories."""
    subdirs = []
    try:
        names = _names(fd)
    except OSError:
        return []
    for n in names:
        try:
            if stat.S_ISDIR(os.stat(n, dir_fd=fd, follow_symlinks=False).st_mode):
                subdirs.append(n)
            else:
                os.unlink(n, dir_fd=fd)
        except OSError:
            continue
    return subdirs


def _quiet(fn: Callable[..., Any], name: str, dir_fd: int) -> None:
    try:
        fn(name, dir_fd=dir_fd)
    except (OSError, NotImplementedError):
        pass
