"""`swr revive obfuscate TASKDIR` and revival.toml's `[obfuscate]`: a built deleted-module task's obfuscated
variant, a contamination control (ReviveBench). The intact project is put back together from the task (the
broken project, the original tests, the deleted module), renamed as one by swr.kinds.revival.obfuscate with the probes
beside it, and broken again the same way under the new names. Everything that names code follows the map:
the hidden and public test paths and node ids, the probes' paths and their outputs' literal keys, the deleted
module and its reference file, the instruction. The variant must clear every gate the plain task did: the
obfuscated intact project passes the same number of tests natively and prints the same probe outputs (keys
renamed), its starting workspace fails and its reference passes in the target environment.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from swr.core.errors import SwrError
from swr.core.layout import PROBES, REVIVAL_TOML, TaskPaths
from swr.core.trees import KEEP_ALL, copy_tree
from swr.judge import Tolerances
from swr.judge.compare import compare
from swr.kinds.revival import copied, envs, identify
from swr.kinds.revival.anticheat import file_hash
from swr.kinds.revival.build import (
    RevivalResult,
    build_revival,
    check_task,
    original_tests,
    record_native,
    similarity_record,
)
from swr.kinds.revival.build_file import write_build_file
from swr.kinds.revival.obfuscate import ObfuscateOptions, obfuscate_project
from swr.kinds.revival.source import module_file, most_imported
from swr.kinds.revival.spec import ObfuscateVariant, RevivalSpec, load_revival
from swr.kinds.revival.task import MODULE_REF, RevivalTask, load_revival_task, original_sources, write_revival_task
from swr.kinds.revival.taskfile import RevivalTaskFile
from swr.kinds.taskfile import read_task_file
from swr.sandbox import Sandbox


@dataclass
class Variant:
    """The obfuscated task as written, and what the CLI line reports."""

    id: str
    root: Path
    renamed: int
    record: dict[str, Any]


@dataclass
class _Map:
    """The obfuscation's two maps: names, and project paths (relative, posix) of the intact project."""

    names: dict[str, str]
    paths: dict[str, str]

    def name(self, n: str) -> str:
        return self.names.get(n, n)

    def path(self, rel: str) -> str:
        """A file's or a folder's new path (a folder: read off any file under it)."""
        rel = rel.rstrip("/")
        if rel in self.paths:
            return self.paths[rel]
        under = sorted(p for p in self.paths if p.startswith(rel + "/"))
        if not under:
            raise SwrError(f"the obfuscated project has no {rel}", field="verify")
        depth = len(Path(under[0]).parts) - len(Path(rel).parts)
        return Path(self.paths[under[0]]).parents[depth - 1].as_posix()

    def node(self, node_id: str) -> str:
        """tests/test_x.py::Class::test_y[param] -> the same test under the new names."""
        file, *parts = node_id.split("::")
        renamed = [self.name(p.partition("[")[0]) + "".join(p.partition("[")[1:]) for p in parts]
        return "::".join([self.path(file), *renamed])

    def dotted(self, module: str) -> str:
        return ".".join(self.name(p) for p in module.split("."))


def load_plain_revival(task_dir: Path) -> RevivalTask:
    """A built, plain deleted-module revival task with its private parts; anything else is one line."""
    meta = read_task_file(task_dir)
    at = TaskPaths(task_dir)
    if not isinstance(meta, RevivalTaskFile):
        raise SwrError(f"a {meta.kind} task: only revival tasks are obfuscated here", file=at.toml, field="kind")
    if meta.obfuscated:
        raise SwrError("already obfuscated", file=at.toml, field="obfuscated")
    if meta.revival != "deleted-module":
        raise SwrError(
            f"a {meta.revival} task: only deleted-module tasks can be obfuscated (a port would have "
            "to be renamed with its project)",
            file=at.toml,
            field="revival",
        )
    if not at.revival_toml.is_file():
        raise SwrError("no private part (a workspace copy?): the tests and reference are needed", file=at.private)
    return load_revival_task(task_dir, meta)


