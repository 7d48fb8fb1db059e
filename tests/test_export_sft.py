"""`swr export sft`: real jobs of the OpenAI-compatible agent against scripted endpoints on a small release of
three workflows (two variants each): runs that pass, a run that fails, a passing run with an anti-cheat
finding. The corpus is loaded by HF `datasets` and goes through TRL's SFT preparation and data collator
with a tokenizer and a tiny model built here (no hub download), on the CPU build of torch."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, ROOT, copy_tree, swr
from test_agents import RIGHT, WRONG, Scripted

from swr.assemble import BuildOptions, build
from swr.core.errors import SwrError
from swr.export.chat import to_messages
from swr.export.program import call_touches_program, command_touches_program
from swr.export.sft import export_sft, sample
from swr.harness.run import JobConfig, run_job
from swr.harness.trajectory import ToolCall, Trajectory, TrajectoryBuilder
from swr.kinds import sibling_group
from swr.kinds.taskfile import read_task_file
from swr.kinds.workflow.cache import ExecutionCache

# three workflows (the fixture `good-linear` renamed), two in one domain, one in another
WORKFLOWS = {
    "lin-alpha": ("fam-a", "data-document"),
    "lin-beta": ("fam-b", "data-document"),
    "lin-gamma": ("fam-c", "software-formal-systems"),
}
PASS = [
    [("bash", {"command": "cat instruction.md"})],
    [("write_file", {"path": "solution/run", "content": WRONG})],
    [("feedback", {})],
    [("write_file", {"path": "solution/run", "content": RIGHT})],
    [("bash", {"command": "./feedback --json"})],
    [("bash", {"command": "echo done, tidying up"})],
    [("finish", {})],
]
FAIL = [[("write_file", {"path": "solution/run", "content": WRONG})], [("finish", {})]]
CHEAT = [[("bash", {"command": "cat private/hidden/0/output.json"})], *PASS[3:]]
# the same step twice in a row, a call repeated within one reply, the same feedback twice
REPEAT = [PASS[0], PASS[0], [PASS[3][0], PASS[3][0]], PASS[4], PASS[4], PASS[6]]
# the final program is written by `cd solution && …`, a command that never spells "solution/"
CD_FIX = "cd solution && cat > run <<'EOF'\n" + RIGHT + "EOF"
CD = [*PASS[:3], [("bash", {"command": CD_FIX})], PASS[5], PASS[6]]


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("sft")
    paths = []
    for name, (family, domain) in WORKFLOWS.items():
        d = shutil.copytree(FIXTURES / "good-linear", base / "src" / name)
        toml = (d / "workflow.toml").read_text().replace('name = "good-linear"', f'name = "{name}"')
        toml = toml.replace('family = "fixtures"', f'family = "{family}"')
        (d / "workflow.toml").write_text(toml.replace('domain = "data-document"', f'domain = "{domain}"'))
        paths.append(d)
    opts = BuildOptions(variants=2, public=3, hidden=3, jobs=2, cache=ExecutionCache(base / "cache"))
    results = build(paths, base / "release", opts)
    assert not any(r.failure for r in results), [r.failure for r in results]
    return base / "release"


class SameText(Scripted):
    """Replies whose text follows from their calls (Scripted numbers its steps), so a repeated step repeats
    exactly, as a real model re-sending a command does."""

    def completion(self, body: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        data = super().completion(body, calls)
        data["choices"][0]["message"]["content"] = "calling " + ", ".join(name for name, _ in calls)
        return data


def _job(
    release: Path,
    jobs_dir: Path,
    name: str,
    model: str,
    tasks: tuple[str, ...],
    script: list[Any],
    runs: int,
    server: type[Scripted] = Scripted,
    **kw: Any,
) -> None:
    srv = server(script * runs)
    try:
        cfg = JobConfig(
            release=release,
            agent="openai",
            model=model,
            job=name,
            jobs_dir=jobs_dir,
            concurrency=1,
            retries=0,
            include=tasks,
            agent_options={"base_url": srv.url},
            **kw,
        )
        records = run_job(cfg)
        assert len(records) == runs and len(srv.requests) == len(script) * runs, [r.error for r in records]
    finally:
        srv.close()


@pytest.fixture(scope="module")
def jobs(release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pass2: the v1 tasks pass twice each; pass1: alpha-v2 and beta-v2 pass once; fail: gamma-v2 fails;
    cheat: gamma-v2 passes but looked at the hidden outputs (recorded, not failed, by the `record` policy);
    repeat and cd (not in ALL): alpha-v1 passes repeating its steps, beta-v1 passes fixed by `cd solution && …`."""
    d = tmp_path_factory.mktemp("sft-jobs") / "jobs"
    _job(release, d, "pass2", "model-a", ("lin-*-v1",), PASS, 6, attempts=2)
    _job(release, d, "pass1", "model-b", ("lin-alpha-v2", "lin-beta-v2"), PASS, 2)
    _job(release, d, "fail", "model-b", ("lin-gamma-v2",), FAIL, 1)
    _job(release, d, "cheat", "model-b", ("lin-gamma-v2",), CHEAT, 1, cheat_policy="record")
    _job(release, d, "repeat", "model-c", ("lin-alpha-v1",), REPEAT, 1, server=SameText)
    _job(release, d, "cd", "model-c", ("lin-beta-v1",), CD, 1)
    return d


