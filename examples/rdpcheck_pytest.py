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
  privacy spent). Where a test gives a valid `shortcut` (conversions), a
  value between it and expected is right, and one below it is judged
  against it;
- a profile test's value (ProfileEpsilon, ProfileDelta) is below the
  certified lower bound, or NaN (above upper is loose, not a failure);
- a valid input is rejected, or an invalid input is given a value;
- the call crashes (SystemExit);
- the adapter has a bug (the message says it is the adapter's, not the
  implementation's).
Its message gives the counts `rdpcheck score` gives (the same words), then
the failing tests worst first, in the scorer's order: values below the
truth (or a certified bound) by how far, crashes, NaN and infinite values,
accepted invalid inputs, adapter bugs, rejected valid inputs, then values
beyond the tolerance by how far; the first LIST_MAX, and how many more.
A test answered with NotImplementedError is not graded; a group where
every test is is skipped (pytest.skip). Tests run in-process, with no
time limit: use run_vectors.py for an implementation that may hang.
grade_group grades without pytest and returns the Grade that check_group
reports.

vector_cases marks groups whose function the adapter does not define, or
that the function table does not know, as skipped; xfail={id: reason}
marks groups expected to fail (strictly: one that passes fails).

Standard library and pytest only; pytest is imported where it is used,
so that grade_group runs (and is tested) without it.
"""

import json
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_vectors as rv  # noqa: E402

MIN_NORMAL = Fraction(2) ** -1022
# How many failing tests of each kind a message lists.
LIST_MAX = 10


class Case:
    """One vector group to check: the file it is in (relative to the
    vectors folder), the group, the adapter, the function's inputs and
    whether its tests give certified intervals (the profile functions)."""

    def __init__(self, file, group, impl, spec, interval=False):
        self.file, self.group, self.impl, self.spec = file, group, impl, spec
        self.interval = interval

    @property
    def id(self):
        return "%s/%s" % (self.file, self.group["name"])

    def __repr__(self):
        return "Case(%s)" % self.id


def _impl(impl_module):
    if isinstance(impl_module, str):
        return rv.load_impl(impl_module)
    return impl_module


def load_cases(vectors_dir, impl_module, files=None, groups=None, functions=None):
    """The Cases of the vector groups, without pytest: see vector_cases.
    Returns (cases, fpath), fpath the function table read."""
    impl = _impl(impl_module)
    fpath = functions or rv.find_functions(vectors_dir)
    if fpath is None:
        raise FileNotFoundError("no schema/functions.json in %s: pass functions=PATH" % vectors_dir)
    table = rv.load_functions(fpath)
    with open(fpath) as f:
        # The functions whose tests give a certified interval (the
        # scorer's schema.IsProfile).
        intervals = {fn["name"] for fn in json.load(f)["functions"] if fn.get("interval")}
    if files is None:
        files = [os.path.relpath(p, vectors_dir) for p in rv.vector_files(vectors_dir)]
    out = []
    for rel in files:
        with open(os.path.join(vectors_dir, rel)) as f:
            vectors = json.load(f)
        rel = rel.replace(os.sep, "/")
        for group in vectors["testGroups"]:
            case = Case(rel, group, impl, table.get(group["function"]), group["function"] in intervals)
            if groups is None or case.id in groups:
                out.append(case)
    if groups is not None:
        missing = set(groups) - {c.id for c in out}
        if missing:
            raise ValueError("no such groups: %s" % ", ".join(sorted(missing)))
    return out, fpath


def vector_cases(vectors_dir, impl_module, files=None, groups=None, xfail=None, functions=None):
    """One pytest.param per vector group, id "file/group".

    vectors_dir: rdpcheck's vectors folder. impl_module: the adapter (a .py
    path, a module name or a module object). files: vector files relative
    to vectors_dir (default: every one). groups: if given, only the groups
    whose id is in it. xfail: {id: reason} of groups expected to fail
    (strict). functions: the function table (default:
    vectors_dir/schema/functions.json)."""
    import pytest

    cases, fpath = load_cases(vectors_dir, impl_module, files, groups, functions)
    xfail = dict(xfail or {})
    out = []
    for case in cases:
        marks = []
        if case.spec is None:
            marks.append(pytest.mark.skip(reason="function %s is not in the function table %s"
                                          % (case.group["function"], fpath)))
        elif not callable(getattr(case.impl, case.group["function"], None)):
            marks.append(pytest.mark.skip(reason="the adapter has no %s" % case.group["function"]))
        if case.id in xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=xfail.pop(case.id)))
        out.append(pytest.param(case, id=case.id, marks=marks))
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


class Failure:
    """One failing test: its rank in the scorer's order (what can hurt a
    user first, as vectors/score's Worst.rank), its relative error (inf
    where there is none), the test and what to say."""

    # The scorer's ranks.
    UNDER, CRASH, NONFINITE, ACCEPTED, ADAPTER, REJECTED, OVER = range(7)

    def __init__(self, rank, rel, test, text):
        self.rank, self.rel, self.tc_id, self.text = rank, rel, test["tcId"], text
        self.where = "tcId %d" % test["tcId"] + (" (%s)" % test["comment"] if test.get("comment") else "")

    def __str__(self):
        return "%s: %s" % (self.where, self.text)


class Grade:
    """A group's grade as the scorer counts it. reasons are the scorer's
    (vectors/score's Group.Reasons, the same words and order); failures
    the failing tests, worst first; unsupported and tests count."""

    def __init__(self, case, tests):
        self.case, self.tests = case, tests
        self.below = self.unsound = self.crashed = self.accepted_invalid = 0
        self.adapter_errors = self.over_tolerance = self.rejected_valid = 0
        self.unsupported = 0
        self.failures = []

    @property
    def profile(self):
        return self.case.interval

    @property
    def tolerance(self):
        return self.case.group["relativeTolerance"]

    @property
    def reasons(self):
        """Why the group fails, as `rdpcheck score` says it."""
        why = []

        def add(n, text):
            if n:
                why.append("%d %s" % (n, text))
        if not self.profile:
            add(self.below, "below the truth beyond the tolerance (unsafe)")
        add(self.unsound, "below the certified lower bound (unsound)")
        add(self.crashed, "crashed (the process died or exited: no answer, never a rejection)")
        add(self.accepted_invalid, "invalid inputs accepted")
        add(self.adapter_errors, "adapter errors (the adapter's bug, not the implementation's answer)")
        if not self.profile:
            add(self.over_tolerance, "beyond tolerance %g" % self.tolerance)
        add(self.rejected_valid, "valid inputs rejected")
        return why

    def worst_first(self):
        """The failures in the scorer's order: by rank, then the larger
        relative error first, then in the file's order."""
        return sorted(self.failures, key=lambda f: (f.rank, -f.rel))

    def message(self, limit=None):
        """The report of a failing group: its counts, then the first limit
        (default LIST_MAX) failing tests worst first, and how many more."""
        limit = LIST_MAX if limit is None else limit
        g = self.case.group
        how = "certified intervals" if self.profile else "tolerance %g" % self.tolerance
        lines = ["%s (%s, %d tests, %s): %s" % (self.case.id, g["function"], self.tests, how,
                                                ", ".join(self.reasons))]
        ranked = self.worst_first()
        lines.append("worst first (%d of %d failing tests):" % (min(limit, len(ranked)), len(ranked)))
        lines.extend("  %s" % f for f in ranked[:limit])
        if len(ranked) > limit:
            lines.append("  ... and %d more" % (len(ranked) - limit))
        return "\n".join(lines)


def _grade_value(grade, test, got):
    """Grades a value to a valid or acceptable test into grade, as the
    scorer does."""
    if grade.profile:  # a certified interval: fails only below lower
        lo = float.fromhex(test["lowerHex"])
        if math.isnan(got):
            grade.unsound += 1
            grade.failures.append(Failure(Failure.UNDER, math.inf, test, "got nan, want at least %s "
                                          "(the certified lower bound): unsound" % test["lower"]))
        elif got < lo:
            grade.unsound += 1
            rel = float((Fraction(lo) - Fraction(got)) / Fraction(lo))
            grade.failures.append(Failure(Failure.UNDER, rel, test, "got %r, want at least %s (the certified "
                                          "lower bound): unsound, %.2g below it (relative)" % (got, test["lower"], rel)))
        return
    want_s = test["expected"] if "expected" in test else test["expectedFloat64"]
    want = _exact(want_s)
    sc = test.get("shortcut")
    if sc and _below(got, want):
        sv = _exact(sc["value"])
        if not _below(got, sv):
            return  # tighter than the formula, and still valid
        want, want_s = sv, sc["value"] + " (the valid shortcut's bound)"
    rel = relative_error(got, want)
    if rel <= grade.tolerance:
        return
    grade.over_tolerance += 1
    if _below(got, want):
        grade.below += 1
        grade.failures.append(Failure(Failure.UNDER, rel, test, "got %r, want %s: below the truth by %.2g "
                                      "relative (unsafe)" % (got, want_s, rel)))
        return
    rank = Failure.NONFINITE if math.isnan(got) or math.isinf(got) else Failure.OVER
    grade.failures.append(Failure(rank, rel, test, "got %r, want %s: relative error %.2g > tolerance %g"
                                  % (got, want_s, rel, grade.tolerance)))


def grade_group(case):
    """Runs case's group through the adapter, in-process, and grades it as
    `rdpcheck score` does. Returns a Grade."""
    group, impl = case.group, case.impl
    function = group["function"]
    adapter_file = rv.impl_file(impl)
    grade = Grade(case, len(group["tests"]))
    for test in group["tests"]:
        try:
            kw = rv.inputs(case.spec, group, test)
        except rv.VectorError as e:
            raise ValueError("tcId %d: the vector file and the function table disagree: %s" % (test["tcId"], e))
        out = rv.answer(impl, function, kw, adapter_file)
        result = test["result"]
        if out.get("unsupported"):
            grade.unsupported += 1
        elif "crashed" in out:
            grade.crashed += 1
            grade.failures.append(Failure(Failure.CRASH, math.inf, test, "crashed, no answer: " + out["crashed"]))
        elif "adapterError" in out:
            grade.adapter_errors += 1
            grade.failures.append(Failure(Failure.ADAPTER, math.inf, test, "adapter error (the adapter's bug, "
                                          "not the implementation's answer): " + out["adapterError"]))
        elif "error" in out:
            if result == "valid":
                grade.rejected_valid += 1
                grade.failures.append(Failure(Failure.REJECTED, math.inf, test, "valid input rejected: %s "
                                              "(raised in %s)" % (out["error"], out.get("raisedIn"))))
        elif result == "invalid":
            grade.accepted_invalid += 1
            grade.failures.append(Failure(Failure.ACCEPTED, math.inf, test, "invalid input accepted: got %r, "
                                          "want a rejection" % (out["value"],)))
        else:
            _grade_value(grade, test, float(out["value"]))
    return grade


def check_group(case):
    """Runs case's group through the adapter and fails where the scorer
    would, with its counts and the failing tests worst first."""
    import pytest

    function = case.group["function"]
    if case.spec is None:
        pytest.skip("function %s is not in the function table" % function)
    if not callable(getattr(case.impl, function, None)):
        pytest.skip("the adapter has no %s" % function)
    grade = grade_group(case)
    if grade.unsupported == grade.tests:
        pytest.skip("every test of %s raised NotImplementedError" % case.id)
    if grade.failures:
        pytest.fail(grade.message(), pytrace=False)
