#!/usr/bin/env python3
"""docs/import.md's table from benchmarks/import_table.sh's JSON lines (stdin)."""
import collections
import json
import sys


def verdicts(funcs):
    counts = collections.Counter()
    for f in funcs:
        w = f.get("why_not") or {}
        if f["representable"]:
            counts[w.get("verdict") or "no answer"] += 1
    return ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))


def constructs(funcs):
    out = []
    for f in funcs:
        if not f["representable"]:
            first = f["constructs"][0] if f["constructs"] else "?"
            more = len(f["constructs"]) - 1
            out.append(f"{f['name']}: {first}" + (f" (+{more})" if more > 0 else ""))
    return "; ".join(out)


def main():
    print("| app | Funcs | representable | status | imported decisions in Beamscope's search "
          "(Why not?) | constructs outside the space | predicted ms ours / theirs | wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        d = json.loads(line)
        if "funcs" not in d:
            print(f"| {d['app']} | | | not run: exit {d.get('exit')} "
                  f"(limit {d.get('limit_s')} s) {d.get('error', '')} | | | | |")
            continue
        funcs = d["funcs"]
        rep = sum(1 for f in funcs if f["representable"])
        if rep == len(funcs):
            chosen = all((f.get("why_not") or {}).get("verdict") == "chosen" for f in funcs)
            status = "representable, reached" if chosen else "representable, not reached"
        else:
            status = "not representable"
        cost = d["cost"]
        theirs = "—" if cost["theirs"] is None else f"{cost['theirs']:.3g}"
        print(f"| {d['app']} | {len(funcs)} | {rep} | {status} | {verdicts(funcs)} | "
              f"{constructs(funcs)} | {cost['ours']:.3g} / {theirs} | {d['wall_s']} |")


if __name__ == "__main__":
    main()
