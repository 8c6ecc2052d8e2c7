#!/usr/bin/env python3
"""driver-use: what each matrix kernel's ice and irdma use of the rows of docs/coverage.md.

  driver-use.py [--write] [--model LIST] SRC_DIR COVERAGE_MD KERNEL...
  driver-use.py --rows COVERAGE_MD      the register names of the register rows, one a line

SRC_DIR/KERNEL holds that kernel's driver sources as scripts/driver-sources.sh unpacks them
(drivers/infiniband/hw/irdma, drivers/net/ethernet/intel/{ice,libie}, include/linux/net/intel).
For every row of the tables "BAR0 registers", "irdma (PE) registers", "CQP opcodes",
"Asynchronous events (AE ids)" and "Admin queue opcodes", the column of each KERNEL is derived
and compared with the document (--write puts the derived cells in instead). Exit 0 when they
agree, 1 naming every row that does not, 77 when a kernel's sources are not there.

The rule, per kernel, over every .c and .h file of those directories:
  * Definitions are functions, initialised variables (ops tables, register arrays), macros and
    enum members, each with the identifiers of its body.
  * Entry points are what module_init/module_exit/module_*_driver name and every
    EXPORT_SYMBOL*; a definition is reachable when an entry point or a reachable definition
    names it (a function call, a function pointer in an ops table, a macro use; macros pasting
    tokens with ## are expanded with the arguments of each reachable use).
  * A row's symbols are used when reachable, unused when defined but not reachable, and absent
    (—) when the kernel defines none of them.
Row symbols: registers by the names in the row's first column (the kernel's #define of the same
name); CQP opcodes, AE ids and admin-queue opcodes by the values in the first column (every
IRDMA_CQP_OP_*, IRDMA_AE_*, ice_aqc_opc_* / libie_aqc_opc_* of that value). An admin-queue
opcode named only in `case` labels is an `event` (received on the ARQ), otherwise `sent`; one
sent only from libie is `sent (libie)`. Also checked: every CQP opcode and admin-queue opcode a
kernel defines has a row, and every register name of a row is defined by some kernel or is a
register of the model. With --model (tools/list-model's output), every register the model
declares must be at the offset each kernel's driver defines for it, and every CQP opcode it
implements must carry the name irdma gives that value (IRDMA_CQP_OP_NAME).
"""
import os
import re
import sys

SKIP = 77
DIRS = ("drivers/infiniband/hw/irdma", "drivers/net/ethernet/intel/ice",
        "drivers/net/ethernet/intel/libie", "include/linux/net/intel")
ROOT_MACROS = re.compile(r"^(module_init|module_exit|module_\w+_driver|EXPORT_SYMBOL\w*)$")
TOKEN = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+|##|\S")
IDENT = re.compile(r"^[A-Za-z_]\w*$")
ABSENT = "—"


# ---- reading a kernel's sources ----

def strip_c(text):
    """Comments, strings and character literals out; backslash-newlines joined."""
    text = text.replace("\\\n", " ")
    out = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                 lambda m: " " if m.group(0)[0] == "/" else '""', text, flags=re.S)
    return out


def parse_int(tok):
    try:
        return int(tok, 0)
    except ValueError:
        return None


