// `beamscope-cli train` and `beamscope-cli models`: train a learned cost model on the measurement
// database and compare it with the analytic and PolyMage models on held-out measurements (one
// schedule in eight, by hash), per pipeline and overall, by Kendall's tau and pairwise accuracy.
#include "Commands.h"

#include "schedule/GpuSpec.h"
#include "store/MeasurementStore.h"
#include "tune/TrainingData.h"
#include "util/Error.h"

#include <chrono>
#include <iostream>
#include <memory>

namespace beamscope::cli {

namespace {

struct ModelArgs {
    std::string db;
    std::string out;   ///< train: the model file written
    std::string model; ///< models: a model file to compare
    std::string device;
    std::vector<std::string> pipelines;
    bool all = false;
    bool json = false;
    int rounds = 60;
    int depth = 4;
};

struct Split {
    std::string device;
    std::vector<LabelledSchedule> train, test;
    std::vector<std::string> skipped;
};

bool wanted(const LabelledSchedule &s, const std::vector<std::string> &pipelines) {
    if (pipelines.empty()) return true;
    for (const std::string &p : pipelines) {
        if (s.app == p || s.pipeline == p) return true;
    }
    return false;
}

/// The correct measurements of one device, split into training and held-out rows.
Split loadSplit(const ModelArgs &args) {
    MeasurementStore store(args.db.empty() ? MeasurementStore::defaultPath() : args.db);
    Split split;
    split.device = chooseDevice(store, args.device);
    DatasetBuilder builder(store);
    RecordFilter filter;
    filter.deviceKey = split.device;
    for (LabelledSchedule &s : builder.build(filter)) {
        if (!wanted(s, args.pipelines)) continue;
        (s.heldOut ? split.test : split.train).push_back(std::move(s));
    }
    split.skipped = builder.skipped();
    if (split.train.empty() && split.test.empty())
        throw Error("no correct measurements on " + split.device +
                    (args.pipelines.empty() ? std::string() : " for the pipelines asked"));
    return split;
}

int report(const ModelArgs &args, const Split &split, ModelComparison comparison,
           const std::string &modelNote) {
    comparison.trainRows = int(split.train.size());
    if (args.json) {
        nlohmann::json j = comparison.toJson();
        j["device"] = split.device;
        j["skipped"] = split.skipped;
        if (!modelNote.empty()) j["model"] = modelNote;
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << "device: " << split.device << "\n";
    for (const std::string &line : split.skipped)
        std::cout << "skipped " << line << "\n";
    comparison.print(std::cout);
    if (comparison.pipelines.empty())
        std::cout << "(no pipeline has 2 held-out measurements yet: measure more to compare)\n";
    if (!modelNote.empty()) std::cout << modelNote << "\n";
    return 0;
}

void addCommon(CLI::App &command, ModelArgs &args) {
    command.add_option(
        "--db", args.db,
        "measurement database (default: $XDG_DATA_HOME/beamscope/measurements.sqlite)");
    command.add_option("--device", args.device,
                       "device whose measurements are used (a part of its name; default: the one "
                       "with the most)");
    command.add_option("--pipeline", args.pipelines,
                       "app or generator name (repeatable; default: all)");
    command.add_flag("--json", args.json, "print the comparison as JSON");
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
    train->add_option("--trees", trainArgs->rounds, "boosting rounds")->check(CLI::Range(1, 5000));
    train->add_option("--max-depth", trainArgs->depth, "tree depth")->check(CLI::Range(1, 16));
    train->callback([&action, trainArgs] {
        action = [args = trainArgs] {
            const Split split = loadSplit(*args);
            if (split.train.empty())
                throw Error("every measurement is held out: measure more schedules");
            TrainOptions options;
            options.rounds = args->rounds;
            options.maxDepth = args->depth;
            const auto start = std::chrono::steady_clock::now();
            auto model = trainOn(split.train, split.device, split.train.front().gpu, options);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            ModelComparison comparison = compareModels(split.test, standardModels(model));
            if (args->all) {
                std::vector<LabelledSchedule> every = split.train;
                every.insert(every.end(), split.test.begin(), split.test.end());
                model = trainOn(every, split.device, split.train.front().gpu, options);
            }
            model->save(args->out);
            return report(*args, split, comparison,
                          "model written to " + args->out + " (" +
                              std::to_string(args->all ? split.train.size() + split.test.size()
                                                       : split.train.size()) +
                              " rows, trained in " + std::to_string(int(ms)) + " ms)");
        };
    });

    auto *models = app.add_subcommand(
        "models",
        "compare the analytic, PolyMage and learned cost models on held-out measurements");
    auto modelArgs = std::make_shared<ModelArgs>();
    addCommon(*models, *modelArgs);
    models->add_option("--model", modelArgs->model,
                       "learned model file to compare (default: one trained now on the other 7/8)");
    models->callback([&action, modelArgs] {
        action = [args = modelArgs] {
            const Split split = loadSplit(*args);
            std::shared_ptr<const LearnedCostModel> learned;
            std::string note;
            if (!args->model.empty()) {
                learned = LearnedCostModel::load(args->model, GpuSpec::defaultSpec());
                note = "learned: " + args->model;
            } else if (!split.train.empty()) {
                learned = trainOn(split.train, split.device, split.train.front().gpu);
                note = "learned: trained now on the " + std::to_string(split.train.size()) +
                       " rows not held out";
            }
            return report(*args, split, compareModels(split.test, standardModels(learned)), note);
        };
    });
}

} // namespace beamscope::cli
