#!/usr/bin/env python3
"""dp_accounting's PLD accountant on the rows of docs/pld_region.md.

Prints what dp_accounting 0.6.0's PLDAccountant answers for eps(delta) of one
phase of DP-SGD (Poisson-sampled Gaussian, add/remove neighbours), and how long
it took. No truth is computed here: the value is the peer's own return value.

Usage:  PEER_SRC=DIR python3 dp_accounting_region.py [--vdi V] [ROW ...]

ROW is q,sigma,steps,delta (steps an integer). With ROWs, answers them in
order; without, reads one ROW a line from stdin and answers each line as soon
as it is read (TestRegionTable in pld/region_test.go keeps one process and
sends it one row at a time, so that import time is paid once and a row past
its time limit can be stopped by killing the process).

Output, one JSON object a line, flushed:
  first  {"ready": true, "python": ..., "numpy": ..., "scipy": ...,
          "dp_accounting": "0.6.0", "dp_accounting_tree": GIT_TREE_ID,
          "vdi": V, "threads": {...}}
  then   {"q": q, "sigma": s, "steps": n, "delta": d,
          "eps": number | "inf" | "-inf" | "nan" | null,
          "seconds": t, "status": "ok" | "memory limit" | "ExceptionName: message"}
A finite eps is written with Python's repr (it reads back to the same float).
seconds is the wall time (time.perf_counter) of what a user writes:
  PLDAccountant(value_discretization_interval=V)
      .compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps)
      .get_epsilon(delta)
with the accountant's defaults otherwise (ADD_OR_REMOVE_ONE, pessimistic
estimate, log_mass_truncation_bound -50). A row that raises gets eps null
and the exception ("memory limit" for MemoryError, so that a caller that caps
the address space can tell it from a wrong input).

$PEER_SRC/dp_accounting is google/differential-privacy's python/dp_accounting
folder at b5b0286e313b64a692abfc8c528d54ef47d960a0, read in place (nothing
installed, no file edited). Before importing it the script computes the git
tree id of that folder (ignoring __pycache__) and refuses to run unless it is
the tree of python/dp_accounting at that commit, so the answers are known to
come from that source. dm-tree (not a Debian package) is replaced by an empty
module: only dp_accounting's tests use it.
"""

import os

# One thread, as rdpcheck's pld is: keep BLAS/OpenMP pools from spreading.
for _v in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
  os.environ.setdefault(_v, '1')

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import stat  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
import warnings  # noqa: E402

sys.dont_write_bytecode = True  # leave $PEER_SRC as extracted

# git rev-parse b5b0286e313b64a692abfc8c528d54ef47d960a0:python/dp_accounting
DPACC_COMMIT = 'b5b0286e313b64a692abfc8c528d54ef47d960a0'
DPACC_TREE = '534991ae69dde0a8ebfd5da75cbe2c70bf0c0cbc'


def git_tree_id(path):
  """The id git gives the tree of the folder at path (blobs and subtrees)."""
  entries = []
  for name in os.listdir(path):
    if name == '__pycache__':
      continue
    full = os.path.join(path, name)
    st = os.lstat(full)
    if stat.S_ISLNK(st.st_mode):
      mode, data = b'120000', os.readlink(full).encode()
      oid = _git_object(b'blob', data)
    elif stat.S_ISDIR(st.st_mode):
      oid = git_tree_id(full)
      if oid is None:  # git records no empty folder
        continue
      mode = b'40000'
    else:
      mode = b'100755' if st.st_mode & stat.S_IXUSR else b'100644'
      with open(full, 'rb') as f:
        oid = _git_object(b'blob', f.read())
    # git orders a tree's entries by name, a subtree's name as if it ended in '/'
    key = name.encode() + (b'/' if mode == b'40000' else b'')
    entries.append((key, mode + b' ' + name.encode() + b'\0' + bytes.fromhex(oid)))
  if not entries:
    return None
  entries.sort()
  return _git_object(b'tree', b''.join(e for _, e in entries))


