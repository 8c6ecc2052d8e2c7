#!/usr/bin/env python3
"""mutate.py - the mutation check's engine: applies deliberate breaks of emu/ (tests/mutations/list)
to a copy of the tree and shows whether the test suite fails for each.

  mutate.py NAME...            each named break in turn, in one copy of the tree under /tmp:
                               apply it, build, run the unit suite (meson test emu-unit and
                               any --test), restore the file; a break is caught when a test
                               fails, and the failing Check cases (tcase:test) say by which
  mutate.py --all              every break of the list
  mutate.py --names            the names of the list, one a line
  mutate.py --check-list       every anchor occurs exactly once in its file, every name is in
                               docs/mutation.md (the meson test mutation-list); changes nothing

The tree given by --source (default: the checkout this script is in) is never written: the
copy is made once, built once, and each break changes one file of the copy and puts it back.
Before the first break the unchanged copy must pass the suite, or nothing is measured.
--guest-too LIST also boots each mutated build on a guest list (guest-tests/lists/LIST),
one boot at a time under /tmp/irdma-heavy.lock, with a QEMU tree in a cache of its own
(--guest-cache) so that the shared one never holds mutated sources.
Results: a line "RESULT<TAB>name<TAB>caught|not-caught|error<TAB>detail" per break on stdout,
and the same lines in --results FILE. Exit 0 if every break was caught, 1 otherwise.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LIST = os.path.join(HERE, 'list')
KEYS = ('name', 'file', 'what', 'from', 'to')
SHARED_CACHE = '/var/cache/irdma-sim'
# The address space a mutated build may take: a break that makes a loop allocate fails its test
# at this size instead of taking the machine's memory.
TEST_AS_LIMIT = 8 << 30
HEAVY_LOCK = '/tmp/irdma-heavy.lock'
# A failed Check case: file:line:F|E:tcase:test:iteration: message
CHECK_FAIL = re.compile(r'^[^:\s]+:\d+:[FE]:([^:]+):([^:]+):\d+:', re.M)
MESON_FAIL = re.compile(r'^\s*\d+/\d+\s+(\S+)\s+(FAIL|TIMEOUT|ERROR)', re.M)


class ListError(Exception):
    pass


def read_list(path):
    """The breaks of @path as dicts of KEYS, in order; ListError on a malformed block."""
    breaks, cur = [], {}
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for no, line in enumerate(lines + [''], 1):
        if line.startswith('#'):
            continue
        if not line.strip():
            if cur:
                missing = [k for k in KEYS if k not in cur]
                if missing:
                    raise ListError(f'{path}:{no}: block {cur.get("name", "?")} lacks '
                                    + ', '.join(missing))
                breaks.append(cur)
                cur = {}
            continue
        key, sep, value = line.partition(':')
        if not sep or key not in KEYS or key in cur:
            raise ListError(f'{path}:{no}: expected one of {", ".join(KEYS)}: {line!r}')
        cur[key] = value.strip()
    names = [b['name'] for b in breaks]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ListError(f'{path}: names used twice: {", ".join(dup)}')
    return breaks


def anchor_problems(src, breaks):
    """One message per break whose anchor does not occur exactly once in its file."""
    out = []
    for b in breaks:
        path = os.path.join(src, b['file'])
        if not os.path.isfile(path):
            out.append(f'{b["name"]}: {b["file"]}: no such file')
            continue
        with open(path, encoding='utf-8') as f:
            n = f.read().count(b['from'])
        if n != 1:
            out.append(f'{b["name"]}: {b["file"]}: anchor found {n} times (must be once): '
                       f'{b["from"]}')
        if b['from'] == b['to']:
            out.append(f'{b["name"]}: the replacement is the anchor itself')
    return out


def check_list(src, doc):
    try:
        breaks = read_list(os.path.join(src, 'tests', 'mutations', 'list'))
    except ListError as e:
        print(e)
        return 1
    problems = anchor_problems(src, breaks)
    with open(doc, encoding='utf-8') as f:
        text = f.read()
    problems += [f'{b["name"]}: not in {os.path.basename(doc)}' for b in breaks
                 if f'`{b["name"]}`' not in text]
    for p in problems:
        print('FAIL', p)
    print(f'{len(breaks)} breaks, {len(problems)} problems')
    return 1 if problems else 0


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (TEST_AS_LIMIT, TEST_AS_LIMIT))


def run(cmd, cwd=None, env=None, log=None, limited=False):
    """Run @cmd niced (@limited: in TEST_AS_LIMIT); its output appended to @log; the exit
    status."""
    with open(log, 'a') if log else open(os.devnull, 'w') as out:
        out.write('$ ' + ' '.join(cmd) + '\n')
        out.flush()
        return subprocess.run(['nice', '-n', '19'] + cmd, cwd=cwd, env=env, stdout=out,
                              stderr=subprocess.STDOUT,
                              preexec_fn=limit_memory if limited else None).returncode


def make_copy(src, work):
    tree = os.path.join(work, 'src')
    subprocess.run(['rsync', '-a', '--delete', '--exclude=/.git', '--exclude=/build/',
                    src + '/', tree + '/'], check=True)
    guest = os.path.join(src, 'build', 'guest')
    link = os.path.join(tree, 'build', 'guest')
    if os.path.isdir(guest) and not os.path.lexists(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(guest, link)
    return tree


def suite(tree, builddir, tests, log):
    """Build and run @tests; (build ok, the failing tests: Check cases or meson test names)."""
    if run(['meson', 'compile', '-C', builddir], log=log) != 0:
        return False, []
    testlog = os.path.join(builddir, 'meson-logs', 'testlog.txt')
    rc = run(['meson', 'test', '-C', builddir, '--no-rebuild', '--num-processes', '1',
              '--timeout-multiplier', '4'] + tests, log=log, limited=True)
    if rc == 0:
        return True, []
    with open(testlog, encoding='utf-8', errors='replace') as f:
        text = f.read()
    with open(log, 'a') as out:
        out.write(text)
    cases = [f'{tc}:{t}' for tc, t in CHECK_FAIL.findall(text)]
    failed = cases or [t for t, _ in MESON_FAIL.findall(text)]
    return True, sorted(set(failed)) or [f'meson test exit {rc}']


def guest(tree, lst, cache, log):
    """Boot the mutated build on guest list @lst; True if the list failed (the break seen)."""
    env = dict(os.environ, IRDMA_SIM_CACHE=cache)
    if run(['flock', HEAVY_LOCK, 'bash', 'scripts/build-qemu.sh'], cwd=tree, env=env,
           log=log) != 0:
        return None
    return run(['flock', HEAVY_LOCK, sys.executable, 'scripts/run-guest.py', '--list', lst,
                '--qemu', os.path.join(tree, 'build', 'qemu-system-x86_64'), '--quiet'],
               cwd=tree, env=env, log=log) != 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('names', nargs='*', help='breaks of the list to apply')
    ap.add_argument('--all', action='store_true', help='every break of the list')
    ap.add_argument('--names', action='store_true', dest='list_names', help='print the names')
    ap.add_argument('--check-list', action='store_true', help='check the anchors, change nothing')
    ap.add_argument('--doc', help='with --check-list: the document naming every break '
                                  '(default docs/mutation.md of --source)')
    ap.add_argument('--source', default=REPO, help='the tree to copy (default: this checkout)')
    ap.add_argument('--work', help='where the copy and its build go (default: a new /tmp dir, '
                                   'removed afterwards unless --keep)')
    ap.add_argument('--keep', action='store_true', help='keep the work directory')
    ap.add_argument('--test', action='append', default=[], metavar='NAME',
                    help='a meson test run besides emu-unit (repeatable)')
    ap.add_argument('--guest-too', metavar='LIST', help='also boot each mutated build on this '
                                                        'guest list')
    ap.add_argument('--guest-cache', default='/var/cache/irdma-sim-mutation',
                    help='IRDMA_SIM_CACHE of the mutated QEMU builds (never the shared one)')
    ap.add_argument('--results', help='append the RESULT lines to this file too')
    a = ap.parse_args()
    src = os.path.abspath(a.source)

    if a.check_list:
        return check_list(src, a.doc or os.path.join(src, 'docs', 'mutation.md'))
    try:
        breaks = read_list(os.path.join(src, 'tests', 'mutations', 'list'))
    except ListError as e:
        print(e, file=sys.stderr)
        return 2
    if a.list_names:
        print('\n'.join(b['name'] for b in breaks))
        return 0
    by_name = {b['name']: b for b in breaks}
    unknown = [n for n in a.names if n not in by_name]
    if unknown or not (a.names or a.all):
        ap.error(f'unknown break: {", ".join(unknown)}' if unknown else 'name a break or --all')
    todo = breaks if a.all else [by_name[n] for n in a.names]
    if a.guest_too and os.path.realpath(a.guest_cache) == os.path.realpath(SHARED_CACHE):
        ap.error('--guest-cache must not be the shared cache: it would build mutated sources')

    work = a.work or tempfile.mkdtemp(prefix='irdma-mutation-')
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, 'mutation.log')
    tests = ['emu-unit'] + a.test
    try:
        tree = make_copy(src, work)
        builddir = os.path.join(work, 'ub')
        if not os.path.isdir(builddir) and \
                run(['meson', 'setup', builddir, tree], log=log) != 0:
            print(f'mutate: meson setup failed (see {log})', file=sys.stderr)
            return 2
        ok, failed = suite(tree, builddir, tests, log)
        if not ok or failed:
            print(f'mutate: the unchanged tree does not pass: {" ".join(failed) or "build"} '
                  f'(see {log})', file=sys.stderr)
            return 2
        problems = anchor_problems(tree, todo)
        all_caught = True
        for b in todo:
            t0 = time.monotonic()
            path = os.path.join(tree, b['file'])
            with open(path, encoding='utf-8') as f:
                orig = f.read()
            bad = [p for p in problems if p.startswith(b['name'] + ':')]
            if bad:
                status, detail = 'error', bad[0]
            else:
                with open(log, 'a') as out:
                    out.write(f'=== {b["name"]}: {b["file"]}: {b["from"]} -> {b["to"]}\n')
                try:
                    with open(path, 'w', encoding='utf-8') as f:
                        f.write(orig.replace(b['from'], b['to']))
                    built, failed = suite(tree, builddir, tests, log)
                    if built and a.guest_too:
                        seen = guest(tree, a.guest_too, a.guest_cache, log)
                        if seen:
                            failed.append(f'guest:{a.guest_too}')
                        elif seen is None:
                            failed.append('(guest build failed)')
                finally:
                    with open(path, 'w', encoding='utf-8') as f:
                        f.write(orig)
                if not built:
                    status, detail = 'error', 'does not build'
                elif failed:
                    status, detail = 'caught', ' '.join(failed)
                else:
                    status, detail = 'not-caught', '-'
            all_caught &= status == 'caught'
            line = f'RESULT\t{b["name"]}\t{status}\t{detail}\t{time.monotonic() - t0:.0f}s'
            print(line, flush=True)
            if a.results:
                with open(a.results, 'a') as out:
                    out.write(line + '\n')
        if a.keep or a.work:
            # A kept copy as it was: the build of the next run starts from unchanged sources.
            run(['meson', 'compile', '-C', builddir], log=log)
    finally:
        if not a.keep and not a.work:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if all_caught else 1


if __name__ == '__main__':
    sys.exit(main())
