"""Cross-check `clinic --json` against what the reference clinic.py writes.

For every function the reference generates in the CPython 3.11.2 tree (every
.c and .h file --make processes) and in clinic.test, the function as
`clinic --json --make` reports it must agree with the reference's output:

  docstring        equals the text of the PyDoc_STRVAR clinic.py writes for
                   it (the C string, unescaped); null when it writes none
  signature        equals that docstring's part before "\\n--\\n\\n" (for a
                   function with optional groups, which has no "--" line,
                   the docstring starts with it, then a newline)
  methoddef_flags  equal the flags of the PyMethodDef macro clinic.py
                   writes; null when it writes none (__new__, __init__)

The reference runs on scratch copies of the pristine files (which it leaves
as they are), imported once and forked per file, with a hook on
render_function that notes each function rendered: its full name, C
basename and whether it gets a docstring and a PyMethodDef.  Its results
are cached by input in CACHE/query/.  The PyDoc_STRVAR and the
PyMethodDef of a function are then read from the files it wrote: the
file itself and its 'file' destinations, by C basename, in order.

Prints how many functions were checked and agree, of how many; fails on any
disagreement, and when the agreeing functions are fewer than the floor
'query_functions' in the floor file (functions in files our clinic refuses
cannot be checked: they count against the floor, not as disagreements).

usage: crosscheck.py --tree TREE --refdir REFDIR --clinic-test FILE
                     --clinic BIN --cache DIR [--floor FILE] [--json OUT]
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "conformance"))
from conformance import read_floor  # noqa: E402  (the floor file's reader)

CLINIC_TEST = "clinic.test.c"
HOOK_VERSION = "1"   # raise when what the reference child records changes
SKIPPED_DIRS = (".svn", ".git", ".hg", "build", "externals")


# ---------------------------------------------------------------- corpus

def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def corpus_files(tree):
    """The files --make processes that hold a clinic block, as relpaths."""
    found = []
    for d, dirs, names in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if x not in SKIPPED_DIRS)
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                p = os.path.join(d, n)
                try:
                    text = read(p)
                except (UnicodeDecodeError, OSError):
                    continue
                if "/*[clinic input]" in text:
                    found.append(os.path.relpath(p, tree))
    return found


# ---------------------------------------------------------------- the reference

def reference_child(clinic, workdir, rel):
    """In a forked child: run clinic.py on rel (in workdir) with the hook,
    then read what it wrote.  Returns the record of the file."""
    rendered = []
    original = clinic.CLanguage.render_function

    def render_function(self, cl, f):
        if f:
            if f.c_basename:
                c_basename = f.c_basename
            else:
                fields = f.full_name.split(".")
                if fields[-1] == "__new__":
                    fields.pop()
                c_basename = "_".join(fields)
            new_or_init = f.kind in (clinic.METHOD_NEW, clinic.METHOD_INIT)
            rendered.append({
                "full_name": f.full_name,
                "c_basename": c_basename,
                "docstring_expected": not (new_or_init and not f.docstring),
                "methoddef_expected": not new_or_init,
            })
        return original(self, cl, f)

    clinic.CLanguage.render_function = render_function
    os.chdir(workdir)
    clinic.parse_file(rel)
    texts = [read(rel)]
    c = clinic.clinic
    if c is not None:
        for d in c.destinations.values():
            if d.type == "file" and os.path.exists(d.filename):
                texts.append(read(d.filename))
    return {"functions": rendered, "texts": texts}


def run_reference(refdir, jobs, results_path):
    """python3 crosscheck.py --reference-child REFDIR JOBS RESULTS"""
    sys.path.insert(0, refdir)
    sys.setrecursionlimit(10000)
    import clinic  # noqa: E402  (the reference, from the cache)
    with open(jobs) as f:
        todo = json.load(f)
    results = []
    for workdir, rel in todo:
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            try:
                out = {"status": 0, **reference_child(clinic, workdir, rel)}
            except BaseException as e:  # noqa: B902 (the CLI would exit)
                out = {"status": 1, "message": "%s: %s" % (type(e).__name__, e)}
            with os.fdopen(wfd, "w") as w:
                json.dump(out, w)
            os._exit(0)
        os.close(wfd)
        with os.fdopen(rfd) as r:
            data = r.read()
        os.waitpid(pid, 0)
        try:
            results.append(json.loads(data))
        except ValueError:
            results.append({"status": 1, "message": "reference child crashed"})
    with open(results_path, "w") as f:
        json.dump(results, f)


# ---------------------------------------------------------------- what it wrote

C_STRING = r'"(?:[^"\\\n]|\\.)*"'
DOC_RE = re.compile(r"PyDoc_STRVAR\((\w+)__doc__,\s*((?:%s\s*)*)\);" % C_STRING)
PIECE_RE = re.compile(C_STRING)
METHODDEF_RE = re.compile(
    r"#define[ \t]+(\w+)_METHODDEF[ \t]*\\\n[ \t]*"
    r"\{\"[^\"]*\",\s*[^,]+,\s*(METH_\w+(?:\s*\|\s*METH_\w+)*),\s*\w+\},")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'",
           "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?"}


def c_unescape(literal):
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in ESCAPES:
            out.append(ESCAPES[nxt])
            i += 2
        elif nxt == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        else:
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(0), 8)))
            i += 1 + len(m.group(0))
    return "".join(out)


def written(texts):
    """{c_basename: [docstring, ...]}, {C_BASENAME: [flags, ...]} in order."""
    docs = collections.defaultdict(list)
    flags = collections.defaultdict(list)
    for text in texts:
        for m in DOC_RE.finditer(text):
            docs[m.group(1)].append("".join(c_unescape(p) for p in PIECE_RE.findall(m.group(2))))
        for m in METHODDEF_RE.finditer(text):
            flags[m.group(1)].append(re.sub(r"\s+", "", m.group(2)))
    return docs, flags


def reference_functions(args, corpus, work):
    """[(rel, record)] for every function the reference renders, with what
    it wrote for it (None: nothing found)."""
    refkey = hashlib.sha1(HOOK_VERSION.encode())
    for f in ("clinic.py", "cpp.py"):
        with open(os.path.join(args.refdir, f), "rb") as fh:
            refkey.update(fh.read())
    cache_dir = os.path.join(args.cache, "query")
    os.makedirs(cache_dir, exist_ok=True)

    def key(rel):
        h = refkey.copy()
        h.update(rel.encode() + b"\0" + corpus[rel].encode())
        return os.path.join(cache_dir, h.hexdigest() + ".json")

    missing = [rel for rel in corpus if not os.path.exists(key(rel))]
    if missing:
        print("  crosscheck: running the reference on %d files..." % len(missing), flush=True)
        refwork = os.path.join(work, "reference")
        todo = []
        for rel in missing:
            src = args.clinic_test if rel == CLINIC_TEST else os.path.join(args.tree, rel)
            d = os.path.join(refwork, str(len(todo)))
            dst = os.path.join(d, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            routed = os.path.join(os.path.dirname(src), "clinic", os.path.basename(src) + ".h")
            if rel != CLINIC_TEST and os.path.exists(routed):
                rdst = os.path.join(os.path.dirname(dst), "clinic", os.path.basename(dst) + ".h")
                os.makedirs(os.path.dirname(rdst), exist_ok=True)
                shutil.copyfile(routed, rdst)
            todo.append([d, rel])
        jobs = os.path.join(work, "jobs.json")
        results = os.path.join(work, "results.json")
        with open(jobs, "w") as f:
            json.dump(todo, f)
        subprocess.run([args.python, os.path.abspath(__file__), "--reference-child",
                        args.refdir, jobs, results], check=True, stdin=subprocess.DEVNULL)
        with open(results) as f:
            for (d, rel), res in zip(todo, json.load(f)):
                with open(key(rel), "w") as out:
                    json.dump(res, out)

    functions = []
    for rel in corpus:
        with open(key(rel)) as f:
            res = json.load(f)
        if res["status"] != 0:
            raise SystemExit("crosscheck: the reference refused %s: %s" % (rel, res.get("message")))
        docs, flags = written(res["texts"])
        seen = collections.Counter()
        for fn in res["functions"]:
            k = seen[fn["c_basename"]]
            seen[fn["c_basename"]] += 1
            d = docs.get(fn["c_basename"], [])
            m = flags.get(fn["c_basename"].upper(), [])
            fn["docstring"] = d[k] if k < len(d) else None
            fn["methoddef_flags"] = m[k] if k < len(m) else None
            functions.append((rel, fn))
    return functions


# ---------------------------------------------------------------- ours

def our_functions(args, corpus, work):
    """{rel: [function, ...]} from clinic --json --make over a copy of the
    tree, and clinic --json over clinic.test; and the files it refused."""
    tree = os.path.join(work, "tree")
    for rel in corpus:
        if rel == CLINIC_TEST:
            continue
        dst = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(args.tree, rel), dst)
        routed = os.path.join(args.tree, os.path.dirname(rel), "clinic", os.path.basename(rel) + ".h")
        if os.path.exists(routed):
            rdst = os.path.join(tree, os.path.dirname(rel), "clinic", os.path.basename(rel) + ".h")
            os.makedirs(os.path.dirname(rdst), exist_ok=True)
            shutil.copyfile(routed, rdst)
    testdir = os.path.join(work, "test")
    os.makedirs(testdir)
    shutil.copyfile(args.clinic_test, os.path.join(testdir, CLINIC_TEST))

    docs = []
    for cwd, argv in ((tree, ["--json", "--make", "--srcdir", "."]),
                      (testdir, ["--json", CLINIC_TEST])):
        p = subprocess.run([os.path.abspath(args.clinic)] + argv, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL)
        docs.append(json.loads(p.stdout.decode("utf-8")))
    by_file, refused = {}, {}
    for doc in docs:
        for f in doc["files"]:
            rel = os.path.normpath(f["path"])
            if f["error"]:
                refused[rel] = f["error"]["message"].splitlines()[0]
            by_file[rel] = f["functions"]
    return by_file, refused


# ---------------------------------------------------------------- comparing

def compare(ref, ours):
    """The disagreements between one reference function and ours."""
    why = []
    doc = ref["docstring"]
    if ours["docstring"] != doc:
        why.append("docstring: ours %r, clinic.py's %r" % (ours["docstring"], doc))
    if doc is not None:
        head, sep, _ = doc.partition("\n--\n\n")
        if sep:
            ok = ours["signature"] == head and ours["text_signature"]
        else:
            ok = (not ours["text_signature"] and
                  (doc == ours["signature"] or doc.startswith(ours["signature"] + "\n")))
        if not ok:
            why.append("signature: ours %r does not begin clinic.py's docstring %r"
                       % (ours["signature"], doc[:200]))
    if ours["methoddef_flags"] != ref["methoddef_flags"]:
        why.append("methoddef_flags: ours %r, clinic.py's %r"
                   % (ours["methoddef_flags"], ref["methoddef_flags"]))
    return why


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--reference-child":
        run_reference(*sys.argv[2:5])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True)
    ap.add_argument("--refdir", required=True)
    ap.add_argument("--clinic-test", required=True)
    ap.add_argument("--clinic", default="build/clinic")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--floor", default=None)
    ap.add_argument("--json", default=None, help="write a report here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="clinic-crosscheck-")
    try:
        corpus = {rel: read(os.path.join(args.tree, rel)) for rel in corpus_files(args.tree)}
        corpus[CLINIC_TEST] = read(args.clinic_test)
        ref = reference_functions(args, corpus, work)
        ours, refused = our_functions(args, corpus, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    total = len(ref)
    agree, unchecked, not_written, disagree = 0, collections.Counter(), 0, []
    position = collections.Counter()
    for rel, fn in ref:
        k = position[(rel, fn["full_name"])]
        position[(rel, fn["full_name"])] += 1
        if rel in refused:
            unchecked[rel] += 1
            continue
        if fn["docstring_expected"] and fn["docstring"] is None or \
           fn["methoddef_expected"] and fn["methoddef_flags"] is None:
            not_written += 1      # routed to a destination nobody writes
            continue
        mine = [f for f in ours.get(rel, []) if f["full_name"] == fn["full_name"]]
        if k >= len(mine):
            disagree.append((rel, fn["full_name"], "missing from clinic --json"))
            continue
        why = compare(fn, mine[k])
        if why:
            disagree.extend((rel, fn["full_name"], w) for w in why)
        else:
            agree += 1
    ours_total = sum(len(v) for v in ours.values())

    floor = read_floor(args.floor).get("query_functions", 0)
    print("  crosscheck: %d files, %d functions clinic.py generates "
          "(%d in clinic.test)" % (len(corpus), total,
                                   sum(1 for rel, _ in ref if rel == CLINIC_TEST)))
    print("    agree (signature, docstring, METH_ flags):  %d/%d" % (agree, total))
    print("    in files clinic refuses, not checked:       %d%s" % (
        sum(unchecked.values()),
        (" (" + ", ".join("%s %d" % kv for kv in sorted(unchecked.items())) + ")") if unchecked else ""))
    print("    output not written by clinic.py (suppressed): %d" % not_written)
    print("    disagree:                                   %d" % len(disagree))
    print("    functions in clinic --json:                 %d" % ours_total)
    for rel, name, why in disagree[:None if args.verbose else 20]:
        print("      %s  %s  %s" % (rel, name, why[:300]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"total": total, "agree": agree, "unchecked": dict(unchecked),
                       "not_written": not_written, "disagree": disagree}, f, indent=1)
    ok = not disagree and agree >= floor
    if agree < floor:
        print("  crosscheck: FLOOR BROKEN: %d agree < floor %d" % (agree, floor))
    print("crosscheck: query_functions %d (floor %d): %s" % (agree, floor, "ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
