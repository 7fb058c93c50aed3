#!/usr/bin/env python3
"""Run your RDP accountant over rdpcheck's vector files and write the answers.

Usage:
    python3 examples/run_vectors.py VECTORS.json IMPL.py [-o ANSWERS.jsonl]
    python3 examples/run_vectors.py -all IMPL.py -o DIR [-vectors-dir vectors]

IMPL.py (or an importable module name) defines a Python function for each
vector function it implements, named as in the vector files ("function" of
each test group), taking the test's inputs as keyword arguments, e.g.

    SGM(q, sigma, alpha)                          RDP of one sampled-Gaussian step
    SGMCurve(q, sigma, steps, alpha)              steps * SGM
    Gaussian(sigma, alpha)
    Laplace(b, alpha)
    RandomizedResponse(p, alpha)
    GaussianDivergence(mean1, sd1, mean2, sd2, alpha)
    Divergence(distP, distQ, alpha)               lists of floats
    Epsilon(orders, rdp, delta, conversion)       conversion: "classic" or "improved"
    Delta(orders, rdp, eps, conversion)
    DPSGDEpsilon(q, sigma, steps, delta, orders, conversion)
    ProfileEpsilon(phases, delta)                 the optimal eps of a run, any method
    ProfileDelta(phases, eps)                     (phases: [{"q", "sigma", "steps"}, ...])

and likewise for every other function of the vector files (vectors/README.md
lists them with their inputs). A float input arrives as a float (read from
its hex form, so every bit is the one the expected value was computed for),
a list of floats as a list; integer and string inputs (steps, conversion,
relation, ...) as they are written; phases as a list of dicts with keys q
and sigma (floats) and steps (an integer). The profile functions' tests
give a certified interval (lower, upper), not an exact value: an answer
below lower is unsound, one above upper is valid but loose.

Each function returns a float, or (value, order) for the conversions. What
it does is recorded per test:
- a value: {"tcId": N, "value": V} (V a number or "inf"/"-inf"/"nan"),
  plus "order" when it returned one;
- raising NotImplementedError: {"tcId": N, "unsupported": true}. The scorer
  reports these as unsupported, never as failures (use it for a conversion
  or a region you do not offer);
- raising anything else: {"tcId": N, "error": "..."}, i.e. "this input is
  rejected";
- not returning within -timeout seconds (default 10): {"tcId": N,
  "hang": true}. Each test runs in a worker process; a hung worker is
  killed and a new one started, so one endless loop cannot stop the run.

Groups whose function IMPL does not define are skipped (their tests stay
unanswered). With -all, every vector file under -vectors-dir (default: the
vectors folder beside this script) is run and DIR/<name>.jsonl written for
each file with at least one answered test (tfprivacy/x.json ->
DIR/tfprivacy/x.jsonl). Grade with

    go run ./cmd/rdpcheck score -vectors VECTORS.json ANSWERS.jsonl
    go run ./cmd/rdpcheck score -all DIR

Standard library only.
"""

import argparse
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import sys

# Keys of a test that are not inputs of the function.
NOT_INPUTS = {"tcId", "comment", "flags", "result", "expected", "expectedFloat64",
              "expectedOrder", "lower", "upper", "shortcut"}
# Keys of a test group that are not inputs.
GROUP_NOT_INPUTS = {"name", "function", "comment", "relativeTolerance", "tests", "type",
                    "source"}


def load_impl(spec):
    """Import IMPL: a path to a .py file or a module name."""
    if spec.endswith(".py") or os.path.sep in spec:
        name = os.path.splitext(os.path.basename(spec))[0]
        s = importlib.util.spec_from_file_location(name, spec)
        if s is None:
            sys.exit("run_vectors: cannot load %s" % spec)
        mod = importlib.util.module_from_spec(s)
        sys.path.insert(0, os.path.dirname(os.path.abspath(spec)))
        s.loader.exec_module(mod)
        return mod
    return importlib.import_module(spec)


def hexfloat(x):
    # float.fromhex accepts "inf", "-inf" and "nan" too.
    if isinstance(x, list):
        return [hexfloat(v) for v in x]
    return float.fromhex(x)


def _add_inputs(kw, obj, skip):
    for key, val in obj.items():
        if key in skip or key.endswith("Hex") or isinstance(val, dict):
            continue
        if key == "phases":
            kw[key] = [{"q": hexfloat(p["qHex"]), "sigma": hexfloat(p["sigmaHex"]),
                        "steps": p["steps"]} for p in val]
            continue
        if key + "Hex" in obj:
            kw[key] = hexfloat(obj[key + "Hex"])
        else:
            kw[key] = val  # an integer, a string or a list of them


