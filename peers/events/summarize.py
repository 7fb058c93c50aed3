#!/usr/bin/env python3
"""Tables of the peers' answers to vectors/event_profile.json against its certified intervals.

Usage: python3 peers/events/summarize.py [ANSWERS_DIR] > tables.md

Reads vectors/event_profile.json and ANSWERS_DIR/NAME.jsonl (default peers/events/answers; the answers
make_event_peers.sh writes) and prints, in Markdown: per accountant the counts of its answers to valid
tests below the certified lower end (unsound), inside [lower, upper], above upper (loose), refused,
unsupported, hung or crashed, and its answers to invalid tests; then per event kind (the mechanism
classes under Composed/SelfComposed, and the relation) each accountant's grades; then every test with
each accountant's answer. Standard library only; a grade is computed from the float64 values alone.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def leaves(e):
    c = e["class_name"]
    if c == "SelfComposedDpEvent":
        return leaves(e["event"])
    if c == "ComposedDpEvent":
        out = []
        for s in e["events"]:
            out += leaves(s)
        return out
    if c == "PoissonSampledDpEvent":
        return ["PoissonSampled(%s)" % "+".join(sorted(set(x.replace("DpEvent", "") for x in leaves(e["event"]))))]
    return [c.replace("DpEvent", "")]


def kind(g, t):
    if g["name"].endswith("/invalid"):
        return "invalid input"
    if g["name"].endswith("/users-asked"):
        return "users' questions (DP-SGD)"
    ls = sorted(set(leaves(t["event"])))
    return ("composed: " if len(ls) > 1 or g["name"].endswith("/composed") else "") + " + ".join(ls)


def num(v):
    return float("inf") if v == "inf" else float("-inf") if v == "-inf" else float("nan") if v == "nan" else float(v)


def grade(t, a):
    """(grade, shown): grade one of below, inside, above, refused, unsupported, hang, crashed, adapter,
    none; invalid tests: rejected or answered."""
    if a is None:
        return "none", "-"
    if "value" in a:
        v = num(a["value"])
        if t["result"] == "invalid":
            return "answered", "%.6g (should refuse)" % v
        lo, hi = float.fromhex(t["lowerHex"]), float.fromhex(t["upperHex"])
        if not v >= lo:
            return "below", "**%.6g below**" % v
        if v > hi:
            return "above", "%.6g above" % v
        return "inside", "%.6g inside" % v
    if a.get("unsupported"):
        return "unsupported", "unsupported"
    if a.get("hang"):
        return "hang", "hang"
    if "crashed" in a:
        return "crashed", "crashed"
    if "adapterError" in a:
        return "adapter", "adapter error"
    if t["result"] == "invalid":
        return "rejected", "refused (right)"
    return "refused", "refused: " + a.get("errorType", "?")


def main():
    adir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "peers", "events", "answers")
    with open(os.path.join(ROOT, "vectors", "event_profile.json")) as f:
        vec = json.load(f)
    tests = [(g, t) for g in vec["testGroups"] for t in g["tests"]]
    names = sorted(n[:-6] for n in os.listdir(adir) if n.endswith(".jsonl"))
    answers = {}
    for n in names:
        answers[n] = {}
        with open(os.path.join(adir, n + ".jsonl")) as f:
            for line in f:
                if line.strip():
                    a = json.loads(line)
                    answers[n][a["tcId"]] = a
    print("event_profile.json version %d, %d tests; answers from %s\n" % (vec["version"], len(tests), os.path.relpath(adir, ROOT)))
    print("The users' questions (group event-epsilon/users-asked): each answer, and how far it lies from the interval (below: (lower - answer)/lower; above: answer/upper - 1).\n")
    print("| accountant | " + " | ".join("tcId %d" % t["tcId"] for g, t in tests if g["name"].endswith("/users-asked")) + " |")
    print("|---|" + "---|" * sum(1 for g, t in tests if g["name"].endswith("/users-asked")))
    print("| certified [lower, upper] | " + " | ".join("[%s, %s]" % (t["lower"], t["upper"]) for g, t in tests if g["name"].endswith("/users-asked")) + " |")
    for n in names:
        cells = []
        for g, t in tests:
            if not g["name"].endswith("/users-asked"):
                continue
            a = answers[n].get(t["tcId"])
            gr, shown = grade(t, a)
            if gr == "below":
                lo = float.fromhex(t["lowerHex"])
                shown = "**%.6g: below by %.2g**" % (num(a["value"]), (lo - num(a["value"])) / lo)
            elif gr == "above":
                shown = "%.6g: above by %.2g" % (num(a["value"]), num(a["value"]) / float.fromhex(t["upperHex"]) - 1)
            elif gr == "refused":
                shown = "refused: " + a.get("error", "")[:90]
            cells.append(shown)
        print("| %s | %s |" % (n, " | ".join(cells)))
    print()
    cols = ["below", "inside", "above", "refused", "unsupported", "hang", "crashed", "adapter", "none", "rejected", "answered"]
    print("| accountant | " + " | ".join(cols[:9]) + " | invalid: refused | invalid: answered |")
    print("|---|" + "---:|" * 11)
    for n in names:
        c = {k: 0 for k in cols}
        for g, t in tests:
            c[grade(t, answers[n].get(t["tcId"]))[0]] += 1
        print("| %s | %s |" % (n, " | ".join(str(c[k]) for k in cols)))
    print("\nValid tests by event kind and relation: below/inside/above/refused/unsupported-or-other, per accountant.\n")
    kinds = []
    for g, t in tests:
        if t["result"] == "invalid":
            continue
        k = (kind(g, t), t["neighboringRelation"])
        if k not in kinds:
            kinds.append(k)
    print("| kind | relation | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for k in kinds:
        cells = []
        for n in names:
            c = {}
            for g, t in tests:
                if t["result"] != "invalid" and (kind(g, t), t["neighboringRelation"]) == k:
                    gr = grade(t, answers[n].get(t["tcId"]))[0]
                    gr = gr if gr in ("below", "inside", "above", "refused") else "other"
                    c[gr] = c.get(gr, 0) + 1
            cells.append("/".join(str(c.get(x, 0)) for x in ("below", "inside", "above", "refused", "other")))
        print("| %s | %s | %s |" % (k[0], k[1], " | ".join(cells)))
    print("\nEvery test: the certified interval and each answer.\n")
    print("| tcId | function | test | lower | upper | " + " | ".join(names) + " |")
    print("|---:|---|---|---:|---:|" + "---|" * len(names))
    for g, t in tests:
        row = [str(t["tcId"]), g["function"], t["comment"].replace("|", "/"), t.get("lower", "-"), t.get("upper", "-")]
        row += [grade(t, answers[n].get(t["tcId"]))[1] for n in names]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
