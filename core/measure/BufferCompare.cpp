// Contents: typed element access on halide_buffer_t; the tolerance comparison; the verdict
// between the CPU reference and the device's naive output. No libHalide: beamscope-aot-runner
// compiles this file too.
#include "measure/BufferCompare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace beamscope {

namespace {

/// Address of the element at `pos` (coordinates, not offsets from min).
unsigned char *addressOf(const halide_buffer_t *b, const int *pos) {
    int64_t offset = 0;
    for (int d = 0; d < b->dimensions; ++d)
        offset += int64_t(pos[d] - b->dim[d].min) * b->dim[d].stride;
    return b->host + offset * ((b->type.bits + 7) / 8);
}

template <typename F> auto dispatch(halide_type_t t, F &&f) {
    switch (t.code) {
    case halide_type_float:
        if (t.bits == 64) return f(double());
        return f(float()); // float16 inputs are not supported by catalog apps
    case halide_type_uint:
        if (t.bits == 1) return f(bool());
        if (t.bits == 8) return f(uint8_t());
        if (t.bits == 16) return f(uint16_t());
        if (t.bits == 32) return f(uint32_t());
        return f(uint64_t());
    default:
        if (t.bits == 8) return f(int8_t());
        if (t.bits == 16) return f(int16_t());
        if (t.bits == 32) return f(int32_t());
        return f(int64_t());
    }
}

std::string coordinates(const halide_buffer_t *b, const int *pos) {
    std::string s = "(";
    for (int d = 0; d < b->dimensions; ++d)
        s += (d ? ", " : "") + std::to_string(pos[d]);
    return s + ")";
}

/// "N of M values beyond tolerance, max error E (first: output 'x' at (..): a vs b)".
std::string describe(const Comparison &c) {
    std::ostringstream os;
    os << c.mismatches << " of " << c.elements << " values beyond tolerance, max error "
       << c.maxAbsError << " (first: " << c.firstMismatch << ")";
    return os.str();
}

} // namespace

double loadElement(const halide_buffer_t *b, const int *pos) {
    const unsigned char *p = addressOf(b, pos);
    return dispatch(b->type, [&](auto tag) {
        decltype(tag) v;
        std::memcpy(&v, p, sizeof v);
        return double(v);
    });
}

void storeElement(halide_buffer_t *b, const int *pos, double value) {
    unsigned char *p = addressOf(b, pos);
    dispatch(b->type, [&](auto tag) {
        const auto v = static_cast<decltype(tag)>(value);
        std::memcpy(p, &v, sizeof v);
        return 0;
    });
}

Comparison compareBuffers(const std::vector<const halide_buffer_t *> &actual,
                          const std::vector<const halide_buffer_t *> &expected, double rtol,
                          double atol, const std::vector<std::string> &names) {
    if (actual.size() != expected.size()) throw std::runtime_error("output count mismatch");
    Comparison c;
    for (size_t i = 0; i < actual.size(); ++i) {
        const halide_buffer_t *a = actual[i];
        const halide_buffer_t *e = expected[i];
        bool same = a->dimensions == e->dimensions && a->type == e->type;
        for (int d = 0; same && d < a->dimensions; ++d)
            same = a->dim[d].min == e->dim[d].min && a->dim[d].extent == e->dim[d].extent;
        if (!same) {
            throw std::runtime_error("output " + std::to_string(i) +
                                     " differs in shape from the reference");
        }
        const bool floating = a->type.code == halide_type_float;
        bool empty = false;
        std::vector<int> pos(size_t(e->dimensions));
        for (int d = 0; d < e->dimensions; ++d) {
            pos[size_t(d)] = e->dim[d].min;
            empty = empty || e->dim[d].extent <= 0;
        }
        for (bool more = !empty; more;) {
            const double av = loadElement(a, pos.data()), ev = loadElement(e, pos.data());
            ++c.elements;
            double err = std::fabs(av - ev);
            if (std::isnan(av) || std::isnan(ev))
                err = (std::isnan(av) && std::isnan(ev)) ? 0.0 : INFINITY;
            const double rel = err / std::max(1.0, std::fabs(ev));
            c.maxAbsError = std::max(c.maxAbsError, err);
            c.maxRelError = std::max(c.maxRelError, rel);
            const double tolerance = (floating ? atol : 1.0) + rtol * std::fabs(ev);
            if (!(err <= tolerance) && c.mismatches++ == 0) {
                std::ostringstream os;
                if (i < names.size())
                    os << "output '" << names[i] << "'";
                else
                    os << "output " << i;
                os << " at " << coordinates(e, pos.data()) << ": " << av << " vs " << ev;
                c.firstMismatch = os.str();
            }
            more = false; // next coordinates, dimension 0 innermost
            for (int d = 0; d < e->dimensions && !more; ++d) {
                if (++pos[size_t(d)] < e->dim[d].min + e->dim[d].extent)
                    more = true;
                else
                    pos[size_t(d)] = e->dim[d].min;
            }
        }
    }
    return c;
}