ALL = ["pass2", "pass1", "fail", "cheat"]


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_only_verified_runs_are_exported_once_each_by_default(jobs: Path, tmp_path: Path) -> None:
    res = export_sft(jobs, ALL, tmp_path / "c.jsonl")
    got = rows(tmp_path / "c.jsonl")
    assert res["entries"] == len(got) == 8 and res["tasks"] == 5 and res["single_success_tasks"] == 2
    assert res["skipped"] == {"anti_cheat": 1, "not_passed": 1}
    assert {r["provenance"]["task"] for r in got} == {
        "lin-alpha-v1",
        "lin-beta-v1",
        "lin-gamma-v1",
        "lin-alpha-v2",
        "lin-beta-v2",
    }
    assert len({r["provenance"]["run"] for r in got}) == 8  # every verified run once
    for r in got:
        p = r["provenance"]
        assert p["verdict"]["pass"] is True and p["verdict"]["label"] == "pass"
        assert "anti_cheat" not in p["verdict"]["labels"]
        assert p["kind"] == "workflow" and p["group"] == "workflow:" + p["task"].rsplit("-v", 1)[0]
        assert (p["family"], p["domain"]) == WORKFLOWS[p["task"].rsplit("-v", 1)[0]]
        assert p["model"] == ("model-a" if p["job"] == "pass2" else "model-b")
        assert len(p["verifier_hash"]) == 64 and len(p["public_hash"]) == 64 and len(p["release"]) == 64
        assert p["audit"] == "none" and p["tokens"] > 0 and p["copy"] == 0


def test_conversations_end_at_the_final_passing_solution_with_every_call_answered(jobs: Path, tmp_path: Path) -> None:
    export_sft(jobs, ALL, tmp_path / "c.jsonl")
    for r in rows(tmp_path / "c.jsonl"):
        msgs = r["messages"]
        assert [m["role"] for m in msgs[:2]] == ["system", "user"] and "solution/run" in msgs[0]["content"]
        assistants = [m for m in msgs if m["role"] == "assistant"]
        assert len(assistants) == 5 and all(m["weight"] == 1 for m in assistants)  # finish and the tidy-up cut
        assert all("weight" not in m for m in msgs if m["role"] != "assistant")
        last_call = assistants[-1]["tool_calls"][0]["function"]
        assert last_call == {"name": "bash", "arguments": json.dumps({"command": "./feedback --json"})}
        assert '\\"pass\\": true' in msgs[-1]["content"] or '"pass": true' in msgs[-1]["content"]
        answered = [m["tool_call_id"] for m in msgs if m["role"] == "tool"]
        calls = [c["id"] for m in assistants for c in m.get("tool_calls", [])]
        assert calls == answered and len(set(calls)) == len(calls)
        for i, m in enumerate(msgs):  # each tool result follows its own call
            if m["role"] == "tool":
                owner = next(x for x in reversed(msgs[:i]) if x["role"] == "assistant")
                assert m["tool_call_id"] in [c["id"] for c in owner["tool_calls"]]
        assert {t["function"]["name"] for t in json.loads(r["tools"])} == {"bash", "write_file", "feedback", "finish"}


