"""Run the reference clinic.py (3.11's, or 3.13's libclinic) over many
files from one Python process.

Used by the per-function tier, which makes thousands of small files: one
interpreter start per file would take minutes.  clinic.py is imported once
and every file is processed in a forked child, so no state (the `clinic`
global, converters registered by [python input] blocks) leaks from one file
to the next: each file sees a freshly imported clinic.py, as from the CLI.

usage: python3 refrun.py CLINIC_DIR JOBS.json RESULTS.json [force]
("force": as clinic.py -f, generated output is not verified)
JOBS.json: [[workdir, relpath], ...]; RESULTS.json: [[status, message], ...]
where status is the exit status clinic.py's CLI would have had.
"""
import io
import json
import os
import sys


def run_one(parse_file, error_type, workdir, relpath):
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        status = 0
        out = io.StringIO()
        try:
            os.chdir(workdir)
            sys.stdout = out
            parse_file(relpath)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        except error_type as e:  # 3.13's CLI reports these, exit 1
            status = 1
            out.write(e.report())
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
    force = sys.argv[4:5] == ["force"]
    sys.path.insert(0, clinic_dir)
    sys.setrecursionlimit(10000)
    import clinic  # noqa: E402  (the reference, from the cache)
    if hasattr(clinic, "parse_file"):          # 3.11: one module
        parse_file, error_type = clinic.parse_file, ()
        if force:
            import functools
            parse_file = functools.partial(parse_file, verify=False)
    else:                                      # 3.13: libclinic
        import functools
        import libclinic
        import libclinic.cli
        parse_file = functools.partial(libclinic.cli.parse_file,
                                       limited_capi=False)
        if force:
            parse_file = functools.partial(parse_file, verify=False)
        error_type = libclinic.ClinicError
    with open(jobs_path) as f:
        jobs = json.load(f)
    results = [run_one(parse_file, error_type, w, p) for w, p in jobs]
    with open(results_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
