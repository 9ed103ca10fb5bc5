// The host of the Qt tests' shared precompiled header (tests/CMakeLists.txt); it has no code.