def test_held_out_ids_and_their_siblings_are_left_out(jobs: Path, tmp_path: Path) -> None:
    res = export_sft(jobs, ALL, tmp_path / "c.jsonl", exclude=("lin-alpha-v2",))
    tasks = {r["provenance"]["task"] for r in rows(tmp_path / "c.jsonl")}
    assert tasks == {"lin-beta-v1", "lin-gamma-v1", "lin-beta-v2"}  # lin-alpha-v1 is v2's sibling
    assert res["held_out_groups"] == ["workflow:lin-alpha"] and res["skipped"]["held_out"] == 3


def test_oversampling_repeats_favour_single_success_tasks(jobs: Path, tmp_path: Path) -> None:
    """Pool after holding out lin-alpha: beta-v1 x2, gamma-v1 x2, beta-v2 x1 (the single success)."""
    for n, single, each_double in ((11, 3, 2), (12, 4, 2), (14, 4, 3)):
        res = export_sft(jobs, ALL, tmp_path / f"{n}.jsonl", entries=n, exclude=("lin-alpha-v1",), seed=3)
        got = rows(tmp_path / f"{n}.jsonl")
        assert res["entries"] == len(got) == n
        per_run = Counter(r["provenance"]["run"] for r in got)
        task_of = {r["provenance"]["run"]: r["provenance"]["task"] for r in got}
        assert len(per_run) == 5  # every verified run at least once
        singles = [k for k, t in task_of.items() if t == "lin-beta-v2"]
        assert [per_run[k] for k in singles] == [single]
        doubles = sorted(per_run[k] for k, t in task_of.items() if t != "lin-beta-v2")
        assert max(doubles) - min(doubles) <= 1 and sum(doubles) == n - single and max(doubles) <= each_double
        assert sorted(Counter(r["provenance"]["copy"] for r in got if r["provenance"]["run"] == singles[0])) == list(
            range(single)
        )


def test_subsampling_keeps_one_run_per_task_while_it_can() -> None:
    pool = {"a": ["a1", "a2", "a3"], "b": ["b1"], "c": ["c1", "c2"]}
    for seed in range(5):
        three = sample(pool, 3, seed)
        assert sorted(k[0] for k in three) == ["a", "b", "c"]
        two = sample(pool, 2, seed)
        assert len(set(k[0] for k in two)) == 2
        five = sample(pool, 5, seed)
        assert Counter(k[0] for k in five) == {"a": 2, "b": 1, "c": 2}
        assert sorted(sample(pool, 6, seed)) == sorted(k for ks in pool.values() for k in ks)
        seven = Counter(sample(pool, 7, seed))
        assert seven["b1"] == 2 and sum(seven.values()) == 7  # the one repeat goes to the single success
        assert sample(pool, 9, seed) == sample(pool, 9, seed)


def test_same_seed_gives_the_same_bytes_and_another_seed_another_order(jobs: Path, tmp_path: Path) -> None:
    for name, seed in (("a", 7), ("b", 7), ("c", 8)):
        export_sft(jobs, ALL, tmp_path / f"{name}.jsonl", entries=13, seed=seed)
    a, b, c = ((tmp_path / f"{n}.jsonl").read_bytes() for n in "abc")
    assert a == b and a != c
    tasks = [Counter(json.loads(line)["provenance"]["task"] for line in x.splitlines()) for x in (a, c)]
    assert tasks[0] == tasks[1]  # 8 runs of 5 tasks and one repeat of each task, whatever the seed
    assert all(list(json.loads(line)) == ["messages", "provenance", "tools"] for line in a.splitlines())


