#!/usr/bin/env python3
"""QEMU releases: a --qemu name resolved to a Debian source package (or a user's tree) and the
build tools it needs, in the cache.

  qemu-source.py check NAME   refuse an unknown name or a path that is no QEMU source tree
  qemu-source.py fetch NAME   the .dsc of NAME in the cache; print shell variables:
                              QDSC (a .dsc, or empty for a tree), QTREE (tree:PATH's directory),
                              QVERSION (the upstream release), QPATCHES (the qemu-patches/ set),
                              QTOOLS (extra Python path for meson and QEMU's build helpers)

NAME is a row of QEMU_MATRIX in scripts/config.sh (7.2, 11.1) or `tree:PATH` (a QEMU source tree
the user has, read and never written: copied into the cache to be patched and built).

Rows of the host's suite come through the host's apt sources; rows of newer suites through the
private apt configuration in the cache (scripts/kernel.py), so the host is never upgraded. A
mirror's index can name versions whose files its pool does not serve (yet): every indexed
version of the release is tried, newest first, then the row's pinned version, fetched from the
pool of the same mirror and checked against the SHA-256 of its .dsc; dpkg-source checks the
files against the .dsc. Downloads land through a temporary directory renamed at the end.
Errors are one line on stderr, exit status 2.
"""
import functools
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request

import kernel

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# What a QEMU source tree has at its top (tree:PATH is checked against it).
TREE_MARKERS = ("VERSION", "configure", "meson.build", "hw/meson.build", "include/qemu/osdep.h")


class QemuError(Exception):
    pass


def config():
    """QEMU_MATRIX rows as {name: {"suite", "pin", "sha256"}}, the default, the cache."""
    cache, matrix, default, pkg = kernel.config_vars("IRDMA_SIM_CACHE", "QEMU_MATRIX",
                                                     "QEMU_DEFAULT", "QEMU_SRC_PKG")
    rows = kernel.matrix_rows(matrix, ("suite", "pin", "sha256", "tools"))
    for r in rows.values():
        r["tools"] = r["tools"].split(",")
    return cache, rows, default, pkg


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def last_line(text):
    return (text.strip().splitlines() or ["?"])[-1]


def check(name, rows):
    """The tree of tree:PATH, or None for a matrix row; QemuError for anything else."""
    kind, sep, rest = name.partition(":")
    if sep and kind == "tree":
        path = os.path.abspath(rest) if rest else ""
        if not path or not os.path.isdir(path):
            raise QemuError(f"--qemu {name}: {path or 'PATH'} is not a directory")
        missing = [m for m in TREE_MARKERS if not os.path.exists(os.path.join(path, m))]
        if missing:
            raise QemuError(f"--qemu {name}: {path} is not a QEMU source tree (no "
                            f"{', '.join(missing)})")
        return path
    if name not in rows:
        raise QemuError(f"unknown QEMU {name!r}: one of {', '.join(rows)}, tree:PATH")
    return None


def upstream(version):
    """1:11.1.3+ds-2~bpo13+1 -> 11.1.3"""
    return re.split(r"[+~-]", version.split(":")[-1])[0]


def dpkg_cmp(a, b):
    if a == b:
        return 0
    return -1 if run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0 else 1


def dsc_name(pkg, version):
    return f"{pkg}_{version.split(':')[-1]}.dsc"


def cached_dsc(dl, pkg, release):
    """The newest complete .dsc of RELEASE already in DL, or None."""
    hits = [d for d in glob.glob(os.path.join(dl, f"{pkg}_*.dsc"))
            if re.match(re.escape(release) + r"(\.|\+|$)", upstream(
                os.path.basename(d)[len(pkg) + 1:-4]))]
    hits.sort(key=functools.cmp_to_key(lambda a, b: dpkg_cmp(
        os.path.basename(a)[len(pkg) + 1:-4], os.path.basename(b)[len(pkg) + 1:-4])))
    return hits[-1] if hits else None


