#!/bin/sh
# workflow.sh [CLINIC]: clinic where users put it, for real.
#
#   pre-commit   both hooks of .pre-commit-hooks.yaml (the working tree's
#                copy, committed to a scratch repository that pre-commit
#                clones from its path: no network) run by Debian's
#                pre-commit on `git commit` in a scratch repository:
#                  clinic        fresh file: the commit goes in; stale
#                                file: the hook rewrites it and fails, the
#                                commit stops; missing routed file: the
#                                hook writes clinic/new.c.h and fails (it
#                                used to pass, committing without it);
#                                after `git add` the commit goes in
#                  clinic-check  fresh: passes; stale or missing routed
#                                file: fails, nothing written; with
#                                args: [--dialect, "3.13"], 3.13's code
#                                is fresh
#   git apply,   --diff's output applied with `git apply` and with
#   patch -p1    `patch -p1` gives exactly the files a write gives, for an
#                input changed in place, a routed file changed, a routed
#                file not there yet (a new file), --make over a tree, an
#                absolute path, a CRLF file and a file without a final
#                newline; names with a space, tab, newline, quote,
#                backslash, UTF-8 and non-UTF-8 bytes (quoted as git
#                quotes them: the headers are git diff's own)
#
# Prints one line per case and "workflow: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CLINIC=${1:-${CLINIC:-$top/build/clinic}}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
. "$top/tests/hardening/common.sh"
T_NAME=workflow
T_WORK=$(mktemp -d "${TMPDIR:-/tmp}/clinic-workflow.XXXXXX")
T_LOG=$T_WORK/log
trap 'rm -rf "$T_WORK"' EXIT INT TERM

# clinic on PATH, as the hooks (language: system) and users call it
mkdir -p "$T_WORK/bin"
ln -s "$CLINIC" "$T_WORK/bin/clinic"
PATH=$T_WORK/bin:$PATH
export PATH
export PRE_COMMIT_HOME="$T_WORK/pre-commit-cache"
export GIT_AUTHOR_NAME=clinic GIT_AUTHOR_EMAIL=clinic@example.invalid
export GIT_COMMITTER_NAME=clinic GIT_COMMITTER_EMAIL=clinic@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME="$T_WORK/home"
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

module() {   # module NAME [DOC]: a module whose code goes to clinic/NAME.c.h
    cat <<EOF
#include "Python.h"

/*[clinic input]
module $1
$1.f
    a: int

${2:-Return a.}
[clinic start generated code]*/
EOF
}

# ---- pre-commit ------------------------------------------------------------
if ! command -v pre-commit > /dev/null 2>&1; then
    t_bad pre-commit "pre-commit is not installed (make deps installs Debian's)"