class Kernel:
    def __init__(self, root):
        self.defs = {}        # name -> list of (file, body tokens)
        self.values = {}      # name -> int value (macros and enum members)
        self.paste = {}       # function-like macro with ## -> (params, body tokens)
        self.roots = []       # (file, tokens) of the entry points
        for d in DIRS:
            for dirpath, _, files in os.walk(os.path.join(root, d)):
                for f in sorted(files):
                    if f.endswith((".c", ".h")):
                        path = os.path.join(dirpath, f)
                        self.read(os.path.relpath(path, root), open(path, errors="replace").read())

    def define(self, name, where, toks):
        self.defs.setdefault(name, []).append((where, toks))

    def read(self, where, text):
        text = strip_c(text)
        code = []
        for line in text.split("\n"):
            m = re.match(r"\s*#\s*define\s+(\w+)(\([^)]*\))?(.*)$", line)
            if m:
                name, params, body = m.group(1), m.group(2), TOKEN.findall(m.group(3))
                self.define(name, where, body)
                if params and "##" in body:
                    self.paste[name] = ([p.strip() for p in params[1:-1].split(",")], body)
                v = value_of(body)
                if v is not None:
                    self.values.setdefault(name, v)
            elif not re.match(r"\s*#", line):
                code.append(line)
        self.top_level(where, TOKEN.findall("\n".join(code)))

    def top_level(self, where, toks):
        """Splits into top-level statements: function bodies, initialised data, enums."""
        stmt, depth = [], 0
        for t in toks:
            stmt.append(t)
            if t in "({[":
                depth += 1
            elif t in ")}]":
                depth -= 1
                # A function body ends its definition at its closing brace.
                if t == "}" and depth == 0 and is_function(stmt):
                    self.statement(where, stmt)
                    stmt = []
            elif t == ";" and depth == 0:
                self.statement(where, stmt)
                stmt = []

    def statement(self, where, s):
        ids = [t for t in s if IDENT.match(t)]
        if not ids:
            return
        if ROOT_MACROS.match(ids[0]):
            self.roots.append((where, s))
            return
        if is_function(s):
            body = s.index("{")
            head = s[:body]
            name = head[head.index("(") - 1] if "(" in head else None
            if name and IDENT.match(name):
                self.define(name, where, s)
            return
        if "{" in s and "enum" in s[:s.index("{")]:
            self.enum(where, s)
        depth = 0
        for j, t in enumerate(s):
            if t in "({[":
                depth += 1
            elif t in ")}]":
                depth -= 1
            elif t == "=" and depth == 0:
                name = s[j - 1] if s[j - 1] != "]" else s[s.index("[") - 1]
                self.define(name, where, s[j + 1:])
                return
        # MACRO(name, ...) at top level (DEFINE_SIMPLE_DEV_PM_OPS and the like) defines name.
        k = next((j for j, t in enumerate(s) if t == "("), None)
        if k and k + 1 < len(s) and IDENT.match(s[k + 1]) and "{" not in s:
            self.define(s[k + 1], where, s)

    def enum(self, where, s):
        body = s[s.index("{") + 1:]
        nxt = 0
        item = []
        depth = 0
        for t in body:
            if t in "({[":
                depth += 1
            elif t in ")}]":
                depth -= 1
            if depth < 0 or (t == "," and depth == 0):
                if item and IDENT.match(item[0]):
                    v = value_of(item[2:]) if len(item) > 2 and item[1] == "=" else nxt
                    if v is None and len(item) > 2:
                        v = self.values.get(item[2])
                    self.define(item[0], where, item[2:])
                    if v is not None:
                        self.values.setdefault(item[0], v)
                        nxt = v + 1
                item = []
                if depth < 0:
                    break
            else:
                item.append(t)

    def reachable(self):
        """name -> list of (file, in a case label only?) of the reachable references."""
        refs = {}
        work = []

        def scan(where, toks):
            for j, t in enumerate(toks):
                if not IDENT.match(t) or t not in self.defs:
                    continue
                case = j > 0 and toks[j - 1] == "case"
                first = t not in refs
                refs.setdefault(t, []).append((where, case))
                if first:
                    work.append(t)
                if t in self.paste and j + 1 < len(toks) and toks[j + 1] == "(":
                    for name in self.pasted(t, toks[j + 2:]):
                        if name in self.defs:
                            if name not in refs:
                                work.append(name)
                            refs.setdefault(name, []).append((where, False))

        for where, toks in self.roots:
            scan(where, toks)
        while work:
            name = work.pop()
            for where, toks in self.defs[name]:
                scan(where, toks)
        return refs

    def pasted(self, macro, after):
        """The identifiers MACRO(args...) makes by pasting, for the arguments that follow."""
        params, body = self.paste[macro]
        args, cur, depth = [], [], 0
        for t in after:
            if t in "({[":
                depth += 1
            elif t in ")}]":
                if depth == 0:
                    break
                depth -= 1
            if t == "," and depth == 0:
                args.append(cur)
                cur = []
            else:
                cur.append(t)
        args.append(cur)
        sub = {p: "".join(a) for p, a in zip(params, args)}
        out = []
        for j, t in enumerate(body):
            if t == "##" and 0 < j < len(body) - 1:
                out.append(sub.get(body[j - 1], body[j - 1]) + sub.get(body[j + 1], body[j + 1]))
        return out


def is_function(s):
    """A statement that is a function definition: NAME ( ... ) {  with no = before the brace."""
    if "{" not in s:
        return False
    head = s[:s.index("{")]
    return "=" not in head and "(" in head and head[-1] == ")"


def value_of(body):
    """The value of a macro or enum body that is a number: 0x10, (0x10), BIT(3), (1 << 3)."""
    b = [t for t in body if t not in ("(", ")")]
    if len(b) == 1:
        return parse_int(b[0].rstrip("uUlL"))
    if len(b) == 2 and b[0] in ("BIT", "BIT_ULL"):
        v = parse_int(b[1])
        return None if v is None else 1 << v
    return None


