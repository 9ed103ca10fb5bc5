#!/usr/bin/env python3
"""Bench reports (`bench --json`) of catalog apps into measurement rows, for reports that were
run with --no-db (the GPU check before it recorded its bench rows, docs/gpu-check.md).

    benchmarks/report_rows.py TEMPLATE_DB OUT_DB RUN_ID REPORT.json...

Each candidate and baseline that ran becomes one row of origin `bench` and run id RUN_ID in
OUT_DB (created with TEMPLATE_DB's schema). The pipeline and device columns are copied from a
row of the same app and device in TEMPLATE_DB (the shared H100 database: catalog apps at default
sizes), so a report whose app or device has no row there is refused. Features are left to the
readers (feature_schema 0: `train` and `models` featurize the schedule again)."""
import json
import sqlite3
import sys
import time


def fnv1a64_hex(text):
    """Identity.cpp's scheduleHash: FNV-1a 64 over the compact JSON dump."""
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def compact(value):
    # nlohmann::json's dump(): sorted keys, no spaces.
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def main(argv):
    if len(argv) < 5:
        sys.exit("usage: report_rows.py TEMPLATE_DB OUT_DB RUN_ID REPORT.json...")
    template_db, out_db, run_id, reports = argv[1], argv[2], argv[3], argv[4:]
    src = sqlite3.connect(f"file:{template_db}?mode=ro", uri=True)
    dst = sqlite3.connect(out_db)
    for (sql,) in src.execute("select sql from sqlite_master where sql is not null"):
        dst.execute(sql.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
                    .replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS"))
    for key, value in src.execute("select key, value from meta"):
        dst.execute("insert or replace into meta(key, value) values (?, ?)", (key, value))
    columns = ("pipeline_key app generator_library params estimates dag_hash device_key "
               "device_kind device_name device_platform device_driver halide_version").split()
    added = 0
    for path in reports:
        report = json.load(open(path))
        app, device = report["pipeline"], report["device"]["name"]
        template = src.execute(
            f"select {', '.join(columns)}, gpu from measurements where app = ? and device_name = ? "
            "and schedule is not null order by id desc limit 1", (app, device)).fetchone()
        if template is None:
            sys.exit(f"{path}: no row of {app} on {device} in {template_db}")
        fixed = dict(zip(columns, template[:-1]))
        gpu = template[-1]
        rows = [(c, False) for c in report["candidates"]] + [(b, True) for b in report["baselines"]]
        for c, is_baseline in rows:
            measured = c.get("measured_ms")
            if measured is None and not c.get("failure"):
                continue  # never ran (cut by the spill filter or the deadline)
            schedule = None if is_baseline else c["schedule"]
            baseline = c["label"].split(":", 1)[1] if is_baseline else ""
            measurement = {k: v for k, v in c.items() if k != "schedule"}
            measurement["reused"] = False
            row = dict(fixed)
            row.update(
                schedule=None if schedule is None else compact(schedule),
                schedule_hash=("baseline:" + baseline) if is_baseline else fnv1a64_hex(compact(schedule)),
                baseline=baseline, gpu=None if is_baseline else gpu,
                cost_model="" if is_baseline else "pretrained-loao",
                predicted=None if is_baseline else c.get("predicted"),
                predicted_terms=None, label=c["label"], measurement=compact(measurement),
                median_ms=measured and measured["median"], min_ms=measured and measured["min"],
                max_ms=measured and measured["max"], correct=int(bool(c.get("correct"))),
                max_error=c.get("max_error"), failure=c.get("failure") or "",
                repeats=10 if measured else 0, origin="bench", run_id=run_id, round=-1,
                created_at=int(time.time()), features=None, feature_schema=0,
                crash_verdict=c.get("crash_verdict") or "")
            names = list(row)
            dst.execute(f"insert into measurements({', '.join(names)}) values "
                        f"({', '.join('?' for _ in names)})", [row[n] for n in names])
            added += 1
    dst.commit()
    print(f"{added} rows from {len(reports)} reports into {out_db}")


if __name__ == "__main__":
    main(sys.argv)
