// Contents: deterministic input fill; output allocation from estimates; the comparison over
// Halide::Buffer (BufferCompare does the work); the reference cache file format:
//   "BSREF1\n" key "\n" count "\n", then per buffer a text line
//   "code bits lanes dims min0 extent0 ..." and its dense bytes.
#include "measure/BenchData.h"

#include "util/Error.h"
#include "util/Rng.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace beamscope {

std::vector<Halide::Buffer<>> makeInputs(const PipelineInstance &instance, std::uint64_t seed,
                                         std::int64_t intMax) {
    std::vector<Halide::Buffer<>> buffers;
    uint64_t index = 0;
    for (const Halide::Parameter &input : instance.inputs) {
        std::vector<int> mins, extents;
        for (int d = 0; d < input.dimensions(); ++d) {
            const auto min = Halide::Internal::as_const_int(input.min_constraint_estimate(d));
            const auto extent = Halide::Internal::as_const_int(input.extent_constraint_estimate(d));
            if (!min || !extent) {
                throw Error("input '" + input.name() + "' dimension " + std::to_string(d) +
                            " has no constant estimate");
            }
            mins.push_back(int(*min));
            extents.push_back(int(*extent));
        }
        Halide::Buffer<> buffer(input.type(), extents);
        buffer.set_min(mins);
        Rng rng(seed * 0x9E3779B97F4A7C15ULL + ++index);
        const Halide::Type type = input.type();
        halide_buffer_t *raw = buffer.raw_buffer();
        buffer.for_each_element([&](const int *pos) {
            double v;
            if (type.is_float()) {
                v = double(rng.next() >> 11) * (1.0 / 9007199254740992.0);
            } else if (type.bits() == 1) {
                v = double(rng.below(2));
            } else if (type.bits() == 8) {
                v = type.is_uint() ? double(rng.below(256)) : double(int(rng.below(256)) - 128);
            } else {
                v = double(rng.below(uint64_t(intMax) + 1));
            }
            storeElement(raw, pos, v);
        });
        buffer.set_host_dirty(); // written through the raw pointer: make devices copy it
        buffers.push_back(buffer);
    }
    return buffers;
}

void bindInputs(const PipelineInstance &instance, const std::vector<Halide::Buffer<>> &inputs) {
    if (inputs.size() != instance.inputs.size()) throw Error("input count mismatch");
    for (size_t i = 0; i < inputs.size(); ++i) {
        Halide::Parameter parameter = instance.inputs[i];
        parameter.set_buffer(inputs[i]);
    }
}

std::vector<Halide::Buffer<>> makeOutputs(const PipelineInstance &instance) {
    std::vector<Halide::Buffer<>> buffers;
    for (const Halide::Func &output : instance.pipeline.outputs()) {
        const Halide::Internal::Function function = output.function();
        std::vector<int> mins, extents;
        for (const std::string &arg : function.args()) {
            bool found = false;
            for (const Halide::Internal::Bound &bound : function.schedule().estimates()) {
                const auto m = Halide::Internal::as_const_int(bound.min);
                const auto e = Halide::Internal::as_const_int(bound.extent);
                if (bound.var == arg && m && e) {
                    mins.push_back(int(*m));
                    extents.push_back(int(*e));
                    found = true;
                    break;
                }
            }
            if (!found) throw Error("output '" + function.name() + "' has no estimate for " + arg);
        }
        for (const Halide::Type &type : function.output_types()) {
            Halide::Buffer<> buffer(type, extents);
            buffer.set_min(mins);
            buffers.push_back(buffer);
        }
    }
    return buffers;
}

std::vector<std::string> outputNames(const PipelineInstance &instance) {
    std::vector<std::string> names;
    for (const Halide::Func &output : instance.pipeline.outputs()) {
        std::string name = output.name();
        const size_t dollar = name.rfind('$'); // generator outputs carry Halide's "$n" suffix
        if (dollar != std::string::npos && dollar > 0) name = name.substr(0, dollar);
        const size_t count = output.function().output_types().size();
        for (size_t i = 0; i < count; ++i)
            names.push_back(count == 1 ? name : name + "[" + std::to_string(i) + "]");
    }
    return names;
}

