"""Hidden verifier of the SCADA/DCS runtime. journal_exact, historian_exact and final_state_exact compare the
candidate's journal, historian and final tables with the reference's. journal_consistency and
historian_deadband never look at the expected output: the first replays the candidate's own journal against
the ISA-18.2 state machine and the operator script (legal transitions only, times monotone, an
acknowledgement only of an unacknowledged alarm and only where the script acknowledged it, interlocks latched
until an accepted reset, output changes real) and demands its final tables be where its journal leads; the
second recomputes each tag's scanned value from the field script and demands the candidate's own stored
samples obey the deadband/max-interval rule against it."""
import json
import sys
from typing import Any

LEGAL = {("NORM", "UNACK"), ("UNACK", "ACKED"), ("UNACK", "RTNUN"), ("ACKED", "NORM"), ("RTNUN", "NORM"),
         ("RTNUN", "UNACK")}
BY_ACK = {("UNACK", "ACKED"), ("RTNUN", "NORM")}
CHECKS = ("journal_exact", "historian_exact", "final_state_exact", "journal_consistency", "historian_deadband")


def num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def same(a: Any, b: Any) -> bool:
    """Deep equality; numbers by value (50 is 50.0), booleans, strings and null by type too."""
    if num(a) and num(b):
        return bool(a == b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def compare(got: Any, want: list, what: str) -> tuple[int, str]:
    """Entries of `got` that differ from `want` (missing and extra entries count)."""
    if not isinstance(got, list):
        return len(want) or 1, f"no {what} list"
    bad = [i for i in range(len(want)) if i >= len(got) or not same(got[i], want[i])]
    extra = max(0, len(got) - len(want))
    first = f"{what}[{bad[0]}] differs from the reference" if bad else ""
    return len(bad) + extra, first or (f"{extra} extra {what} entries" if extra else f"{what} equal entry for entry")


def historian_exact(got: Any, want: dict) -> tuple[int, str]:
    if not isinstance(got, dict) or got.keys() != want.keys():
        return sum(len(v) for v in want.values()) or 1, "historian does not hold exactly the input tags"
    bad, first = 0, ""
    for tag in want:
        n, d = compare(got[tag], want[tag], f"historian.{tag}")
        bad, first = bad + n, first or (d if n else "")
    return bad, first or "every tag's stored samples equal the reference's"


def final_state(out: dict, want: dict) -> tuple[int, str]:
    bad = [k for k in ("tags", "alarms", "interlocks", "outputs") if not same(out.get(k), want[k])]
    return len(bad), (f"final {bad[0]} differ from the reference" if bad else "final tables equal the reference's")


class Replay:
    """The alarm, interlock and output states the candidate's journal itself leads to."""

    def __init__(self, d: dict) -> None:
        self.d = d
        self.state = {a["id"]: "NORM" for a in d["alarms"]}
        self.tripped = {i["id"]: False for i in d["interlocks"]}
        self.forces = {i["id"]: i["outputs"] for i in d["interlocks"]}
        self.outs = {n: t["initial"] for n, t in d["tags"].items() if t["type"] == "output"}
        self.acts = sorted(d["operator"], key=lambda a: a["t"])  # stable: script order within a tick
        self.k, self.last_t = 0, 0
        self.pending: tuple[str, str] | None = None  # ("ack" | "reset", target) awaiting its consequence

    def entry(self, e: Any) -> str:
        """Why this journal entry cannot follow the previous ones, or ''."""
        if not isinstance(e, dict) or not isinstance(e.get("t"), int) or isinstance(e.get("t"), bool):
            return "an entry without an integer t"
        if not self.last_t <= e["t"] < self.d["ticks"]:
            return f"time {e['t']} out of order or outside the run"
        self.last_t = e["t"]
        pending, self.pending = self.pending, None
        ev = e.get("event")
        if pending and (ev, e.get("alarm", e.get("interlock"))) != ({"ack": "alarm", "reset": "interlock"}[pending[0]],
                                                                    pending[1]):
            return f"an accepted {pending[0]} of {pending[1]} not followed by its transition"
        if ev == "alarm":
            return self.alarm(e, pending)
        if ev == "operator":
            return self.operator(e)
        if ev == "interlock":
            return self.interlock(e, pending)
        if ev == "output":
            tag = e.get("tag")
            if tag not in self.outs or not isinstance(e.get("value"), bool) or e["value"] == self.outs[tag]:
                return "an output entry that changes no output"
            self.outs[e["tag"]] = e["value"]
            return ""
        return f"unknown event {ev!r}"

    def alarm(self, e: dict, pending: tuple[str, str] | None) -> str:
        aid, move = e.get("alarm"), (e.get("from"), e.get("to"))
        if aid not in self.state or move[0] != self.state[aid]:
            return f"alarm {aid!r} moves from {move[0]!r}, its journal left it {self.state.get(aid)!r}"
        if move not in LEGAL:
            return f"alarm {aid}: {move[0]} -> {move[1]} is no ISA-18.2 transition"
        if (move in BY_ACK) != (pending == ("ack", aid)):
            return f"alarm {aid}: {move[0]} -> {move[1]} without (or instead of) the operator's acknowledgement"
        self.state[aid] = move[1]
        return ""

    def operator(self, e: dict) -> str:
        if self.k >= len(self.acts):
            return "more operator entries than operator actions"
        act, self.k = self.acts[self.k], self.k + 1
        a = act.get("action")
        target = act.get({"ack": "alarm", "reset": "interlock", "set": "tag"}.get(a, "target") if isinstance(a, str)
                         else "target")
        if (e["t"], e.get("action"), e.get("target")) != (act["t"], a if isinstance(a, str) else None,
                                                          target if isinstance(target, str) else None):
            return f"operator entry {self.k - 1} is not the script's action at t={act['t']}"
        if e.get("status") not in ("accepted", "rejected"):
            return "operator status neither accepted nor rejected"
        ok = e["status"] == "accepted"
        if a == "ack" and target in self.state:
            unacked = self.state[target] in ("UNACK", "RTNUN")
            if ok != unacked:
                return f"ack of {target} in state {self.state[target]} {e['status']}"
        elif a == "reset" and target in self.tripped:
            if ok and not self.tripped[target]:
                return f"reset of {target}, which its journal never left tripped, accepted"
        elif a == "set" and target in self.outs:
            forced = any(self.tripped[i] and target in o for i, o in self.forces.items())
            if ok and (forced or not isinstance(act.get("value"), bool)):
                return f"set of {target} accepted while interlocked or with a non-boolean value"
        elif ok:
            return f"{a!r} of an unknown target accepted"
        if ok and a in ("ack", "reset"):
            self.pending = (a, target)
        return ""

    def interlock(self, e: dict, pending: tuple[str, str] | None) -> str:
        iid, to = e.get("interlock"), e.get("to")
        if iid not in self.tripped or to not in ("tripped", "normal"):
            return f"interlock entry {iid!r} -> {to!r}"
        if to == "tripped" and self.tripped[iid]:
            return f"interlock {iid} trips twice without a reset"
        if to == "normal" and pending != ("reset", iid):
            return f"interlock {iid} back to normal without an accepted reset"
        self.tripped[iid] = to == "tripped"
        return ""


def consistency(d: dict, out: dict) -> tuple[int, str]:
    journal = out.get("journal")
    if not isinstance(journal, list):
        return 1, "no journal list"
    r, bad, first = Replay(d), 0, ""
    for i, e in enumerate(journal):
        why = r.entry(e)
        bad, first = bad + bool(why), first or (f"journal[{i}]: {why}" if why else "")
    if r.pending:
        bad, first = bad + 1, first or f"the journal ends before the accepted {r.pending[0]} takes effect"
    if r.k != len(r.acts):
        bad, first = bad + 1, first or f"{len(r.acts) - r.k} operator actions not journalled"
    ends = {"alarms": r.state, "interlocks": {i: "tripped" if v else "normal" for i, v in r.tripped.items()},
            "outputs": r.outs}
    for k, v in ends.items():
        if not same(out.get(k), v):
            bad, first = bad + 1, first or f"final {k} are not where the journal leads"
    return bad, first or "every transition legal, acks only of unacknowledged alarms, finals follow the journal"


def scripted(d: dict, tag: str) -> list[list[Any]]:
    """[t, value, quality] at each of the tag's scan ticks, from the field script alone (spec 2, 3)."""
    c, period = d["tags"][tag], d["scan_classes"][d["tags"][tag]["scan_class"]]
    raw, comm, value, out = None, "ok", None, []
    evs = [e for e in d["field"] if e["tag"] == tag]
    for t in range(d["ticks"]):
        for e in evs:
            if e["t"] == t:
                raw, comm = e.get("raw", raw), e.get("comm", comm)
        if t % period:
            continue
        if comm == "fail" or raw is None:
            out.append([t, value, "bad"])
        elif c["type"] == "digital":
            value = raw == 1
            out.append([t, value, "good"])
        else:
            r = min(max(raw, c["raw_lo"]), c["raw_hi"])
            value = c["eu_lo"] + (r - c["raw_lo"]) * (c["eu_hi"] - c["eu_lo"]) / (c["raw_hi"] - c["raw_lo"])
            out.append([t, value, "good" if r == raw else "uncertain"])
    return out


def due(c: dict, last: list, s: list) -> bool:
    if last[2] != s[2] or s[0] - last[0] >= c["hist_max_interval"]:
        return True
    if c["type"] == "digital" or last[1] is None or s[1] is None:
        return not same(last[1], s[1])
    return bool(abs(s[1] - last[1]) > c["hist_deadband"])


def deadband(d: dict, hist: Any) -> tuple[int, str]:
    tags = [n for n, t in d["tags"].items() if t["type"] != "output"]
    if not isinstance(hist, dict) or sorted(hist) != sorted(tags):
        return len(tags), "historian does not hold exactly the input tags"
    bad, first = 0, ""
    for tag in tags:
        mine = hist[tag] if isinstance(hist[tag], list) else []
        stored = {s[0]: s for s in mine if isinstance(s, list) and len(s) == 3 and isinstance(s[0], int)}
        scans = scripted(d, tag)
        extra = len(mine) - len({s[0] for s in scans} & set(stored))
        if extra or [s[0] for s in mine] != sorted(stored):
            bad, first = bad + max(extra, 1), first or f"historian.{tag}: samples off the scan ticks or out of order"
        last = None
        for s in scans:
            must = last is None or due(d["tags"][tag], last, s)
            got = stored.get(s[0])
            why = ("not stored though it moved past the deadband, changed quality or reached the max interval"
                   if must and got is None else "stored though within the deadband" if got is not None and not must
                   else "stored value or quality is not the scripted one" if got is not None and not same(got, s)
                   else "")
            bad, first = bad + bool(why), first or (f"historian.{tag} t={s[0]}: {why}" if why else "")
            last = got if got is not None else last
    return bad, first or "every stored sample obeys the deadband and max-interval rule on the scripted values"


def grade(d: dict) -> list:
    out = d.get("output") if isinstance(d.get("output"), dict) else {}
    exp, inp = d["expected"], d["input"]
    res = {"journal_exact": compare(out.get("journal"), exp["journal"], "journal"),
           "historian_exact": historian_exact(out.get("historian"), exp["historian"]),
           "final_state_exact": final_state(out, exp), "journal_consistency": consistency(inp, out),
           "historian_deadband": deadband(inp, out.get("historian"))}
    return [{"check": c, "measured": n, "pass": n == 0, "detail": why} for c, (n, why) in res.items()]


def main() -> None:
    d = json.load(sys.stdin)
    try:
        recs = grade(d)
    except Exception as e:  # a malformed output is a failure, never a crash
        recs = [{"check": c, "measured": None, "pass": False, "detail": f"malformed output: {type(e).__name__}"}
                for c in CHECKS]
    print(json.dumps({"checks": recs}))


main()
