// GeneratorLibrary: dlopen a user's generator library, find what it registered, build one
// generator into a PipelineInstance; also "key=value" parsing of generator params.
//
// Contents: process-wide record of opened libraries; error-text helpers; ELF checks made before
// dlopen (truncated file, generator names already registered, either of which would otherwise
// kill the process); GeneratorLibrary::open; GeneratorLibrary::build; parseKeyValues.
#include "pipeline/GeneratorLibrary.h"

#include "pipeline/UserCodeIsolation.h"
#include "util/Error.h"
#include "util/Text.h"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>

namespace beamscope {

namespace {

namespace fs = std::filesystem;

/// Libraries opened so far in this process (by absolute path) and what each registered.
struct OpenedLibraries {
    std::mutex mutex;
    std::map<std::string, std::vector<std::string>> generatorsByPath;
};

OpenedLibraries &openedLibraries() {
    static OpenedLibraries opened;
    return opened;
}

/// dlerror()'s text on one line, without a leading "<path>: " that repeats our own context.
std::string dlErrorLine(const std::string &path) {
    const char *raw = dlerror();
    std::string text = detail::firstLine(raw ? raw : "unknown dynamic loader error");
    if (text.rfind(path + ": ", 0) == 0) text = text.substr(path.size() + 2);
    return text;
}

/// Every generator name in Halide's registry, sorted.
std::vector<std::string> registeredGenerators() {
    std::vector<std::string> names = Halide::Internal::GeneratorRegistry::enumerate();
    std::sort(names.begin(), names.end());
    return names;
}

/// The generator name in a HALIDE_REGISTER_GENERATOR factory symbol
/// (`halide_register_generator::<name>_ns::factory(Halide::GeneratorContext const&)`), or "".
std::string generatorOfFactorySymbol(const char *symbol) {
    static const char prefix[] = "_ZN25halide_register_generator";
    static const char suffix[] = "7factoryERKN6Halide16GeneratorContextE";
    if (std::strncmp(symbol, prefix, sizeof(prefix) - 1) != 0) return "";
    const char *p = symbol + sizeof(prefix) - 1;
    size_t length = 0;
    while (*p >= '0' && *p <= '9')
        length = length * 10 + static_cast<size_t>(*p++ - '0');
    if (length <= 3 || std::strlen(p) != length + sizeof(suffix) - 1) return "";
    const std::string scope(p, length);
    if (scope.compare(length - 3, 3, "_ns") != 0 || std::strcmp(p + length, suffix) != 0) {
        return "";
    }
    return scope.substr(0, length - 3);
}

/// The bytes of `path`; empty if it cannot be read.
std::vector<char> readFile(const std::string &path) {
    std::ifstream file(path, std::ios::binary);
    return std::vector<char>((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
}

/// The ELF header of `bytes` if it is a 64-bit ELF file.
std::optional<Elf64_Ehdr> elfHeader(const std::vector<char> &bytes) {
    Elf64_Ehdr header;
    if (bytes.size() < sizeof(header)) return std::nullopt;
    std::memcpy(&header, bytes.data(), sizeof(header));
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64) {
        return std::nullopt;
    }
    return header;
}

/// True for a 64-bit ELF file whose loadable segments reach past its end: the dynamic loader
/// would crash (SIGBUS) mapping it, rather than report an error.
bool isTruncatedElf(const std::vector<char> &bytes) {
    const std::optional<Elf64_Ehdr> header = elfHeader(bytes);
    if (!header) return false;
    if (header->e_phentsize != sizeof(Elf64_Phdr) || header->e_phoff > bytes.size() ||
        (bytes.size() - header->e_phoff) / sizeof(Elf64_Phdr) < header->e_phnum) {
        return true;
    }
    for (size_t i = 0; i < header->e_phnum; ++i) {
        Elf64_Phdr segment;
        std::memcpy(&segment, bytes.data() + header->e_phoff + i * sizeof(Elf64_Phdr),
                    sizeof(segment));
        if (segment.p_type == PT_LOAD && (segment.p_offset > bytes.size() ||
                                          segment.p_filesz > bytes.size() - segment.p_offset)) {
            return true;
        }
    }
    return false;
}

/// Generators a library will register, read from its exported factory symbols without loading
/// it. Empty when it is not a 64-bit ELF file or the symbols are hidden.
std::vector<std::string> declaredGenerators(const std::vector<char> &bytes) {
    std::vector<std::string> names;
    const std::optional<Elf64_Ehdr> maybeHeader = elfHeader(bytes);
    if (!maybeHeader) return names;
    const Elf64_Ehdr &header = *maybeHeader;
    if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shoff > bytes.size() ||
        (bytes.size() - header.e_shoff) / sizeof(Elf64_Shdr) < header.e_shnum) {
        return names;
    }
    auto section = [&](size_t index) {
        Elf64_Shdr shdr;
        std::memcpy(&shdr, bytes.data() + header.e_shoff + index * sizeof(Elf64_Shdr),
                    sizeof(shdr));
        return shdr;
    };
    auto inFile = [&](const Elf64_Shdr &shdr) {
        return shdr.sh_offset <= bytes.size() && shdr.sh_size <= bytes.size() - shdr.sh_offset;
    };
    for (size_t i = 0; i < header.e_shnum; ++i) {
        const Elf64_Shdr symbols = section(i);
        if (symbols.sh_type != SHT_DYNSYM || symbols.sh_link >= header.e_shnum) continue;
        const Elf64_Shdr strings = section(symbols.sh_link);
        if (!inFile(symbols) || !inFile(strings) || strings.sh_size == 0) continue;
        const char *table = bytes.data() + strings.sh_offset;
        for (size_t offset = 0; offset + sizeof(Elf64_Sym) <= symbols.sh_size;
             offset += sizeof(Elf64_Sym)) {
            Elf64_Sym symbol;
            std::memcpy(&symbol, bytes.data() + symbols.sh_offset + offset, sizeof(symbol));
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.sh_size) continue;
            const char *name = table + symbol.st_name;
            if (!std::memchr(name, '\0', strings.sh_size - symbol.st_name)) continue;
            std::string generator = generatorOfFactorySymbol(name);
            if (!generator.empty()) names.push_back(std::move(generator));
        }
    }
    return names;
}

/// The absolute form of `path`; a bare file name is taken relative to the working directory,
/// never looked up on the loader's search path.
std::string absolutePath(const std::string &path) {
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

/// First line of an exception's text, without Halide's "Error: " prefix.
std::string messageLine(const char *what) {
    std::string line = detail::firstLine(what ? what : "");
    if (line.rfind("Error: ", 0) == 0) line = line.substr(7);
    return line;
}

/// Runs f, turning any Halide or std exception into an E reading "<context>: <first line>".
template <typename E, typename F>
auto rethrowAs(const std::string &context, F &&f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error &) {
        throw;
    } catch (const Halide::Error &e) {
        throw E(context + ": " + messageLine(e.what()));
    } catch (const std::exception &e) {
        throw E(context + ": " + messageLine(e.what()));
    }
}

} // namespace

