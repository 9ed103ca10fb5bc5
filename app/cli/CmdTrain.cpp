// `beamscope-cli train` and `beamscope-cli models`: train a learned cost model on the measurement
// database and compare it with the analytic and PolyMage models — on held-out measurements (one
// schedule in eight, by hash) for a model trained now, on every row a given model file has not
// seen, or leave one app out (the paper's one-shot protocol) — per pipeline and overall, by
// Kendall's tau, pairwise accuracy and one-shot regret. Both only read the database.
#include "Commands.h"

#include "cost/PretrainedModel.h"
#include "cost/ScheduleFeatures.h"
#include "pipeline/AppCatalog.h"
#include "schedule/GpuSpec.h"
#include "store/MeasurementStore.h"
#include "tune/FeaturesCsv.h"
#include "tune/LeaveOneAppOut.h"
#include "tune/PredictionsCsv.h"
#include "tune/StageFeaturesCsv.h"
#include "tune/TrainingData.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

namespace beamscope::cli {

namespace {

struct ModelArgs {
    std::string db;
    std::string out;   ///< train: the model file written
    std::string model; ///< models: a model file (or "pretrained") to compare
    std::string device;
    std::vector<std::string> pipelines;
    std::vector<std::string> excludedApps;
    bool all = false;
    bool everyDevice = false; ///< rows of every device, each pipeline ranked per device
    bool json = false;
    bool leaveOneAppOut = false;
    std::vector<std::string> heldOutApps; ///< --loao-apps: app names, or "catalog"
    int jobs = 1;                         ///< --jobs: leave-one-app-out folds trained at once
    bool withBaselines = false; ///< train on the baselines' measured schedules too, imported
    std::string featuresCsv;
    std::string stageFeaturesCsv;
    std::string predictionsCsv;
    std::string jsonOut;
    std::string deviceClass; ///< train: the device class the model is meant for
    std::string objective = "pairwise";
    std::string measuredTime = "min"; ///< the statistic of a row's repeats that is its time
    TrainOptions train;
};

struct Split {
    std::string device;
    std::string gpu; ///< the GPU models of the rows, in order of first appearance
    std::vector<LabelledSchedule> train, test;
    std::vector<std::string> skipped;
    std::vector<LabelledSchedule> every() const {
        std::vector<LabelledSchedule> all = train;
        all.insert(all.end(), test.begin(), test.end());
        return all;
    }
};

bool wanted(const LabelledSchedule &s, const ModelArgs &args) {
    for (const std::string &app : args.excludedApps) {
        if (s.app == app) return false;
    }
    if (args.pipelines.empty()) return true;
    for (const std::string &p : args.pipelines) {
        if (s.app == p || s.pipeline == p) return true;
    }
    return false;
}

/// The correct measurements of one device, split into training and held-out rows. The database
/// is only read (it may lie on a read-only disk).
Split loadSplit(const ModelArgs &args) {
    MeasurementStore store(args.db.empty() ? MeasurementStore::defaultPath() : args.db,
                           MeasurementStore::Access::ReadOnly);
    Split split;
    split.device = args.everyDevice ? "every device" : chooseDevice(store, args.device);
    DatasetBuilder builder(store);
    builder.setImportBaselines(args.withBaselines);
    builder.setMeasuredStatistic(parseMeasuredStatistic(args.measuredTime));
    std::optional<StageFeaturesCsv> stageCsv;
    if (!args.stageFeaturesCsv.empty()) {
        stageCsv.emplace(args.stageFeaturesCsv);
        // Only the rows the comparison uses, as --features-csv writes them.
        builder.setStageObserver([&stageCsv, &args](const FeaturizedRow &row) {
            if (wanted(row.row, args)) stageCsv->add(row);
        });
    }
    RecordFilter filter;
    if (!args.everyDevice) filter.deviceKey = split.device;
    std::vector<std::string> gpus;
    for (LabelledSchedule &s : builder.build(filter)) {
        if (!wanted(s, args)) continue;
        if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end()) {
            split.gpu += (gpus.empty() ? "" : ", ") + s.gpu;
            gpus.push_back(s.gpu);
        }
        (s.heldOut ? split.test : split.train).push_back(std::move(s));
    }
    split.skipped = builder.skipped();
    if (stageCsv) stageCsv->finish();
    if (split.train.empty() && split.test.empty())
        throw Error("no correct measurements on " + split.device +
                    (args.pipelines.empty() && args.excludedApps.empty()
                         ? std::string()
                         : " for the pipelines asked"));
    return split;
}

TrainOptions trainOptions(const ModelArgs &args) {
    TrainOptions options = args.train;
    options.objective = parseTrainObjective(args.objective);
    return options;
}

int report(const ModelArgs &args, const Split &split, ModelComparison comparison,
           const std::string &modelNote, int trainRows) {
    comparison.trainRows = trainRows;
    if (!args.predictionsCsv.empty()) writePredictionsCsv(args.predictionsCsv, comparison);
    if (args.json || !args.jsonOut.empty()) {
        nlohmann::json j = comparison.toJson();
        j["device"] = split.device;
        j["skipped"] = split.skipped;
        j["feature_schema"] = kScheduleFeatureSchema;
        j["training"] = trainOptions(args).toJson();
        j["measured_time"] = args.measuredTime;
        if (!modelNote.empty()) j["model"] = modelNote;
        // Formatted once: a catalog comparison's JSON is megabytes.
        const std::string text = j.dump(2);
        if (!args.jsonOut.empty()) {
            AtomicFile file(args.jsonOut, "comparison file");
            file.stream() << text << "\n";
            file.commit();
        }
        if (args.json) {
            std::cout << text << "\n";
            return 0;
        }
    }
    std::cout << "device: " << split.device << "\n";
    std::cout << "measured time: the " << args.measuredTime << " of each row's repeats\n";
    for (const std::string &line : split.skipped)
        std::cout << "skipped " << line << "\n";
    comparison.print(std::cout);
    if (comparison.pipelines.empty())
        std::cout << "(no pipeline has 2 rows to compare yet: measure more)\n";
    if (!modelNote.empty()) std::cout << modelNote << "\n";
    return 0;
}

void addCommon(CLI::App &command, ModelArgs &args) {
    command.add_option(
        "--db", args.db,
        "measurement database, only read (default: $XDG_DATA_HOME/beamscope/measurements.sqlite)");
    command.add_option("--device", args.device,
                       "device whose measurements are used (a part of its name; default: the one "
                       "with the most)");
    command
        .add_flag("--every-device", args.everyDevice,
                  "use the rows of every device, each row featurized for its own GPU model "
                  "and each pipeline's rows on one device ranked among themselves (the "
                  "shipped model: H100 and H200 rows)")
        ->excludes(command.get_option("--device"));
    command.add_option("--pipeline", args.pipelines,
                       "app or generator name (repeatable; default: all)");
    command.add_option("--exclude-app", args.excludedApps,
                       "leave this app's rows out entirely (repeatable)");
    command.add_flag(
        "--with-baselines", args.withBaselines,
        "also train on the measured schedules of Halide's autoschedulers (Anderson2021, "
        "Li2018, naive), made again for each row's pipeline and imported into "
        "Beamscope's schedule space; they are never ranked in the comparison. The plugins "
        "run unless the baseline schedule cache holds their schedules (an hour for lens_blur: "
        "extract benchmarks/baseline-cache-h100.tar.xz into BEAMSCOPE_BASELINE_CACHE; "
        "docs/pretrained.md)");
    command.add_flag("--json", args.json, "print the comparison as JSON");
    command
        .add_option("--measured-time", args.measuredTime,
                    "which statistic of a row's repeats is its time, to train on and to rank "
                    "against: min (Halide's benchmark convention, what repeated measurements "
                    "agree on) or median")
        ->check(CLI::IsMember({"min", "median"}));
    command
        .add_option("--objective", args.objective,
                    "training objective: pairwise (rank:pairwise within each pipeline), "
                    "regression (within-pipeline log-time residual over the analytic prior) "
                    "or kernels (the paper's structure: a correction per kernel, the "
                    "kernels' corrected times summed, fitted to the same residual) or "
                    "kernel-times (the same structure fitted to each kernel's own measured "
                    "time: CUDA rows with CUPTI's per-kernel times)")
        ->check(CLI::IsMember({"pairwise", "regression", "kernels", "kernel-times"}));
    command.add_option("--trees", args.train.rounds, "boosting rounds")->check(CLI::Range(1, 5000));
    command.add_option("--max-depth", args.train.maxDepth, "tree depth")->check(CLI::Range(1, 16));
    command.add_option("--eta", args.train.eta, "learning rate")->check(CLI::Range(1e-4, 1.0));
    command
        .add_option("--min-child-weight", args.train.minChildWeight, "XGBoost's min_child_weight")
        ->check(CLI::Range(0.0, 1e6));
    command.add_option("--lambda", args.train.lambda, "L2 regularisation of leaf weights")
        ->check(CLI::Range(0.0, 1e6));
    command
        .add_option("--parallel-trees", args.train.parallelTrees,
                    "trees per round, each on its own row sample, averaged (XGBoost's "
                    "num_parallel_tree; with --subsample below 1)")
        ->check(CLI::Range(1, 100));
    command.add_option("--subsample", args.train.subsample, "fraction of rows per tree")
        ->check(CLI::Range(0.01, 1.0));
    command.add_option("--colsample", args.train.colsample, "fraction of features per tree")
        ->check(CLI::Range(0.01, 1.0));
    command.add_option("--seed", args.train.seed, "XGBoost's seed (sampling)");
    command.add_option("--features-csv", args.featuresCsv,
                       "also write every row's feature vector to this CSV file (its last column, "
                       "baseline, names the autoscheduler of a --with-baselines row)");
    command.add_option("--stage-features-csv", args.stageFeaturesCsv,
                       "also write every row's stages (kernel, appendix-A features, analytic "
                       "terms) to this CSV file, one line per stage");
}

/// The apps --loao-apps names: "catalog" is every catalog app that has rows.
std::set<std::string> heldOutApps(const ModelArgs &args,
                                  const std::vector<LabelledSchedule> &rows) {
    std::set<std::string> present;
    for (const LabelledSchedule &s : rows)
        present.insert(s.app);
    std::set<std::string> apps;
    for (const std::string &name : args.heldOutApps) {
        if (name != "catalog") {
            apps.insert(name);
            continue;
        }
        for (const AppDefinition &app : appCatalog())
            if (present.count(app.name)) apps.insert(app.name);
    }
    if (!args.heldOutApps.empty() && apps.empty())
        throw Error("--loao-apps catalog: no catalog app has rows here");
    return apps;
}

/// `models --leave-one-app-out`: the Fig. 8 protocol on every row.
int leaveOneAppOutReport(const ModelArgs &args, const Split &split) {
    const std::vector<LabelledSchedule> rows = split.every();
    LeaveOneAppOutPlan plan;
    plan.heldOut = heldOutApps(args, rows);
    plan.jobs = args.jobs;
    std::shared_ptr<const LearnedCostModel> given;
    std::string note = "loao: per app, a model trained on the other apps' rows";
    if (!args.model.empty()) {
        given = loadLearnedModel(args.model, GpuSpec::defaultSpec());
        const size_t seen = rows.size() - unseenRows(rows, *given).size();
        note += "; " + args.model + ": trained on " + std::to_string(seen) + " of these rows" +
                (seen ? " (it has seen these apps: not a one-shot score)" : "");
    }
    std::vector<RankedModel> models = standardModels(nullptr);
    if (given) {
        models.push_back({args.model == "pretrained" ? "pretrained" : "model",
                          [given](const LabelledSchedule &s) { return given->predictMs(s.row); }});
    }
    LeaveOneAppOutResult result =
        leaveOneAppOut(rows, models, split.device, trainOptions(args), plan);
    return report(args, split, result.comparison, note, int(rows.size()));
}

} // namespace

