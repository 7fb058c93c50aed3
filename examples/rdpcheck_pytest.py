"""rdpcheck's vectors as parametrized tests of a Python accountant's own suite.

One pytest test per vector group (id "file/group"), graded as
`rdpcheck score` grades a group. In a test file of your project:

    import pytest
    import rdpcheck_pytest as rp   # this file, on sys.path

    CASES = rp.vector_cases("path/to/rdpcheck/vectors", "my_adapter.py",
                            files=["sgm_rdp.json", "conversions.json"])

    @pytest.mark.parametrize("case", CASES)
    def test_rdpcheck(case):
        rp.check_group(case)

The adapter (a .py path, a module name or a module object) is the module
run_vectors.py takes: a function per vector function, named as in the
vector files, taking the inputs schema/functions.json declares as keyword
arguments. Inputs are chosen and read exactly as run_vectors.py does (it
is imported from beside this file), and raised exceptions are told apart
the same way: NotImplementedError is "unsupported", a TypeError,
AttributeError or NameError raised in the adapter's own file (or by the
call: wrong keyword arguments) is the adapter's bug, anything else a
rejection.

check_group fails a group, as the scorer does, when
- a valid or acceptable test's value is further than the group's
  relativeTolerance from the exact expected value, measured as
  |got - exp| / max(|exp|, 2^-1022) (|got| where exp is 0; where exp is
  +inf only +inf is right; NaN is never right). A value below the truth
  by more than the tolerance is the unsafe failure (it under-reports the
  privacy spent) and is listed first. Where a test gives a valid
  `shortcut` (conversions), a value between it and expected is right, and
  one below it is judged against it;
- a profile test's value (ProfileEpsilon, ProfileDelta) is below the
  certified lower bound, or NaN (above upper is loose, not a failure);
- a valid input is rejected, or an invalid input is given a value;
- the adapter has a bug (the message says it is the adapter's, not the
  implementation's).
A test answered with NotImplementedError is not graded; a group where
every test is is skipped (pytest.skip). Tests run in-process, with no
time limit: use run_vectors.py for an implementation that may hang.

vector_cases marks groups whose function the adapter does not define, or
that the function table does not know, as skipped; xfail={id: reason}
marks groups expected to fail (strictly: one that passes fails).

Standard library and pytest only.
"""

import json
import math
import os
import sys
from fractions import Fraction

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_vectors as rv  # noqa: E402

MIN_NORMAL = Fraction(2) ** -1022
# How many failing tests of each kind a message lists.
LIST_MAX = 10


class Case:
    """One vector group to check: the file it is in (relative to the
    vectors folder), the group, the adapter and the function's inputs."""

    def __init__(self, file, group, impl, spec):
        self.file, self.group, self.impl, self.spec = file, group, impl, spec

    @property
    def id(self):
        return "%s/%s" % (self.file, self.group["name"])

    def __repr__(self):
        return "Case(%s)" % self.id


def _impl(impl_module):
    if isinstance(impl_module, str):
        return rv.load_impl(impl_module)
    return impl_module


def vector_cases(vectors_dir, impl_module, files=None, groups=None, xfail=None, functions=None):
    """One pytest.param per vector group, id "file/group".

    vectors_dir: rdpcheck's vectors folder. impl_module: the adapter (a .py
    path, a module name or a module object). files: vector files relative
    to vectors_dir (default: every one). groups: if given, only the groups
    whose id is in it. xfail: {id: reason} of groups expected to fail
    (strict). functions: the function table (default:
    vectors_dir/schema/functions.json)."""
    impl = _impl(impl_module)
    fpath = functions or rv.find_functions(vectors_dir)
    if fpath is None:
        raise FileNotFoundError("no schema/functions.json in %s: pass functions=PATH" % vectors_dir)
    table = rv.load_functions(fpath)
    if files is None:
        files = [os.path.relpath(p, vectors_dir) for p in rv.vector_files(vectors_dir)]
    xfail = dict(xfail or {})
    out = []
    for rel in files:
        with open(os.path.join(vectors_dir, rel)) as f:
            vectors = json.load(f)
        rel = rel.replace(os.sep, "/")
        for group in vectors["testGroups"]:
            case = Case(rel, group, impl, table.get(group["function"]))
            if groups is not None and case.id not in groups:
                continue
            marks = []
            if case.spec is None:
                marks.append(pytest.mark.skip(reason="function %s is not in the function table %s"
                                              % (group["function"], fpath)))
            elif not callable(getattr(impl, group["function"], None)):
                marks.append(pytest.mark.skip(reason="the adapter has no %s" % group["function"]))
            if case.id in xfail:
                marks.append(pytest.mark.xfail(strict=True, reason=xfail.pop(case.id)))
            out.append(pytest.param(case, id=case.id, marks=marks))
    if groups is not None:
        missing = set(groups) - {p.id for p in out}
        if missing:
            raise ValueError("no such groups: %s" % ", ".join(sorted(missing)))
    if xfail:
        raise ValueError("xfail names groups not among the cases: %s" % ", ".join(sorted(xfail)))
    return out


