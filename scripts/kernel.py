#!/usr/bin/env python3
"""Guest kernels: a kernel name resolved to an unpacked kernel in the cache.

  kernel.py prepare NAME [--module FILE.ko ...]   fetch/unpack as needed; print shell variables
  kernel.py slug NAME [--module FILE.ko ...]      the guest's directory name under build/guest/
  kernel.py names                                 the matrix's names, one a line
  kernel.py fetch NAME PKG...                     PKG of matrix kernel NAME's version, as .debs
                                                  in the cache; print their paths and the row

NAME is a row of KERNEL_MATRIX in scripts/config.sh (6.1, 6.12, 7.3), `deb:FILE[,FILE...]` (kernel
packages the user has: an image package, or linux-binary + linux-modules [+ linux-base]), or
`tree:DIR[,MODDIR]` (a kernel the user built: DIR holds vmlinux or arch/x86/boot/bzImage; modules
from MODDIR/lib/modules/REL as `make modules_install INSTALL_MOD_PATH=MODDIR` lays them out, else
DIR/lib/modules/REL, else the .ko files next to their sources in DIR).

Packages of newer Debian suites come through a private apt configuration in the cache: the host's
own configured Debian mirror with the suites of NEWER_SUITES, so the host's apt setup is never
changed. Everything lands in the cache through a temporary directory renamed at the end, so an
error leaves nothing half-written. Errors are one line on stderr, exit status 2.
"""
import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
REQUIRED_MODULES = ("ice", "irdma", "ib_core", "ib_uverbs")


class KernelError(Exception):
    pass


def config_vars(*names):
    """The values of scripts/config.sh's variables @names, as bash sees them."""
    fmt = "%s\\0" * len(names)
    args = " ".join(f'"${n}"' for n in names)
    out = subprocess.run(["bash", "-c", f'. "{HERE}/config.sh"; printf "{fmt}" {args}'],
                         check=True, capture_output=True, text=True).stdout.split("\0")
    return out[:len(names)]


def matrix_rows(matrix, fields):
    """A matrix variable of config.sh, one row per line, as {first word: {field: word}}."""
    rows = {}
    for line in matrix.splitlines():
        f = line.split()
        if f:
            rows[f[0]] = dict(zip(fields, f[1:]))
    return rows


def config():
    """The kernel matrix and the rest of scripts/config.sh this module needs."""
    cache, matrix, default, suites = config_vars("IRDMA_SIM_CACHE", "KERNEL_MATRIX",
                                                 "KERNEL_DEFAULT", "NEWER_SUITES")
    rows = matrix_rows(matrix, ("suite", "abi", "version", "pkgs"))
    for r in rows.values():
        r["pkgs"] = r["pkgs"].split(",")
    return cache, rows, default, suites.split()


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---- the private apt configuration for newer suites ----

def host_mirror():
    """The URI of the host's configured Debian archive (not its security archive)."""
    uris = []
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in open(path).read().split("\n\n"):
            if not re.search(r"^Types:.*\bdeb\b", stanza, re.M):
                continue
            m = re.search(r"^URIs:\s*(.+)$", stanza, re.M)
            if m:
                uris += m.group(1).split()
    if os.path.exists("/etc/apt/sources.list"):
        for line in open("/etc/apt/sources.list"):
            m = re.match(r"\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)", line)
            if m:
                uris.append(m.group(1))
    for uri in uris:
        if re.search(r"/debian/?$", uri) and "security" not in uri:
            return uri
    raise KernelError("no Debian archive in the host's apt sources (/etc/apt/sources.list"
                      "{,.d/*.sources}) to fetch newer suites from")


