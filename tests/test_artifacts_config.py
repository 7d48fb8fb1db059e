"""The config comparator (YAML, TOML, INI, XML): equivalent spellings pass, wrong settings fail on the right check,
YAML and XML bombs are refused, options are validated, and the false-reject study over the audit's mutants."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from swr.judge.artifacts import ArtifactConfigError, ArtifactResult, compare_artifact

YAML = "name: run\nsteps: [a, b, c]\nparams: {dt: 0.1, n: 10, on: true, when: 2024-01-02}\n"
TOML = 'title = "x"\n[server]\nport = 8080\nhosts = ["a", "b"]\nratio = 0.25\n[server.tls]\nversion = "1.3"\n'
INI = "[DEFAULT]\nlevel = 3\n[paths]\nroot = /data\nscale = 1.5\n[run]\nsteps = 10\n"
XML = '<?xml version="1.0"?>\n<cfg xmlns:p="urn:x" a="1" b="two"><p:item k="3.0">hello world</p:item><item/></cfg>\n'


def run(ref: Path, cand: Path, **kw: object) -> ArtifactResult:
    res = compare_artifact(ref, cand, **kw)  # type: ignore[arg-type]
    json.dumps(asdict(res), allow_nan=False)
    assert res.ok == (res.detail is None)
    return res


def pair(tmp_path: Path, suffix: str, ref: str, cand: str) -> ArtifactResult:
    (tmp_path / f"ref{suffix}").write_text(ref)
    (tmp_path / f"cand{suffix}").write_text(cand)
    return run(tmp_path / f"ref{suffix}", tmp_path / f"cand{suffix}")


@pytest.mark.parametrize(
    ("suffix", "ref", "cand"),
    [
        (
            ".yaml",
            YAML,
            "params:\n  when: 2024-01-02\n  on: yes\n  n: 10\n  dt: 1.0e-1\nsteps:\n- a\n- b\n- c\nname: 'run'\n",
        ),
        (
            ".yml",
            YAML,
            '{"name": "run", "steps": ["a","b","c"], params: {"dt": 0.1, "n": 10, on: true, "when": 2024-01-02}}',
        ),
        (
            ".toml",
            TOML,
            'title = "x"\n[server]\nhosts = ["a","b"]\nratio = 2.5000000001e-1\nport = 8_080\ntls = {version = "1.3"}\n',
        ),
        (".ini", INI, "; comment\n[run]\nsteps=10\n[paths]\nscale : 1.50\nroot = /data\n[DEFAULT]\nLEVEL = 3\n"),
        (
            ".xml",
            XML,
            '<cfg b="two" a="1.0" xmlns:q="urn:x">\n  <q:item k="3">\n    hello\n    world\n  </q:item>\n  <item></item>\n</cfg>\n',
        ),
    ],
)
def test_equivalent_spellings_pass(tmp_path: Path, suffix: str, ref: str, cand: str) -> None:
    res = pair(tmp_path, suffix, ref, cand)
    assert res.ok, res.detail


@pytest.mark.parametrize(
    ("suffix", "ref", "cand", "check"),
    [
        (".yaml", YAML, YAML.replace("[a, b, c]", "[a, c, b]"), "values"),
        (".yaml", YAML, YAML.replace("dt: 0.1", "dt: 0.2"), "values"),
        (".yaml", YAML, YAML.replace("n: 10", "n: '10'"), "kinds"),
        (".yaml", YAML, YAML.replace("on: true", "on: 1"), "kinds"),
        (".yaml", YAML, YAML + "extra: 1\n", "structure"),
        (".toml", TOML, TOML.replace("port = 8080", "port = 8081"), "values"),
        (".toml", TOML, TOML.replace('version = "1.3"', 'version = "1.2"'), "values"),
        (".ini", INI, INI.replace("scale = 1.5", "scale = 1.6"), "values"),
        (".ini", INI, INI.replace("[run]\nsteps = 10\n", ""), "structure"),
        (".xml", XML, XML.replace('b="two"', 'b="three"'), "values"),
        (".xml", XML, XML.replace("<item/>", ""), "structure"),
        (".xml", XML, XML.replace('xmlns:p="urn:x"', 'xmlns:p="urn:y"'), "structure"),
    ],
)
def test_wrong_settings_fail_on_their_check(tmp_path: Path, suffix: str, ref: str, cand: str, check: str) -> None:
    res = pair(tmp_path, suffix, ref, cand)
    assert not res.ok and not res.checks[check]["ok"], res.detail


def test_yaml_tags_that_construct_objects_are_refused(tmp_path: Path) -> None:
    res = pair(tmp_path, ".yaml", YAML, "!!python/object/apply:os.system ['echo pwned']\n")
    assert not res.ok and res.detail.startswith("cannot read candidate config"), res.detail


def test_recursive_yaml_alias_fails(tmp_path: Path) -> None:
    res = pair(tmp_path, ".yaml", YAML, "a: &x [1, *x]\n")
    assert not res.ok and "recursive" in res.detail, res.detail


def test_ignore_option_and_bad_options(tmp_path: Path) -> None:
    (tmp_path / "ref.yaml").write_text(YAML)
    (tmp_path / "cand.yaml").write_text(YAML.replace("name: run", "name: other"))
    assert not run(tmp_path / "ref.yaml", tmp_path / "cand.yaml").ok
    assert run(tmp_path / "ref.yaml", tmp_path / "cand.yaml", options={"ignore": ["/name"]}).ok
    for bad in ({"ignore": "/name"}, {"ini_case_sensitive": "no"}, {"nope": 1}):
        with pytest.raises(ArtifactConfigError):
            compare_artifact(tmp_path / "ref.yaml", tmp_path / "cand.yaml", options=bad)


def test_ini_case_sensitivity_is_an_option(tmp_path: Path) -> None:
    (tmp_path / "ref.ini").write_text("[a]\nKey = 1\n")
    (tmp_path / "cand.ini").write_text("[a]\nkey = 1\n")
    assert run(tmp_path / "ref.ini", tmp_path / "cand.ini").ok
    assert not run(tmp_path / "ref.ini", tmp_path / "cand.ini", options={"ini_case_sensitive": True}).ok


@pytest.mark.parametrize("suffix", [".yaml", ".toml", ".ini", ".xml"])
@pytest.mark.parametrize("junk", [b"", b"\xff\xfe\x00garbage[[[", b"a: [\n", b"<a><b></a>"])
def test_junk_candidate_fails_without_raising(tmp_path: Path, suffix: str, junk: bytes) -> None:
    ref = {".yaml": YAML, ".toml": TOML, ".ini": INI, ".xml": XML}[suffix]
    (tmp_path / f"ref{suffix}").write_text(ref)
    (tmp_path / f"cand{suffix}").write_bytes(junk)
    assert not run(tmp_path / f"ref{suffix}", tmp_path / f"cand{suffix}").ok


def test_false_reject_study(tmp_path: Path) -> None:
    """Every valid mutant of several references passes and every invalid one fails (numbers in the report)."""
    d = tmp_path / "ref"
    d.mkdir()
    docs = {
        "a.yaml": YAML,
        "b.yaml": "servers:\n  - {host: a, port: 1}\n  - {host: b, port: 2}\nratio: 3.5e-3\n",
        "a.toml": TOML,
        "a.ini": INI,
        "a.xml": XML,
        "b.xml": '<r><v x="0.5">1 2 3</v><v x="1.5">4 5 6</v><name>abc</name></r>',
    }
    for k, v in docs.items():
        (d / k).write_text(v)
    from test_artifacts_scidata import judge_every_mutant

    tally = judge_every_mutant(d, list(docs), tmp_path / "scratch")
    assert tally[True][1] >= 7 and tally[False][1] >= 25, tally


def test_yaml_exponent_floats_read_as_yaml_1_2_does(tmp_path: Path) -> None:
    """A YAML 1.2 writer's 1e+14 is the number 1.0e+14 (PyYAML's 1.1 rules alone read it as text)."""
    assert pair(tmp_path, ".yaml", "A: 1.0e+14\nb: 2.5e-3\n", "A: 1e+14\nb: 25e-4\n").ok
    assert not pair(tmp_path, ".yaml", "A: 1.0e+14\n", "A: 2e+14\n").ok


def test_untyped_identifiers_and_text_paths(tmp_path: Path) -> None:
    """In INI/XML a leading-zero integer is an identifier, and a path in `text` is never a number."""
    assert not pair(tmp_path, ".ini", "[a]\nzip = 02139\n", "[a]\nzip = 2139\n").ok
    assert pair(tmp_path, ".ini", "[a]\nversion = 1.10\n", "[a]\nversion = 1.1\n").ok  # numbers by default
    res = run(tmp_path / "ref.ini", tmp_path / "cand.ini", options={"text": ["/a/version"]})
    assert not res.ok and res.checks["values"]["where"] == "/a/version", res.detail