def dsc_files(path):
    """[(sha256, size, name)] of a .dsc's Checksums-Sha256 field."""
    text = open(path, errors="replace").read()
    m = re.search(r"^Checksums-Sha256:\n((?:[ \t].*\n?)+)", text, re.M)
    if not m:
        raise QemuError(f"{os.path.basename(path)}: no Checksums-Sha256 field")
    return [tuple(l.split()) for l in m.group(1).splitlines() if l.strip()]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch_pool(mirror, pkg, version, want_sha, tmp):
    """VERSION's .dsc and files from the mirror's pool, the .dsc checked against WANT_SHA."""
    prefix = pkg[:4] if pkg.startswith("lib") else pkg[0]
    base = f"{mirror.rstrip('/')}/pool/main/{prefix}/{pkg}/"

    def get(name):
        dest = os.path.join(tmp, name)
        try:
            with urllib.request.urlopen(base + name, timeout=60) as r, open(dest, "wb") as f:
                shutil.copyfileobj(r, f)
        except (urllib.error.URLError, OSError) as e:
            raise QemuError(f"{name}: {getattr(e, 'code', '') or e} from the mirror's pool")
        return dest

    dsc = get(dsc_name(pkg, version))
    if sha256(dsc) != want_sha:
        raise QemuError(f"{os.path.basename(dsc)} from the pool does not match the SHA-256 "
                        "QEMU_MATRIX pins (scripts/config.sh)")
    for digest, _, name in dsc_files(dsc):
        if sha256(get(name)) != digest:
            raise QemuError(f"{name} does not match {os.path.basename(dsc)}")
    return dsc


def fetch_newer(cache, pkg, name, row, dl):
    """RELEASE NAME's source from the newer suites: the indexed versions, then the pin."""
    opts = kernel.apt_opts(cache, kernel.config()[3])
    shown = run(["apt-cache", *opts, "showsrc", pkg]).stdout
    indexed = sorted({v for v in re.findall(r"^Version: (\S+)$", shown, re.M)
                      if re.match(re.escape(name) + r"(\.|$)", upstream(v))},
                     key=functools.cmp_to_key(dpkg_cmp), reverse=True)
    tmp = os.path.join(dl, ".partial")
    tried = []
    for version in indexed + ([row["pin"]] if row["pin"] not in indexed else []):
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        try:
            if version in indexed:
                r = run(["apt-get", *opts, "-q", "source", "--download-only",
                         f"{pkg}={version}"], cwd=tmp)
                if r.returncode != 0:
                    why = re.search(r"\b(\d{3}\s+[A-Z][\w ]*?)\s*(\[|$)", r.stderr, re.M)
                    raise QemuError(re.sub(r"\s+", " ", why.group(1)) if why else
                                    last_line(r.stderr))
                dsc = os.path.join(tmp, dsc_name(pkg, version))
            else:
                dsc = fetch_pool(kernel.host_mirror(), pkg, version, row["sha256"], tmp)
        except QemuError as e:
            tried.append(f"{version} ({e})")
            continue
        for f in os.listdir(tmp):
            os.replace(os.path.join(tmp, f), os.path.join(dl, f))
        shutil.rmtree(tmp, ignore_errors=True)
        if tried:
            print(f"qemu-source: not served by the mirror: {'; '.join(tried)}", file=sys.stderr)
        return os.path.join(dl, os.path.basename(dsc)), version
    shutil.rmtree(tmp, ignore_errors=True)
    raise QemuError(f"no {pkg} {name}.x source the mirror serves: tried {'; '.join(tried)}")