def apt_opts(cache, suites):
    """apt options for the private configuration in CACHE/apt, updated at most daily. The
    check and the update hold CACHE/apt/lock: the guest's kernel and a newer QEMU's source are
    fetched at the same time (scripts/irdma-sim), and one update serves both."""
    base = os.path.join(cache, "apt")
    opts = [f"-oDir::Etc::sourcelist={base}/sources.list",
            f"-oDir::Etc::sourceparts={base}/sources.list.d",
            f"-oDir::Etc::preferencesparts={base}/preferences.d",
            f"-oDir::State::Lists={base}/lists", f"-oDir::Cache={base}/cache",
            "-oAPT::Default-Release=", "-oAPT::Sandbox::User=root",
            # A mirror that serves a dated snapshot keeps Release files past their Valid-Until
            # (sid's is a week); the signatures are still checked.
            "-oAcquire::Check-Valid-Until=false"]
    stamp = os.path.join(base, "updated")
    want = (f"Types: deb deb-src\nURIs: {host_mirror()}\nSuites: {' '.join(suites)}\n"
            "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    src = os.path.join(base, "sources.list.d", "newer.sources")
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fresh = (os.path.exists(stamp) and time.time() - os.path.getmtime(stamp) < 86400 and
                 os.path.exists(src) and open(src).read() == want)
        if not fresh:
            for d in ("sources.list.d", "preferences.d", "lists/partial", "cache/archives/partial"):
                os.makedirs(os.path.join(base, d), exist_ok=True)
            open(os.path.join(base, "sources.list"), "w").close()
            with open(src + ".tmp", "w") as f:
                f.write(want)
            os.replace(src + ".tmp", src)
            print(f"kernel: updating the private apt lists ({' '.join(suites)}) in {base}",
                  file=sys.stderr)
            r = run(["apt-get", *opts, "-q", "update"])
            if r.returncode != 0:
                raise KernelError(f"apt-get update of the private configuration {base} failed: "
                                  + (r.stderr.strip().splitlines() or ["?"])[-1])
            open(stamp, "w").close()
    return opts


def download(cache, suite, pkg, version, suites):
    """PKG=VERSION as a .deb in CACHE/dl, from the host's sources or the private config."""
    dl = os.path.join(cache, "dl")
    os.makedirs(dl, exist_ok=True)
    debver = version.split(":")[-1]
    hits = glob.glob(os.path.join(dl, f"{pkg}_{debver.replace('~', '%7e')}_*.deb")) + \
        glob.glob(os.path.join(dl, f"{pkg}_{debver}_*.deb"))
    if hits:
        return hits[0]
    opts = [] if suite == "host" else apt_opts(cache, suites)
    tmp = os.path.join(dl, ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    print(f"kernel: downloading {pkg} {version}", file=sys.stderr)
    r = run(["apt-get", *opts, "-q", "download", f"{pkg}={version}"], cwd=tmp)
    got = glob.glob(os.path.join(tmp, "*.deb"))
    if r.returncode != 0 or len(got) != 1:
        shutil.rmtree(tmp, ignore_errors=True)
        pol = run(["apt-cache", *opts, "madison", pkg]).stdout
        have = sorted({l.split("|")[1].strip() for l in pol.splitlines() if "|" in l})
        where = "the host's apt sources" if suite == "host" else f"suite {suite} of the mirror"
        if have:
            raise KernelError(f"{pkg} {version} is no longer on {where}; it serves "
                              f"{', '.join(have)}: pin one in KERNEL_MATRIX (scripts/config.sh)")
        raise KernelError(f"{pkg} is not on {where} (apt-get download: "
                          f"{(r.stderr.strip().splitlines() or ['?'])[-1]})")
    dest = os.path.join(dl, os.path.basename(got[0]))
    os.replace(got[0], dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


# ---- unpacking into the cache ----

def find_modules_dir(root, abi=None):
    """ROOT/{usr/,}lib/modules/ABI (the one ABI there if none is given), or None."""
    for base in ("lib/modules", "usr/lib/modules"):
        d = os.path.join(root, base)
        if not os.path.isdir(d):
            continue
        names = [abi] if abi else sorted(os.listdir(d))
        for n in names:
            if n and os.path.isdir(os.path.join(d, n, "kernel")) or \
                    (n and os.path.exists(os.path.join(d, n, "modules.order"))):
                return os.path.join(d, n)
    return None


def has_module(moddir, name):
    pat = re.compile(re.escape(name).replace("_", "[-_]") + r"\.ko(\.(xz|zst|gz))?$")
    for _, _, files in os.walk(moddir, followlinks=True):
        if any(pat.match(f) for f in files):
            return True
    return False


# depmod's own indexes: made anew for the staged tree.
DEPMOD_INDEXES = re.compile(r"^modules\.(?!order$|builtin$|builtin\.modinfo$)")


def shadow_modules(kdir, moddir, abi):
    """KDIR/modroot/lib/modules/ABI: the modules of MODDIR as links (relative inside KDIR, so
    the rename at the end keeps them), .ko.gz unpacked (host kmod has no zlib), without
    depmod's indexes: depmod writes its own here and never into a user's tree."""
    shadow = os.path.join(kdir, "modroot", "lib", "modules", abi)
    inside = os.path.abspath(kdir) + os.sep
    for dirpath, _, files in os.walk(moddir, followlinks=True):
        rel = os.path.relpath(dirpath, moddir)
        os.makedirs(os.path.join(shadow, rel), exist_ok=True)
        for f in files:
            if rel == "." and DEPMOD_INDEXES.match(f):
                continue
            src = os.path.abspath(os.path.join(dirpath, f))
            dst = os.path.join(shadow, rel, f)
            if f.endswith(".ko.gz"):
                with open(dst[:-3], "wb") as out:
                    subprocess.run(["gzip", "-dc", src], stdout=out, check=True)
            elif src.startswith(inside):
                os.symlink(os.path.relpath(src, os.path.dirname(dst)), dst)
            else:
                os.symlink(src, dst)


def stage(kdir, image, moddir, abi, kconfig, label):
    """Fill KDIR: the boot image (PVH vmlinux if the kernel has one), modroot/lib/modules/ABI
    (shadow_modules) with depmod's indexes (host kmod reads lib/modules only), the config, and
    info.sh."""
    missing = [m for m in REQUIRED_MODULES if not has_module(moddir, m)]
    if missing:
        raise KernelError(f"kernel {label} ({abi}) has no module {', '.join(missing)} "
                          f"(looked in {moddir}): it needs CONFIG_ICE, CONFIG_INFINIBAND_IRDMA "
                          "and CONFIG_INFINIBAND_USER_ACCESS as modules")
    shadow_modules(kdir, moddir, abi)
    r = run(["depmod", "-b", os.path.join(kdir, "modroot"), abi])
    if r.returncode != 0:
        raise KernelError(f"depmod failed on the modules of {label}: {r.stderr.strip()}")
    boot = os.path.join(kdir, "vmlinux")
    r = run(["bash", os.path.join(HERE, "extract-vmlinux.sh"), image, boot])
    if r.returncode == 0:
        kind = "pvh"
    elif open(image, "rb").read(2) == b"\x7fE" or r.returncode != 3:
        raise KernelError(f"kernel image {image}: {r.stderr.strip() or 'unusable'}")
    else:
        # No PVH entry (CONFIG_PVH off, or an uncompressed vmlinux without it): boot the
        # bzImage, at the cost of the guest decompressing itself.
        boot = os.path.join(kdir, "bzImage")
        shutil.copyfile(image, boot)
        kind = "bzimage"
    if kconfig and os.path.exists(kconfig):
        shutil.copyfile(kconfig, os.path.join(kdir, "config"))
    with open(os.path.join(kdir, "info.sh"), "w") as f:
        f.write(f"KABI='{abi}'\nKIMAGE='{boot}'\nKBOOT={kind}\nKLABEL='{label}'\n")


def unpack_debs(kdir, debs, label, abi=None):
    root = os.path.join(kdir, "pkg")
    for deb in debs:
        r = run(["dpkg-deb", "-x", deb, root])
        if r.returncode != 0:
            raise KernelError(f"{deb} is not a Debian package: {r.stderr.strip()}")
    moddir = find_modules_dir(root, abi)
    if not moddir:
        raise KernelError(f"{label}: no lib/modules/<release>/ in {', '.join(debs)} "
                          "(give the image package, or linux-binary with linux-modules)")
    abi = os.path.basename(moddir)
    image = next((p for p in (os.path.join(root, "boot", f"vmlinuz-{abi}"),
                              os.path.join(moddir, "vmlinuz")) if os.path.exists(p)), None)
    if not image:
        raise KernelError(f"{label}: no kernel image (boot/vmlinuz-{abi} or "
                          f"lib/modules/{abi}/vmlinuz) in {', '.join(debs)}")
    kconfig = next((p for p in (os.path.join(root, "boot", f"config-{abi}"),
                                os.path.join(moddir, "config")) if os.path.exists(p)), None)
    stage(kdir, image, moddir, abi, kconfig, label)


def tree_modules(kdir, build, rel):
    """A build tree's .ko files, laid out as modules_install would (links, not copies)."""
    moddir = os.path.join(kdir, "tree-modules", rel)
    n = 0
    for dirpath, dirnames, files in os.walk(build):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "lib"]
        for f in files:
            if f.endswith(".ko"):
                rel_dir = os.path.relpath(dirpath, build)
                os.makedirs(os.path.join(moddir, "kernel", rel_dir), exist_ok=True)
                os.symlink(os.path.join(dirpath, f), os.path.join(moddir, "kernel", rel_dir, f))
                n += 1
    for f in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
        if os.path.exists(os.path.join(build, f)):
            os.makedirs(moddir, exist_ok=True)
            shutil.copyfile(os.path.join(build, f), os.path.join(moddir, f))
    if n == 0:
        raise KernelError(f"tree:{build}: no modules (no lib/modules/{rel} and no .ko files in "
                          "the build tree; run make modules, or modules_install "
                          "INSTALL_MOD_PATH=DIR and give tree:BUILD,DIR)")
    return moddir


def prepare_tree(kdir, spec, label):
    build, _, modpath = spec.partition(",")
    build = os.path.abspath(build)
    if not os.path.isdir(build):
        raise KernelError(f"{label}: {build} is not a directory")
    image = next((p for p in (os.path.join(build, "arch", "x86", "boot", "bzImage"),
                              os.path.join(build, "vmlinux"), os.path.join(build, "bzImage"))
                  if os.path.exists(p)), None)
    if not image:
        raise KernelError(f"{label}: no kernel image in {build} (looked for "
                          "arch/x86/boot/bzImage, vmlinux, bzImage)")
    relf = os.path.join(build, "include", "config", "kernel.release")
    rel = open(relf).read().strip() if os.path.exists(relf) else None
    moddir = None
    for base in ([os.path.abspath(modpath)] if modpath else []) + [build]:
        moddir = find_modules_dir(base, rel)
        if moddir:
            break
    if modpath and not moddir:
        raise KernelError(f"{label}: {modpath} has no lib/modules/{rel or '<release>'}/")
    if not moddir:
        if not rel:
            raise KernelError(f"{label}: no include/config/kernel.release in {build} and no "
                              "lib/modules/<release>/: which kernel release is it?")
        moddir = tree_modules(kdir, build, rel)
    rel = rel or os.path.basename(moddir)
    kconfig = os.path.join(build, ".config")
    stage(kdir, image, moddir, rel, kconfig, label)


def cache_key(name, modules):
    """What decides the unpacked kernel (and the guest built on it)."""
    h = hashlib.sha256(name.encode())
    kind, _, rest = name.partition(":")
    if kind == "deb":
        for f in rest.split(","):
            st = os.stat(f)
            h.update(f"{os.path.abspath(f)} {st.st_size} {st.st_mtime_ns}".encode())
    elif kind == "tree":
        for f in rest.split(","):
            h.update(os.path.abspath(f).encode())
    for m in modules:
        st = os.stat(m)
        h.update(f"{os.path.abspath(m)} {st.st_size} {st.st_mtime_ns}".encode())
    return h.hexdigest()[:12]


def slug(name, modules=()):
    """The guest's directory name: the matrix name, or kind-hash for a user's kernel."""
    kind = name.partition(":")[0]
    if kind in ("deb", "tree"):
        base = f"{kind}-{cache_key(name, ())}"
    else:
        base = name
    return base + (f"+mod-{cache_key(name, modules)}" if modules else "")


def check_name(name, rows):
    kind, sep, rest = name.partition(":")
    if sep and kind == "deb":
        for f in rest.split(","):
            if not os.path.isfile(f):
                raise KernelError(f"--kernel {name}: no file {f}")
    elif sep and kind == "tree":
        if not rest.split(",")[0]:
            raise KernelError(f"--kernel {name}: give the build directory, tree:DIR")
    elif name not in rows:
        raise KernelError(f"unknown kernel {name!r}: one of {', '.join(rows)}, deb:FILE[,FILE], "
                          "tree:DIR[,MODDIR]")


def prepare(name, modules=()):
    cache, rows, _, suites = config()
    check_name(name, rows)
    kind, _, rest = name.partition(":")
    label = name
    kdir = os.path.join(cache, "kernel", slug(name))
    # A user's tree changes under us: staged anew each time (links and indexes only).
    if kind == "tree" and os.path.exists(kdir):
        shutil.rmtree(kdir)
    if not os.path.exists(os.path.join(kdir, "info.sh")):
        tmp = kdir + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        try:
            if kind == "deb":
                unpack_debs(tmp, rest.split(","), label)
            elif kind == "tree":
                prepare_tree(tmp, rest, label)
            else:
                row = rows[name]
                debs = [download(cache, row["suite"], p, row["version"], suites)
                        for p in row["pkgs"]]
                unpack_debs(tmp, debs, label, row["abi"])
            # The staged paths name the temporary directory: rename, then rewrite info.sh.
            shutil.rmtree(kdir, ignore_errors=True)
            os.replace(tmp, kdir)
            info = open(os.path.join(kdir, "info.sh")).read().replace(tmp, kdir)
            with open(os.path.join(kdir, "info.sh"), "w") as f:
                f.write(info)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    info = dict(re.findall(r"^(\w+)='?([^'\n]*)'?$", open(os.path.join(kdir, "info.sh")).read(),
                           re.M))
    for m in modules:
        check_module(m, info["KABI"])
    print(open(os.path.join(kdir, "info.sh")).read(), end="")
    print(f"KDIR='{kdir}'\nKSLUG='{slug(name, modules)}'")


def check_module_file(path):
    if not os.path.isfile(path):
        raise KernelError(f"--module {path}: no such file")
    if not re.search(r"\.ko(\.(xz|zst|gz))?$", path):
        raise KernelError(f"--module {path}: not a kernel module (.ko)")


def check_module(path, abi):
    check_module_file(path)
    r = run(["modinfo", "-F", "vermagic", path])
    vermagic = r.stdout.strip()
    if r.returncode != 0 or not vermagic:
        raise KernelError(f"--module {path}: no vermagic in it ({r.stderr.strip() or 'modinfo'})")
    if vermagic.split()[0] != abi:
        raise KernelError(f"--module {path} was built for {vermagic.split()[0]}, the guest kernel "
                          f"is {abi} (vermagic mismatch)")


def main(argv):
    if not argv or argv[0] not in ("prepare", "slug", "names", "fetch"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cache, rows, default, suites = config()
    if argv[0] == "names":
        print("\n".join(rows))
        return 0
    if argv[0] == "fetch":
        if len(argv) < 3 or argv[1] not in rows:
            raise KernelError(f"kernel.py fetch NAME PKG...: NAME one of {', '.join(rows)}")
        row = rows[argv[1]]
        for pkg in argv[2:]:
            print(f"DEB='{download(cache, row['suite'], pkg, row['version'], suites)}'")
        print(f"KABI='{row['abi']}'\nKVERSION='{row['version']}'")
        return 0
    args = argv[1:]
    name = args.pop(0) if args and not args[0].startswith("--") else default
    modules = []
    while args:
        if args[0] == "--module" and len(args) > 1:
            modules.append(os.path.abspath(args[1]))
            args = args[2:]
        else:
            raise KernelError(f"kernel.py: unexpected argument {args[0]!r}")
    if argv[0] == "slug":
        check_name(name, rows)
        for m in modules:
            check_module_file(m)
            if name in rows:
                check_module(m, rows[name]["abi"])
        print(slug(name, modules))
    else:
        prepare(name, modules)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KernelError as e:
        print(f"kernel: {e}", file=sys.stderr)
        sys.exit(2)
