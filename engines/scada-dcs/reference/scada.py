"""Reference SCADA/DCS runtime (clean room, stdlib only), spec.md sections 1-7: a tag database scanned by
scan classes from a scripted field timeline, raw-to-EU scaling with clamping and quality, ISA-18.2 alarm
states with limits, deadbands and on-delays, operator acknowledgements, latched interlocks forcing outputs
to their safe state, and a deadband/max-interval historian. Each spec rule is decided in one small method
so that the hidden-case generator can check every case tells each rule apart."""

from __future__ import annotations

from typing import Any

ACTIVE = ("UNACK", "ACKED")
HIGH = ("HI", "HIHI")
TARGET = {"ack": "alarm", "reset": "interlock", "set": "tag"}  # the field an action names its target by


class Scada:
    """The runtime's whole state; `run` drives it tick by tick."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.tags = cfg["tags"]
        self.periods = cfg["scan_classes"]
        self.inputs = [n for n, t in self.tags.items() if t["type"] in ("analog", "digital")]
        self.value: dict[str, Any] = {n: None for n in self.inputs}
        self.quality = {n: "bad" for n in self.inputs}
        self.device: dict[str, dict[str, Any]] = {n: {"raw": None, "comm": "ok"} for n in self.inputs}
        self.alarms = {a["id"]: a for a in cfg["alarms"]}
        self.state = {a["id"]: "NORM" for a in cfg["alarms"]}
        self.count = {a["id"]: 0 for a in cfg["alarms"]}
        self.interlocks = {i["id"]: i for i in cfg["interlocks"]}
        self.tripped = {i["id"]: False for i in cfg["interlocks"]}
        self.outputs = [n for n, t in self.tags.items() if t["type"] == "output"]
        self.commanded = {n: self.tags[n]["initial"] for n in self.outputs}
        self.history: dict[str, list[list[Any]]] = {n: [] for n in self.inputs}
        self.journal: list[dict[str, Any]] = []

    # -- scanning (spec 2, 3)
    def due(self, tag: str, t: int) -> bool:
        """A tag is sampled only on its scan class's ticks."""
        return t % self.periods[self.tags[tag]["scan_class"]] == 0

    def convert(self, tag: str, raw: Any) -> tuple[Any, str]:
        """Raw counts to an engineering value and its quality: clamped into range, uncertain outside it."""
        c = self.tags[tag]
        if c["type"] == "digital":
            return raw == 1, "good"
        lo, hi = c["raw_lo"], c["raw_hi"]
        quality = "uncertain" if raw < lo or raw > hi else "good"
        r = min(max(raw, lo), hi)
        return c["eu_lo"] + (r - lo) * (c["eu_hi"] - c["eu_lo"]) / (hi - lo), quality

    def scan(self, tag: str, t: int) -> None:
        dev = self.device[tag]
        if dev["comm"] == "fail" or dev["raw"] is None:
            self.quality[tag] = "bad"
        else:
            self.value[tag], self.quality[tag] = self.convert(tag, dev["raw"])
        self.historize(tag, t)

    # -- historian (spec 6)
    def store(self, tag: str, last: list[Any] | None, sample: list[Any]) -> bool:
        """Store when there is no sample yet, the quality changed, the value moved by more than the deadband
        (a digital tag: changed at all), or the max interval has passed since the last stored sample."""
        if last is None or last[2] != sample[2]:
            return True
        if sample[0] - last[0] >= self.tags[tag]["hist_max_interval"]:
            return True
        if self.tags[tag]["type"] == "digital" or last[1] is None or sample[1] is None:
            return bool(last[1] != sample[1])
        return bool(abs(sample[1] - last[1]) > self.tags[tag]["hist_deadband"])

    def historize(self, tag: str, t: int) -> None:
        sample = [t, self.value[tag], self.quality[tag]]
        h = self.history[tag]
        if self.store(tag, h[-1] if h else None, sample):
            h.append(sample)

    # -- alarms (spec 4)
    def beyond(self, a: dict[str, Any], v: Any) -> bool:
        return bool(v > a["limit"]) if a["kind"] in HIGH else bool(v < a["limit"])

    def cleared(self, a: dict[str, Any], v: Any) -> bool:
        """An active alarm returns only once the value is back inside the limit by the deadband."""
        return bool(v <= a["limit"] - a["deadband"]) if a["kind"] in HIGH else bool(v >= a["limit"] + a["deadband"])

    def evaluated(self, a: dict[str, Any]) -> bool:
        """A bad-quality value neither raises nor clears an alarm, and restarts its on-delay."""
        if self.quality[a["tag"]] == "bad":
            self.count[a["id"]] = 0
            return False
        return True

    def delayed(self, a: dict[str, Any]) -> bool:
        """The condition must hold on on_delay + 1 consecutive evaluated ticks."""
        self.count[a["id"]] += 1
        return self.count[a["id"]] > a["on_delay"]

    def move(self, t: int, aid: str, to: str) -> None:
        self.journal.append({"t": t, "event": "alarm", "alarm": aid, "from": self.state[aid], "to": to})
        self.state[aid] = to

    def alarm_step(self, t: int, a: dict[str, Any]) -> None:
        aid = a["id"]
        if not self.evaluated(a):
            return
        v = self.value[a["tag"]]
        if self.state[aid] in ACTIVE:
            self.count[aid] = 0
            if self.cleared(a, v):
                self.move(t, aid, "RTNUN" if self.state[aid] == "UNACK" else "NORM")
        elif self.beyond(a, v):
            if self.delayed(a):
                self.count[aid] = 0
                self.move(t, aid, "UNACK")
        else:
            self.count[aid] = 0

    # -- interlocks and outputs (spec 5)
    def compare(self, c: dict[str, Any]) -> bool:
        """A comparison on a bad-quality tag is true: an interlock fails safe."""
        if self.quality[c["tag"]] == "bad":
            return True
        v, w, op = self.value[c["tag"]], c["value"], c["op"]
        return bool({">": v > w, ">=": v >= w, "<": v < w, "<=": v <= w, "==": v == w}[op])

    def holds(self, c: dict[str, Any]) -> bool:
        if "all" in c:
            return all(self.holds(x) for x in c["all"])
        if "any" in c:
            return any(self.holds(x) for x in c["any"])
        if "not" in c:
            return not self.holds(c["not"])
        if "alarm" in c:
            return self.state[c["alarm"]] in ACTIVE
        return self.compare(c)

    def output(self, tag: str) -> bool:
        forced = any(self.tripped[i] and tag in il["outputs"] for i, il in self.interlocks.items())
        return bool(self.tags[tag]["safe"]) if forced else bool(self.commanded[tag])

    def outputs_now(self) -> dict[str, bool]:
        return {n: self.output(n) for n in self.outputs}

    def log_outputs(self, t: int, before: dict[str, bool]) -> None:
        for n, v in self.outputs_now().items():
            if v != before[n]:
                self.journal.append({"t": t, "event": "output", "tag": n, "value": v})

    def trip(self, t: int, iid: str) -> None:
        """A trip latches and overwrites the command of each forced output with its safe state."""
        self.tripped[iid] = True
        self.journal.append({"t": t, "event": "interlock", "interlock": iid, "to": "tripped"})
        for n in self.interlocks[iid]["outputs"]:
            self.commanded[n] = self.tags[n]["safe"]

    # -- operator (spec 5)
    def operate(self, t: int, act: Any) -> None:
        a = act.get("action")
        target = act.get(TARGET.get(a, "target") if isinstance(a, str) else "target")
        reason = self.refuse(act)
        entry = {"t": t, "event": "operator", "action": a if isinstance(a, str) else None,
                 "target": target if isinstance(target, str) else None,
                 "status": "rejected" if reason else "accepted", "reason": reason}
        self.journal.append(entry)
        if reason:
            return
        before = self.outputs_now()
        if a == "ack":
            self.move(t, target, "ACKED" if self.state[target] == "UNACK" else "NORM")
        elif a == "reset":
            self.tripped[target] = False
            self.journal.append({"t": t, "event": "interlock", "interlock": target, "to": "normal"})
        else:
            self.commanded[target] = act["value"]
        self.log_outputs(t, before)

    def refuse(self, act: dict[str, Any]) -> str | None:
        a = act.get("action")
        if a == "ack":
            aid = act.get("alarm")
            if not isinstance(aid, str) or aid not in self.state:
                return "unknown_alarm"
            return None if self.state[aid] in ("UNACK", "RTNUN") else "not_unacknowledged"
        if a == "reset":
            iid = act.get("interlock")
            if not isinstance(iid, str) or iid not in self.tripped:
                return "unknown_interlock"
            if not self.tripped[iid]:
                return "not_tripped"
            return "condition_active" if self.holds(self.interlocks[iid]["when"]) else None
        if a == "set":
            tag = act.get("tag")
            if not isinstance(tag, str) or tag not in self.commanded:
                return "unknown_output"
            if not isinstance(act.get("value"), bool):
                return "invalid_value"
            forced = any(self.tripped[i] and tag in il["outputs"] for i, il in self.interlocks.items())
            return "interlocked" if forced else None
        return "unknown_action"

    # -- the cycle (spec 2)
    def tick(self, t: int) -> None:
        self.sense(t)
        self.act(t)

    def sense(self, t: int) -> None:
        """A tick's first half: field changes, the scans due, the alarms."""
        for ev in self.cfg["field"]:
            if ev["t"] == t:
                self.device[ev["tag"]].update({k: ev[k] for k in ("raw", "comm") if k in ev})
        for tag in self.inputs:
            if self.due(tag, t):
                self.scan(tag, t)
        for a in self.cfg["alarms"]:
            self.alarm_step(t, a)

    def act(self, t: int) -> None:
        """A tick's second half: the operator's actions in script order, then the interlocks."""
        for act in self.cfg["operator"]:
            if act["t"] == t:
                self.operate(t, act)
        for iid, il in self.interlocks.items():
            if not self.tripped[iid] and self.holds(il["when"]):
                before = self.outputs_now()
                self.trip(t, iid)
                self.log_outputs(t, before)

    def result(self) -> dict[str, Any]:
        tags: dict[str, Any] = {}
        for n in self.inputs:
            tags[n] = {"value": self.value[n], "quality": self.quality[n]}
            if self.tags[n]["type"] == "analog":
                tags[n]["units"] = self.tags[n]["units"]
        return {"journal": self.journal, "historian": self.history, "tags": tags, "alarms": dict(self.state),
                "interlocks": {i: "tripped" if v else "normal" for i, v in self.tripped.items()},
                "outputs": self.outputs_now()}


def run(cfg: dict[str, Any], engine: type[Scada] = Scada) -> dict[str, Any]:
    s = engine(cfg)
    for t in range(cfg["ticks"]):
        s.tick(t)
    return s.result()
