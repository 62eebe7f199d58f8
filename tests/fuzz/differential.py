"""Differential fuzzing of the 3.14 and 3.15 syntax against the reference
clinic.py of each dialect (make fuzz-diff, a tier of make check).

gen_dsl_run writes one file a seed (tests/fuzz/gen_dsl.c: declarations in
the newer syntax, with its rare corners); each file goes through the
reference (refrun.py, many files to one interpreter, under Debian's
python3) and through clinic --dialect D.  A file agrees when both write
the same text, or both refuse it with the same message (the reference's
text, without its "Error in file" header, inside clinic's), or the
reference dies with a traceback and clinic refuses the file with a
message.  The reference's results are cached in
CACHE/fuzz-diff/ by the reference's sources and the input.

A mismatch whose summary ("DIALECT | reference: ... | clinic: ...")
matches a line of tests/fuzz/differential-pending (a regular expression,
one a line, '#' comments) is known: a syntax gap another branch is
closing.  Any other mismatch fails the run; each is summarised with a
seed that shows it, and the files are kept in WORK/DIALECT/.

usage: differential.py --clinic CLINIC --gen GEN_DSL_RUN --refdir D=DIR ...
       [--seeds FIRST:COUNT] [--python PY] [--cache DIR] [--work DIR]
       [--pending FILE] [-j JOBS] [-v]
Ends with "fuzz-diff: N passed, M failed" (files that agree or are known,
and unknown mismatches).
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REFRUN = os.path.join(HERE, "..", "conformance", "refrun.py")
REF_HEADER = re.compile(
    r"^(Error in file .*? on line \d+:|Error on line \d+:|Error:)\n", re.M)
NAME = "fuzz.c"


def refusal_text(msg):
    """The reference's error without its header (and without the
    warnings 3.15 prints before it)."""
    m = None
    for m in REF_HEADER.finditer(msg):
        pass
    return (msg[m.end():] if m else msg).strip()


def is_traceback(msg):
    """refrun.py reports an exception that is no ClinicError as
    'TypeError: ...' (the CLI would die with a traceback)."""
    return not REF_HEADER.search(msg) and bool(
        re.match(r"^[A-Za-z_]\w*(Error|Exception|Exit)\b", msg.strip()))


def first_line(msg):
    """The message's first line (with the next when it ends in ':', as
    "Exception raised during parsing:" does)."""
    lines = [x.strip() for x in msg.splitlines()]
    lines = [x for x in lines if x and not REF_HEADER.match(x + "\n")]
    if not lines:
        return ""
    if lines[0].endswith(":") and len(lines) > 1:
        return (lines[0] + " " + lines[1])[:160]
    return lines[0][:100]


def first_difference(theirs, ours):
    """clinic's first line that is not the reference's, and the
    reference's there."""
    a, b = theirs.splitlines(), ours.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end>"
        y = b[i] if i < len(b) else "<end>"
        if x != y:
            return "%r, not %r" % (y.strip()[:120], x.strip()[:120])
    return "line endings"


def our_message(stderr):
    """clinic's error without 'FILE:LINE: error: '."""
    m = re.search(r"^[^\n]*?:\d+: error: (.*)", stderr, re.M | re.S)
    if m:
        return m.group(1)
    m = re.search(r"^[^\n]*?: error: (.*)", stderr, re.M | re.S)
    return m.group(1) if m else stderr


def source_key(refdir):
    h = hashlib.sha1()
    for root, _, files in sorted(os.walk(refdir)):
        for f in sorted(files):
            if f.endswith(".py"):
                with open(os.path.join(root, f), "rb") as fp:
                    h.update(f.encode() + b"\0" + fp.read())
    return h.hexdigest()


def run_reference(args, dialect, refdir, texts, work):
    """{index: {"status", "message", "output"}} for every text, from the
    cache or from one refrun.py batch per job."""
    key0 = source_key(refdir) + "\0" + args.python_version + "\0"
    keys = [hashlib.sha1((key0 + t).encode()).hexdigest() for t in texts]
    cache_dir = os.path.join(args.cache, "fuzz-diff")

    def cache_file(k):
        return os.path.join(cache_dir, k[:2], k + ".json")

    missing = [i for i, k in enumerate(keys) if not os.path.exists(cache_file(k))]
    if missing:
        print("fuzz-diff %s: running the reference on %d uncached files..."
              % (dialect, len(missing)), flush=True)
        root = os.path.join(work, "ref")
        groups = [missing[j::args.jobs] for j in range(args.jobs)]

        def batch(group):
            if not group:
                return
            jobs = []
            for i in group:
                d = os.path.join(root, str(i))
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, NAME), "w", encoding="utf-8") as f:
                    f.write(texts[i])
                jobs.append([d, NAME])
            jpath = os.path.join(root, "jobs-%d.json" % group[0])
            with open(jpath, "w") as f:
                json.dump(jobs, f)
            subprocess.run([args.python, REFRUN, refdir, jpath, jpath + ".out"],
                           check=True, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL)
            with open(jpath + ".out") as f:
                results = json.load(f)
            for i, (status, msg) in zip(group, results):
                path = os.path.join(root, str(i), NAME)
                with open(path, encoding="utf-8") as f:
                    output = f.read()
                data = {"status": status, "message": msg,
                        "output": output if status == 0 else None}
                cf = cache_file(keys[i])
                os.makedirs(os.path.dirname(cf), exist_ok=True)
                tmp = cf + ".tmp%d" % os.getpid()
                with open(tmp, "w") as f:
                    json.dump(data, f)
                os.replace(tmp, cf)

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            list(ex.map(batch, groups))
    out = []
    for k in keys:
        with open(cache_file(k)) as f:
            out.append(json.load(f))
    return out


