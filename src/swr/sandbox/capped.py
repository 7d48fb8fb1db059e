"""Host directories a sandbox writes: capped by the kernel, and handed to the sandbox user.

As root, a directory the sandbox writes is a tmpfs of bounded size and inode count: `fallocate` or a
flood of files stops at the cap the moment it is reached, not at the next poll. What leaves such a
directory is copied out by `tree.export` (never through a link, without setuid bits, bounded)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

SANDBOX_UID = 65534  # nobody: the host uid sandboxed processes run as when swr runs as root
BLOCK = 4096  # what an entry costs at least, in the disk accounting
MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x2, 0x4, 0x8
MNT_DETACH = 0x2
SLACK = 1 << 20  # past the cap, so that a run that fills it is seen to exceed it (label `disk`)
_mounted: set[Path] = set()  # this process's tmpfs mounts: detached by a signal handler (leftovers.py)
_lock = threading.RLock()  # re-entered by a signal handler that interrupts a mount in the main thread


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def mount_tmpfs(path: Path, size: int, executable: bool = False, owner: int = SANDBOX_UID, mode: int = 0o700) -> bool:
    """A tmpfs of `size` bytes (plus slack) owned by the sandbox user (or `owner`) on `path`; False where this
    process may not mount (not root, or a container without CAP_SYS_ADMIN): the caller polls instead."""
    if os.geteuid() != 0:
        return False
    inodes = size // BLOCK + 256
    opts = f"size={size + SLACK},nr_inodes={inodes},mode={mode:o},uid={owner},gid={owner}"
    flags = MS_NOSUID | MS_NODEV | (0 if executable else MS_NOEXEC)
    with _lock:
        rc: int = _libc().mount(b"tmpfs", os.fsencode(str(path)), b"tmpfs", flags, opts.encode())
        if rc == 0:
            _mounted.add(path)
    return rc == 0


def unmount(path: Path) -> None:
    """Detach the tmpfs: what the run wrote is gone at once."""
    with _lock:
        _libc().umount2(os.fsencode(str(path)), MNT_DETACH)
        _mounted.discard(path)


def private_dir(prefix: str, size: int, mode: int = 0o755, executable: bool = False) -> Path:
    """A new directory in the temp dir (`prefix`: swr-<kind>-<pid>-), on a tmpfs of its own where this process
    may mount one (root's; `mode`). What is bound from inside it then shows in a sandbox's /proc/self/mountinfo
    as a path of that tmpfs, not as a host path. Undo with `remove_private`."""
    d = Path(tempfile.mkdtemp(prefix=prefix))
    if not mount_tmpfs(d, size, executable, owner=os.geteuid(), mode=mode):
        d.chmod(mode)
    return d


def remove_private(d: Path) -> None:
    """A private_dir and its tmpfs, gone."""
    if os.path.ismount(d):
        unmount(d)
    shutil.rmtree(d, ignore_errors=True)


def unmount_all() -> None:
    """Every tmpfs this process still has mounted (a command stopped by a signal)."""
    with _lock:
        left = list(_mounted)
    for path in left:
        unmount(path)


def hand_over(root: Path, uid: int = SANDBOX_UID, gid: int = SANDBOX_UID) -> None:
    """As root, a tree the sandbox user must write becomes its own (it is not root in the sandbox)."""
    if os.geteuid() != 0:
        return
    os.lchown(root, uid, gid)
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            os.lchown(os.path.join(d, name), uid, gid)


@contextlib.contextmanager
def capped_dir(path: Path, size: int, executable: bool = False) -> Iterator[bool]:
    """`path` (created if missing) as a capped tmpfs for the block's duration; yields whether it is one."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = mount_tmpfs(path, size, executable)
    try:
        yield mounted
    finally:
        if mounted:
            unmount(path)
