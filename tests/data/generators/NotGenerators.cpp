// A plain shared library with no Halide in it, for the "not a generator library" error path.

extern "C" int beamscopeNotAGenerator(int value) {
    return value + 1;
}