def _intact(task: RevivalTask, dest: Path, drop: tuple[str, ...]) -> Path:
    """The original project again: the broken one, the original tests laid over it, the module restored."""
    copy_tree(task.project, dest, ignore=KEEP_ALL, symlinks=True)
    copy_tree(task.paths.original_tests, dest, ignore=KEEP_ALL, merge=True)
    copy_tree(task.reference_dir / MODULE_REF, dest, ignore=KEEP_ALL, merge=True)
    for stub in dest.rglob("*.pyi"):  # stubs name everything and the rewrite does not parse them: left out
        stub.unlink()
    for rel in drop:
        p = dest / rel
        if ".." in Path(rel).parts or not (p.exists() or p.is_symlink()):
            raise SwrError(f"no {rel} in the project to drop", field="obfuscate.drop")
        shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    return dest


def _literal_keys(probe: Path) -> set[str]:
    """The string keys written out in a probe's dict displays: labels, which name what they probe."""
    tree = ast.parse(probe.read_text(encoding="utf-8"))
    return {
        k.value
        for d in ast.walk(tree)
        if isinstance(d, ast.Dict)
        for k in d.keys
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    }


class _KeyRenamer(ast.NodeTransformer):
    def __init__(self, keys: dict[str, str]):
        self.keys = keys

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        for k in node.keys:
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value in self.keys:
                k.value = self.keys[k.value]
        return self.generic_visit(node)


def _rename_json_keys(doc: Any, keys: dict[str, str]) -> Any:
    if isinstance(doc, dict):
        return {keys.get(k, k): _rename_json_keys(v, keys) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_rename_json_keys(v, keys) for v in doc]
    return doc


def _replace_names(text: str, package: str, module: str, m: _Map, extras: dict[str, str]) -> str:
    """The summary under the new names: the package (any case, `-` or `_`), extra text, then the deleted
    module's name as a word (prose words that happen to be names elsewhere are left alone)."""
    subs = {package: m.name(package), **extras}
    for old in sorted(subs, key=len, reverse=True):
        text = re.sub(re.escape(old).replace("_", "[-_]"), subs[old], text, flags=re.IGNORECASE)
    parts = set(module.split("."))
    return re.sub(r"[A-Za-z_]\w*", lambda w: m.name(w.group(0)) if w.group(0) in parts else w.group(0), text)


def _variant_spec(
    task: RevivalTask,
    m: _Map,
    module: str,
    probes: dict[str, str],
    variant: ObfuscateVariant,
    package: str,
    extras: dict[str, str],
    probes_out: Path,
    dest: Path,
) -> RevivalSpec:
    """revival.toml of the variant (in dest, beside its probes): every path and name that names code renamed."""
    spec = task.spec
    raw = tomllib.loads(task.paths.revival_toml.read_text())
    raw.pop("obfuscate", None)
    default_id = f"{m.name(package).replace('_', '-').strip('-')}-{spec.kind}".lower()
    raw["name"] = variant.name or default_id
    raw["summary"] = variant.summary or _replace_names(spec.summary, package, module, m, extras)
    raw["module"] = m.dotted(module)
    v = raw["verify"]
    v["hidden"] = [m.path(h) for h in spec.verify.hidden]
    v["public"] = [m.node(p) for p in spec.verify.public]
    v["probes"] = [probes[p] for p in spec.verify.probes]
    dest.mkdir(parents=True)
    (dest / REVIVAL_TOML).write_text(tomli_w.dumps(raw))
    if probes:
        copy_tree(probes_out / PROBES, dest / PROBES, ignore=KEEP_ALL)
    return load_revival(dest, check_files=False)


