"""Test helper (PythonGeneratorTest): builds generator NAME of the user's FILE.py as a user
would, applies the schedule Beamscope exported as Python (SCHEDULE.py, its FUNCTION), and writes
the statement Halide lowers it to for TARGET into OUT.stmt.

Usage: python lower_with_exported_schedule.py FILE.py NAME PARAMS_JSON SCHEDULE.py FUNCTION
       TARGET OUT.stmt
"""
import importlib.util
import json
import sys

import halide as hl


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    path, name, params, schedule, function, target, out = sys.argv[1:8]
    load_module("user_generators", path)
    context = hl.GeneratorContext(hl.get_host_target())  # as Beamscope builds it
    generator = hl._create_python_generator(name, context)
    for key, value in json.loads(params).items():
        generator._set_generatorparam_value(key, value)
    with context:
        pipeline = generator._build_pipeline()
    getattr(load_module("exported_schedule", schedule), function)(pipeline)
    pipeline.compile_to_lowered_stmt(out, pipeline.infer_arguments(), hl.StmtOutputFormat.Text,
                                     hl.Target(target))


if __name__ == "__main__":
    main()