def _exact(s):
    """An exact value of a vector file ("inf", "0", 50 digits) as a
    Fraction, or a float infinity."""
    if s in ("inf", "+inf", "-inf"):
        return -math.inf if s.startswith("-") else math.inf
    return Fraction(s)


def relative_error(got, want):
    """|got - want| / max(|want|, 2^-1022), as vectors/README.md defines it:
    |got| where want is exactly 0, 0 or inf where want is infinite, inf for
    NaN and for an infinite answer to a finite value."""
    if math.isnan(got):
        return math.inf
    if isinstance(want, float):  # an infinity
        return 0.0 if got == want else math.inf
    if math.isinf(got):
        return math.inf
    if want == 0:
        return abs(got)
    return float(abs(Fraction(got) - want) / max(abs(want), MIN_NORMAL))


def _below(got, want):
    return not math.isnan(got) and got < want


def _grade_value(test, got, tol):
    """None if got is right for the test, else (unsafe, message)."""
    if "lowerHex" in test:  # a profile test: fails only below lower
        lo = float.fromhex(test["lowerHex"])
        if math.isnan(got) or got < lo:
            return True, "got %r, below the certified lower bound %s" % (got, test["lower"])
        return None
    want_s = test["expected"] if "expected" in test else test["expectedFloat64"]
    want = _exact(want_s)
    sc = test.get("shortcut")
    if sc and _below(got, want):
        sv = _exact(sc["value"])
        if not _below(got, sv):
            return None  # tighter than the formula, and still valid
        want, want_s = sv, sc["value"] + " (the valid shortcut's bound)"
    rel = relative_error(got, want)
    if rel <= tol:
        return None
    unsafe = _below(got, want)
    return unsafe, "got %r, want %s: relative error %.3g > tolerance %.3g%s" % (
        got, want_s, rel, tol, ", below the truth" if unsafe else "")


def check_group(case):
    """Runs case's group through the adapter and fails (with every kind of
    failure listed, unsafe ones first) where the scorer would."""
    group, impl = case.group, case.impl
    function = group["function"]
    if case.spec is None:
        pytest.skip("function %s is not in the function table" % function)
    if not callable(getattr(impl, function, None)):
        pytest.skip("the adapter has no %s" % function)
    adapter_file = rv.impl_file(impl)
    tol = group["relativeTolerance"]
    unsafe, adapter, other = [], [], []
    unsupported = 0
    for test in group["tests"]:
        where = "tcId %d" % test["tcId"] + (" (%s)" % test["comment"] if test.get("comment") else "")
        try:
            kw = rv.inputs(case.spec, group, test)
        except rv.VectorError as e:
            other.append("%s: the vector file and the function table disagree: %s" % (where, e))
            continue
        out = rv.answer(impl, function, kw, adapter_file)
        result = test["result"]
        if out.get("unsupported"):
            unsupported += 1
        elif "crashed" in out:
            other.append("%s: crashed: %s" % (where, out["crashed"]))
        elif "adapterError" in out:
            adapter.append("%s: %s" % (where, out["adapterError"]))
        elif "error" in out:
            if result == "valid":
                other.append("%s: valid input rejected: %s (raised in %s)"
                             % (where, out["error"], out.get("raisedIn")))
        elif result == "invalid":
            other.append("%s: invalid input accepted: got %r, want a rejection" % (where, out["value"]))
        else:
            bad = _grade_value(test, float(out["value"]), tol)
            if bad:
                (unsafe if bad[0] else other).append("%s: %s" % (where, bad[1]))
    if unsupported == len(group["tests"]):
        pytest.skip("every test of %s raised NotImplementedError" % case.id)
    msgs = []
    for title, items in (
            ("UNSAFE: %d values below the truth beyond tolerance (under-reported privacy loss)", unsafe),
            ("ADAPTER BUG, not the implementation's: %d calls failed in the adapter's own code", adapter),
            ("%d other failures", other)):
        if items:
            msgs.append(title % len(items))
            msgs.extend("  " + m for m in items[:LIST_MAX])
            if len(items) > LIST_MAX:
                msgs.append("  ... and %d more" % (len(items) - LIST_MAX))
    if msgs:
        pytest.fail("%s (%s, %d tests, tolerance %g):\n%s"
                    % (case.id, function, len(group["tests"]), tol, "\n".join(msgs)), pytrace=False)