def obfuscate_task(
    task_dir: Path,
    sandbox: Sandbox,
    out: Path | None = None,
    variant: ObfuscateVariant | None = None,
    map_file: Path | None = None,
) -> Variant:
    """Write the obfuscated variant of the task at task_dir (default beside it, under its new id); refuse
    with one line when the obfuscated project does not clear the plain task's gates."""
    task = load_plain_revival(task_dir)
    spec = task.spec
    variant = variant or spec.obfuscate or ObfuscateVariant()
    recorded = json.loads(task.paths.recorded.read_text())
    with tempfile.TemporaryDirectory(prefix="swr-obfuscate-task-") as d:
        work = Path(d)
        intact = _intact(task, work / "intact", variant.drop)
        module = spec.module or most_imported(intact, spec.verify.pythonpath, spec.verify.hidden)
        probes_src = work / "probes-src"
        if task.paths.probes.is_dir():
            copy_tree(task.paths.probes, probes_src / PROBES, ignore=KEEP_ALL)
        opts = ObfuscateOptions(
            seed=variant.seed,
            strip=variant.strip,
            package=variant.package,
            tests=(probes_src / PROBES,) if probes_src.is_dir() else (),
            tests_out=work / "probes-out",
            python=str(envs.ensure(spec.native).python),
        )
        res = obfuscate_project(intact, work / "obf", work / "map.json", opts)
        key = json.loads((work / "map.json").read_text())
        package = next(iter(key["package"]))
        m = _Map(
            res.mapping,
            {
                Path(s).relative_to(intact).as_posix(): Path(t).relative_to(work / "obf").as_posix()
                for s, t in res.paths.items()
                if Path(s).is_relative_to(intact)
            },
        )
        probes, keys = _probes(spec, res.paths, probes_src, work / "probes-out", m)
        new = _variant_spec(task, m, module, probes, variant, package, key["strip"], work / "probes-out", work / "spec")
        root = out if out is not None else task_dir.parent / new.name
        if root.exists():
            raise SwrError("already exists: the variant is written into a fresh directory", file=root)
        obf = work / "obf"
        tests = original_tests(obf, new, work / "tests")
        now = _record(new, obf, tests, sandbox, recorded, probes, keys)
        broken, reference, what = _break(spec, new, m, task, obf, work / "broken")
        identify.scrub(broken, m.name(package), new.summary)
        hashes = {f: h for f in new.verify.public_files() if (h := file_hash(broken, f))}
        python = envs.ensure(new.target).version
        write_revival_task(
            new,
            root,
            broken,
            tests,
            reference,
            now,
            hashes,
            what,
            python,
            obfuscated=True,
            original=original_sources(task),
        )
        found = _identifiability(task, intact, obf, root, m, package, variant)
        if map_file is not None:
            map_file.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(work / "map.json", map_file)
    report, problems = check_task(root, sandbox)
    if problems:
        shutil.rmtree(root, ignore_errors=True)
        raise SwrError("the obfuscated task fails its gates: " + "; ".join(problems), file=task_dir)
    record = {
        "obfuscated_from": task.id,
        "seed": variant.seed,
        "renamed": res.renamed,
        "native_tests": len(now["tests"]),
        "probes": sorted(now["probes"]),
        **report,
        **similarity_record(new, root, {}),
        "identifiability": found,
    }
    write_build_file(TaskPaths(root).build_record, record)
    return Variant(new.name, root, res.renamed, record)


def _identifiability(
    task: RevivalTask, intact: Path, obf: Path, root: Path, m: _Map, package: str, variant: ObfuscateVariant
) -> dict[str, Any]:
    """What of the original the variant's workspace still gives away (swr.kinds.revival.identify), beside the
    similarity of its module to the original's: the project's name, its PKG-INFO people and its license's
    copyright holders outside the license files; the deleted module's public names left unrenamed; the share
    of name pairs, over the workspace's name lists and over the module's, in the original's order."""
    pkg_info = intact / "PKG-INFO"
    needles = list(
        dict.fromkeys(
            [
                package,
                *(identify.identity(pkg_info.read_text(errors="replace")) if pkg_info.is_file() else []),
                *identify.license_holders(intact),
                *variant.strip,
            ]
        )
    )
    project = TaskPaths(root).project
    pairs = [
        (intact / old, obf / new)
        for old, new in sorted(m.paths.items())
        if old.endswith(".py") and (project / new).is_file()
    ]
    module_files = sorted((task.reference_dir / MODULE_REF).rglob("*.py"))
    rels = [f.relative_to(task.reference_dir / MODULE_REF).as_posix() for f in module_files]
    module_pairs = [(intact / r, obf / m.path(r)) for r in rels if r in m.paths]
    public = [n for f in module_files for n in identify.public_names(f)]
    var_texts = [b.read_text() for _, b in module_pairs]
    return {
        "needles": len(needles),
        "mentions": identify.mentions(project, needles),
        "public_names": len(public),
        "names_kept": sorted(n for n in public if m.name(n) == n),
        "order_kept_workspace": identify.order_kept(pairs, m.names),
        "order_kept_module": identify.order_kept(module_pairs, m.names),
        "similarity_to_original": copied.measure(copied.original_texts(task.reference_dir / MODULE_REF), var_texts),
    }