def run_ours(args, dialect, text, d):
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, NAME)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        p = subprocess.run([args.clinic, "--dialect", dialect, NAME], cwd=d,
                           capture_output=True, timeout=30)
        code, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        code, err = -1, "timed out"
    with open(path, encoding="utf-8", errors="replace") as f:
        output = f.read()
    return code, err, output


def compare(ref, code, err, output):
    """(agrees, what clinic did, what the reference did)"""
    if code < 0 or code > 2:
        ours = "crashed (%d): %s" % (code, first_line(err))
    elif code == 0:
        ours = "accepts"
    else:
        ours = "refuses: " + first_line(our_message(err))
    if ref["status"] == 0:
        theirs = "accepts"
        if code == 0:
            if output == ref["output"]:
                return True, ours, theirs
            ours = "output differs: " + first_difference(ref["output"], output)
        return False, ours, theirs
    msg = ref["message"]
    if is_traceback(msg) or not refusal_text(msg):
        # a traceback, or a message only on standard error (which
        # refrun.py does not keep): any clear refusal is right
        theirs = "traceback: " + first_line(msg) if msg.strip() else \
            "refuses, on standard error"
        return code in (1, 2), ours, theirs
    theirs = "refuses: " + first_line(refusal_text(msg))
    text = refusal_text(msg)
    return (code in (1, 2) and bool(text) and text in our_message(err)), ours, theirs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clinic", required=True)
    ap.add_argument("--gen", required=True, help="gen_dsl_run")
    ap.add_argument("--refdir", action="append", required=True,
                    help="DIALECT=DIR of its clinic.py")
    ap.add_argument("--seeds", default="1:150")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/clinic-conformance"))
    ap.add_argument("--work", default="build/fuzz-diff")
    ap.add_argument("--pending", default=os.path.join(HERE, "differential-pending"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.clinic = os.path.abspath(args.clinic)
    args.python_version = subprocess.run(
        [args.python, "-c", "import sys; print(sys.version)"],
        capture_output=True, text=True, check=True).stdout.strip()

    first, count = (int(x) for x in args.seeds.split(":"))
    pending = []
    with open(args.pending, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.strip() and not line.lstrip().startswith("#"):
                pending.append(re.compile(line))

    shutil.rmtree(args.work, ignore_errors=True)
    gen_dir = os.path.join(args.work, "gen")
    os.makedirs(gen_dir)
    subprocess.run([args.gen, "-s", str(first), "-n", str(count), gen_dir], check=True)
    seeds = list(range(first, first + count))
    texts = []
    for s in seeds:
        with open(os.path.join(gen_dir, "seed-%d.c" % s), encoding="utf-8") as f:
            texts.append(f.read())

    passed = failed = 0
    for spec in args.refdir:
        dialect, refdir = spec.split("=", 1)
        work = os.path.join(args.work, dialect)
        refs = run_reference(args, dialect, refdir, texts, work)

        def ours(i):
            return run_ours(args, dialect, texts[i], os.path.join(work, "ours", str(i)))

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            results = list(ex.map(ours, range(len(texts))))
        counts = collections.Counter()
        known = collections.OrderedDict()
        unknown = collections.OrderedDict()
        for i, (code, err, output) in enumerate(results):
            agree, o, t = compare(refs[i], code, err, output)
            if agree:
                counts["agree, " + ("both accept" if refs[i]["status"] == 0
                                    else "both refuse")] += 1
                continue
            summary = "%s | reference: %s | clinic: %s" % (dialect, t, o)
            where = known if any(p.search(summary) for p in pending) else unknown
            where.setdefault(summary, []).append(seeds[i])
            keep = os.path.join(work, "seed-%d.c" % seeds[i])
            with open(keep, "w", encoding="utf-8") as f:
                f.write(texts[i])
        nknown = sum(len(v) for v in known.values())
        nunknown = sum(len(v) for v in unknown.values())
        print("fuzz-diff %s: %d files: %s; %d known mismatches (pending), %d new"
              % (dialect, len(texts),
                 ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items())),
                 nknown, nunknown))
        for title, group, show in (("known", known, args.verbose),
                                   ("NEW", unknown, True)):
            if not show:
                continue
            for summary, ss in group.items():
                print("  %s %3d  %s  (seed %d)" % (title, len(ss), summary, ss[0]))
        passed += len(texts) - nunknown
        failed += nunknown
    print("fuzz-diff: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
