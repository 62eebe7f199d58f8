"""Checks of the query modes' outputs, for tests/query/run.sh.

  checks.py schema SCHEMA DOC.json...
      every document is valid UTF-8 and valid against the JSON Schema
      (Draft 2020-12, Debian's python3-jsonschema); and the schema is not
      toothless: a document with a member renamed is rejected
  checks.py stats DOC.json STATS.txt
      the counts --stats printed agree with those in the document's
      "stats", and both with counts made here from its functions
  checks.py list DOC.json LIST.txt
      --list shows every function of the document, once, by its full name
  checks.py docstrings CLINIC SRCDIR DOC.json N
      for every Nth function (and the first), `clinic --docstring NAME
      --make --srcdir SRCDIR` prints its docstring; a misspelt name fails
      with a suggestion of the right one
"""
import collections
import json
import re
import subprocess
import sys

KINDS = ["function", "method", "classmethod", "staticmethod", "__new__", "__init__"]


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    data.decode("utf-8")          # strict: raises on any ill-formed byte
    return json.loads(data)


def check_schema(schema_path, docs):
    import jsonschema              # Debian's python3-jsonschema
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in docs:
        doc = load(path)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        nfun = sum(len(f["functions"]) for f in doc["files"])
        print("  %s: %d files, %d functions, %d schema errors"
              % (path.rsplit("/", 1)[-1], len(doc["files"]), nfun, len(errors)))
        for e in errors[:5]:
            print("    at %s: %s" % ("/".join(map(str, e.path)), e.message[:200]))
        bad += bool(errors)
        # the schema must catch a drift: one member renamed in a function
        for f in doc["files"]:
            if f["functions"]:
                f["functions"][0]["full_nam"] = f["functions"][0].pop("full_name")
                if validator.is_valid(doc):
                    print("  %s: the schema accepts a renamed member" % path)
                    bad += 1
                break
    return bad == 0


def counts_from_functions(doc):
    c = collections.Counter()
    kinds = collections.Counter()
    conventions, parsers = collections.Counter(), collections.Counter()
    converters, returns = collections.Counter(), collections.Counter()
    for f in doc["files"]:
        c["files"] += 1
        c["files_with_errors"] += f["error"] is not None
        c["blocks"] += len(f["blocks"])
        c["custom_converters"] += len(f["converters"])
        c["custom_return_converters"] += len(f["return_converters"])
        for fn in f["functions"]:
            c["functions"] += 1
            kinds[fn["kind"]] += 1
            conventions[fn["calling_convention"]] += 1
            parsers[fn["parser"]] += 1
            returns[fn["return_converter"]["name"]] += 1
            for p in fn["parameters"]:
                if p["special"]:
                    continue
                c["p:all"] += 1
                c["p:" + p["kind"]] += 1
                c["p:with_default"] += p["default"] is not None
                c["p:in_optional_group"] += p["group"] != 0
                c["p:deprecated_positional"] += p["deprecated_positional"] is not None
                c["p:deprecated_keyword"] += p["deprecated_keyword"] is not None
                converters[p["converter"]["name"]] += 1
    stats = {k: c[k] for k in ("files", "files_with_errors", "blocks", "functions",
                               "custom_converters", "custom_return_converters")}
    # getters and setters (3.13) are counted when there are some
    stats["functions_by_kind"] = {k: kinds[k] for k in KINDS + [
        k for k in ("getter", "setter") if kinds[k]]}
    stats["parameters"] = {k: c["p:" + k] for k in (
        "all", "positional_only", "positional_or_keyword", "keyword_only",
        "var_positional", "with_default", "in_optional_group",
        "deprecated_positional", "deprecated_keyword")}
    stats["calling_conventions"] = dict(conventions)
    stats["parsers"] = dict(parsers)
    stats["converters"] = dict(converters)
    stats["return_converters"] = dict(returns)
    return stats


TEXT_NAMES = {"with a default": "with_default", "in an optional group": "in_optional_group",
              "deprecated positional use": "deprecated_positional",
              "deprecated keyword use": "deprecated_keyword",
              "files with errors": "files_with_errors",
              "custom converters": "custom_converters",
              "custom return converters": "custom_return_converters"}
