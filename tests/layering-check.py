#!/usr/bin/env python3
"""The layers of emu/ (docs/architecture.md): which folder may use which.

    layering-check.py EMU_DIR [NM EMU_LIBRARY]

Derives two graphs between the folders of emu/ from the build's own inputs and outputs:
  include  every `#include "..."` of an emu/ file that names another emu/ file (written
           relative to emu/, as "core/event.h": a file's includes show its layer)
  call     from `nm` on the emu library: each object's undefined symbols, resolved to the
           object defining them (symbols defined outside emu/, glib's and libc's, drop out)
and fails, naming the edge, on an edge between folders the rule does not allow (upward, or
between siblings) and on a cycle between folders. Edges in KNOWN are reported but pass: each
is a place where a lower layer still reaches up, to be turned into a callback, an event or a
return value; a new one fails, and so does an entry whose edge is gone. Blocks of one folder
that use each other (a block's .c and .h taken as one) are within the rule: listed for
information.
"""
import os
import re
import subprocess
import sys

ROOT = '.'                  # emu/ itself: device.c, the composition root, and pf.c
# Folder -> the folders its files may include and call (besides its own).
ALLOWED = {
    'core': set(),
    'fw': {'core'},
    'port': {'core'},
    'lan': {'core', 'fw', 'port'},
    'rdma': {'core', 'fw', 'port'},
}
ALLOWED[ROOT] = set(ALLOWED)

# Known upward or sideways edges, (from file, to header or symbol), each with its reason: only
# while one is being inverted. None is left: a lower layer that must notify a higher one calls
# a callback the root installed (WireHandlers, LanRxPeFn, FaultState.set_criterr), is handed
# what it needs by the root (FaultVocab), or returns a value (TimingCqpClass is the caller's).
KNOWN = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
NM_LINE = re.compile(r'^(?:.*?:)?(?:[^:]*/)?([^:/\s]+\.o):\s*[0-9a-fA-F]*\s+([A-Za-z])\s+(\S+)$')


def folder(path):
    return path.split('/', 1)[0] if '/' in path else ROOT


def emu_files(emu):
    out = []
    for d, _, files in os.walk(emu):
        for f in files:
            if f.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(d, f), emu).replace(os.sep, '/'))
    return sorted(out)


def include_edges(emu, files, errors):
    known = set(files)
    edges = []
    for src in files:
        with open(os.path.join(emu, src)) as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            if name in known:
                edges.append((src, name, name))
                continue
            here = os.path.normpath(os.path.join(os.path.dirname(src), name)).replace(os.sep, '/')
            if here in known:
                errors.append('include: %s includes "%s": write it relative to emu/ as "%s"'
                              % (src, name, here))
    return edges


def call_edges(nm, lib, files):
    # Meson names an object after its source path: emu/core/event.c -> emu_core_event.c.o.
    obj_src = {('emu/' + f).replace('/', '_') + '.o': f for f in files if f.endswith('.c')}
    out = subprocess.run([nm, '-A', lib], check=True, capture_output=True, text=True).stdout
    defined, undefined = {}, []
    for line in out.splitlines():
        m = NM_LINE.match(line.strip())
        if not m or m.group(1) not in obj_src:
            continue
        src, kind, sym = obj_src[m.group(1)], m.group(2), m.group(3)
        if kind == 'U':
            undefined.append((src, sym))
        elif kind.isupper():
            defined[sym] = src
    return [(src, defined[sym], sym) for src, sym in undefined if sym in defined]


def folder_cycles(graph):
    """Folder cycles of @graph ({folder: set of folders}), each as a list [a, b, ..., a]."""
    cycles, state, stack = [], {}, []

    def visit(n):
        state[n] = 'open'
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 'open':
                cycles.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = 'done'

    for n in sorted(graph):
        if n not in state:
            visit(n)
    return cycles


def file_cycles(edges):
    """Strongly connected sets of more than one block (file name without .c/.h) in a folder."""
    graph = {}
    for _, a, b, _ in edges:
        ma, mb = a.rsplit('.', 1)[0], b.rsplit('.', 1)[0]
        if ma != mb and folder(a) == folder(b):
            graph.setdefault(ma, set()).add(mb)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit(__doc__)
    emu = sys.argv[1]
    files = emu_files(emu)
    errors = []
    for f in files:
        if folder(f) not in ALLOWED:
            errors.append('%s: folder %s has no place in the layers (ALLOWED)' % (f, folder(f)))
    edges = [('include', a, b, what) for a, b, what in include_edges(emu, files, errors)]
    if len(sys.argv) == 4:
        edges += [('call', a, b, what) for a, b, what in call_edges(sys.argv[2], sys.argv[3], files)]

    graph, seen_known, counts = {}, set(), {'include': 0, 'call': 0}
    for kind, a, b, what in edges:
        fa, fb = folder(a), folder(b)
        if fa == fb:
            continue
        counts[kind] += 1
        if fb in ALLOWED.get(fa, set()):
            graph.setdefault(fa, set()).add(fb)
            continue
        key = (a, what)
        desc = ('%s -> %s: %s includes %s' % (fa, fb, a, b) if kind == 'include' else
                '%s -> %s: %s calls %s (%s)' % (fa, fb, a, what, b))
        if key in KNOWN:
            seen_known.add(key)
            print('known   ' + desc)
        else:
            errors.append('upward  ' + desc if fb not in ALLOWED or fa in ALLOWED.get(fb, ())
                          else 'sideways ' + desc)
            graph.setdefault(fa, set()).add(fb)
    for cycle in folder_cycles(graph):
        errors.append('cycle   ' + ' -> '.join(cycle))
    for key in sorted(set(KNOWN) - seen_known):
        errors.append('stale   KNOWN entry %s -> %s: no such edge any more, drop it' % key)

    for comp in file_cycles(edges):
        print('info    blocks that use each other inside %s/: %s' % (folder(comp[0]), ' '.join(comp)))
    print('layering: %d files; %d include and %d call edges between folders; %d known'
          % (len(files), counts['include'], counts['call'], len(seen_known)))
    for e in errors:
        print(e)
    if errors:
        print('layering: %d problem(s); the rule is in docs/architecture.md' % len(errors))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