def _probes(
    spec: RevivalSpec, paths: dict[str, str], src: Path, out: Path, m: _Map
) -> tuple[dict[str, str], dict[str, str]]:
    """{old probe path: new} and the literal output keys renamed; the obfuscated probes' dict keys too."""
    new: dict[str, str] = {}
    keys: dict[str, str] = {}
    for p in spec.verify.probes:
        dest = Path(paths[str(src / p)])
        new[p] = dest.relative_to(out).as_posix()
        renamed = {k: m.names[k] for k in _literal_keys(src / p) if k in m.names}
        keys.update(renamed)
        tree = _KeyRenamer(renamed).visit(ast.parse(dest.read_text(encoding="utf-8")))
        dest.write_text(ast.unparse(tree) + "\n", encoding="utf-8")
    return new, keys


def _record(
    new: RevivalSpec,
    obf: Path,
    tests: Path,
    sandbox: Sandbox,
    recorded: dict[str, Any],
    probes: dict[str, str],
    keys: dict[str, str],
) -> dict[str, Any]:
    """The variant's reference outputs: the obfuscated intact project must pass as many tests natively as
    the original did and print the original's probe outputs under the renamed keys."""
    now, problems = record_native(new, obf, tests, sandbox)
    if problems:
        raise SwrError("the obfuscated intact project fails natively: " + "; ".join(problems))
    if len(now["tests"]) != len(recorded["tests"]):
        raise SwrError(
            f"the obfuscated intact project passes {len(now['tests'])} tests natively, the original "
            f"{len(recorded['tests'])}"
        )
    tol = Tolerances(atol=new.verify.atol, rtol=new.verify.rtol)
    want = {probes[p]: _rename_json_keys(out, keys) for p, out in recorded["probes"].items()}
    for p, out in want.items():
        cmp = compare(out, now["probes"].get(p), tol)
        if not cmp.ok:
            first = cmp.mismatches[0].to_json() if cmp.mismatches else {}
            raise SwrError(f"probe {p} prints something else on the obfuscated project: {first}")
    return {"tests": now["tests"], "probes": want}


def _break(
    spec: RevivalSpec, new: RevivalSpec, m: _Map, task: RevivalTask, obf: Path, dest: Path
) -> tuple[Path, dict[str, Path], str]:
    """The obfuscated project broken as the plain one was: hidden tests and the deleted module's files gone."""
    copy_tree(obf, dest, ignore=KEEP_ALL, symlinks=True)
    for hidden_rel in new.verify.hidden:
        shutil.rmtree(dest / hidden_rel) if (dest / hidden_rel).is_dir() else (dest / hidden_rel).unlink()
    old = sorted(
        f.relative_to(task.reference_dir / MODULE_REF).as_posix()
        for f in (task.reference_dir / MODULE_REF).rglob("*")
        if f.is_file()
    )
    reference = {m.path(r): obf / m.path(r) for r in old if r in m.paths}  # (.pyi stubs are left out)
    for r in reference:
        (dest / r).unlink()
    assert new.module is not None
    rel = module_file(obf, new.verify.pythonpath, new.module)
    return dest, reference, f"the module `{new.module}` (`{rel.as_posix()}`)"


def build_with_variant(
    directory: Path, tasks_dir: Path, sandbox: Sandbox, kind: str | None = None, root: Path | None = None
) -> RevivalResult:
    """swr.kinds.revival.build.build_revival, then the `[obfuscate]` variant beside the task; a variant that fails
    its gates fails the revival (the plain task is removed: a release holds a revival whole or not at all)."""
    res = build_revival(directory, tasks_dir, sandbox, kind=kind, root=root)
    if res.failure or res.spec.obfuscate is None:
        return res
    root = root if root is not None else tasks_dir / res.spec.name
    try:
        v = obfuscate_task(root, sandbox, variant=res.spec.obfuscate)
    except SwrError as e:
        shutil.rmtree(root, ignore_errors=True)
        return RevivalResult(res.spec, [], f"obfuscated variant: {e}", res.wall_s, res.record)
    res.tasks.append(v.id)
    res.record["variant"] = {"id": v.id, **{k: v.record[k] for k in ("renamed", "nop", "reference")}}
    return res