void addTrainCommands(CLI::App &app, CommandAction &action) {
    auto *train = app.add_subcommand(
        "train",
        "train a learned cost model on the measurement database, compare it on held-out rows");
    auto trainArgs = std::make_shared<ModelArgs>();
    addCommon(*train, *trainArgs);
    train->add_option("--out", trainArgs->out, "model file to write")->required();
    train->add_flag(
        "--all", trainArgs->all,
        "train the written model on every row (the comparison still uses the 7/8 model)");
    train->add_option("--device-class", trainArgs->deviceClass,
                      "record the class of devices the model is meant for in its metadata "
                      "(nvidia-gpu for the shipped model)");
    train->callback([&action, trainArgs] {
        action = [args = trainArgs] {
            const Split split = loadSplit(*args);
            if (!args->featuresCsv.empty()) writeFeaturesCsv(args->featuresCsv, split.every());
            if (split.train.empty())
                throw Error("every measurement is held out: measure more schedules");
            const TrainOptions options = trainOptions(*args);
            const auto start = std::chrono::steady_clock::now();
            auto model = trainOn(split.train, split.device, split.gpu, options);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            ModelComparison comparison = compareModels(split.test, standardModels(model));
            if (args->all) model = trainOn(split.every(), split.device, split.gpu, options);
            if (!args->deviceClass.empty()) model->annotate("device_class", args->deviceClass);
            model->annotate("measured_time", args->measuredTime);
            model->save(args->out);
            return report(*args, split, comparison,
                          "model written to " + args->out + " (" +
                              std::to_string(model->metadata().trainingRows) +
                              " rows, trained in " + std::to_string(int(ms)) + " ms)",
                          int(split.train.size()));
        };
    });

    auto *models = app.add_subcommand(
        "models", "compare the analytic, PolyMage and learned cost models on measurements: "
                  "held-out rows, every row a given model has not seen, or leave one app out");
    auto modelArgs = std::make_shared<ModelArgs>();
    addCommon(*models, *modelArgs);
    models->add_option("--model", modelArgs->model,
                       "learned model file (or pretrained) to compare, on every row it was not "
                       "trained on (default: one trained now on the other 7/8)");
    models->add_flag("--leave-one-app-out,--loao", modelArgs->leaveOneAppOut,
                     "for each app, rank all its rows with a model trained on the other apps "
                     "(the paper's one-shot protocol); --model joins the table");
    models
        ->add_option("--loao-apps", modelArgs->heldOutApps,
                     "with --leave-one-app-out, hold out only these apps (repeatable; catalog: "
                     "every catalog app): the other apps' rows train every fold and are not "
                     "ranked, so random pipelines cost no fold of their own")
        ->needs(models->get_option("--leave-one-app-out"));
    models
        ->add_option("--jobs,-j", modelArgs->jobs,
                     "with --leave-one-app-out, folds trained at the same time (one thread "
                     "each; the same models whatever the number)")
        ->check(CLI::Range(1, 256))
        ->needs(models->get_option("--leave-one-app-out"));
    models->add_option("--json-out", modelArgs->jsonOut,
                       "also write the comparison as JSON (what --json prints) to this file, "
                       "the table still printed: one run for both (a leave-one-app-out run "
                       "trains a model per app)");
    models->add_option("--predictions-csv", modelArgs->predictionsCsv,
                       "also write every ranked row's measured time, each model's prediction "
                       "and its rank within the pipeline to this CSV file (which rows a model "
                       "ranked first)");
    models->callback([&action, modelArgs] {
        action = [args = modelArgs] {
            const Split split = loadSplit(*args);
            if (!args->featuresCsv.empty()) writeFeaturesCsv(args->featuresCsv, split.every());
            if (args->leaveOneAppOut) return leaveOneAppOutReport(*args, split);
            if (!args->model.empty()) {
                std::shared_ptr<const LearnedCostModel> learned =
                    loadLearnedModel(args->model, GpuSpec::defaultSpec());
                const std::vector<LabelledSchedule> every = searchedRows(split.every());
                const std::vector<LabelledSchedule> unseen = unseenRows(every, *learned);
                if (unseen.empty())
                    throw Error("model " + args->model + " was trained on every row of " +
                                split.device + ": nothing left to evaluate it on");
                ModelComparison comparison = compareModels(unseen, standardModels(learned));
                comparison.heading = "rows the model was not trained on " +
                                     std::to_string(unseen.size()) + " of " +
                                     std::to_string(every.size());
                return report(*args, split, comparison, "learned: " + args->model,
                              learned->metadata().trainingRows);
            }
            std::shared_ptr<const LearnedCostModel> learned;
            std::string note;
            if (!split.train.empty()) {
                learned = trainOn(split.train, split.device, split.gpu, trainOptions(*args));
                note = "learned: trained now on the " + std::to_string(split.train.size()) +
                       " rows not held out";
            }
            return report(*args, split, compareModels(split.test, standardModels(learned)), note,
                          int(split.train.size()));
        };
    });
}

} // namespace beamscope::cli
