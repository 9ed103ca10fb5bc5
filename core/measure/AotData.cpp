// Contents: AotBuffer allocation, the buffer description and raw file I/O of the shipped data
// format (AotData.h). No libHalide.
#include "measure/AotData.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace beamscope {

namespace {

std::size_t elementBytes(halide_type_t type) {
    return std::size_t((type.bits + 7) / 8) * type.lanes;
}

} // namespace

AotBuffer AotBuffer::make(const std::string &name, halide_type_t type, const std::vector<int> &mins,
                          const std::vector<int> &extents) {
    if (mins.size() != extents.size()) throw std::runtime_error("buffer '" + name + "': bad shape");
    AotBuffer b;
    b.name = name;
    const int n = int(extents.size());
    b.dims = std::make_unique<halide_dimension_t[]>(std::size_t(std::max(n, 1)));
    std::int64_t stride = 1, count = 1;
    for (int d = 0; d < n; ++d) {
        if (extents[size_t(d)] < 0) throw std::runtime_error("buffer '" + name + "': bad extent");
        b.dims[size_t(d)] =
            halide_dimension_t(mins[size_t(d)], extents[size_t(d)], int32_t(stride));
        stride *= extents[size_t(d)];
        count *= extents[size_t(d)];
    }
    b.bytes = std::size_t(count) * elementBytes(type);
    b.host = std::make_unique<std::uint8_t[]>(std::max<std::size_t>(b.bytes, 1)); // zeroed
    b.raw.type = type;
    b.raw.dimensions = n;
    b.raw.dim = b.dims.get();
    b.raw.host = b.host.get();
    return b;
}

nlohmann::json describeBuffer(const std::string &name, const halide_buffer_t *b,
                              const std::string &file) {
    nlohmann::json mins = nlohmann::json::array(), extents = nlohmann::json::array();
    for (int d = 0; d < b->dimensions; ++d) {
        mins.push_back(b->dim[d].min);
        extents.push_back(b->dim[d].extent);
    }
    return {{"name", name},
            {"type", {int(b->type.code), int(b->type.bits), int(b->type.lanes)}},
            {"min", mins},
            {"extent", extents},
            {"file", file}};
}

void writeRawBuffer(const std::string &path, const halide_buffer_t *b) {
    std::int64_t count = 1;
    for (int d = 0; d < b->dimensions; ++d) {
        if (b->dim[d].stride != count)
            throw std::runtime_error("cannot write " + path + ": the buffer is not dense");
        count *= b->dim[d].extent;
    }
    const std::string temp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary);
        out.write(reinterpret_cast<const char *>(b->host),
                  std::streamsize(std::size_t(count) * elementBytes(b->type)));
        if (!out) throw std::runtime_error("cannot write " + temp);
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot write " + path);
}

AotBuffer bufferFrom(const nlohmann::json &desc, const std::string &dir, bool read) {
    std::string name = "?";
    AotBuffer b;
    try {
        name = desc.at("name").get<std::string>();
        const nlohmann::json &t = desc.at("type");
        const halide_type_t type(halide_type_code_t(t.at(0).get<int>()),
                                 std::uint8_t(t.at(1).get<int>()),
                                 std::uint16_t(t.at(2).get<int>()));
        b = AotBuffer::make(name, type, desc.at("min").get<std::vector<int>>(),
                            desc.at("extent").get<std::vector<int>>());
    } catch (const nlohmann::json::exception &e) {
        throw std::runtime_error("shipped data: bad description of buffer '" + name +
                                 "': " + e.what());
    }
    if (!read) return b;
    const std::string path = dir + "/" + desc.value("file", std::string());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("shipped data: cannot read " + path);
    in.read(reinterpret_cast<char *>(b.host.get()), std::streamsize(b.bytes));
    if (std::size_t(in.gcount()) != b.bytes || in.peek() != std::char_traits<char>::eof())
        throw std::runtime_error("shipped data: " + path + " does not hold " +
                                 std::to_string(b.bytes) + " bytes");
    return b;
}

std::string typeText(halide_type_t type) {
    const char *code = type.code == halide_type_int     ? "int"
                       : type.code == halide_type_uint  ? "uint"
                       : type.code == halide_type_float ? "float"
                                                        : "handle";
    std::string text = code + std::to_string(type.bits);
    if (type.lanes != 1) text += "x" + std::to_string(type.lanes);
    return text;
}

} // namespace beamscope
