"""Tiers of the dialects whose CPython tree this mirror does not serve
(3.14, 3.15: their references come from Debian sid's binary packages).

Their corpus is what the reference ships and what older trees hold:

  testfile   the reference's own Lib/test/clinic.test.c: left unchanged
             (pristine copy), and regenerated from its stripped copy,
             scored block by block: a block clinic refuses (the error's
             line) is taken out and the rest regenerated again, so one
             refusal does not hide every later block.
  force      every clinic file of an older tree (3.13.5's, 3.11.2's; its
             clinic.test as clinic.test.c) run with -f through the
             reference and through clinic, each on a copy of the file and
             its routed output: every file written must be identical, or
             both must refuse with the same message.  The reference's
             results are cached by its sources and the input.
  functions  every function of the newest older tree (3.13.5's) alone in
             its file, as conformance.py's functions tier makes them for
             3.11 and 3.13, run the same way as force: finer than force,
             where one refusal takes the whole file.
  errors     test_clinic.py's expect_failure() cases (conformance.py's
             tier e, reading the reference's own test_clinic.py).
"""
import collections
import hashlib
import json
import os
import re
import subprocess

import blocks

ERROR_LINE = re.compile(r":(\d+): error")
REF_HEADER = re.compile(r"^(Error in file .*? on line \d+:|Error:)\n", re.M)


# 3.15's warnings, printed to stdout before whatever follows:
# "Warning:\n{message}\n" and print's newline
REF_WARNING = re.compile(r"^Warning:\n(.*?)\n\n", re.M | re.S)


def ref_warnings(msg):
    """The messages of the warnings the reference printed."""
    return [m.group(1).strip() for m in REF_WARNING.finditer(msg)]


def refusal_text(msg):
    """The reference's message without its warnings and its 'Error in
    file ...' header."""
    msg = REF_WARNING.sub("", msg)
    m = REF_HEADER.search(msg)
    text = msg[m.end():] if m else msg
    return text.strip()


def same_refusal(ref_msg, our_msg):
    """The same error, after the same warnings (ours are FILE:LINE:
    warning: lines on stderr, the reference's a paragraph on stdout)."""
    text = refusal_text(ref_msg)
    return (bool(text) and text in our_msg and
            all(w in our_msg for w in ref_warnings(ref_msg)))


# ------------------------------------------------------------ testfile

def tier_testfile(c, tool, args, work):
    """(unchanged, identical, blocks identical, blocks total, refused)."""
    pristine = c.read(args.clinic_test)
    root = os.path.join(work, "testfile")
    # pristine: nothing may change
    c.write(os.path.join(root, "pristine", c.CLINIC_TEST), pristine)
    code, _ = tool.run(os.path.join(root, "pristine"), c.CLINIC_TEST)
    unchanged = int(code == 0 and c.read(os.path.join(root, "pristine", c.CLINIC_TEST)) == pristine)

    want = blocks.segments(pristine)
    stripped = blocks.strip(pristine)
    text = stripped
    refused = []
    identical = 0
    for attempt in range(200):
        d = os.path.join(root, "regen%d" % attempt)
        c.write(os.path.join(d, c.CLINIC_TEST), text)
        code, msg = tool.run(d, c.CLINIC_TEST)
        if code == 0:
            got_text = c.read(os.path.join(d, c.CLINIC_TEST))
            identical = int(attempt == 0 and got_text == pristine)
            break
        m = ERROR_LINE.search(msg)
        if not m:
            refused.append(("(no line)", c.first_line(msg)))
            got_text = ""
            break
        text, name = drop_block(text, int(m.group(1)))
        if text is None:
            refused.append(("line " + m.group(1), c.first_line(msg)))
            got_text = ""
            break
        refused.append((name, c.first_line(msg)))
    got = collections.defaultdict(list)
    for inp, out in blocks.segments(got_text):
        got[inp].append(out)
    ok = 0
    differs = []
    for inp, out in want:
        cand = got.get(inp)
        if cand and cand.pop(0) == out:
            ok += 1
        elif cand is not None:
            differs.append(block_name(inp))
    return {"unchanged": unchanged, "identical": identical, "blocks": ok,
            "blocks_total": len(want), "refused": refused, "differs": differs}


def block_name(inp):
    """A block's first line after its start line (its function line,
    mostly), for the report."""
    body = [l.strip() for l in inp.splitlines()[1:] if l.strip()]
    return body[0][:60] if body else "?"


def drop_block(text, line):
    """text without the clinic block around 1-based line, and the block's
    first body line; (None, None) when no block holds it."""
    lines = blocks.split_lines(text)
    for b in blocks.parse(lines):
        end = b.marker if b.marker is not None else (
            b.stop if b.stop is not None else len(lines) - 1)
        if b.start <= line - 1 <= end:
            body = [l for l in b.body(lines) if l.strip()]
            name = body[0].strip()[:60] if body else "?"
            return "".join(lines[:b.start] + lines[end + 1:]), name
    return None, None


# ------------------------------------------------------------ force