def test_rows_over_the_token_limit_are_dropped_before_sampling(jobs: Path, tmp_path: Path) -> None:
    export_sft(jobs, ALL, tmp_path / "all.jsonl")  # default tokenizer: tiktoken's o200k_base
    tokens = sorted(r["provenance"]["tokens"] for r in rows(tmp_path / "all.jsonl"))
    limit = tokens[len(tokens) // 2]
    res = export_sft(jobs, ALL, tmp_path / "cut.jsonl", max_tokens=limit, entries=10)
    got = rows(tmp_path / "cut.jsonl")
    assert res["tokenizer"] == "o200k_base" and res["skipped"]["over_token_limit"] == sum(t > limit for t in tokens)
    assert len(got) == 10 and all(r["provenance"]["tokens"] <= limit for r in got)
    with pytest.raises(SwrError, match="no verified trajectory"):
        export_sft(jobs, ALL, tmp_path / "none.jsonl", max_tokens=1)


def test_repair_drops_unanswered_calls_and_results_without_a_call() -> None:
    b = TrajectoryBuilder("openai", "0", "m")
    b.system("sys")
    b.user("task")
    s = b.agent_turn("", [("c1", "bash", {"command": "ls"}), ("c2", "bash", {"command": "pwd"})])
    b.observe(s, "c1", "listing")  # c2 never answered
    b.observe(s, None, "a result without a call")
    lost = b.agent_turn("", [("c3", "bash", {"command": "true"})])  # no result and no text: dropped whole
    assert lost.observation is None
    b.user("keep going")
    w = b.agent_turn("writing", [("c4", "write_file", {"path": "solution/run", "content": "x"})])
    b.observe(w, "c4", "wrote")
    b.agent_turn("all done", [("c5", "finish", {})])
    msgs = to_messages(Trajectory.model_validate(b.build()))
    assert msgs is not None
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "tool", "user", "assistant", "tool"]
    assert [c["id"] for c in msgs[2]["tool_calls"]] == ["c1"] and msgs[3] == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "listing",
    }
    assert msgs[-2]["tool_calls"][0]["function"] == {
        "name": "write_file",
        "arguments": json.dumps({"content": "x", "path": "solution/run"}),
    }
    nothing = TrajectoryBuilder("openai", "0", "m")
    nothing.user("task")
    nothing.agent_turn("thinking")
    assert to_messages(Trajectory.model_validate(nothing.build())) is None