else
    # the hooks as they are in this working tree, in a repository of their own
    hooks=$T_WORK/hooks-repo
    mkdir -p "$hooks"
    cp "$top/.pre-commit-hooks.yaml" "$hooks/"
    git -C "$hooks" init -q && git -C "$hooks" add . &&
        git -C "$hooks" commit -qm hooks
    rev=$(git -C "$hooks" rev-parse HEAD)

    # setup_repo HOOK [DIALECT]: a repository with spam.c and its fresh
    # clinic/spam.c.h committed, the hook installed (given --dialect
    # DIALECT in its args, and spam.c generated in that dialect)
    setup_repo() {
        r=$T_WORK/repo-$1${2:+-$2}
        rm -rf "$r"
        mkdir -p "$r"
        cd "$r" || exit 1
        git init -q
        module spam > spam.c
        clinic ${2:+--dialect "$2"} spam.c > /dev/null 2>&1
        cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: $1
EOF
        [ -z "${2:-}" ] || echo "        args: [--dialect, \"$2\"]" >> .pre-commit-config.yaml
        git add . && git commit -qm start --no-verify
        pre-commit install > /dev/null
        cd "$top" || exit 1
    }

    # commit_in DIR: git commit there (the hook runs); status in $rc
    commit_in() {
        rc=0
        (cd "$1" && git commit -qm change) > "$T_LOG" 2>&1 || rc=$?
    }
    commits() { git -C "$1" rev-list --count HEAD; }

    # -- the rewriting hook --
    setup_repo clinic
    r=$T_WORK/repo-clinic
    module spam "Return a, freshly documented." > "$r/spam.c.new"
    # a fresh change: spam.c and its header regenerated before staging
    cp "$r/spam.c.new" "$r/spam.c" && (cd "$r" && clinic spam.c > /dev/null 2>&1)
    git -C "$r" add -A
    commit_in "$r"
    if [ $rc -eq 0 ] && [ "$(commits "$r")" = 2 ]; then
        t_ok "clinic hook, fresh files: the commit goes in"
    else
        t_bad "clinic hook, fresh files" "git commit exited $rc: $(tail -n 5 "$T_LOG")"
    fi

    # stale: the docstring changed, nothing regenerated
    sed -i 's/freshly documented/documented again/' "$r/spam.c"
    git -C "$r" add spam.c
    commit_in "$r"
    if [ $rc -ne 0 ] && [ "$(commits "$r")" = 2 ] &&
       grep -q 'documented again' "$r/clinic/spam.c.h" && grep -q Failed "$T_LOG"; then
        git -C "$r" add -A
        commit_in "$r"
        if [ $rc -eq 0 ] && [ "$(commits "$r")" = 3 ]; then
            t_ok "clinic hook, stale file: rewritten, the commit stops; goes in once staged"
        else
            t_bad "clinic hook, stale file" "the commit after git add failed: $(tail -n 5 "$T_LOG")"
        fi
    else
        t_bad "clinic hook, stale file" "git commit exited $rc with $(commits "$r") commits: $(tail -n 8 "$T_LOG")"
    fi

    # missing routed file: a new module, its clinic/new.c.h never written
    module new > "$r/new.c"
    git -C "$r" add new.c
    commit_in "$r"
    if [ $rc -ne 0 ] && [ "$(commits "$r")" = 3 ] && [ -f "$r/clinic/new.c.h" ] &&
       grep -q Failed "$T_LOG"; then
        git -C "$r" add -A
        commit_in "$r"
        if [ $rc -eq 0 ] && git -C "$r" ls-files --error-unmatch clinic/new.c.h > /dev/null 2>&1; then
            t_ok "clinic hook, missing routed file: written, the commit stops; goes in with it once staged"
        else
            t_bad "clinic hook, missing routed file" "the commit after git add: exit $rc: $(tail -n 5 "$T_LOG")"
        fi
    else
        t_bad "clinic hook, missing routed file" "git commit exited $rc, $(commits "$r") commits, header $( [ -f "$r/clinic/new.c.h" ] && echo written || echo missing): $(tail -n 8 "$T_LOG")"
    fi

    # -- the checking hook --
    setup_repo clinic-check
    r=$T_WORK/repo-clinic-check
    echo "/* a comment */" >> "$r/spam.c"
    git -C "$r" add spam.c
    commit_in "$r"
    if [ $rc -eq 0 ] && [ "$(commits "$r")" = 2 ]; then
        t_ok "clinic-check hook, fresh file: passes"
    else
        t_bad "clinic-check hook, fresh file" "git commit exited $rc: $(tail -n 8 "$T_LOG")"
    fi

    sed -i 's/Return a\./Return a, changed./' "$r/spam.c"
    cp "$r/spam.c" "$T_WORK/spam.stale"
    git -C "$r" add spam.c
    commit_in "$r"
    if [ $rc -ne 0 ] && [ "$(commits "$r")" = 2 ] && cmp -s "$r/spam.c" "$T_WORK/spam.stale" &&
       grep -q 'spam.c' "$T_LOG"; then
        t_ok "clinic-check hook, stale file: fails, names it, writes nothing"
    else
        t_bad "clinic-check hook, stale file" "git commit exited $rc: $(tail -n 8 "$T_LOG")"
    fi
    git -C "$r" checkout -q spam.c 2>/dev/null || git -C "$r" reset -q --hard

    module other > "$r/other.c"
    git -C "$r" add other.c
    commit_in "$r"
    if [ $rc -ne 0 ] && [ ! -e "$r/clinic/other.c.h" ] && grep -q 'clinic/other.c.h' "$T_LOG"; then
        t_ok "clinic-check hook, missing routed file: fails, names clinic/other.c.h, writes nothing"
    else
        t_bad "clinic-check hook, missing routed file" "git commit exited $rc: $(tail -n 8 "$T_LOG")"
    fi

    # -- a hook given --dialect: code generated by 3.13 is up to date for
    # it, though not for the default dialect (no Include/patchlevel.h) --
    setup_repo clinic-check 3.13
    r=$T_WORK/repo-clinic-check-3.13
    echo "/* a comment */" >> "$r/spam.c"
    git -C "$r" add spam.c
    commit_in "$r"
    if [ $rc -eq 0 ] && [ "$(commits "$r")" = 2 ] &&
       ! (cd "$r" && clinic --check spam.c > /dev/null 2>&1); then
        t_ok "clinic-check hook with args [--dialect, 3.13]: 3.13's code passes"
    else
        t_bad "clinic-check hook with --dialect 3.13" "git commit exited $rc: $(tail -n 8 "$T_LOG")"
    fi