GeneratorLibrary GeneratorLibrary::open(const std::string &path) {
    const std::string absolute = absolutePath(path);
    std::error_code ec;
    if (!fs::exists(absolute, ec)) {
        throw Error("cannot open generator library '" + path + "': no such file");
    }
    if (fs::is_directory(absolute, ec)) {
        throw Error("cannot open generator library '" + path + "': is a directory");
    }

    GeneratorLibrary library;
    library.m_path = path;

    OpenedLibraries &opened = openedLibraries();
    std::lock_guard<std::mutex> lock(opened.mutex);
    auto known = opened.generatorsByPath.find(absolute);
    if (known != opened.generatorsByPath.end()) {
        library.m_generators = known->second;
    } else {
        const std::vector<std::string> before = registeredGenerators();
        // Registering a name twice throws from a static initializer, which would terminate
        // the process: refuse such a library before it is loaded.
        const std::vector<char> bytes = readFile(absolute);
        if (isTruncatedElf(bytes)) {
            throw Error("cannot load generator library '" + path + "': file is truncated");
        }
        for (const std::string &name : declaredGenerators(bytes)) {
            if (std::binary_search(before.begin(), before.end(), name)) {
                throw Error("cannot load generator library '" + path + "': generator '" + name +
                            "' is already registered by another library in this process");
            }
        }
        // Its static initializers run on dlopen: first in a process of their own, if asked.
        if (const UserCodeIsolationOptions isolation = userCodeIsolation(); isolation.enabled)
            buildInChildProcess(libraryOnly(path), isolation);
        dlerror();
        void *handle = dlopen(absolute.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (!handle) {
            throw Error("cannot load generator library '" + path + "': " + dlErrorLine(absolute));
        }
        const std::vector<std::string> after = registeredGenerators();
        std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                            std::back_inserter(library.m_generators));
        // The handle is never closed: registered factories point into the library.
        opened.generatorsByPath[absolute] = library.m_generators;
    }
    if (library.m_generators.empty()) {
        throw Error("'" + path +
                    "' registers no Halide generator (is it built with "
                    "HALIDE_REGISTER_GENERATOR against Beamscope's Halide?)");
    }
    return library;
}

PipelineInstance GeneratorLibrary::build(const std::string &name,
                                         const std::map<std::string, std::string> &params) const {
    using Halide::Internal::AbstractGenerator;
    using Halide::Internal::ArgInfoDirection;

    if (std::find(m_generators.begin(), m_generators.end(), name) == m_generators.end()) {
        throw UsageError("generator library '" + m_path + "' has no generator '" + name +
                         "' (available: " + joinStrings(m_generators, ", ") + ")");
    }

    const std::string failed = "generator '" + name + "' failed";
    Halide::Internal::AbstractGeneratorPtr generator = rethrowAs<Error>(failed, [&] {
        return Halide::Internal::GeneratorRegistry::create(
            name, Halide::GeneratorContext(Halide::get_host_target()));
    });
    if (!generator) throw Error("generator '" + name + "' could not be created");

    for (const auto &[key, value] : params) {
        // Named captures: clang 14 (the fuzz build) cannot capture a structured binding.
        rethrowAs<UsageError>(
            "generator '" + name + "', parameter '" + key + "'",
            [&, &k = key, &v = value] { generator->set_generatorparam_value(k, v); });
    }

    PipelineInstance instance;
    instance.name = name;
    instance.params = params;
    rethrowAs<Error>(failed, [&] {
        instance.pipeline = generator->build_pipeline();
        for (const AbstractGenerator::ArgInfo &arg : generator->arginfos()) {
            if (arg.dir != ArgInfoDirection::Input) continue;
            for (const Halide::Parameter &parameter : generator->input_parameter(arg.name)) {
                if (!parameter.defined()) continue;
                if (parameter.is_buffer())
                    instance.inputs.push_back(parameter);
                else
                    instance.scalars.push_back(parameter);
            }
        }
    });
    return instance;
}

std::map<std::string, std::string> parseKeyValues(const std::vector<std::string> &assignments) {
    std::map<std::string, std::string> values;
    for (const std::string &text : assignments) {
        const size_t eq = text.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw UsageError("parameter '" + text + "' is not of the form key=value");
        }
        values[text.substr(0, eq)] = text.substr(eq + 1);
    }
    return values;
}

} // namespace beamscope