def _git_object(kind, data):
  return hashlib.sha1(kind + b' ' + str(len(data)).encode() + b'\0' + data).hexdigest()


def parse_row(text):
  """q,sigma,steps,delta (commas or spaces); refuses anything else."""
  f = text.replace(',', ' ').split()
  if len(f) != 4:
    raise ValueError(f'row {text!r}: want q,sigma,steps,delta')
  q, sigma, delta = float(f[0]), float(f[1]), float(f[3])
  steps = int(f[2])  # an integer as written: 1e6 is refused, not rounded
  for name, v in (('q', q), ('sigma', sigma), ('delta', delta)):
    if not math.isfinite(v):
      raise ValueError(f'row {text!r}: {name} is not finite')
  return q, sigma, steps, delta


def number(x):
  if isinstance(x, (int, float)) and not isinstance(x, bool):
    x = float(x)
    if math.isfinite(x):
      return x
    return 'nan' if math.isnan(x) else ('inf' if x > 0 else '-inf')
  return None


def main():
  ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  ap.add_argument('--vdi', type=float, default=1e-4,
                  help='value_discretization_interval (dp_accounting default 1e-4)')
  ap.add_argument('rows', nargs='*', help='q,sigma,steps,delta')
  args = ap.parse_args()
  try:
    rows = [parse_row(r) for r in args.rows]
  except ValueError as e:
    sys.exit(str(e))

  root = os.path.join(os.environ['PEER_SRC'], 'dp_accounting')
  tree = git_tree_id(root)
  if tree != DPACC_TREE:
    sys.exit(f'{root} has git tree {tree}, not {DPACC_TREE} '
             f'(python/dp_accounting at {DPACC_COMMIT})')
  sys.modules.setdefault('tree', types.ModuleType('tree'))
  sys.path.insert(0, root)
  import numpy as np  # pylint: disable=g-import-not-at-top
  import scipy  # pylint: disable=g-import-not-at-top
  from dp_accounting import dp_event  # pylint: disable=g-import-not-at-top
  from dp_accounting.pld import pld_privacy_accountant  # pylint: disable=g-import-not-at-top
  assert os.path.realpath(pld_privacy_accountant.__file__).startswith(os.path.realpath(root))
  with open(os.path.join(root, 'VERSION')) as f:
    version = re.search(r'\d+\.\d+\.\d+', f.read()).group(0)
  # the values are recorded as returned; their warnings would only fill stderr
  warnings.simplefilter('ignore')
  logging.getLogger().setLevel(logging.ERROR)

  def answer(q, sigma, steps, delta):
    eps, status = None, 'ok'
    t0 = time.perf_counter()
    try:
      acc = pld_privacy_accountant.PLDAccountant(
          value_discretization_interval=args.vdi)
      acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps)
      eps = acc.get_epsilon(delta)
    except MemoryError:
      status = 'memory limit'
    except Exception as e:  # pylint: disable=broad-except
      status = f'{type(e).__name__}: {str(e)[:300]}'
    secs = time.perf_counter() - t0
    print(json.dumps({'q': q, 'sigma': sigma, 'steps': steps, 'delta': delta,
                      'eps': number(eps), 'seconds': secs, 'status': status}),
          flush=True)

  print(json.dumps({
      'ready': True, 'python': sys.version.split()[0], 'numpy': np.__version__,
      'scipy': scipy.__version__, 'dp_accounting': version,
      'dp_accounting_commit': DPACC_COMMIT, 'dp_accounting_tree': tree,
      'vdi': args.vdi,
      'threads': {v: os.environ[v] for v in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS',
                                             'MKL_NUM_THREADS')},
  }), flush=True)
  if rows:
    for r in rows:
      answer(*r)
    return
  for line in sys.stdin:
    if line.strip():
      try:
        row = parse_row(line)
      except ValueError as e:
        sys.exit(str(e))
      answer(*row)


if __name__ == '__main__':
  main()