std::vector<const halide_buffer_t *> rawBuffers(const std::vector<Halide::Buffer<>> &buffers) {
    std::vector<const halide_buffer_t *> raw;
    for (const Halide::Buffer<> &b : buffers)
        raw.push_back(b.raw_buffer());
    return raw;
}

Comparison compareOutputs(const std::vector<Halide::Buffer<>> &actual,
                          const std::vector<Halide::Buffer<>> &expected, double rtol, double atol,
                          const std::vector<std::string> &names) {
    try {
        return compareBuffers(rawBuffers(actual), rawBuffers(expected), rtol, atol, names);
    } catch (const std::runtime_error &err) {
        throw Error(err.what());
    }
}

void perturbFirstElement(Halide::Buffer<> &buffer, double delta) {
    halide_buffer_t *raw = buffer.raw_buffer();
    std::vector<int> pos(size_t(raw->dimensions));
    for (int d = 0; d < raw->dimensions; ++d)
        pos[size_t(d)] = raw->dim[d].min;
    storeElement(raw, pos.data(), loadElement(raw, pos.data()) + delta);
    buffer.set_host_dirty();
}

void perturbFirstRow(Halide::Buffer<> &buffer, double delta) {
    halide_buffer_t *raw = buffer.raw_buffer();
    std::vector<int> pos(size_t(raw->dimensions));
    for (int d = 0; d < raw->dimensions; ++d)
        pos[size_t(d)] = raw->dim[d].min;
    for (int x = 0; raw->dimensions > 0 && x < raw->dim[0].extent; ++x) {
        pos[0] = raw->dim[0].min + x;
        storeElement(raw, pos.data(), loadElement(raw, pos.data()) + delta);
    }
    buffer.set_host_dirty();
}

void saveBuffers(const std::string &path, const std::string &key,
                 const std::vector<Halide::Buffer<>> &buffers) {
    const std::string temp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary);
        if (!out) throw Error("cannot write '" + temp + "'");
        out << "BSREF1\n" << key << "\n" << buffers.size() << "\n";
        for (const Halide::Buffer<> &b : buffers) {
            const halide_buffer_t *raw = b.raw_buffer();
            out << int(raw->type.code) << " " << int(raw->type.bits) << " " << raw->type.lanes
                << " " << raw->dimensions;
            for (int d = 0; d < raw->dimensions; ++d)
                out << " " << raw->dim[d].min << " " << raw->dim[d].extent;
            out << "\n";
            out.write(reinterpret_cast<const char *>(raw->host),
                      std::streamsize(b.size_in_bytes()));
        }
        if (!out) throw Error("cannot write '" + temp + "'");
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) throw Error("cannot write '" + path + "'");
}

bool loadBuffers(const std::string &path, const std::string &key,
                 std::vector<Halide::Buffer<>> &buffers) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string magic, storedKey, line;
    std::getline(in, magic);
    std::getline(in, storedKey);
    if (magic != "BSREF1" || storedKey != key) return false;
    size_t count = 0;
    std::getline(in, line);
    count = size_t(std::stoull(line));
    std::vector<Halide::Buffer<>> loaded;
    for (size_t i = 0; i < count; ++i) {
        if (!std::getline(in, line)) return false;
        std::istringstream header(line);
        int code = 0, bits = 0, lanes = 0, dims = 0;
        header >> code >> bits >> lanes >> dims;
        std::vector<int> mins(static_cast<size_t>(dims)), extents(static_cast<size_t>(dims));
        for (int d = 0; d < dims; ++d)
            header >> mins[size_t(d)] >> extents[size_t(d)];
        if (!header) return false;
        Halide::Buffer<> b(Halide::Type(halide_type_code_t(code), bits, lanes), extents);
        b.set_min(mins);
        in.read(reinterpret_cast<char *>(b.raw_buffer()->host), std::streamsize(b.size_in_bytes()));
        if (!in) return false;
        loaded.push_back(b);
    }
    buffers = std::move(loaded);
    return true;
}

} // namespace beamscope
