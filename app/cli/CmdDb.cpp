// `beamscope-cli db stats|export|import|prune`: look after the measurement
// database — counts per pipeline and device, CSV export, merging another
// database file, and deleting failed, old or duplicate rows. Every error is one
// line (exit 1; 2 for usage).
#include "Commands.h"

#include "store/MeasurementStore.h"
#include "util/Error.h"

#include <filesystem>
#include <iostream>

namespace beamscope::cli {

namespace {

struct DbArgs {
    std::string db;
    bool json = false;
    std::string csv;
    std::string importFile;
    bool failed = false;
    std::int64_t olderThan = -1;
    bool duplicates = false;
};

std::string dbPath(const DbArgs &args) {
    return args.db.empty() ? MeasurementStore::defaultPath() : args.db;
}

/// The database to read or prune: it must exist (a mistyped --db is an error,
/// not a new file). Read-only for the commands that only read (stats, export), so a database
/// on a read-only disk or shared directory can be read.
std::unique_ptr<MeasurementStore>
openExisting(const DbArgs &args,
             MeasurementStore::Access access = MeasurementStore::Access::ReadWrite) {
    const std::string path = dbPath(args);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw StoreError("measurement database " + path + ": no such file");
    return std::make_unique<MeasurementStore>(path, access);
}

int stats(const DbArgs &args) {
    const auto store = openExisting(args, MeasurementStore::Access::ReadOnly);
    const StoreStats s = store->stats();
    if (args.json) {
        nlohmann::json j{{"path", store->path()}, {"schema_version", store->schemaVersion()},
                         {"records", s.records},  {"successful", s.successful},
                         {"failed", s.failed},    {"pipelines", s.pipelines},
                         {"devices", s.devices},  {"groups", nlohmann::json::array()}};
        for (const auto &[pipeline, device, count] : s.groups)
            j["groups"].push_back({{"pipeline", pipeline}, {"device", device}, {"count", count}});
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << "measurement database " << store->path() << " (schema " << store->schemaVersion()
              << ")\n"
              << s.records << " record(s): " << s.successful << " successful, " << s.failed
              << " failed or unchecked; " << s.pipelines << " pipeline(s), " << s.devices
              << " device(s)\n";
    for (const auto &[pipeline, device, count] : s.groups)
        std::cout << "  " << count << "  " << pipeline << "  on  " << device << "\n";
    return 0;
}

} // namespace

void addDbCommand(CLI::App &app, CommandAction &action) {
    auto *command =
        app.add_subcommand("db", "inspect and maintain the measurement database (SQLite)");
    command->require_subcommand(1);
    auto args = std::make_shared<DbArgs>();
    auto addDbOption = [&](CLI::App *sub) {
        sub->add_option("--db", args->db,
                        "database file (default: "
                        "$XDG_DATA_HOME/beamscope/measurements.sqlite)");
    };

    auto *statsCommand = command->add_subcommand("stats", "count records per pipeline and device");
    addDbOption(statsCommand);
    statsCommand->add_flag("--json", args->json, "print the counts as JSON");
    statsCommand->callback([&action, args] { action = [args] { return stats(*args); }; });

    auto *exportCommand = command->add_subcommand("export", "write every record to a CSV file");
    addDbOption(exportCommand);
    exportCommand->add_option("--csv", args->csv, "CSV file to write")->required();
    exportCommand->callback([&action, args] {
        action = [args] {
            const auto store = openExisting(*args, MeasurementStore::Access::ReadOnly);
            store->exportCsv(args->csv);
            std::cout << "exported " << store->stats().records << " record(s) to " << args->csv
                      << "\n";
            return 0;
        };
    });

    auto *importCommand =
        command->add_subcommand("import", "add the records of another database file");
    addDbOption(importCommand);
    importCommand->add_option("file", args->importFile, "database file to import from")->required();
    importCommand->callback([&action, args] {
        action = [args] {
            MeasurementStore store(dbPath(*args));
            const std::int64_t added = store.importFrom(args->importFile);
            std::cout << "imported " << added << " new record(s) from " << args->importFile << "\n";
            return 0;
        };
    });

    auto *pruneCommand =
        command->add_subcommand("prune", "delete failed, old or duplicate records");
    addDbOption(pruneCommand);
    pruneCommand->add_flag("--failed", args->failed, "records that failed or were not correct");
    pruneCommand->add_option("--older-than", args->olderThan, "records older than DAYS days")
        ->check(CLI::Range(std::int64_t(0), std::int64_t(1000000)));
    pruneCommand->add_flag("--duplicates", args->duplicates,
                           "all but the newest record of each (pipeline, schedule, device)");
    pruneCommand->callback([&action, args] {
        action = [args] {
            if (!args->failed && args->olderThan < 0 && !args->duplicates)
                throw UsageError("db prune: give --failed, --older-than DAYS or --duplicates");
            PruneOptions options;
            options.failed = args->failed;
            options.olderThanDays = args->olderThan;
            options.duplicates = args->duplicates;
            const auto store = openExisting(*args);
            const std::int64_t deleted = store->prune(options);
            std::cout << "pruned " << deleted << " record(s); " << store->stats().records
                      << " left\n";
            return 0;
        };
    });
}

} // namespace beamscope::cli
