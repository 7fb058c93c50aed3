#!/usr/bin/env python3
"""Run your RDP accountant over an rdpcheck vector file and write the answers.

Usage:
    python3 examples/run_vectors.py VECTORS.json IMPL.py [-o ANSWERS.jsonl]

IMPL.py (or an importable module name) defines a Python function for each
vector function it implements, named as in the vector files, taking the
test's inputs as keyword arguments:

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

Each returns a float, or (value, order) for the last three. Raising an
exception means "this input is rejected". Groups whose function IMPL does
not define are skipped (their tests stay unanswered).

Output: one JSON line per answered test, {"tcId": N, "value": V} with V a
number or "inf"/"-inf"/"nan", or {"tcId": N, "error": "..."}; plus "order"
when the function returned one. Grade it with

    go run ./cmd/rdpcheck score -vectors VECTORS.json ANSWERS.jsonl

Inputs are read from their hex form (float.fromhex), so every bit is the one
the expected value was computed for. Standard library only.
"""

import argparse
import importlib
import importlib.util
import json
import math
import os
import sys

# The inputs of each function, in the order the functions take them.
ARGS = {
    "SGM": ["q", "sigma", "alpha"],
    "SGMCurve": ["q", "sigma", "steps", "alpha"],
    "Gaussian": ["sigma", "alpha"],
    "Laplace": ["b", "alpha"],
    "RandomizedResponse": ["p", "alpha"],
    "GaussianDivergence": ["mean1", "sd1", "mean2", "sd2", "alpha"],
    "Divergence": ["distP", "distQ", "alpha"],
    "Epsilon": ["orders", "rdp", "delta", "conversion"],
    "Delta": ["orders", "rdp", "eps", "conversion"],
    "DPSGDEpsilon": ["q", "sigma", "steps", "delta", "orders", "conversion"],
}


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


def hexfloat(s):
    # float.fromhex accepts "inf", "-inf" and "nan" too.
    return float.fromhex(s)


def inputs(group, test):
    """The keyword arguments of one test, floats read from their hex form."""
    kw = {}
    for name in ARGS[group["function"]]:
        if name == "steps":
            kw[name] = test["steps"]
        elif name == "conversion":
            kw[name] = test["conversion"]
        elif name in ("orders", "rdp", "distP", "distQ"):
            src = test if (name + "Hex") in test else group
            kw[name] = [hexfloat(x) for x in src[name + "Hex"]]
        else:
            kw[name] = hexfloat(test[name + "Hex"])
    return kw


def number(x):
    """A float as JSON: a number, or a string for non-finite values."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vectors", help="a vector file, e.g. vectors/sgm_rdp.json")
    ap.add_argument("impl", help="your functions: a .py file or a module name")
    ap.add_argument("-o", "--output", default="-", help="answers file (default: standard output)")
    args = ap.parse_args()

    with open(args.vectors) as f:
        vectors = json.load(f)
    impl = load_impl(args.impl)
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    answered = skipped = 0
    for group in vectors["testGroups"]:
        fn = getattr(impl, group["function"], None)
        if fn is None:
            skipped += len(group["tests"])
            continue
        for test in group["tests"]:
            line = {"tcId": test["tcId"]}
            try:
                result = fn(**inputs(group, test))
                if isinstance(result, tuple):
                    line["value"], line["order"] = number(result[0]), number(result[1])
                else:
                    line["value"] = number(result)
            except Exception as e:  # a rejection, whatever its type
                line["error"] = "%s: %s" % (type(e).__name__, e)
            out.write(json.dumps(line) + "\n")
            answered += 1
    if out is not sys.stdout:
        out.close()
    print("run_vectors: %d tests answered, %d skipped (functions not in %s)"
          % (answered, skipped, args.impl), file=sys.stderr)


if __name__ == "__main__":
    main()
