#!/usr/bin/env python3
"""Leave one app out with three shapes of learned correction over the analytic prior
(docs/pretrained.md, "The paper's structure"): the shipped pipeline-level regression (a replica
of `models --leave-one-app-out`), and the paper's structure, a correction per kernel or per stage
whose corrected times are summed, trained with a custom XGBoost objective.

    build/ci/app/cli/beamscope-cli models --db TRAINING --features-csv rows.csv \\
        --stage-features-csv stages.csv
    benchmarks/learned_structure_study.py rows.csv stages.csv [pipeline kernel stage]

TRAINING is the shipped model's rows (benchmarks/pretrained_data.sh). Needs numpy, pandas and
xgboost (Debian 12: python3-numpy python3-pandas python3-xgboost; or PyPI: Debian's 1.7.4 and
PyPI's 3.2 give the same figures). Prints mean Kendall tau (pairs closer than the measurement
noise ignored, as core/cost/RankMetrics.cpp) and geomean one-shot regret over the catalog apps.
Options as the shipped model's unless STUDY_PARAMS gives a JSON object of XGBoost parameters
and STUDY_TREES a round count.
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import xgboost as xgb

TERMS = ["analytic_compute", "analytic_load", "analytic_store", "analytic_parallelism",
         "analytic_working_set", "analytic_malloc"]
MIN_RELATIVE_NOISE = 0.02  # kMinRelativeNoise


def kendall_tau(pred, meas, noise):
    noise = np.where(np.isfinite(noise), noise, 0.0)
    band = np.maximum(MIN_RELATIVE_NOISE, noise) * np.abs(meas)
    concordant = discordant = ties = counted = 0
    for i in range(len(meas)):
        for j in range(i + 1, len(meas)):
            dm = meas[i] - meas[j]
            if abs(dm) < max(band[i], band[j]):
                continue
            counted += 1
            dp = pred[i] - pred[j]
            if dp == 0:
                ties += 1
            elif (dp > 0) == (dm > 0):
                concordant += 1
            else:
                discordant += 1
    den = np.sqrt(counted * (counted - ties))
    return (concordant - discordant) / den if den > 0 else np.nan


def score(rows, pred, apps):
    taus, regrets = [], []
    for app in apps:
        m = (rows.app == app).values
        meas = rows.measured_ms.values[m]
        t = kendall_tau(pred[m], meas, rows.noise.values[m])
        if np.isfinite(t):
            taus.append(t)
        regrets.append(meas[int(np.argmin(pred[m]))] / meas.min())
    return np.mean(taus), np.exp(np.mean(np.log(regrets)))


def centred(values, groups):
    out = values.copy()
    for g in np.unique(groups):
        m = groups == g
        out[m] -= values[m].mean()
    return out


def pipeline_level(rows, apps, params, trees):
    """The shipped design: the within-pipeline log-time residual over the prior."""
    features = [c for c in rows.columns[4:] if c not in ("polymage", "baseline")]
    x = rows[features].values
    log_prior = np.log(rows.analytic_ms.values)
    label = centred(np.log(rows.measured_ms.values) - log_prior, rows.app.values)
    pred = np.zeros(len(rows))
    for app in apps:
        train, test = rows.app.values != app, rows.app.values == app
        booster = xgb.train(params, xgb.DMatrix(x[train], label=label[train]), trees)
        pred[test] = np.exp(log_prior[test] + booster.predict(xgb.DMatrix(x[test])))
    return pred


def unit_frame(stages, level):
    """One row per stage, or per kernel (the stage features summed), with its analytic time."""
    stages = stages.copy()
    stages["t"] = stages[TERMS].sum(axis=1)
    if level == "kernel":
        numeric = [c for c in stages.columns[8:] if c != "row"]
        grouped = stages.groupby(["row", "kernel"], as_index=False)
        units = grouped.agg({c: "sum" for c in numeric})
        units["stages_in_kernel"] = grouped.size()["size"].values
    else:
        units = stages
    units = units[units.t > 0].reset_index(drop=True)
    units["log_t"] = np.log(units.t)
    for term in TERMS[:4]:
        units["share_" + term] = units[term] / units.t
    units["share_of_row"] = units.t / units.groupby("row").t.transform("sum")
    skip = {"app", "record", "measured_ms", "kernel", "node", "stage", "stage_name", "row", "t",
            "kernel_root"}
    features = [c for c in units.columns if c not in skip and units[c].dtype != object]
    return units, features


def summed_objective(unit_row, analytic, rows_in_group, log_measured, group_of_row):
    """T = sum of analytic x exp(margin) per row; loss = centred (log T - log measured)^2."""
    def objective(margins, _dtrain):
        corrected = analytic * np.exp(margins)
        total = np.bincount(unit_row, weights=corrected, minlength=rows_in_group)
        residual = np.log(total) - log_measured
        mean = np.bincount(group_of_row, weights=residual) / np.bincount(group_of_row)
        error = residual - mean[group_of_row]
        share = corrected / total[unit_row]
        # d loss / d margin = 2 e share; 2 share bounds the Hessian of log-sum-exp from above.
        return 2 * error[unit_row] * share, 2 * share
    return objective


def summed_level(rows, stages, apps, level, params, trees):
    units, features = unit_frame(stages, level)
    x = units[features].values
    app_of_unit = rows.app.values[units.row.values]
    log_measured = np.log(rows.measured_ms.values)
    pred = np.zeros(len(rows))
    for app in apps:
        train, test = app_of_unit != app, app_of_unit == app
        train_rows, unit_row = np.unique(units.row.values[train], return_inverse=True)
        _, group_of_row = np.unique(rows.app.values[train_rows], return_inverse=True)
        objective = summed_objective(unit_row, units.t.values[train], len(train_rows),
                                     log_measured[train_rows], group_of_row)
        booster = xgb.train(dict(params, base_score=0.0), xgb.DMatrix(x[train]), trees,
                            obj=objective)
        margins = booster.predict(xgb.DMatrix(x[test]), output_margin=True)
        test_rows = units.row.values[test]
        total = np.bincount(test_rows, weights=units.t.values[test] * np.exp(margins),
                            minlength=len(rows))
        pred[np.unique(test_rows)] = total[np.unique(test_rows)]
    return pred


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = pd.read_csv(sys.argv[1], keep_default_na=False, na_values=[""])
    if "baseline" in rows.columns:  # --with-baselines rows are never ranked
        rows = rows[rows.baseline.isna()]
    rows = rows.sort_values("record").reset_index(drop=True)
    stages = pd.read_csv(sys.argv[2])
    stages["row"] = stages.record.map({r: i for i, r in enumerate(rows.record)})
    stages = stages.dropna(subset=["row"]).astype({"row": int})
    apps = sorted(a for a in rows.app.unique() if not a.startswith("random:"))
    params = {"max_depth": 3, "eta": 0.05, "min_child_weight": 5, "lambda": 5,
              "tree_method": "exact", "nthread": 1, "seed": 0}
    params.update(json.loads(os.environ.get("STUDY_PARAMS", "{}")))
    trees = int(os.environ.get("STUDY_TREES", "60"))
    tau, regret = score(rows, rows.analytic_ms.values, apps)
    print(f"analytic (the prior)  {tau:.3f} / {regret:.2f}")
    for shape in sys.argv[3:] or ["pipeline", "kernel", "stage"]:
        if shape == "pipeline":
            pred = pipeline_level(rows, apps, params, trees)
        elif shape in ("kernel", "stage"):
            pred = summed_level(rows, stages, apps, shape, params, trees)
        else:
            sys.exit(f"unknown shape '{shape}': use pipeline, kernel or stage")
        tau, regret = score(rows, pred, apps)
        print(f"{shape:21s} {tau:.3f} / {regret:.2f}", flush=True)


if __name__ == "__main__":
    main()