def _assistant_calls(msgs: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    return [
        [(c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls", [])]
        for m in msgs
        if m["role"] == "assistant"
    ]


def test_consecutive_duplicate_events_are_removed_keeping_the_later_result() -> None:
    b = TrajectoryBuilder("openai", "0", "m")
    b.system("sys")
    b.user("task")
    b.user("task")  # a repeated observation: one kept, not joined to itself
    first = b.agent_turn("look", [("c1", "bash", {"command": "ls"})])
    b.observe(first, "c1", "exit code: 1 (transient)")
    again = b.agent_turn("look", [("c2", "bash", {"command": "ls"})])  # re-sent after the error
    b.observe(again, "c2", "exit code: 0\nrun")
    w = b.agent_turn(
        "write",
        [
            ("c3", "write_file", {"path": "solution/run", "content": "x"}),
            ("c4", "write_file", {"path": "solution/run", "content": "x"}),
            ("c5", "write_file", {"path": "solution/other", "content": "y"}),
        ],
    )
    for cid in ("c3", "c4", "c5"):
        b.observe(w, cid, f"wrote {cid}")
    other = b.agent_turn("look again", [("c6", "bash", {"command": "ls"})])  # other text: not a duplicate
    b.observe(other, "c6", "exit code: 0\nrun")
    b.user("keep going")
    after_user = b.agent_turn("look again", [("c7", "bash", {"command": "ls"})])  # not adjacent to c6
    b.observe(after_user, "c7", "exit code: 0\nrun")
    fb = b.agent_turn("", [("c8", "feedback", {})])
    b.observe(fb, "c8", "pass")
    msgs = to_messages(Trajectory.model_validate(b.build()))
    assert msgs is not None
    assert [m["role"] for m in msgs[:2]] == ["system", "user"] and msgs[1]["content"] == "task"
    ls = ("bash", json.dumps({"command": "ls"}))
    write = ("write_file", json.dumps({"content": "x", "path": "solution/run"}))
    other_write = ("write_file", json.dumps({"content": "y", "path": "solution/other"}))
    assert _assistant_calls(msgs) == [[ls], [write, other_write], [ls], [ls], [("feedback", "{}")]]
    tools = {m["tool_call_id"]: m["content"] for m in msgs if m["role"] == "tool"}
    assert tools == {
        "c2": "exit code: 0\nrun",
        "c4": "wrote c4",
        "c5": "wrote c5",
        "c6": "exit code: 0\nrun",
        "c7": "exit code: 0\nrun",
        "c8": "pass",
    }  # each kept call's own result, none orphaned
    assert [m["content"] for m in msgs if m["role"] == "user"] == ["task", "keep going"]


def test_a_scripted_run_that_repeats_steps_is_exported_without_the_repeats(jobs: Path, tmp_path: Path) -> None:
    res = export_sft(jobs, ["repeat"], tmp_path / "c.jsonl")
    (row,) = rows(tmp_path / "c.jsonl")
    assert res["skipped"] == {} and row["provenance"]["verdict"]["pass"] is True
    msgs = row["messages"]
    calls = _assistant_calls(msgs)
    assert [[name for name, _ in c] for c in calls] == [["bash"], ["write_file"], ["bash"]]  # of 6 replies
    assert calls[2] == [("bash", json.dumps({"command": "./feedback --json"}))]  # the final solution step
    answered = [m["tool_call_id"] for m in msgs if m["role"] == "tool"]
    assert answered == [c["id"] for m in msgs if m["role"] == "assistant" for c in m.get("tool_calls", [])]
    kept_ids = [c["id"] for m in msgs if m["role"] == "assistant" for c in m["tool_calls"]]
    assert kept_ids == ["call_2_0", "call_3_1", "call_5_0"]  # the later of each repeated pair


@pytest.mark.parametrize(
    ("command", "touches"),
    [
        ("cd solution && cat > run <<'EOF'\nprint(1)\nEOF", True),
        ("cd /sandbox/work/solution; ./run < case.json", True),
        ("cd public && ../solution/run < a.json", True),
        ("cd public\n../solution/run", True),
        ("python3 -c \"open('solution/run','w').write('x')\"", True),
        ("python3 - <<'PY'\nopen('solution/run', 'w')\nPY", True),
        ("cp /tmp/build/run solution", True),
        ("./feedback --json", True),
        ("cd public && cat ../public/x && cd .. && sh feedback", True),
        ("cd public && cat solution/x", False),  # public/solution/x: not the program
        ("(cd public && ls) && ../solution/run", False),  # the subshell's cd ends with it: outside the workspace
        ("pushd public && popd && cat solution/run", True),
        ("ls public && echo solved > notes", False),
        ("echo solutions > out && cat /etc/solution/x", False),
        ("cat instruction.md # then solution/run", False),
        ("echo \"don't\" && cat <<EOF\nit's\nEOF\nls", False),
    ],
)
def test_which_shell_commands_write_or_run_the_program(command: str, touches: bool) -> None:
    assert command_touches_program(command) is touches


def test_which_tool_calls_write_or_run_the_program() -> None:
    def call(name: str, **args: Any) -> ToolCall:
        return ToolCall(tool_call_id="c", function_name=name, arguments=args)

    assert call_touches_program(call("Bash", command="cd solution && make"))  # Claude Code's shell tool
    assert call_touches_program(call("Edit", file_path="/sandbox/work/solution/run", old_string="a"))
    assert call_touches_program(call("write_file", path="./solution/lib/x.py", content=""))
    assert call_touches_program(call("feedback"))
    assert not call_touches_program(call("write_file", path="notes/solution.txt", content="solution/run"))
    assert not call_touches_program(call("Read", file_path="/sandbox/work/public/a.json"))
    assert not call_touches_program(call("finish"))


def test_the_cut_follows_a_program_written_after_cd_solution(jobs: Path, tmp_path: Path) -> None:
    """The run's last write is `cd solution && cat > run`: the conversation keeps it (and its result) and
    ends there, not at the earlier write_file of the wrong program."""
    export_sft(jobs, ["cd"], tmp_path / "c.jsonl")
    (row,) = rows(tmp_path / "c.jsonl")
    assert row["provenance"]["verdict"]["pass"] is True
    calls = _assistant_calls(row["messages"])
    assert [name for c in calls for name, _ in c] == ["bash", "write_file", "feedback", "bash"]
    assert json.loads(calls[-1][0][1]) == {"command": CD_FIX}
    assert row["messages"][-1]["role"] == "tool" and row["messages"][-1]["content"].startswith("exit code: 0")


@pytest.fixture(scope="module")
def mixed_release(revival_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two engines built for real, and the toolz revival task with the obfuscated variant its revival.toml adds
    (from the suite's one revival release)."""
    base = tmp_path_factory.mktemp("mixed")
    res = swr(
        "build",
        str(ROOT / "engines" / "cad-2d"),
        str(ROOT / "engines" / "logic-synth"),
        "--out",
        "rel",
        "--jobs",
        "2",
        cwd=base,
        timeout=1800,
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for task in (revival_release / "tasks").iterdir():
        if task.name.startswith("toolz-itertoolz") or task.name.endswith("-deleted-module"):
            shutil.copytree(task, base / "rel" / "tasks" / task.name, symlinks=True)
    return base / "rel"


def test_sibling_groups_of_engine_and_revival_tasks(mixed_release: Path) -> None:
    """An engine task's group is its engine; an obfuscated revival variant joins the task it came from, so
    holding out either leaves out both."""
    from swr.export.sft import release_info

    info = release_info(mixed_release)
    assert info.kinds == {
        "cad-2d": "engine",
        "logic-synth": "engine",
        "toolz-itertoolz": "revival",
        (variant := next(t for t in info.kinds if t.endswith("-deleted-module"))): "revival",
    }
    assert read_task_file(mixed_release / "tasks" / variant).obfuscated is True  # type: ignore[union-attr]
    assert info.groups == {
        "cad-2d": "engine:cad-2d",
        "logic-synth": "engine:logic-synth",
        "toolz-itertoolz": "revival:toolz-itertoolz",
        variant: "revival:toolz-itertoolz",
    }
    tasks = mixed_release / "tasks"
    assert sibling_group(tasks / variant) == sibling_group(tasks / "toolz-itertoolz")


@pytest.fixture(scope="module")
def tokenizer(jobs: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A byte-level BPE tokenizer trained here on the corpus, with a ChatML-like template whose assistant
    turns sit inside {% generation %} markers (what TRL's assistant-only loss reads)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    d = tmp_path_factory.mktemp("tok")
    export_sft(jobs, ALL, d / "c.jsonl")
    texts = [m["content"] or "" for r in rows(d / "c.jsonl") for m in r["messages"]]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = ["<|pad|>", "<|im_start|>", "<|im_end|>"]
    tok.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=600, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        ),
    )
    tok.save(str(d / "tokenizer.json"))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|im_end|>")
    fast.chat_template = (
        "{% for m in messages %}<|im_start|>{{ m.role }}\n"
        "{% if m.role == 'assistant' and m.weight %}{% generation %}{{ m.content }}"
        "{% for c in m.tool_calls or [] %}<call>{{ c.function.name }} {{ c.function.arguments }}</call>{% endfor %}"
        "<|im_end|>{% endgeneration %}\n{% else %}{{ m.content }}<|im_end|>\n{% endif %}{% endfor %}"
    )
    return fast, d / "tokenizer.json"


def test_datasets_loads_the_corpus_and_trl_collates_it_with_an_assistant_only_loss(
    jobs: Path, tmp_path: Path, tokenizer: Any
) -> None:
    import datasets
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from trl import SFTConfig, SFTTrainer

    tok, _ = tokenizer
    export_sft(jobs, ALL, tmp_path / "c.jsonl", entries=6, seed=1)
    ds = datasets.load_dataset(
        "json", data_files=str(tmp_path / "c.jsonl"), split="train", cache_dir=str(tmp_path / "hf")
    )
    assert ds.num_rows == 6 and set(ds.column_names) == {"messages", "tools", "provenance"}
    assert ds[0]["provenance"]["verdict"]["pass"] is True
    model = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=len(tok),
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            num_key_value_heads=2,
            max_position_embeddings=8192,
        )
    )
    args = SFTConfig(
        output_dir=str(tmp_path / "out"),
        assistant_only_loss=True,
        max_length=None,
        per_device_train_batch_size=2,
        max_steps=1,
        report_to="none",
        use_cpu=True,
        save_strategy="no",
        logging_strategy="no",
        seed=0,
    )
    trainer = SFTTrainer(model=model, args=args, train_dataset=ds, processing_class=tok)
    batch = next(iter(trainer.get_train_dataloader()))
    assert batch["input_ids"].shape == batch["labels"].shape and batch["input_ids"].shape[0] == 2
    for ids, labels in zip(trainer.train_dataset["input_ids"], trainer.train_dataset["labels"], strict=True):
        trained = tok.decode([i for i, lab in zip(ids, labels, strict=True) if lab != -100])
        assert "step" in trained and "write_file" in trained  # the assistant turns and their calls
        assert "software engineer" not in trained and "exit code" not in trained  # not system, not tools
        assert 0 < sum(lab != -100 for lab in labels) < len(ids)
    loss = trainer.train().training_loss
    assert torch.isfinite(torch.tensor(loss))


def test_a_tokenizer_json_counts_tokens_and_bad_options_are_one_line_errors(
    jobs: Path, tmp_path: Path, tokenizer: Any
) -> None:
    _, path = tokenizer
    (tmp_path / "ids").write_text("# held out\nlin-alpha-v1\n\n")
    res = swr(
        "export",
        "sft",
        *ALL,
        "--jobs-dir",
        str(jobs),
        "--out",
        str(tmp_path / "c.jsonl"),
        "--tokenizer",
        str(path),
        "--exclude",
        str(tmp_path / "ids"),
        "--json",
    )
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["tokenizer"] == str(path) and summary["held_out_groups"] == ["workflow:lin-alpha"]
    got = {r["provenance"]["run"]: r["provenance"]["tokens"] for r in rows(tmp_path / "c.jsonl")}
    assert len(got) == summary["entries"] == 5
    export_sft(jobs, ALL, tmp_path / "o200k.jsonl")
    o200k = {r["provenance"]["run"]: r["provenance"]["tokens"] for r in rows(tmp_path / "o200k.jsonl")}
    assert all(o200k[k] != n for k, n in got.items())  # another tokenizer, other counts
    for extra, needle in (
        (["--tokenizer", "no_such_encoding"], "--tokenizer"),
        (["--exclude", str(tmp_path / "missing")], "--exclude"),
        (["--entries", "0"], "--entries"),
    ):
        bad = swr("export", "sft", *ALL, "--jobs-dir", str(jobs), "--out", str(tmp_path / "x.jsonl"), *extra)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and needle in bad.stderr, bad.stderr
    bad = swr("export", "sft", "nojob", "--jobs-dir", str(jobs), "--out", str(tmp_path / "x.jsonl"))
    assert bad.returncode == 2 and "no job named 'nojob'" in bad.stderr and bad.stderr.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()


def test_audit_summary_is_compact_and_none_without_audits(linear_release: Path, tmp_path: Path) -> None:
    """`swr audit replay` keeps its result as RELEASE/audit/replay.json (on a copy: the session release stays
    unaudited); its hash and top-level figures go into every row's provenance; no audit says "none"."""
    from swr.core.layout import ReleasePaths
    from swr.export.sft import audit_summary

    rel = ReleasePaths(copy_tree(linear_release, tmp_path / "release"))
    assert audit_summary(rel.root) == "none"
    res = swr("audit", "replay", str(rel.root), "--json")
    assert res.returncode in (0, 1), res.stderr
    saved = rel.audit_result("replay")
    assert saved.is_file()
    summary = json.loads(audit_summary(rel.root))
    full = json.loads(saved.read_text())
    assert list(summary) == ["replay"] and summary["replay"]["sha256"] == hashlib.sha256(saved.read_bytes()).hexdigest()
    scalars = {k: v for k, v in full.items() if isinstance(v, (bool, int, float))}
    assert scalars and all(summary["replay"][k] == v for k, v in scalars.items())
    assert not any(isinstance(v, (dict, list)) for v in summary["replay"].values())
    (rel.audit / "notes.txt").write_text("not an audit result")
    assert json.loads(audit_summary(rel.root)) == summary  # only audit/<name>.json files count