namespace {

using ReferenceSource = std::function<std::vector<const halide_buffer_t *>()>;

/// The buffers `reference` gives; when it throws, none, and `note` says "<what>: <message>".
std::vector<const halide_buffer_t *> askReference(const ReferenceSource &reference,
                                                  const std::string &what, std::string &note) {
    try {
        return reference();
    } catch (const std::exception &e) {
        note = what + ": " + e.what();
        return {};
    }
}

/// Accepts `c` when its mismatches are within kFloatSensitiveBudget times `differences` (the
/// fallback reference's own differences from the CPU): `note` gets "; <c> <against>, within the
/// budget of B (K x <whose>)" and c's mismatches are cleared.
void acceptWithinBudget(Comparison &c, std::int64_t differences, const std::string &against,
                        const std::string &whose, std::string &note) {
    const std::int64_t budget = kFloatSensitiveBudget * differences;
    if (c.ok() || c.mismatches > budget) return;
    note += "; " + describe(c) + " " + against + ", within the budget of " +
            std::to_string(budget) + " (" + std::to_string(kFloatSensitiveBudget) + " x " + whose +
            ")";
    c.mismatches = 0;
}

/// The contraction check of judgeOutputs: `c` (the candidate against the CPU reference) is
/// accepted when the CPU reference without contraction differs from the CPU reference, and `c`
/// by at most the budget. Sets the note; clears c's mismatches when accepted.
void judgeContraction(double rtol, double atol, const std::vector<const halide_buffer_t *> &cpu,
                      const std::vector<std::string> &names, const ReferenceSource &contractionFree,
                      Comparison &c, OutputCheck &check) {
    const std::vector<const halide_buffer_t *> strict = askReference(
        contractionFree,
        "the CPU reference without floating-point contraction could not be computed", check.note);
    if (strict.empty()) return;
    const Comparison strictVsCpu = compareBuffers(strict, cpu, rtol, atol, names);
    if (strictVsCpu.ok()) return; // rounding a*b+c either way gives these outputs: no excuse
    check.note = "contraction-sensitive: the CPU reference computed without floating-point "
                 "contraction (strict_float) differs from it in " +
                 describe(strictVsCpu);
    // A device that fuses other multiply-adds than the host rounds about as many values
    // differently: a few such differences are within the budget, whole wrong tiles are not.
    acceptWithinBudget(c, strictVsCpu.mismatches, "against the CPU reference", "those differences",
                       check.note);
}

} // namespace

OutputCheck judgeOutputs(double rtol, double atol,
                         const std::vector<const halide_buffer_t *> &outputs,
                         const std::vector<const halide_buffer_t *> &cpu,
                         const std::vector<std::string> &names, const ReferenceSource &deviceNaive,
                         const ReferenceSource &contractionFree) {
    OutputCheck check;
    Comparison c = compareBuffers(outputs, cpu, rtol, atol, names);
    std::string against;
    if (!c.ok()) {
        const std::vector<const halide_buffer_t *> naive = askReference(
            deviceNaive,
            "the naive schedule could not run on the device to check the CPU reference",
            check.note);
        if (!naive.empty()) {
            const Comparison naiveVsCpu = compareBuffers(naive, cpu, rtol, atol, names);
            if (!naiveVsCpu.ok()) {
                check.note = "float-sensitive on this device: the naive schedule differs from "
                             "the CPU reference in " +
                             describe(naiveVsCpu) + "; checked against the device's naive output";
                c = compareBuffers(outputs, naive, rtol, atol, names);
                against = " against the device's naive output";
                // Other schedules round differently from the naive one at about as many
                // float-sensitive values: a few such differences are within the budget.
                acceptWithinBudget(c, naiveVsCpu.mismatches, "against it",
                                   "the naive schedule's differences", check.note);
            } else if (contractionFree) {
                judgeContraction(rtol, atol, cpu, names, contractionFree, c, check);
            }
        }
    }
    check.correct = c.ok();
    check.maxAbsError = c.maxAbsError;
    check.maxRelError = c.maxRelError;
    if (!c.ok()) check.failure = "wrong output: " + describe(c) + against;
    return check;
}

} // namespace beamscope