def inputs(group, test):
    """The keyword arguments of one test: the group's shared inputs (such
    as a grid of orders), then the test's own, floats read from hex."""
    kw = {}
    _add_inputs(kw, group, GROUP_NOT_INPUTS)
    _add_inputs(kw, test, NOT_INPUTS)
    return kw


def number(x):
    """A float as JSON: a number, or a string for non-finite values."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def answer(impl, function, kw):
    """One test's answer fields (everything but tcId)."""
    try:
        result = getattr(impl, function)(**kw)
        if isinstance(result, tuple):
            return {"value": number(result[0]), "order": number(result[1])}
        return {"value": number(result)}
    except NotImplementedError:
        return {"unsupported": True}
    except Exception as e:  # a rejection, whatever its type
        return {"error": "%s: %s" % (type(e).__name__, e)}


def _serve(spec, conn):
    impl = load_impl(spec)
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(answer(impl, job[0], job[1]))


class Worker:
    """The implementation in a child process, so that a test that never
    returns can be abandoned (the child is killed and replaced)."""

    def __init__(self, spec):
        self.spec = spec
        self.ctx = multiprocessing.get_context("spawn")
        self.proc = None

    def start(self):
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_serve, args=(self.spec, child), daemon=True)
        self.proc.start()
        self.conn = parent

    def run(self, function, kw, timeout):
        if self.proc is None or not self.proc.is_alive():
            self.start()
        self.conn.send((function, kw))
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            self.proc = None  # the child died (a crash in native code)
            return {"error": "crashed"}
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return {"hang": True}

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)
            if self.proc.is_alive():
                self.proc.kill()


def run_file(path, impl, worker, timeout, out):
    """Answers every test of one vector file whose function impl defines.
    Returns (answered, skipped, hangs)."""
    with open(path) as f:
        vectors = json.load(f)
    answered = skipped = hangs = 0
    for group in vectors["testGroups"]:
        function = group["function"]
        if not callable(getattr(impl, function, None)):
            skipped += len(group["tests"])
            continue
        for test in group["tests"]:
            line = {"tcId": test["tcId"]}
            line.update(worker.run(function, inputs(group, test), timeout))
            hangs += bool(line.get("hang"))
            out.write(json.dumps(line) + "\n")
            answered += 1
    return answered, skipped, hangs


def vector_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".json") or name.endswith(".schema.json"):
                continue
            path = os.path.join(dirpath, name)
            with open(path) as f:
                head = f.read(4096)
            if '"testGroups"' in head or '"algorithm"' in head:
                yield path


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-all", action="store_true",
                    help="run every vector file; -o names the answers folder")
    ap.add_argument("-vectors-dir", default=os.path.join(here, "..", "vectors"),
                    help="the vector files for -all (default: the repository's vectors/)")
    ap.add_argument("-timeout", type=float, default=10.0,
                    help="seconds one test may take before it is recorded as a hang (default 10)")
    ap.add_argument("-o", "--output", default="-",
                    help="answers file (default: standard output); with -all, a folder")
    ap.add_argument("args", nargs="+", help="VECTORS.json IMPL.py, or with -all just IMPL.py")
    args = ap.parse_args()
    if args.all:
        if len(args.args) != 1 or args.output == "-":
            ap.error("-all takes IMPL.py and -o DIR")
        impl_spec = args.args[0]
    else:
        if len(args.args) != 2:
            ap.error("want VECTORS.json IMPL.py")
        vec_path, impl_spec = args.args
    if not (args.timeout > 0):
        ap.error("-timeout must be > 0")

    impl = load_impl(impl_spec)  # also checks that IMPL loads before any work
    worker = Worker(impl_spec)
    try:
        if not args.all:
            out = sys.stdout if args.output == "-" else open(args.output, "w")
            answered, skipped, hangs = run_file(vec_path, impl, worker, args.timeout, out)
            if out is not sys.stdout:
                out.close()
            print("run_vectors: %d tests answered (%d hangs), %d skipped (functions not in %s)"
                  % (answered, hangs, skipped, impl_spec), file=sys.stderr)
            return
        root = os.path.normpath(args.vectors_dir)
        for path in vector_files(root):
            rel = os.path.relpath(path, root)
            dest = os.path.join(args.output, os.path.splitext(rel)[0] + ".jsonl")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            tmp = dest + ".tmp"
            with open(tmp, "w") as out:
                answered, skipped, hangs = run_file(path, impl, worker, args.timeout, out)
            if answered:
                os.replace(tmp, dest)
            else:
                os.remove(tmp)
            print("run_vectors: %s: %d answered (%d hangs), %d skipped"
                  % (rel, answered, hangs, skipped), file=sys.stderr)
    finally:
        worker.close()


if __name__ == "__main__":
    main()
