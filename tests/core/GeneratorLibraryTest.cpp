// GeneratorLibrary: loading the fixture library, building its generators, and every error path.
#include "pipeline/GeneratorLibrary.h"
#include "pipeline/PipelineSource.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

namespace beamscope {
namespace {

/// Runs f, expecting it to throw E; returns the message.
template <typename E, typename F> std::string messageOf(F &&f) {
    try {
        f();
    } catch (const E &e) {
        return e.what();
    } catch (const std::exception &e) {
        ADD_FAILURE() << "threw the wrong type: " << e.what();
        return e.what();
    }
    ADD_FAILURE() << "did not throw";
    return {};
}

TEST(GeneratorLibrary, ListsExactlyTheFixtureGenerators) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    EXPECT_EQ(library.path(), BEAMSCOPE_TEST_GENERATOR_LIB);
    const std::vector<std::string> expected = {"test_blur", "test_no_estimates", "test_throws"};
    EXPECT_EQ(library.generators(), expected);
}

TEST(GeneratorLibrary, OpeningTwiceGivesTheSameList) {
    const GeneratorLibrary first = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const GeneratorLibrary second = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    EXPECT_EQ(first.generators(), second.generators());
    EXPECT_EQ(second.generators().size(), 3u);
}

TEST(GeneratorLibrary, BuildsBlurWithDefaultParams) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const PipelineInstance instance = library.build("test_blur", {});
    EXPECT_EQ(instance.name, "test_blur");
    ASSERT_EQ(instance.inputs.size(), 1u);
    EXPECT_EQ(instance.inputs[0].name(), "input");
    EXPECT_EQ(instance.inputs[0].dimensions(), 2);
    ASSERT_EQ(instance.pipeline.outputs().size(), 1u);
    // Halide uniquifies a generator output's Func name ("blur$3").
    EXPECT_EQ(instance.pipeline.outputs()[0].name().rfind("blur", 0), 0u);
    EXPECT_TRUE(instance.params.empty());
}

TEST(GeneratorLibrary, BuildsBlurWithRadiusParam) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const PipelineInstance instance = library.build("test_blur", parseKeyValues({"radius=2"}));
    ASSERT_EQ(instance.inputs.size(), 1u);
    ASSERT_EQ(instance.pipeline.outputs().size(), 1u);
    EXPECT_EQ(instance.params.at("radius"), "2");
}

TEST(GeneratorLibrary, UnknownGeneratorIsUsageError) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const std::string message = messageOf<UsageError>([&] { library.build("nosuch", {}); });
    EXPECT_NE(message.find("nosuch"), std::string::npos) << message;
    EXPECT_NE(message.find("test_blur"), std::string::npos) << message;
}

TEST(GeneratorLibrary, BadParamIsUsageError) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const std::string unknown = messageOf<UsageError>([&] {
        library.build("test_blur", {{"nosuch", "3"}});
    });
    EXPECT_NE(unknown.find("nosuch"), std::string::npos) << unknown;
    EXPECT_EQ(unknown.find('\n'), std::string::npos) << unknown;
    const std::string badValue = messageOf<UsageError>([&] {
        library.build("test_blur", {{"radius", "abc"}});
    });
    EXPECT_NE(badValue.find("radius"), std::string::npos) << badValue;
    EXPECT_EQ(badValue.find('\n'), std::string::npos) << badValue;
}

TEST(GeneratorLibrary, ThrowingGeneratorIsErrorNamingIt) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    try {
        library.build("test_throws", {});
        FAIL() << "did not throw";
    } catch (const UsageError &e) {
        FAIL() << "a failing generator is not a usage error: " << e.what();
    } catch (const Error &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("test_throws"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(GeneratorLibrary, NonexistentPathIsError) {
    const std::string path = "/nonexistent/libnothing.so";
    const std::string message = messageOf<Error>([&] { GeneratorLibrary::open(path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(GeneratorLibrary, LibraryWithoutGeneratorsIsError) {
    const std::string path = BEAMSCOPE_TEST_NOT_GENERATOR_LIB;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::string message = messageOf<Error>([&] { GeneratorLibrary::open(path); });
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(GeneratorLibrary, NonSharedObjectIsError) {
    const std::string path = std::string(BEAMSCOPE_TEST_DATA_DIR) + "/generators/NotGenerators.cpp";
    const std::string message = messageOf<Error>([&] { GeneratorLibrary::open(path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(GeneratorLibrary, CopyRegisteringTheSameNamesIsRefusedNotFatal) {
    const GeneratorLibrary library = GeneratorLibrary::open(BEAMSCOPE_TEST_GENERATOR_LIB);
    const std::filesystem::path copy = std::filesystem::temp_directory_path() /
                                       ("beamscope-copy-" + std::to_string(::getpid()) + ".so");
    std::filesystem::copy_file(BEAMSCOPE_TEST_GENERATOR_LIB, copy,
                               std::filesystem::copy_options::overwrite_existing);
    const std::string message = messageOf<Error>([&] { GeneratorLibrary::open(copy.string()); });
    std::filesystem::remove(copy);
    EXPECT_NE(message.find("already registered"), std::string::npos) << message;
    EXPECT_NO_THROW(library.build("test_blur", {}));
}

TEST(GeneratorLibrary, ParseKeyValues) {
    const auto values = parseKeyValues({"a=1", "b=x=y", "c="});
    EXPECT_EQ(values.at("a"), "1");
    EXPECT_EQ(values.at("b"), "x=y");
    EXPECT_EQ(values.at("c"), "");
    EXPECT_THROW(parseKeyValues({"novalue"}), UsageError);
    EXPECT_THROW(parseKeyValues({"=3"}), UsageError);
}

TEST(GeneratorLibrary, LoadPipelineFromLibrary) {
    PipelineSource source{"test_blur", BEAMSCOPE_TEST_GENERATOR_LIB, {"radius=2"}};
    const PipelineInstance instance = loadPipeline(source);
    EXPECT_EQ(instance.name, "test_blur");
    EXPECT_EQ(instance.pipeline.outputs().size(), 1u);
}

} // namespace
} // namespace beamscope