def force_cases(c, tree, testfile, extensions):
    """(rel, {relpath: text}) for every clinic file of an older tree: the
    file and the routed and destination files clinic writes beside it."""
    corpus = c.Corpus(tree, testfile, extensions)
    cases = []
    for rel in corpus.all:
        files = {rel: corpus.pristine[rel]}
        # the files in the same directory's clinic/ that this file's
        # output goes to (its routed file; destinations named after it)
        d, b = os.path.split(rel)
        stem = os.path.splitext(b)[0]
        for p, t in corpus.pristine.items():
            pd, pb = os.path.split(p)
            if pd == os.path.join(d, "clinic") and pb.startswith(stem):
                files[p] = t
        cases.append((rel, files))
    return cases


def function_cases(c, tree, testfile, extensions):
    """(FILE, {FILE: text}, "FILE: FUNCTION") for every function of an older
    tree's clinic files: the stripped file with that function's block
    alone (and the blocks it clones from), as the functions tier of
    conformance.py makes them."""
    corpus = c.Corpus(tree, testfile, extensions)
    cases = []
    for rel in corpus.all:
        for fname, text in c.function_files(blocks.strip(corpus.pristine[rel])):
            cases.append((rel, {rel: text}, "%s: %s" % (rel, fname)))
    return cases


def tier_force(c, tool, args, work, name, tree, testfile):
    # what that version's --make walks (3.11: .c files only)
    exts = (".c",) if name.startswith("3.11") else (".c", ".h", ".cpp")
    return tier_cases(c, tool, args, os.path.join(work, "force-" + name),
                      force_cases(c, tree, testfile, exts), "force")


def tier_functions(c, tool, args, work, name, tree, testfile):
    exts = (".c",) if name.startswith("3.11") else (".c", ".h", ".cpp")
    return tier_cases(c, tool, args, os.path.join(work, "functions-" + name),
                      function_cases(c, tree, testfile, exts), "functions")


def tier_cases(c, tool, args, root, cases, tag):
    """Each case (the file to run, {relpath: text} written first, and
    optionally its name in the report) run with -f through the reference
    (cached by its sources and the input) and through clinic: identical
    files, or both refusing with the same message."""
    refkey = c.reference_key(args)
    cache_dir = os.path.join(args.cache, "force")

    def key(case):
        h = hashlib.sha1((refkey + "\0" + tag + "\0").encode())
        for p in sorted(case[1]):
            h.update(("\0" + p + "\0" + case[1][p]).encode())
        return h.hexdigest()

    def cache_file(k):
        return os.path.join(cache_dir, k[:2], k + ".json")

    def prepare(tag, i, case):
        d = os.path.join(root, tag, str(i))
        for p, t in case[1].items():
            c.write(os.path.join(d, p), t)
        return d

    keys = [key(cs) for cs in cases]
    missing = [i for i, k in enumerate(keys) if not os.path.exists(cache_file(k))]
    if missing:
        print("  %s: running the reference on %d uncached files..."
              % (os.path.basename(root), len(missing)), flush=True)
        groups = [missing[j::args.jobs] for j in range(args.jobs)]

        def ref_batch(group):
            if not group:
                return
            jobs_list = [[prepare("ref", i, cases[i]), cases[i][0]] for i in group]
            jpath = os.path.join(root, "ref", "jobs-%d.json" % group[0])
            with open(jpath, "w") as f:
                json.dump(jobs_list, f)
            subprocess.run([args.python, os.path.join(os.path.dirname(__file__), "refrun.py"),
                            args.refdir, jpath, jpath + ".out", "force"],
                           check=True, stdin=subprocess.DEVNULL)
            with open(jpath + ".out") as f:
                res = json.load(f)
            for i, (status, msg) in zip(group, res):
                d = os.path.join(root, "ref", str(i))
                data = {"status": status, "message": msg,
                        "files": c.collect(d) if status == 0 else {}}
                cf = cache_file(keys[i])
                os.makedirs(os.path.dirname(cf), exist_ok=True)
                with open(cf + ".tmp%d" % os.getpid(), "w") as f:
                    json.dump(data, f)
                os.replace(cf + ".tmp%d" % os.getpid(), cf)

        c.pmap(ref_batch, groups, args.jobs)

    def ours(i):
        d = prepare("ours", i, cases[i])
        code, msg = tool.run(d, cases[i][0], force=True)
        return code, msg, (c.collect(d) if code == 0 else {})

    results = c.pmap(ours, range(len(cases)), args.jobs)
    identical = both_refused = ref_refused = 0
    failures = []
    for i, (code, msg, files) in enumerate(results):
        with open(cache_file(keys[i])) as f:
            ref = json.load(f)
        rel = cases[i][2] if len(cases[i]) > 2 else cases[i][0]
        if ref["status"] != 0:
            ref_refused += 1
            if code != 0 and same_refusal(ref["message"], msg):
                both_refused += 1
            else:
                failures.append((rel, "reference refuses: %s; clinic: %s" % (
                    refusal_text(ref["message"]).splitlines()[0][:70] if refusal_text(ref["message"]) else "?",
                    ("exit %d: %s" % (code, c.first_line(msg))) if code else "accepts")))
        elif code == 0 and files == ref["files"]:
            identical += 1
        else:
            failures.append((rel, ("exit %d: %s" % (code, c.first_line(msg))) if code
                             else "output differs"))
    return {"score": identical + both_refused, "total": len(cases),
            "identical": identical, "both_refused": both_refused,
            "ref_refused": ref_refused, "failures": failures}
