# The core sources the fuzz harnesses (tests/fuzz) compile again, instrumented: the parsers of
# user input. Their harnesses link them before libbeamscope_core.a, so the library must keep each
# of them in an object of its own (core/CMakeLists.txt): a unity object that also held other code
# would be pulled in for that code and define the parsers twice.
set(beamscope_fuzzed_core_sources
  search/Pins.cpp session/SessionFile.cpp schedule/GpuSpec.cpp schedule/ScheduleIO.cpp
  measure/BenchJob.cpp bench/BenchReport.cpp measure/Measurement.cpp pipeline/Estimates.cpp
  pipeline/AppCatalog.cpp pipeline/GeneratorLibrary.cpp)
