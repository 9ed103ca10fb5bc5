// BenchVerdict on hand-built reports: the chosen row, the speedup over each correct measured
// baseline (hand-computed ratios), the GPU model that fits the device, the one-line text, and
// the verdict line of the CLI's bench table; labels in words count from 1.
#include "bench/BenchVerdict.h"
#include "bench/CandidateLabel.h"

#include <gtest/gtest.h>

#include <cctype>
#include <sstream>

using namespace beamscope;

namespace {

Measurement row(const std::string &label, std::optional<double> median, bool correct) {
    Measurement m;
    m.label = label;
    if (median) m.measuredMs = RunTimes{*median, *median, *median};
    if (median) m.correct = correct;
    return m;
}

DeviceInfo openclCpu() {
    DeviceInfo d;
    d.kind = DeviceKind::OpenCL;
    d.openclType = "CPU";
    d.name = "cpu-test";
    d.platform = "Portable Computing Language";
    d.computeUnits = 2;
    return d;
}

/// beam#1 chosen at 0.5 ms; naive 2.5 ms and li2018 0.44 ms correct, anderson2021 wrong,
/// mullapudi2016 not measured. Searched for the V100, measured on an OpenCL CPU device.
BenchReport measuredReport() {
    BenchReport r;
    r.pipeline = "blur";
    r.device = openclCpu();
    r.gpu = GpuSpec::load("v100");
    r.candidates = {row("beam#0", 0.7, true), row("beam#1", 0.5, true)};
    r.baselines = {row("baseline:naive", 2.5, true), row("baseline:li2018", 0.44, true),
                   row("baseline:anderson2021", 0.1, false),
                   row("baseline:mullapudi2016", std::nullopt, false)};
    r.chosen = 1;
    r.chosenWhy = "fastest correct";
    return r;
}

} // namespace

