"""The sandbox sees swr's own Python wherever its environment lives, /tmp included."""

from __future__ import annotations

import site
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

PROBE = """
import sys
from pathlib import Path
from swr.sandbox import WORKDIR, Job, Mount, get_sandbox, run
res = run(get_sandbox("bwrap"), Job([sys.executable, "-c", "import sys; print(sys.prefix)"],
          Mount(Path(sys.argv[1]), WORKDIR)), b"")
print(res.returncode, res.stdout.decode().strip(), res.stderr.decode()[-300:])
"""


def test_a_venv_under_tmp_is_not_hidden_by_the_sandbox_tmpfs(tmp_path: Path) -> None:
    venv = tmp_path / "venv"  # pytest's tmp_path lives under /tmp
    assert str(venv).startswith("/tmp/")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    purelib = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "swr-under-test.pth").write_text(f"{ROOT / 'src'}\n" + "\n".join(site.getsitepackages()) + "\n")
    res = subprocess.run([py, "-c", PROBE, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    code, prefix, *_ = res.stdout.split(maxsplit=2) + [""]
    assert code == "0" and prefix == str(venv), res.stdout
