"""The thirdparty tier, in every dialect: the files of the third-party
corpus (thirdparty.manifest, assembled into the cache by thirdparty.sh)
each run with -f through the dialect's reference and through clinic, as
sid.py's force tier runs an older tree's files: identical files, or both
refusing with the same message.

A file the cache lacks (or holds with another blob id) is not scored:
the tier is then NOT SCORED, its floor not checked, and the run names
every file missing with the reason thirdparty.sh recorded."""
import hashlib
import os

import sid


def entries(manifest):
    """(repository, commit, path, blob, license) for each file listed."""
    out = []
    with open(manifest) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(tuple(line.split()[:5]))
    return out


def blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def corpus(manifest, root):
    """(cases, missing): a case per file the cache holds whole (its
    relative path OWNER+NAME/PATH, {path: text}), and (file, why) for
    each one it does not."""
    why = {}
    unavailable = os.path.join(root, "unavailable")
    if os.path.exists(unavailable):
        with open(unavailable) as f:
            for line in f:
                name, _, reason = line.rstrip("\n").partition("\t")
                why[name] = reason
    cases, missing = [], []
    for repo, _commit, path, blob, _license in entries(manifest):
        rel = repo.replace("/", "+") + "/" + path
        p = os.path.join(root, rel)
        data = None
        if os.path.exists(p):
            with open(p, "rb") as f:
                data = f.read()
        if data is None or blob_id(data) != blob:
            name = repo + "/" + path
            missing.append((name, why.get(name) or (
                "not in the cache (run tests/conformance/thirdparty.sh)"
                if data is None else "the cache holds another version")))
            continue
        cases.append((rel, {rel: data.decode("utf-8", "surrogateescape")}))
    return cases, missing


def tier(c, tool, args, work):
    cases, missing = corpus(args.thirdparty_manifest, args.thirdparty)
    if missing:
        return {"missing": missing, "total": len(cases) + len(missing)}
    r = sid.tier_cases(c, tool, args, os.path.join(work, "thirdparty"),
                       cases, "thirdparty")
    r["missing"] = []
    return r


def run(c, tool, args, work, scores, report, show):
    """Runs the tier, prints its lines and sets scores["thirdparty"] (not
    when the corpus is incomplete)."""
    import time
    t0 = time.time()
    r = tier(c, tool, args, work)
    report["thirdparty"] = r
    if r["missing"]:
        print("  [t] the third-party corpus: NOT SCORED (%d of its %d files "
              "cannot be had here; floor not checked)"
              % (len(r["missing"]), r["total"]))
        for name, why in r["missing"]:
            print("      %s: %s" % (name, why))
        return
    scores["thirdparty"] = r["score"]
    print("  [t] the third-party corpus with -f (%.0fs)" % (time.time() - t0))
    print("      identical, or same refusal:   %d/%d  (%d identical; "
          "%d refused by the reference, %d of them with our message)" % (
              r["score"], r["total"], r["identical"], r["ref_refused"],
              r["both_refused"]))
    show(r["failures"])