TEST(BenchVerdict, SpeedupOverEachCorrectMeasuredBaseline) {
    const BenchVerdict v = benchVerdict(measuredReport());
    EXPECT_EQ(v.chosen, 1);
    EXPECT_EQ(v.chosenLabel, "beam#1");
    ASSERT_TRUE(v.chosenMs);
    EXPECT_DOUBLE_EQ(*v.chosenMs, 0.5);
    EXPECT_EQ(v.rowsMeasured, 6);
    ASSERT_EQ(v.speedups.size(), 2u); // the wrong and the unmeasured baselines are left out
    EXPECT_EQ(v.speedups[0].baseline, "naive");
    EXPECT_DOUBLE_EQ(v.speedups[0].speedup, 5.0); // 2.5 / 0.5
    EXPECT_EQ(v.speedups[1].baseline, "li2018");
    EXPECT_DOUBLE_EQ(v.speedups[1].speedup, 0.44 / 0.5); // 0.88: slower
    const std::string text = v.text();
    EXPECT_NE(text.find("Chosen beam #2: 0.5 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("5.00× faster than naive"), std::string::npos) << text;
    EXPECT_NE(text.find("1.14× slower than li2018"), std::string::npos) << text; // 0.5 / 0.44
    EXPECT_EQ(text.find("anderson2021"), std::string::npos) << text;
    EXPECT_NE(text.find("pipeline blur"), std::string::npos) << text;
    EXPECT_EQ(text.find('\n'), std::string::npos);
}

TEST(BenchVerdict, NamesTheGpuModelThatFitsTheDevice) {
    BenchReport r = measuredReport();
    const std::string pocl = GpuSpec::load("pocl-cpu").name;
    BenchVerdict v = benchVerdict(r);
    EXPECT_EQ(v.modelledGpu, GpuSpec::load("v100").name);
    EXPECT_EQ(v.fittingGpu, pocl);
    EXPECT_NE(v.text().find("the " + pocl + " model fits this device"), std::string::npos)
        << v.text();

    r.gpu = GpuSpec::load("pocl-cpu"); // searched for the device's own model: nothing to say
    v = benchVerdict(r);
    EXPECT_EQ(v.fittingGpu, "");
    EXPECT_EQ(v.text().find("fits this device"), std::string::npos) << v.text();

    r.gpu = GpuSpec::load("v100"); // compile only: no device ran anything
    r.device = DeviceInfo{};
    v = benchVerdict(r);
    EXPECT_EQ(v.fittingGpu, "");
}

TEST(BenchVerdict, NothingChosenAndCancelled) {
    BenchReport r;
    r.pipeline = "blur";
    r.candidates = {row("beam#0", std::nullopt, false)};
    r.baselines = {row("baseline:naive", 2.0, true), row("baseline:li2018", 1.0, true)};
    r.chosenWhy = "no candidate compiled";
    r.cancelled = true;
    const BenchVerdict v = benchVerdict(r);
    EXPECT_EQ(v.chosen, -1);
    EXPECT_TRUE(v.speedups.empty());
    EXPECT_EQ(v.text(), "Cancelled: 3 of the rows measured. No candidate chosen: no candidate "
                        "compiled.");
}

TEST(BenchVerdict, UnmeasuredOrZeroTimeChoiceHasNoSpeedups) {
    BenchReport r = measuredReport();
    r.candidates[1].measuredMs.reset(); // one-shot, not measured
    BenchVerdict v = benchVerdict(r);
    EXPECT_FALSE(v.chosenMs);
    EXPECT_TRUE(v.speedups.empty());
    EXPECT_EQ(v.text(), "Chosen beam #2.");

    r.candidates[1].measuredMs = RunTimes{0, 0, 0}; // no ratio against a zero time
    v = benchVerdict(r);
    EXPECT_TRUE(v.speedups.empty());

    r.chosen = 5; // an index past the rows (a malformed report) is no choice
    v = benchVerdict(r);
    EXPECT_EQ(v.chosen, -1);
}

TEST(BenchVerdict, BenchTablePrintsTheVerdictLine) {
    const BenchReport r = measuredReport();
    std::ostringstream os;
    r.printTable(os);
    const std::string table = os.str();
    EXPECT_NE(table.find("\nverdict: " + benchVerdict(r).text() + "\n"), std::string::npos)
        << table;
    EXPECT_NE(table.find("\nchosen: beam #2 (fastest correct)"), std::string::npos) << table;
    // Rows are named from 1, as the GUI names them; the JSON keeps the 0-based labels.
    EXPECT_NE(table.find("\n* beam #2 "), std::string::npos) << table;
    EXPECT_NE(table.find("\n  beam #1 "), std::string::npos) << table;
    EXPECT_EQ(r.toJson()["chosen"], "beam#1");
}

TEST(BenchVerdict, LabelsInWordsCountFromOne) {
    EXPECT_EQ(candidateLabelInWords("beam#0"), "beam #1");
    EXPECT_EQ(candidateLabelInWords("greedy#9"), "greedy #10");
    EXPECT_EQ(candidateLabelInWords("r1:beam#0"), "round 2, beam #1");
    EXPECT_EQ(candidateLabelInWords("r0:greedy#3"), "round 1, greedy #4");
    // Already in words, or not a sampler's identifier: unchanged.
    for (const char *same : {"result", "beam #3", "baseline:naive", "beam#x", "#0", "r:beam#0x"})
        EXPECT_EQ(candidateLabelInWords(same), same);
}

// A label longer than the usual column ("baseline:anderson2021-paper") widens the label column:
// every row's median ends where the header's "median_ms" ends, so columns stay readable.
TEST(BenchVerdict, BenchTableColumnsFitTheLongestLabel) {
    BenchReport r = measuredReport();
    r.baselines.push_back(row("baseline:anderson2021-paper", 0.25, true));
    std::ostringstream os;
    r.printTable(os);
    std::istringstream lines(os.str());
    std::string line;
    size_t medianEnd = std::string::npos;
    int rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("label", 0) == 0) {
            medianEnd = line.find("median_ms") + std::string("median_ms").size();
            continue;
        }
        // Rows start with "* " (the chosen one) or two spaces, then the label.
        if (medianEnd == std::string::npos || line.size() < medianEnd) continue;
        if (line.rfind("* ", 0) != 0 && line.rfind("  ", 0) != 0) continue;
        const size_t label = 2;
        ++rows;
        const std::string median = line.substr(0, medianEnd);
        const char last = median.back();
        EXPECT_TRUE(last == '-' || std::isdigit(static_cast<unsigned char>(last))) << line;
        EXPECT_EQ(line[medianEnd], ' ') << line;
        // The label (in words: "beam #1") is followed by at least one space before the
        // predicted column.
        const size_t labelEnd = line.find("  ", label);
        ASSERT_NE(labelEnd, std::string::npos) << line;
        EXPECT_NE(line[labelEnd - 1], ' ') << line;
    }
    EXPECT_EQ(rows, 7) << os.str();
}
