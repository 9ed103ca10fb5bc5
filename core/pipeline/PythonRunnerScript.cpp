// The Python program that runs a user's generator file: it lives here, as text handed to
// `python -c`, so the same binary works from the build tree and installed, with no data file to
// find. Run as: python -c SCRIPT FILE.py NAME OUT.hlpipe PARAMS_JSON HALIDE_MAJOR
// It imports the user's file, builds generator NAME with the params, writes the pipeline with
// hl.serialize_pipeline and prints, as its last stdout line, a JSON manifest of the inputs as
// declared (estimates, defaults, ranges: the serializer drops them) and the generator params.
// Scalar values go, as Exprs of their own type, into OUT.scalars.hlpipe (exact, and no JIT).
// Failures are one line on stderr and exit status 3 (the user's code failed: "FILE:LINE: Type:
// message"), 4 (no such generator; the ones the file has), 5 (no usable halide module).
#include "pipeline/PythonGenerator.h"

namespace beamscope {

const char *pythonRunnerScript() {
    return R"PY(
import json, os, re, sys, traceback

path, name, out, params_json, halide_major = sys.argv[1:6]
path = os.path.abspath(path)

def fail(code, line):
    sys.stderr.write(" ".join(line.split()) + "\n")
    sys.exit(code)

def first_line(text):
    for line in str(text).splitlines():
        if line.strip():
            line = line.strip()
            return line[7:] if line.startswith("Error: ") else line
    return ""

def user_error(exc):
    if isinstance(exc, SyntaxError) and exc.filename and os.path.abspath(exc.filename) == path:
        return "%s:%s: %s: %s" % (path, exc.lineno, type(exc).__name__, exc.msg)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(frame.filename) == path:
            line = frame.lineno
    where = "%s:%s" % (path, line) if line else path
    return "%s: %s: %s" % (where, type(exc).__name__, first_line(exc) or "(no message)")

try:
    import importlib.metadata, importlib.util
    import halide as hl
    version = importlib.metadata.version("halide")
except Exception as exc:
    fail(5, "%s has no usable halide module (%s); install it with: %s -m pip install 'halide==%s.*'"
         % (sys.executable, first_line(exc), sys.executable, halide_major))
if version.split(".")[0] != halide_major:
    fail(5, "%s has halide %s, but Beamscope uses Halide %s; install it with: %s -m pip install "
         "'halide==%s.*'" % (sys.executable, version, halide_major, sys.executable, halide_major))

sys.path.insert(0, os.path.dirname(path))
try:
    spec = importlib.util.spec_from_file_location("beamscope_user_generators", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
except BaseException as exc:
    fail(3, user_error(exc))

names = sorted(hl._get_python_generator_names())
if not name:  # list mode
    print(json.dumps({"generators": names}))
    sys.exit(0)
if name not in names:
    if not names:
        fail(4, "'%s' defines no Halide generator (@hl.generator)" % path)
    fail(4, "'%s' has no generator '%s' (available: %s)" % (path, name, ", ".join(names)))

def constant_int(e):
    """The value of a constant integer Expr, read from its text (exact), or None."""
    if e is None or not e.defined():
        return None
    m = re.search(r": (?:\(\w+\))?(-?\d+)>$", repr(e))
    return int(m.group(1)) if m else None

# Scalar values (estimates, defaults, ranges) keep their exact value and type as Exprs in a
# pipeline of their own, OUT.scalars.hlpipe; the manifest gives each one's index in its Tuple.
scalar_exprs = []

def scalar_slot(e):
    if e is None or not e.defined():
        return None
    scalar_exprs.append(e)
    return len(scalar_exprs) - 1

try:
    context = hl.GeneratorContext(hl.get_host_target())
    generator = hl._create_python_generator(name, context)
    for key, value in json.loads(params_json).items():
        generator._set_generatorparam_value(key, value)
    with context:
        pipeline = generator._build_pipeline()
    inputs = []
    for arg in generator._get_arginfos():
        if arg.dir != hl.ArgInfoDirection.Input:
            continue
        p = generator._get_input_parameter(arg.name)
        entry = {"name": p.name(), "buffer": p.is_buffer()}
        if p.is_buffer():
            ranges = []
            for d in range(p.dimensions()):
                lo = constant_int(p.min_constraint_estimate(d))
                ex = constant_int(p.extent_constraint_estimate(d))
                if lo is None or ex is None:
                    ranges = []
                    break
                ranges.append([lo, ex])
            entry["estimates"] = ranges
        else:
            for key, e in (("estimate", p.estimate()), ("default", p.default_value()),
                           ("min", p.min_value()), ("max", p.max_value())):
                slot = scalar_slot(e)
                if slot is not None:
                    entry[key] = slot
        inputs.append(entry)
    if scalar_exprs:
        values = hl.Func("beamscope_scalar_values")
        values[()] = hl.Tuple(scalar_exprs) if len(scalar_exprs) > 1 else scalar_exprs[0]
        hl.serialize_pipeline(hl.Pipeline(values), out[:-len(".hlpipe")] + ".scalars.hlpipe")
    used = {}
    for key, gp in generator._gp_dict.items():
        value = gp._value
        used[key] = str(value).lower() if isinstance(value, bool) else str(value)
    hl.serialize_pipeline(pipeline, out)
except BaseException as exc:
    fail(3, user_error(exc))

print(json.dumps({"generator": name, "inputs": inputs, "params": used}))
)PY";
}

} // namespace beamscope
