#!/usr/bin/env python3
"""Tables for docs/autotune.md from the files benchmarks/autotune.sh writes."""
import glob
import json
import math
import os
import sys


def median(m):
    if not m or not m.get("correct") or not m.get("measured_ms"):
        return None
    return m["measured_ms"]["median"]


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


out = sys.argv[1]
rows, ratios = [], {"one_shot": [], "li2018": [], "anderson2021": [], "naive": []}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    name = os.path.basename(path)[:-5]
    if name == "models" or name.startswith("transfer-"):
        continue
    j = json.load(open(path))
    best = median(j["best"])
    base = {b["label"].split(":", 1)[1]: median(b) for b in j["baselines"]}
    row = [name, fmt(best, 4), fmt(median(j["one_shot"]), 4)]
    for key in ("one_shot", "li2018", "anderson2021", "naive"):
        other = median(j["one_shot"]) if key == "one_shot" else base.get(key)
        r = other / best if other and best else None
        ratios[key].append(r)
        row.append(fmt(r))
    taus = [fmt(r.get("tau")) for r in j["rounds"]]
    row.append(" ".join(taus))
    rows.append(row)

print("| pipeline | best ms | one-shot ms | vs one-shot | vs Li2018 | vs Anderson2021 | vs naive | tau per round |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print("| geomean | | | " + " | ".join(fmt(geomean(ratios[k])) for k in ("one_shot", "li2018", "anderson2021", "naive")) + " | |")

models = json.load(open(os.path.join(out, "models.json")))
print()
print(f"Held-out rows: {models['test_rows']} (trained on {models['train_rows']}); tau / pairwise accuracy")
print()
names = list(models["overall"].keys())
print("| pipeline | rows | " + " | ".join(names) + " |")
print("|---|---|" + "---|" * len(names))
better = 0
for p in models["pipelines"]:
    cells = [fmt(p["models"][n]["tau"]) + " / " + fmt(p["models"][n]["pairwise_accuracy"]) for n in names]
    lt, at = p["models"].get("learned", {}).get("tau"), p["models"]["analytic"]["tau"]
    better += lt is not None and at is not None and lt > at
    print(f"| {p['pipeline']} | {p['rows']} | " + " | ".join(cells) + " |")
print("| overall | | " + " | ".join(fmt(models["overall"][n]["tau"]) + " / " + fmt(models["overall"][n]["pairwise_accuracy"]) for n in names) + " |")
print(f"\nlearned tau above analytic tau on {better} of {len(models['pipelines'])} pipelines")

transfer = []
print("\n| pipeline | analytic one-shot ms | leave-one-out learned one-shot ms | ratio |")
print("|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(out, "transfer-*.json"))):
    app = os.path.basename(path)[len("transfer-"):-5]
    t = json.load(open(path))
    chosen = next((c for c in t["candidates"] if c["label"] == t.get("chosen")), None)
    learned = median(chosen)
    tuned = json.load(open(os.path.join(out, app + ".json")))
    analytic = median(tuned["one_shot"])
    r = analytic / learned if analytic and learned else None
    transfer.append(r)
    print(f"| {app} | {fmt(analytic, 4)} | {fmt(learned, 4)} | {fmt(r)} |")
print(f"| geomean | | | {fmt(geomean(transfer))} |")
