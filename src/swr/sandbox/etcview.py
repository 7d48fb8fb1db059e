"""The sandbox's /etc: an allow-list of host entries, copied once into a view bound read-only."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import time
import warnings
from pathlib import Path

from swr.core.trees import KEEP_ALL, copy_tree
from swr.sandbox import capped

VIEW_BYTES = 64 << 20  # the tmpfs of one /etc view (the allow-list copies to a few MiB)

ETC_ALLOW = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "fonts",
    "localtime",
    "passwd",
    "group",
    "nsswitch.conf",
    "mime.types",
    "os-release",
    "debian_version",
    "ImageMagick-6",
    "ImageMagick-7",
    "gdal",
    "ssl/openssl.cnf",
    "xdg",
    "java-17-openjdk",  # the JDK's own config (security, jvm.cfg): Debian links its lib/ files here
)


def etc_binds() -> list[str]:
    """One bind per allow-listed /etc entry: the fallback when the copied view cannot be made."""
    return [
        a for name in ETC_ALLOW if (Path("/etc") / name).exists() for a in ("--ro-bind", f"/etc/{name}", f"/etc/{name}")
    ]


def copy_allow_list(dst: Path) -> None:
    """Each allow-listed /etc entry that exists, copied under dst (links kept as links): the /etc of a bwrap
    view and of a podman root alike."""
    for name in ETC_ALLOW:
        src = Path("/etc") / name
        if not src.exists():
            continue
        target = dst / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            copy_tree(src, target, ignore=KEEP_ALL, symlinks=True)
        else:
            shutil.copy2(src, target)


class EtcView:
    """The allow-listed /etc entries copied into one directory that is bound read-only as the sandbox's
    /etc: one bind instead of one per entry (each costs bwrap a mount, a remount and a parse of its
    mountinfo, ~3 ms a run for the list). Entries are copied as a bind shows them: a top-level symlink
    is followed, symlinks inside directories are kept. A view is rebuilt when a source changes (files:
    inode, size, mtime; directories: mtime, so entries added, removed or replaced); old views stay until
    exit, since a running sandbox may still use them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.path: Path | None = None
        self.watch: list[Path] = []
        self.sig: tuple[object, ...] = ()
        self.made: list[Path] = []
        self.failed = False
        self.checked = 0.0  # sources are compared at most once a second

    @staticmethod
    def _signature(paths: list[Path]) -> tuple[object, ...]:
        out: list[object] = []
        for p in paths:
            try:
                st = p.stat()
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def get(self) -> Path | None:
        with self.lock:
            if self.failed:
                return None
            now = time.monotonic()
            if self.path is not None and self.path.is_dir():  # (a /tmp cleaner may have removed it)
                if now - self.checked < 1.0:
                    return self.path
                self.checked = now
                if self._signature(self.watch) == self.sig:
                    return self.path
            self.checked = now
            if not self.made:
                _sweep_views()
                atexit.register(self.remove)
            srcs = [Path("/etc") / name for name in ETC_ALLOW]
            watch = [*srcs, *(Path(d) for s in srcs if s.is_dir() for d, _, _ in os.walk(s))]
            sig = self._signature(watch)  # before copying: a change during the copy shows up next time
            try:
                path = capped.private_dir(f"swr-etc-{os.getpid()}-", VIEW_BYTES)  # no host path in mountinfo
                self.made.append(path)
                copy_allow_list(path)
            except OSError as e:
                warnings.warn(f"cannot copy the /etc allow-list ({e}); binding its entries one by one", stacklevel=2)
                self.failed = True
                return None
            self.path, self.watch, self.sig = path, watch, sig
            return path

    def remove(self) -> None:
        if self.made and not self.made[0].name.startswith(f"swr-etc-{os.getpid()}-"):
            return  # a forked child exiting: the views are its parent's
        for p in self.made:
            capped.remove_private(p)
        self.made.clear()
        self.path = None


def _sweep_views() -> None:
    """Remove /etc views left by swr processes that were killed."""
    for d in Path(tempfile.gettempdir()).glob("swr-etc-*-*"):
        pid = d.name.split("-")[2]
        try:
            mine = d.lstat().st_uid == os.getuid() and d.is_dir() and not d.is_symlink()  # (a tmpfs: root's too)
        except OSError:
            continue
        if mine and pid.isdigit() and not Path(f"/proc/{pid}").exists():
            capped.remove_private(d)


ETC_VIEW = EtcView()