# ---- the document ----

TABLES = {   # heading -> (key kind, columns the kernel columns follow)
    "BAR0 registers": ("reg", "offset"),
    "irdma (PE) registers": ("reg", "offset"),
    "CQP opcodes": ("cqp", "name"),
    "Asynchronous events (AE ids)": ("ae", "name"),
    "Admin queue opcodes": ("aq", "name"),
}


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def reg_names(text):
    """Register names of a row's first column: PF_FW_ATQ/ARQ BAL, BAH means PF_FW_ATQBAL,
    PF_FW_ARQBAL, PF_FW_ATQBAH, PF_FW_ARQBAH; GLPE_CPUSTATUS0/1/2 means the three; (n) and
    .FIELD are dropped; words that are not upper-case names with an underscore are skipped."""
    text = text.replace("`", "")
    m = re.match(r"(\w+_)(\w+)/(\w+) ((?:\w+, )*\w+)$", text)
    if m:
        return [m.group(1) + q + s for q in (m.group(2), m.group(3))
                for s in m.group(4).split(", ")]
    names = []
    for word in re.split(r"[\s,]+", re.sub(r"\(.*?\)", "", text)):
        word = word.split(".")[0].rstrip(":")
        m = re.match(r"([A-Z]\w*_\w*?)(\d)((?:/\d)+)$", word)
        if m:
            names += [m.group(1) + d for d in [m.group(2)] + m.group(3)[1:].split("/")]
        elif re.match(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+$", word):
            names.append(word)
    return names


def row_values(text):
    return [int(v, 16) for v in re.findall(r"0x([0-9A-Fa-f]+)", text)]


class Derived:
    def __init__(self, kernels, model=()):
        self.k = kernels              # name -> Kernel
        # Registers of the model that no kernel defines (the user doorbell page) have no cell.
        self.model_only = {n for n in model if not any(n in k.defs for k in kernels.values())}
        self.refs = {n: k.reachable() for n, k in kernels.items()}

    def by_value(self, kname, pattern, value):
        k = self.k[kname]
        return sorted(n for n, v in k.values.items() if v == value and pattern.match(n))

    def state(self, kname, syms, kind):
        refs = self.refs[kname]
        if not syms:
            return ABSENT
        used = [r for s in syms for r in refs.get(s, [])]
        if not used:
            return "unused"
        if kind != "aq":
            return "used"
        sent = [w for w, case in used if not case]
        if not sent:
            return "event"
        if all("libie" in w for w in sent):
            return "sent (libie)"
        return "sent"

    def symbols(self, kname, kind, key):
        k = self.k[kname]
        if kind == "reg":
            return [n for n in reg_names(key) if n in k.defs]
        vals = row_values(key)
        pat = {"cqp": CQP_RE, "ae": AE_RE, "aq": AQ_RE}[kind]
        return [n for v in vals for n in self.by_value(kname, pat, v)]

    def cell(self, kname, kind, key):
        k = self.k[kname]
        if kind == "reg":
            names = [n for n in reg_names(key) if n not in self.model_only]
            states = {n: self.state(kname, [n] if n in k.defs else [], kind) for n in names}
            if not names:
                return ""
            if len(set(states.values())) == 1:
                return next(iter(states.values()))
            return "; ".join(f"{n}: {s}" for n, s in states.items())
        vals = row_values(key)
        states = {v: self.state(kname, self.symbols(kname, kind, f"0x{v:x}"), kind) for v in vals}
        if not vals:
            return ""
        if len(set(states.values())) == 1:
            return next(iter(states.values()))
        return "; ".join(f"0x{v:02X}: {s}" for v, s in states.items())


CQP_RE = re.compile(r"^IRDMA_CQP_OP_\w+$")
AE_RE = re.compile(r"^IRDMA_AE_(?!SOURCE_)\w+$")
AQ_RE = re.compile(r"^(ice|libie)_aqc_opc_\w+$")
what_of = {"reg": "register", "cqp": "CQP opcode", "ae": "AE", "aq": "admin queue opcode"}


def process(doc_lines, der, knames, write, model):
    errors = []
    out = []
    table = None
    seen = {"cqp": set(), "aq": set()}
    layout = None
    for line in doc_lines:
        m = re.match(r"## (.+)$", line)
        if m:
            table = TABLES.get(m.group(1).strip())
            layout = None
        if table and line.startswith("|"):
            c = cells(line)
            if layout is None:
                hdr = [h.lower() for h in c]
                if knames[0] not in hdr:
                    errors.append(f"table '{line.strip()}': no column {knames[0]}")
                    table = None
                    out.append(line)
                    continue
                layout = [hdr.index(kn) for kn in knames]
            elif not set(line.replace("|", "").strip()) <= set("-: "):
                kind = table[0]
                key = c[0]
                if kind in seen:
                    seen[kind].update(row_values(key))
                for kn, col in zip(knames, layout):
                    want = der.cell(kn, kind, key)
                    if c[col] != want:
                        if not write:
                            row = key if kind == "reg" else f"{key} {c[1]}"
                            errors.append(f"{what_of[kind]} row '{row}', {kn}: the document "
                                          f"says '{c[col]}', the {kn} sources say '{want}'")
                        c[col] = want
                if kind == "reg":
                    for n in reg_names(key):
                        if not any(n in der.k[kn].defs for kn in knames) and n not in model:
                            errors.append(f"row '{key}': {n} is defined by no kernel")
                line = "|" + "|".join(f" {x} " if x else " " for x in c) + "|\n"
        out.append(line)
    for kind, pat, what in (("cqp", CQP_RE, "CQP opcode"), ("aq", AQ_RE, "admin queue opcode")):
        for kn in knames:
            for n, v in sorted(der.k[kn].values.items()):
                if pat.match(n) and v not in seen[kind]:
                    errors.append(f"{what} {n} = 0x{v:02X} of {kn} has no row")
    return out, errors


def register_rows(doc_lines):
    """The names of the register rows' first columns."""
    names, table, header = [], None, False
    for line in doc_lines:
        m = re.match(r"## (.+)$", line)
        if m:
            table, header = TABLES.get(m.group(1).strip()), True
        elif table and table[0] == "reg" and line.startswith("|"):
            if not header and not set(line.replace("|", "").strip()) <= set("-: "):
                names += reg_names(cells(line)[0])
            header = False
    return names


def model_items(path, kind):
    """NAME -> value of list-model's 'KIND 0xVALUE NAME' lines."""
    items = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] == kind:
            items[f[2]] = int(f[1], 16)
    return items


