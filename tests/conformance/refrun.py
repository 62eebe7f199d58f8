"""Run the reference clinic.py over many files from one Python process.

Used by the per-function tier, which makes thousands of small files: one
interpreter start per file would take minutes.  clinic.py is imported once
and every file is processed in a forked child, so no state (the `clinic`
global, converters registered by [python input] blocks) leaks from one file
to the next: each file sees a freshly imported clinic.py, as from the CLI.

usage: python3 refrun.py CLINIC_DIR JOBS.json RESULTS.json
JOBS.json: [[workdir, relpath], ...]; RESULTS.json: [[status, message], ...]
where status is the exit status clinic.py's CLI would have had.
"""
import io
import json
import os
import sys


def run_one(clinic, workdir, relpath):
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        status = 0
        out = io.StringIO()
        try:
            os.chdir(workdir)
            sys.stdout = out
            clinic.parse_file(relpath)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        except BaseException as e:  # the CLI would die with a traceback
            status = 1
            out.write("%s: %s" % (type(e).__name__, e))
        with os.fdopen(wfd, "w") as w:
            json.dump([status & 0xFF, out.getvalue()], w)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd) as r:
        data = r.read()
    os.waitpid(pid, 0)
    try:
        return json.loads(data)
    except ValueError:
        return [1, "reference child crashed"]


def main():
    clinic_dir, jobs_path, results_path = sys.argv[1:4]
    sys.path.insert(0, clinic_dir)
    sys.setrecursionlimit(10000)
    import clinic  # noqa: E402  (the reference, from the cache)
    with open(jobs_path) as f:
        jobs = json.load(f)
    results = [run_one(clinic, w, p) for w, p in jobs]
    with open(results_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
