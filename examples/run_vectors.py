#!/usr/bin/env python3
"""Run your RDP accountant over rdpcheck's vector files and write the answers.

Usage:
    python3 examples/run_vectors.py VECTORS.json IMPL.py [-o ANSWERS.jsonl] [-functions PATH] [-timeout [FUNCTION=]SECONDS ...]
    python3 examples/run_vectors.py -all IMPL.py -o DIR [-vectors-dir vectors] [-timeout [FUNCTION=]SECONDS ...]

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
    EventEpsilon(event, neighboringRelation, delta)  the optimal eps of a dp_accounting DpEvent
    EventDelta(event, neighboringRelation, eps)      (event: a dict, see below)

and likewise for every other function of the vector files. Which inputs a
function takes is read from the function table, schema/functions.json
(found in the vectors folder, or beside or above a vector file's folder:
vectors/tfprivacy/x.json -> vectors/schema/functions.json; -functions PATH
overrides): a function is passed exactly the inputs its entry declares,
each of its declared kind, and nothing else of the test (comments, flags,
a peer's values). Kinds: float, read from NAMEHex (so every bit is the one
the expected value was computed for); floatList, a list of floats from
NAMEHex; int, an int; intList, a list of ints; text, a str; phases, a
list of {"q": float, "sigma": float, "steps": int} from the hex forms;
dpEvent, a DpEvent of dp_accounting as the plain dict of its
to_named_tuple() JSON ({"class_name": "GaussianDpEvent",
"noise_multiplier": 1.1}, nested events as dicts, lists of events as
lists, "module_name" left out; a new copy per call), each field of the
Python type dp_accounting declares for it (a float for a number, even
one JSON writes as 2; an int for a count), by the table's dpEventFields. The kit stays standard-library only and does
not import dp_accounting (whose copy, if any, is the adapter's to choose):
to_dp_event(event, dp_event) below builds the DpEvent objects from such a
dict with the dp_event module the adapter gives it. An
input marked groupMayGive is taken from the test group where the test
does not give it (DPSGDEpsilon's orders). Groups of a function the table
does not have are skipped, and said so. The profile functions' tests give
a certified interval (lower, upper), not an exact value: an answer below
lower is unsound, one above upper is valid but loose.

Each function returns a real number (an int or float, or numpy's), or
(value, order) for the conversions. What it does is recorded per test, as
one JSON line:
- a value: {"tcId": N, "value": V} (V a number or "inf"/"-inf"/"nan"),
  plus "order" when it returned one. None, 0 or nan as the order is how
  libraries say that none was chosen (e.g. beside eps = inf): it is left
  out. Any other order must be one of the test's orders (for a function
  that takes orders; else above 1);
- raising NotImplementedError: {"tcId": N, "unsupported": true}. The scorer
  reports these as unsupported, never as failures (use it for a conversion
  or a region you do not offer);
- raising any other exception: a rejection of the input,
      {"tcId": N, "error": "ValueError: ...", "errorType": "ValueError",
       "raisedIn": "library"}
  raisedIn says where: "library" if the innermost frame of the traceback
  is in code other than IMPL's own file (the accountant under test, the
  standard library, ...), "adapter" if it is in IMPL's file (the
  adapter's own input checks, or a native function such as math.log
  called from it), except for the adapter's bugs below;
- an adapter bug: a TypeError, AttributeError or NameError whose innermost
  frame is in IMPL's file or is the call itself (wrong keyword arguments,
  a misspelt function of a module, an undefined name), or a return value
  that is no answer: a value that is not a real number (a str such as
  "0.5", a bool, None), a tuple that is not (value, order), or an order
  that is none of the test's orders (a swapped (order, value) lands here):
      {"tcId": N, "adapterError": "TypeError: ...", "raisedIn": "adapter"}
  This says nothing about the implementation under test: it is not a
  rejection, and the scorer reports it on its own. (A TypeError raised by
  a native function called directly from IMPL's file counts as the
  adapter's too: it has no frame of its own.)
- not returning within its function's time limit: {"tcId": N,
  "hang": true, "timeout": SECONDS}. Each test runs in a worker process;
  a hung worker is killed and a new one started, so one endless loop
  cannot stop the run. The limit is per function: 10 s, and 30 s for
  ProfileEpsilon, ProfileDelta, EventEpsilon and EventDelta (they account
  a whole run: a PLD
  accountant takes seconds a call). -timeout SECONDS sets every
  function's limit, -timeout FUNCTION=SECONDS one function's (repeat it;
  the later wins). Tests that took more than half their limit are listed
  at the end, so a limit that came close is seen before it is hit.
- crashing: the worker process dying (a segfault in native code,
  os._exit) or the call raising SystemExit or KeyboardInterrupt gives
  {"tcId": N, "crashed": "how"}, e.g. "the worker died: signal SIGSEGV".
  A crash is no answer and no rejection: the scorer fails its group, even
  where the input is invalid. A dead worker is replaced for the next test.

The summary on standard error counts the tests by outcome (values,
rejections, unsupported, adapter errors, hangs, crashed) and says loudly
when calls failed in the adapter's own code.

Groups whose function IMPL does not define are skipped (their tests stay
unanswered). With -all, every vector file under -vectors-dir (default: the
vectors folder beside this script) is run and DIR/<name>.jsonl written for
each file with at least one answered test (tfprivacy/x.json ->
DIR/tfprivacy/x.jsonl). Each point (a function and its inputs) is asked
once: a test whose point was already asked, in this file or an earlier one,
gets the same answer without a second call. Grade with

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
import numbers
import os
import signal
import sys
import time
import traceback

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


class VectorError(Exception):
    """A test that does not give an input its function takes."""


# The DpEvent classes an event input may hold: class name -> {field: kind}
# (number, count, numbers, event, events), from the function table.
DP_EVENT_FIELDS = {}


def load_functions(path):
    """The function table (schema/functions.json): function name -> its
    inputs, a list of {"name", "kind"[, "groupMayGive"]} in call order.
    Its dpEventFields, the DpEvent classes' field kinds, are kept in
    DP_EVENT_FIELDS for the dpEvent inputs."""
    with open(path) as f:
        table = json.load(f)
    DP_EVENT_FIELDS.clear()
    DP_EVENT_FIELDS.update(table.get("dpEventFields", {}))
    return {fn["name"]: fn["inputs"] for fn in table["functions"]}


def _dp_event(v, path="event"):
    """An event input as a dict of its class's fields, each of its kind:
    a number a float (JSON's 2 is 2.0, as dp_accounting's float fields
    hold it), a count an int, nested events converted in turn."""
    if not isinstance(v, dict) or not isinstance(v.get("class_name"), str):
        raise VectorError("%s: %.60r is not a DpEvent object" % (path, v))
    fields = DP_EVENT_FIELDS.get(v["class_name"])
    if fields is None:
        raise VectorError("%s: class %r is not in the function table's dpEventFields" % (path, v["class_name"]))
    out = {"class_name": v["class_name"]}
    for k, x in v.items():
        if k in ("class_name", "module_name"):
            continue
        kind = fields.get(k)
        where = "%s.%s" % (path, k)
        if kind == "number":
            out[k] = float(x)
        elif kind == "count":
            out[k] = _integer(x)
        elif kind == "numbers":
            out[k] = [float(y) for y in x]
        elif kind == "event":
            out[k] = _dp_event(x, where)
        elif kind == "events":
            out[k] = [_dp_event(y, "%s[%d]" % (where, i)) for i, y in enumerate(x)]
        else:
            raise VectorError("%s: no field %r in %s" % (path, k, v["class_name"]))
    return out


def find_functions(vectors_path):
    """schema/functions.json for a vector file or folder: in the folder
    itself (vectors/), or beside or above the file's folder
    (vectors/sgm_rdp.json, vectors/tfprivacy/x.json). None if not found."""
    folder = vectors_path if os.path.isdir(vectors_path) else os.path.dirname(os.path.abspath(vectors_path))
    for d in (folder, os.path.dirname(os.path.abspath(folder))):
        cand = os.path.join(d, "schema", "functions.json")
        if os.path.isfile(cand):
            return cand
    return None


def _integer(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise VectorError("%r is not an integer" % (v,))
    return int(v)


def _convert(kind, name, src):
    if kind == "float":
        return float.fromhex(src[name + "Hex"])
    if kind == "floatList":
        return [float.fromhex(x) for x in src[name + "Hex"]]
    if kind == "int":
        return _integer(src[name])
    if kind == "intList":
        return [_integer(x) for x in src[name]]
    if kind == "text":
        if not isinstance(src[name], str):
            raise VectorError("%r is not a string" % (src[name],))
        return src[name]
    if kind == "phases":
        return [{"q": float.fromhex(p["qHex"]), "sigma": float.fromhex(p["sigmaHex"]),
                 "steps": _integer(p["steps"])} for p in src[name]]
    if kind == "dpEvent":
        return _dp_event(src[name])
    raise VectorError("unknown kind %r (a newer functions.json than this runner?)" % kind)


def to_dp_event(event, dp_event):
    """The dp_accounting DpEvent of an event input (the dict the kit
    passes), built with dp_event, the adapter's dp_accounting.dp_event
    module: getattr(dp_event, class_name)(**fields), nested events and
    lists of events built the same way, "module_name" ignored. A class
    the module lacks raises AttributeError naming it."""
    def build(v):
        if isinstance(v, dict) and "class_name" in v:
            cls = getattr(dp_event, v["class_name"])
            return cls(**{k: build(x) for k, x in v.items() if k not in ("class_name", "module_name")})
        if isinstance(v, list):
            return [build(x) for x in v]
        return v
    return build(event)


def inputs(spec, group, test):
    """The keyword arguments of one test: exactly the inputs spec (the
    function's entry of functions.json) declares, each of its kind, from
    the test, or from the group where the input is groupMayGive and the
    test does not give it. Nothing else of the test (comments, flags, a
    peer's values, ...) is passed."""
    kw = {}
    for inp in spec:
        name, kind = inp["name"], inp["kind"]
        key = name + "Hex" if kind in ("float", "floatList") else name
        src = test
        if key not in test and inp.get("groupMayGive") and key in group:
            src = group
        if key not in src:
            raise VectorError("no input %s (%s)" % (name, key))
        try:
            kw[name] = _convert(kind, name, src)
        except (ValueError, TypeError, KeyError) as e:
            raise VectorError("input %s: %s" % (name, e))
    return kw


def number(x):
    """A float as JSON: a number, or a string for non-finite values."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


# An exception of these types raised in the adapter's own code (or by the
# call itself: wrong keyword arguments) is a bug of the adapter, not a
# rejection by the implementation.
ADAPTER_BUG_TYPES = (TypeError, AttributeError, NameError)

_real = {}


def _realpath(path):
    if path not in _real:
        _real[path] = os.path.realpath(path)
    return _real[path]


def impl_file(impl):
    """The adapter's own file: IMPL.py, or the imported module's file."""
    f = getattr(impl, "__file__", None)
    return _realpath(f) if f else None


def raised_in(exc, adapter_file):
    """Where exc was raised: "call" (by calling the function itself, in
    answer(): wrong keyword arguments, a missing attribute, or a native
    function raising with no Python frame), "adapter" (the innermost frame
    is in adapter_file) or "library" (a deeper frame elsewhere)."""
    frames = [f.f_code.co_filename for f, _ in traceback.walk_tb(exc.__traceback__)]
    # frames[0] is answer()'s own frame: the implementation's start after it.
    if len(frames) <= 1:
        return "call"
    if adapter_file is not None and _realpath(frames[-1]) == adapter_file:
        return "adapter"
    return "library"


def outcome(exc, adapter_file):
    """The answer fields of a call that raised exc (everything but tcId)."""
    if isinstance(exc, NotImplementedError):
        return {"unsupported": True}
    try:
        msg = "%s: %s" % (type(exc).__name__, exc)
    except Exception:  # a __str__ that raises
        msg = type(exc).__name__
    where = raised_in(exc, adapter_file)
    if isinstance(exc, ADAPTER_BUG_TYPES) and where in ("call", "adapter"):
        return {"adapterError": msg, "raisedIn": "adapter"}
    if where == "call":
        # A native function given as the implementation raised: the
        # library's rejection.
        where = "library"
    return {"error": msg, "errorType": type(exc).__name__, "raisedIn": where}


def answer(impl, function, kw, adapter_file=None, interrupts=False):
    """One test's answer fields (everything but tcId). SystemExit raised by
    the call is a crash; so is KeyboardInterrupt where interrupts is set
    (in a worker, whose own Ctrl-C is ignored: the run's goes to the
    parent), while in-process (the pytest helper) it stops the run."""
    stops = (SystemExit, KeyboardInterrupt) if interrupts else SystemExit
    try:
        result = getattr(impl, function)(**kw)
    except Exception as e:
        return outcome(e, adapter_file)
    except stops as e:
        return {"crashed": "%s: %s (raised by the call)" % (type(e).__name__, e)}
    try:
        return returned(result, kw.get("orders"))
    except NoAnswer as e:
        return {"adapterError": "returned %.80r: %s" % (result, e), "raisedIn": "adapter"}


class NoAnswer(Exception):
    """A returned result that answers nothing: the adapter's bug."""


def real(x):
    """x as a float if it is a real number: an int or float, numpy's scalars
    (registered as numbers.Real) or a 0-d numpy array of numbers; None for
    anything else, a bool (True is no 1.0) and a str ("0.5") among them."""
    if isinstance(x, bool) or type(x).__name__ in ("bool_", "bool"):  # numpy's bool too
        return None
    try:
        if isinstance(x, numbers.Real):
            return float(x)
        if getattr(x, "shape", None) == () and getattr(getattr(x, "dtype", None), "kind", None) in ("f", "i", "u"):
            return float(x)
    except (TypeError, ValueError, OverflowError):
        pass
    return None


def returned(result, orders):
    """The answer fields of a returned result: a real number, or (value,
    order). orders are the test's (None if its function takes none). Raises
    NoAnswer for anything else."""
    order = None
    value = result
    if isinstance(result, tuple):
        if len(result) != 2:
            raise NoAnswer("a tuple of %d items, want a number or (value, order)" % len(result))
        value, order = result
    v = real(value)
    if v is None:
        raise NoAnswer("the value %.40r is not a real number (want an int or float)" % (value,))
    fields = {"value": number(v)}
    if order is None:
        return fields
    o = real(order)
    if o is None:
        raise NoAnswer("the order %.40r is not a real number" % (order,))
    if o == 0 or math.isnan(o):
        return fields  # no order chosen
    if orders is not None and o not in orders:
        raise NoAnswer("the order %r is none of the test's orders (is it (order, value), swapped?)" % o)
    if orders is None and not o > 1:
        raise NoAnswer("the order %r is no Renyi order (want one above 1, or None, 0 or nan for none)" % o)
    fields["order"] = number(o)
    return fields


def _serve(spec, conn):
    # Ctrl-C is the parent's to handle (it stops the run and the worker);
    # a KeyboardInterrupt the implementation raises is still a crash.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    impl = load_impl(spec)
    adapter_file = impl_file(impl)
    conn.send("ready")
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(answer(impl, job[0], job[1], adapter_file, interrupts=True))


def death(exitcode):
    """How a worker process ended, from its exit code."""
    if exitcode is None:
        return "the worker died"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = str(-exitcode)
        return "the worker died: signal %s" % name
    return "the worker exited with status %d (os._exit or a native exit)" % exitcode


class WorkerError(Exception):
    """A worker that cannot load the implementation: the run cannot go on."""


# Seconds a new worker may take to import the implementation (numpy, scipy
# and the library), which no test's time limit pays for.
STARTUP_TIMEOUT = 300.0


class Worker:
    """The implementation in a child process, so that a test that never
    returns can be abandoned (the child is killed and replaced). A new
    worker loads the implementation before it is given a test, so that
    the import is not charged to the test's time limit."""

    def __init__(self, spec):
        self.spec = spec
        self.ctx = multiprocessing.get_context("spawn")
        self.proc = None
        self.seconds = 0.0  # the last test's time, from asking to answer

    def start(self):
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_serve, args=(self.spec, child), daemon=True)
        self.proc.start()
        self.conn = parent
        if parent.poll(STARTUP_TIMEOUT):
            try:
                if parent.recv() == "ready":
                    return
            except EOFError:
                pass
            self.proc.join(5)
            raise WorkerError("a new worker could not load %s (%s)" % (self.spec, death(self.proc.exitcode)))
        self.proc.kill()
        raise WorkerError("a new worker did not load %s within %g s" % (self.spec, STARTUP_TIMEOUT))

    def run(self, function, kw, timeout):
        if self.proc is None or not self.proc.is_alive():
            self.start()
        start = time.monotonic()
        self.conn.send((function, kw))
        ready = self.conn.poll(timeout)
        self.seconds = time.monotonic() - start
        if ready:
            try:
                return self.conn.recv()
            except EOFError:
                pass
            # The child died: a crash, never a rejection.
            self.proc.join(5)
            how = death(self.proc.exitcode)
            self.proc = None
            return {"crashed": how}
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


def point_key(function, kw):
    """The point a call asks about: the function and its inputs, floats by
    their exact hex forms, so that equal points are asked once."""
    def canon(v):
        if isinstance(v, float):
            return float.hex(v)
        if isinstance(v, list):
            return [canon(x) for x in v]
        if isinstance(v, dict):
            return {k: canon(x) for k, x in sorted(v.items())}
        return v
    return json.dumps([function, canon(kw)], sort_keys=True)


# Time limits in seconds: every function's, and the profile functions',
# which account a whole run (a PLD accountant composes thousands of steps,
# 4 to 8 s a call on a loaded machine) where the others evaluate one
# formula.
DEFAULT_TIMEOUT = 10.0
DEFAULT_FUNCTION_TIMEOUTS = {"ProfileEpsilon": 30.0, "ProfileDelta": 30.0, "EventEpsilon": 30.0, "EventDelta": 30.0}


class Limits:
    """Each function's time limit, from -timeout's values: "SECONDS" sets
    every function's (the built-in per-function ones included), and
    "FUNCTION=SECONDS" one function's; later values win."""

    def __init__(self, specs, functions):
        self.default = DEFAULT_TIMEOUT
        self.per = dict(DEFAULT_FUNCTION_TIMEOUTS)
        for spec in specs or []:
            name, _, secs = spec.rpartition("=")
            try:
                t = float(secs)
            except ValueError:
                t = math.nan
            if not (0 < t < math.inf):
                raise ValueError("-timeout %s: want SECONDS or FUNCTION=SECONDS, seconds above 0" % spec)
            if not name:
                self.default, self.per = t, {}
            elif name not in functions:
                raise ValueError("-timeout %s: no function %s in the function table" % (spec, name))
            else:
                self.per[name] = t

    def __call__(self, function):
        return self.per.get(function, self.default)


def run_file(path, impl, functions, worker, limits, out, table="schema/functions.json", seen=None):
    """Answers every test of one vector file whose function impl defines,
    with the inputs functions (load_functions) declares for it. A point
    already asked (in seen, shared across the files of -all, which may
    share points) is answered as it was, not run again. limits(function)
    is a function's time limit in seconds. Returns a Tally."""
    if seen is None:
        seen = {}
    with open(path) as f:
        vectors = json.load(f)
    tally = Tally()
    unknown = set()
    for group in vectors["testGroups"]:
        function = group["function"]
        spec = functions.get(function)
        if spec is None:
            if function not in unknown:
                unknown.add(function)
                print("run_vectors: %s: function %s is not in the function table "
                      "(%s); skipping its groups" % (path, function, table),
                      file=sys.stderr)
            tally.skipped += len(group["tests"])
            continue
        if not callable(getattr(impl, function, None)):
            tally.skipped += len(group["tests"])
            continue
        for test in group["tests"]:
            try:
                kw = inputs(spec, group, test)
            except VectorError as e:
                print("run_vectors: %s: group %s, tcId %s: %s; test skipped"
                      % (path, group.get("name"), test.get("tcId"), e), file=sys.stderr)
                tally.skipped += 1
                continue
            line = {"tcId": test["tcId"]}
            key = point_key(function, kw)
            if key not in seen:
                limit = limits(function)
                seen[key] = worker.run(function, kw, limit)
                if "hang" in seen[key]:
                    seen[key]["timeout"] = limit
                elif worker.seconds > limit / 2:
                    tally.slow.append((worker.seconds, limit, path, test["tcId"], function))
            line.update(seen[key])
            tally.add(line)
            out.write(json.dumps(line) + "\n")
    return tally


class Tally:
    """What the tests of a run came to, by outcome: a summary that does not
    count an adapter's failed calls as answers."""

    OUTCOMES = (("value", "values"), ("error", "rejections"), ("unsupported", "unsupported"),
                ("adapterError", "adapter errors"), ("hang", "hangs"), ("crashed", "crashed"))

    def __init__(self):
        self.counts = {k: 0 for k, _ in self.OUTCOMES}
        self.skipped = 0
        self.first_adapter_error = None  # (tcId, message)
        self.slow = []  # (seconds, limit, file, tcId, function): over half the limit

    def add(self, line):
        for k, _ in self.OUTCOMES:
            if k in line:
                self.counts[k] += 1
                break
        if "adapterError" in line and self.first_adapter_error is None:
            self.first_adapter_error = (line["tcId"], line["adapterError"])

    def merge(self, other):
        for k in self.counts:
            self.counts[k] += other.counts[k]
        self.skipped += other.skipped
        self.first_adapter_error = self.first_adapter_error or other.first_adapter_error
        self.slow += other.slow

    @property
    def asked(self):
        return sum(self.counts.values())

    def __str__(self):
        return "%d tests asked: %s; %d skipped" % (
            self.asked, ", ".join("%d %s" % (self.counts[k], name) for k, name in self.OUTCOMES), self.skipped)

    def warn(self, where):
        """Says loudly, on standard error, what is not the implementation's
        answer (the adapter's bugs), and which tests came close to their
        time limit."""
        if self.slow:
            took, limit, path, tc, function = max(self.slow)
            print("run_vectors: %s%d tests took more than half their time limit (slowest: %s tcId %s, "
                  "%s, %.1f s of %g s): raise it with -timeout %s=SECONDS if they may hang"
                  % (where, len(self.slow), path, tc, function, took, limit, function), file=sys.stderr)
        n = self.counts["adapterError"]
        if n:
            tc, msg = self.first_adapter_error
            print("run_vectors: %sADAPTER BUG: in %d of %d tests the call failed in the adapter's "
                  "own code, not in the implementation (first, tcId %s: %s): these tests are not "
                  "answered; fix the adapter" % (where, n, self.asked, tc, msg), file=sys.stderr)


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
    ap.add_argument("-functions", default=None,
                    help="the function table (default: schema/functions.json in the vectors "
                    "folder, or beside or above a vector file's folder)")
    ap.add_argument("-timeout", action="append", metavar="[FUNCTION=]SECONDS",
                    help="seconds a test may take before it is recorded as a hang: SECONDS for "
                    "every function, FUNCTION=SECONDS for one; repeatable (default %g, and %s)"
                    % (DEFAULT_TIMEOUT, ", ".join("%s=%g" % kv for kv in sorted(DEFAULT_FUNCTION_TIMEOUTS.items()))))
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
    fpath = args.functions or find_functions(args.vectors_dir if args.all else vec_path)
    if fpath is None:
        ap.error("no schema/functions.json beside %s or its folder: give -functions PATH"
                 % (args.vectors_dir if args.all else vec_path))
    functions = load_functions(fpath)
    try:
        limits = Limits(args.timeout, functions)
    except ValueError as e:
        ap.error(str(e))
    impl = load_impl(impl_spec)  # also checks that IMPL loads before any work
    worker = Worker(impl_spec)
    try:
        run(args, None if args.all else vec_path, impl, impl_spec, functions, fpath, worker, limits)
    except WorkerError as e:
        sys.exit("run_vectors: %s" % e)
    finally:
        worker.close()


def run(args, vec_path, impl, impl_spec, functions, fpath, worker, limits):
    """Runs the vector file vec_path, or every file with -all, writing the
    answers and the summaries."""
    if not args.all:
        out = sys.stdout if args.output == "-" else open(args.output, "w")
        tally = run_file(vec_path, impl, functions, worker, limits, out, fpath)
        if out is not sys.stdout:
            out.close()
        print("run_vectors: %s (functions not in %s or the table)" % (tally, impl_spec), file=sys.stderr)
        tally.warn("")
        return
    root = os.path.normpath(args.vectors_dir)
    seen = {}  # each point once across the files
    total = Tally()
    for path in vector_files(root):
        rel = os.path.relpath(path, root)
        dest = os.path.join(args.output, os.path.splitext(rel)[0] + ".jsonl")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        tmp = dest + ".tmp"
        with open(tmp, "w") as out:
            tally = run_file(path, impl, functions, worker, limits, out, fpath, seen)
        if tally.asked:
            os.replace(tmp, dest)
        else:
            os.remove(tmp)
        print("run_vectors: %s: %s" % (rel, tally), file=sys.stderr)
        total.merge(tally)
    print("run_vectors: all files: %s" % total, file=sys.stderr)
    total.warn("")


if __name__ == "__main__":
    main()