fi

# ---- --diff, applied with git apply and patch -p1 -------------------------------
# tree NAME: a tree with every kind of change
tree() {
    d=$T_WORK/$1
    mkdir -p "$d/pkg/sub"
    module inplace > "$d/pkg/inplace.c"
    sed -i '/^module inplace/i output preset block' "$d/pkg/inplace.c"
    module routed > "$d/pkg/routed.c"
    module fresh > "$d/pkg/sub/fresh.c"
    printf 'no clinic here\n' > "$d/pkg/plain.c"
    # routed.c's header exists but is stale; fresh.c's does not exist
    (cd "$d/pkg" && clinic routed.c > /dev/null 2>&1)
    sed -i 's/Return a\./Return a, now stale./' "$d/pkg/routed.c"
    { module nonl | sed '/^module nonl/i output preset block'; printf 'int tail;'; } > "$d/pkg/nonl.c"
    module crlf | sed 's/$/\r/' > "$d/pkg/crlf.c"
    sed -i 's/^module crlf\r$/output preset block\r\nmodule crlf\r/' "$d/pkg/crlf.c"
}

# applies_like_write CASE TOOL DIR ARGS...: in a copy of tree "base",
# clinic --diff ARGS applied with TOOL gives what clinic ARGS writes (an
# argument "@here@/NAME" is NAME by its absolute path)
applies_like_write() {
    case_=$1 tool=$2 sub=$3; shift 3
    rm -rf "$T_WORK/written" "$T_WORK/patched"
    cp -R "$T_WORK/base" "$T_WORK/written"
    cp -R "$T_WORK/base" "$T_WORK/patched"
    (cd "$T_WORK/written/$sub" && clinic $(echo "$@" | sed "s|@here@|$PWD|g")) > /dev/null 2>&1
    rc=0
    (cd "$T_WORK/patched/$sub" && clinic --diff $(echo "$@" | sed "s|@here@|$PWD|g")) > "$T_WORK/patch" 2> "$T_LOG" || rc=$?
    if [ $rc -ne 1 ]; then
        t_bad "$case_ ($tool)" "clinic --diff exited $rc, not 1: $(head -c 300 "$T_LOG")"
        return
    fi
    case $tool in
        "git apply") (cd "$T_WORK/patched/$sub" && git apply --whitespace=nowarn "$T_WORK/patch") > "$T_LOG" 2>&1 ;;
        "patch -p1") (cd "$T_WORK/patched/$sub" && patch -s -p1 < "$T_WORK/patch") > "$T_LOG" 2>&1 ;;
    esac || { t_bad "$case_ ($tool)" "$tool refused the diff: $(head -c 300 "$T_LOG")"; return; }
    if diff -r "$T_WORK/written" "$T_WORK/patched" > "$T_LOG" 2>&1; then
        t_ok "$case_: $tool gives what a write gives"
    else
        t_bad "$case_ ($tool)" "trees differ: $(head -n 5 "$T_LOG")"
    fi
}