def offset_errors(der, knames, model):
    """Every model register a kernel defines must be where that kernel's driver puts it."""
    errors = []
    for name, off in sorted(model.items()):
        for kn in knames:
            for _, body in der.k[kn].defs.get(name, []):
                base = next((parse_int(t) for t in body if re.match(r"0[xX][0-9a-fA-F]+$", t)), None)
                if base is not None and base != off:
                    errors.append(f"register {name}: the model has it at 0x{off:06X}, "
                                  f"{kn}'s driver at 0x{base:06X}")
    return errors


def main(argv):
    if len(argv) == 2 and argv[0] == "--rows":
        print("\n".join(register_rows(open(argv[1]).readlines())))
        return 0
    write = bool(argv) and argv[0] == "--write"
    args = argv[1:] if write else argv
    model, model_cqp = {}, {}
    if len(args) > 1 and args[0] == "--model":
        model, model_cqp = model_items(args[1], "reg"), model_items(args[1], "cqp")
        if not model or not model_cqp:
            print(f"driver-use: {args[1]} lists no register or no CQP opcode of the model")
            return 1
        args = args[2:]
    if len(args) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    src, doc, knames = args[0], args[1], args[2:]
    missing = [k for k in knames if not os.path.isdir(os.path.join(src, k, DIRS[0]))]
    if missing:
        print(f"driver-use: no driver sources of {', '.join(missing)} in {src} "
              "(scripts/driver-sources.sh unpacks them): skipped")
        return SKIP
    der = Derived({k: Kernel(os.path.join(src, k)) for k in knames}, model)
    for k in knames:
        if not der.refs[k]:
            print(f"driver-use: nothing of {k} is reachable from an entry point")
            return 1
    lines = open(doc).readlines()
    out, errors = process(lines, der, knames, write, model)
    errors += offset_errors(der, knames, model)
    for name, code in sorted(model_cqp.items()):
        for kn in knames:
            theirs = der.by_value(kn, CQP_RE, code)
            if theirs and "IRDMA_CQP_OP_" + name not in theirs:
                errors.append(f"CQP opcode 0x{code:02X}: the model calls it {name}, {kn}'s irdma "
                              f"{' / '.join(theirs)}")
    for e in errors:
        print(e)
    if write and out != lines:
        with open(doc + ".tmp", "w") as f:
            f.writelines(out)
        os.replace(doc + ".tmp", doc)
    if not errors:
        print(f"coverage.md's {', '.join(knames)} columns agree with the driver sources")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