def fetch_host(pkg, name, dl):
    """RELEASE NAME's source from the host's own apt sources (its deb-src entry)."""
    tmp = os.path.join(dl, ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    r = run(["apt-get", "-q", "source", "--download-only", pkg], cwd=tmp)
    got = glob.glob(os.path.join(tmp, f"{pkg}_*.dsc"))
    if r.returncode != 0 or len(got) != 1:
        shutil.rmtree(tmp, ignore_errors=True)
        raise QemuError(f"'apt-get source {pkg}' failed (deb-src entry? network?): "
                        f"{last_line(r.stderr)}")
    for f in os.listdir(tmp):
        os.replace(os.path.join(tmp, f), os.path.join(dl, f))
    shutil.rmtree(tmp, ignore_errors=True)
    dsc = os.path.join(dl, os.path.basename(got[0]))
    if not cached_dsc(dl, pkg, name):
        raise QemuError(f"the host's apt sources serve {os.path.basename(dsc)}, not QEMU {name}")
    return dsc


def tools(cache, row):
    """Build tools of newer suites (a newer meson, QEMU's Python helpers) unpacked into the
    cache, never installed on the host: the directory to put on PYTHONPATH, or ''."""
    if not row["tools"] or row["tools"] == ["-"]:
        return ""
    key = hashlib.sha256(" ".join(row["tools"]).encode()).hexdigest()[:12]
    dest = os.path.join(cache, "qemu", f"tools-{key}")
    pydir = os.path.join(dest, "usr", "lib", "python3", "dist-packages")
    if os.path.isdir(pydir):
        return pydir
    opts = kernel.apt_opts(cache, kernel.config()[3])
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "debs"))
    try:
        print(f"qemu-source: fetching build tools {', '.join(row['tools'])}", file=sys.stderr)
        r = run(["apt-get", *opts, "-q", "download", *row["tools"]], cwd=os.path.join(tmp, "debs"))
        if r.returncode != 0:
            raise QemuError(f"apt-get download {' '.join(row['tools'])}: {last_line(r.stderr)}")
        for deb in glob.glob(os.path.join(tmp, "debs", "*.deb")):
            r = run(["dpkg-deb", "-x", deb, tmp])
            if r.returncode != 0:
                raise QemuError(f"{deb}: {last_line(r.stderr)}")
        shutil.rmtree(os.path.join(tmp, "debs"))
        os.replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return pydir


def patch_set(release):
    """qemu-patches/<set>/ of an upstream release: the newest set not newer than it."""
    sets = sorted((d for d in os.listdir(os.path.join(REPO, "qemu-patches"))
                   if os.path.isdir(os.path.join(REPO, "qemu-patches", d))),
                  key=lambda s: [int(x) for x in s.split(".")])
    rel = [int(x) for x in re.findall(r"\d+", release)[:2]]
    fit = [s for s in sets if [int(x) for x in s.split(".")] <= rel]
    if not fit:
        raise QemuError(f"QEMU {release} is older than every qemu-patches/ set ({', '.join(sets)})")
    return os.path.join(REPO, "qemu-patches", fit[-1])


def fetch(name):
    cache, rows, _, pkg = config()
    path = check(name, rows)
    if path:
        release = open(os.path.join(path, "VERSION")).read().strip()
        newest = rows[max(rows, key=lambda r: [int(x) for x in r.split(".")])]
        dsc, version, pydir = "", release, tools(cache, newest) if not release.startswith("7.") else ""
    else:
        row = rows[name]
        dl = os.path.join(cache, "qemu", "dl" if row["suite"] == "host" else f"dl-{name}")
        os.makedirs(dl, exist_ok=True)
        dsc = cached_dsc(dl, pkg, name)
        if not dsc:
            print(f"qemu-source: downloading Debian's {pkg} source for QEMU {name}",
                  file=sys.stderr)
            if row["suite"] == "host":
                dsc = fetch_host(pkg, name, dl)
            else:
                dsc, _ = fetch_newer(cache, pkg, name, row, dl)
        m = re.search(r"^Version: (\S+)$", open(dsc, errors="replace").read(), re.M)
        version = m.group(1) if m else os.path.basename(dsc)[len(pkg) + 1:-4]
        release = upstream(version)
        pydir = tools(cache, row)
    print(f"QDSC='{dsc}'\nQTREE='{path or ''}'\nQVERSION='{release}'\nQDEBVERSION='{version}'\n"
          f"QPATCHES='{patch_set(release)}'\nQTOOLS='{pydir}'")


def main(argv):
    if len(argv) != 2 or argv[0] not in ("check", "fetch"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if argv[0] == "check":
        _, rows, _, _ = config()
        check(argv[1], rows)
    else:
        fetch(argv[1])
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (QemuError, kernel.KernelError) as e:
        print(f"qemu: {e}", file=sys.stderr)
        sys.exit(2)