tree base
for tool in "git apply" "patch -p1"; do
    applies_like_write "in place (output preset block)" "$tool" pkg inplace.c
    applies_like_write "routed file changed" "$tool" pkg routed.c
    applies_like_write "routed file not there yet (new file)" "$tool" pkg/sub fresh.c
    applies_like_write "CRLF file" "$tool" pkg crlf.c
    applies_like_write "no newline at the end" "$tool" pkg nonl.c
    applies_like_write "--make over a tree" "$tool" . --make --srcdir pkg
    applies_like_write "absolute path" "$tool" pkg @here@/routed.c
done

# ---- --diff with names git quotes ------------------------------------------------
# Files (in place and routed) named with a space, a tab, a newline, a quote,
# a backslash, UTF-8 and a byte that is not UTF-8: --diff must name them as
# git does (C-quoted, a tab after a name with a space) for both tools.
d=$T_WORK/names-base
mkdir -p "$d/pkg/dir x"
i=0
for n in "sp ace.c" "$(printf 'ta\tb.c')" "$(printf 'new\nline.c')" 'qu"ote.c' \
         'back\slash.c' "$(printf 'caf\303\251.c')" "$(printf 'bad\377.c')" \
         "dir x/in place.c" "$(printf 'ctl\001.c')"; do
    i=$((i + 1))
    module "m$i" > "$d/pkg/$n"
    case $n in dir*) sed -i '/^module m/i output preset block' "$d/pkg/$n" ;; esac
done
for tool in "git apply" "patch -p1"; do
    rm -rf "$T_WORK/written" "$T_WORK/patched"
    cp -R "$d" "$T_WORK/written"
    cp -R "$d" "$T_WORK/patched"
    (cd "$T_WORK/written" && clinic --make --srcdir pkg) > /dev/null 2>&1
    rc=0
    (cd "$T_WORK/patched" && clinic --diff --make --srcdir pkg) > "$T_WORK/patch" 2> "$T_LOG" || rc=$?
    if [ $rc -ne 1 ]; then
        t_bad "names git quotes ($tool)" "clinic --diff exited $rc, not 1: $(head -c 300 "$T_LOG")"
        continue
    fi
    case $tool in
        "git apply") (cd "$T_WORK/patched" && git apply --whitespace=nowarn "$T_WORK/patch") > "$T_LOG" 2>&1 ;;
        "patch -p1") (cd "$T_WORK/patched" && patch -s -p1 < "$T_WORK/patch") > "$T_LOG" 2>&1 ;;
    esac || { t_bad "names git quotes ($tool)" "$tool refused the diff: $(head -c 300 "$T_LOG")"; continue; }
    if diff -r "$T_WORK/written" "$T_WORK/patched" > "$T_LOG" 2>&1 &&
       [ "$(find "$T_WORK/patched" | wc -l)" = "$(find "$T_WORK/written" | wc -l)" ]; then
        t_ok "names with a space, tab, newline, quote, backslash, UTF-8, not UTF-8: $tool gives what a write gives"
    else
        t_bad "names git quotes ($tool)" "trees differ: $(head -n 5 "$T_LOG")"
    fi
done
# the same names in git's own diff of the written tree: the headers match
r=$T_WORK/names-git
rm -rf "$r"; cp -R "$d" "$r"
if (cd "$r" && git init -q && git add -A && git commit -qm base &&
    clinic --diff --make --srcdir pkg > "$T_WORK/ours"; clinic --make --srcdir pkg &&
    git add -N . && git diff) > "$T_WORK/git.diff" 2> "$T_LOG"; then
    grep -E '^(diff --git|--- |\+\+\+ )' "$T_WORK/git.diff" | sort > "$T_WORK/git.heads"
    grep -E '^(diff --git|--- |\+\+\+ )' "$T_WORK/ours" | sort > "$T_WORK/our.heads"
    if cmp -s "$T_WORK/git.heads" "$T_WORK/our.heads"; then
        t_ok "--diff's file headers are git diff's, byte for byte"
    else
        t_bad "--diff headers" "differ from git's: $(diff "$T_WORK/git.heads" "$T_WORK/our.heads" | head -n 6)"
    fi
else
    t_bad "--diff headers" "git failed: $(head -c 300 "$T_LOG")"
fi

t_end