SECTIONS = {"functions by kind": "functions_by_kind",
            "parameters (self and defining_class not counted)": "parameters",
            "calling conventions": "calling_conventions", "parsing methods": "parsers",
            "converters": "converters", "return converters": "return_converters"}


def parse_stats_text(text):
    stats, section = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.endswith(":") and not line.startswith(" "):
            section = stats.setdefault(SECTIONS[line[:-1]], {})
            continue
        m = re.match(r"^( *)(.+?) +(\d+)$", line)
        if not m:
            raise ValueError("unexpected --stats line: %r" % line)
        name = TEXT_NAMES.get(m.group(2), m.group(2))
        (section if m.group(1) else stats)[name] = int(m.group(3))
    return stats


def check_stats(doc_path, text_path):
    doc = load(doc_path)
    with open(text_path, encoding="utf-8") as f:
        text = parse_stats_text(f.read())
    made = counts_from_functions(doc)
    ok = True
    for name, other in (("--stats", text), ("the JSON's stats", doc["stats"])):
        if other != made:
            ok = False
            for k in sorted(set(made) | set(other)):
                if made.get(k) != other.get(k):
                    print("  %s: %s is %r, counted from the functions: %r"
                          % (name, k, other.get(k), made.get(k)))
    print("  %s: %d functions, %d parameters, %d converters: %s"
          % (doc_path.rsplit("/", 1)[-1], made["functions"], made["parameters"]["all"],
             len(made["converters"]), "agree" if ok else "DISAGREE"))
    return ok


def check_list(doc_path, list_path):
    doc = load(doc_path)
    with open(list_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    shown = collections.Counter()
    for line in lines:
        m = re.match(r"^ +([\w.]+)(\(| @getter$| @setter( @deleter)?$)", line)
        if m:
            shown[m.group(1)] += 1
    want = collections.Counter()
    for f in doc["files"]:
        for fn in f["functions"]:
            name = fn["full_name"]
            if fn["kind"] in ("__new__", "__init__"):
                name = name.rsplit(".", 1)[0]
            want[name] += 1
    ok = shown == want
    print("  --list: %d function lines, %d functions in --json: %s"
          % (sum(shown.values()), sum(want.values()), "agree" if ok else "DISAGREE"))
    if not ok:
        for k in sorted(set(shown) | set(want)):
            if shown[k] != want[k]:
                print("    %s: listed %d times, %d in --json" % (k, shown[k], want[k]))
    return ok


def check_docstrings(clinic, srcdir, doc_path, every):
    doc = load(doc_path)
    names = collections.Counter(fn["full_name"] for f in doc["files"] for fn in f["functions"])
    fns = [fn for f in doc["files"] for fn in f["functions"]
           if fn["docstring"] is not None and names[fn["full_name"]] == 1]
    sample = fns[::every]
    bad = 0
    for fn in sample:
        p = subprocess.run([clinic, "--docstring", fn["full_name"], "--make", "--srcdir", srcdir],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        want = fn["docstring"] if fn["docstring"].endswith("\n") else fn["docstring"] + "\n"
        if p.stdout.decode("utf-8") != want:
            print("  --docstring %s: printed %r" % (fn["full_name"], p.stdout[:200]))
            bad += 1
    # a misspelt name: an error, and the right name among the suggestions
    name = sample[0]["full_name"]
    typo = name[:-1]
    p = subprocess.run([clinic, "--docstring", typo, "--make", "--srcdir", srcdir],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode("utf-8")
    if p.returncode == 0 or p.stdout or ("'%s'" % name) not in err.splitlines()[-1]:
        print("  --docstring %s: exit %d, stdout %r, stderr %r"
              % (typo, p.returncode, p.stdout[:100], err[-300:]))
        bad += 1
    print("  --docstring: %d functions printed as --json has them, a misspelt name "
          "answered: %s" % (len(sample), "ok" if not bad else "%d FAILED" % bad))
    return bad == 0


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "schema":
        ok = check_schema(args[0], args[1:])
    elif cmd == "stats":
        ok = check_stats(*args)
    elif cmd == "list":
        ok = check_list(*args)
    elif cmd == "docstrings":
        ok = check_docstrings(args[0], args[1], args[2], int(args[3]))
    else:
        raise SystemExit("checks.py: unknown check %r" % cmd)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(main())
