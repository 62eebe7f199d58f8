#!/bin/sh
# Assemble the third-party corpus (thirdparty.manifest) into the
# conformance cache: CACHE/thirdparty/OWNER+NAME/PATH, each file checked
# against its git blob id.  Prints THIRDPARTY=DIR as a shell assignment;
# says on stderr what it has and, for every file it cannot have, why.
# A file already in the cache with its blob id is kept; the others are
# taken, repository by repository, from the first source that gives
# them:
#   1. a local git directory of the repository: each directory D of
#      CLINIC_THIRDPARTY_MIRRORS (colon-separated) holding D/OWNER+NAME/repo
#      or D/OWNER+NAME as a git directory (any clone or mirror that has
#      the blobs);
#   2. git over https: a shallow fetch of COMMIT from
#      https://github.com/OWNER/NAME;
#   3. the tarball of COMMIT from https://codeload.github.com (curl).
# CACHE/thirdparty/unavailable lists the files it could not have, one a
# line ("PATH<TAB>why"), for conformance.py to name; it is empty when the
# corpus is whole.  Never fails for a file it cannot have: the tier that
# scores the corpus says it is incomplete.
# The network is tried within bounds: a few seconds to connect, a minute
# or two to fetch; once github.com has not answered, the other
# repositories of the run do not try it, and CACHE/thirdparty/
# network-failed keeps the answer for an hour, so that make check, which
# scores the corpus several times, waits for a network that is not there
# once at most.
# Usage: thirdparty.sh CACHE [MANIFEST]
#   CLINIC_THIRDPARTY_MIRRORS  local git directories (see 1.)
#   CLINIC_THIRDPARTY_OFFLINE  set: no network (2. and 3.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: thirdparty.sh CACHE [MANIFEST]}
manifest=${2:-$here/thirdparty.manifest}
dest=$cache/thirdparty
mkdir -p "$dest"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-thirdparty.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
: > "$scratch/unavailable"

blob_of() {   # the git blob id of a file
    git hash-object --no-filters "$1" 2>/dev/null || echo none
}

# put FILE TARGET BLOB: into the cache when its blob id is BLOB
put() {
    [ "$(blob_of "$1")" = "$3" ] || return 1
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.tmp$$" && mv -f "$2.tmp$$" "$2"
}

# A repository's source, tried once for all its files: sets $src_git (a
# git directory that has COMMIT's blobs), $src_tree (a checkout of
# COMMIT) or neither, with $why saying what each source answered.
open_repo() {   # REPO COMMIT
    src_git='' src_tree='' why=''
    slug=$(echo "$1" | tr / +)
    IFS=:
    for d in ${CLINIC_THIRDPARTY_MIRRORS:-}; do
        for g in "$d/$slug/repo" "$d/$slug"; do
            if [ -n "$d" ] && git --git-dir="$g" cat-file -e "$2^{commit}" 2>/dev/null; then
                src_git=$g
                unset IFS
                return 0
            fi
        done
    done
    unset IFS
    why="no local git directory of it (CLINIC_THIRDPARTY_MIRRORS)"
    if [ -n "${CLINIC_THIRDPARTY_OFFLINE:-}" ]; then
        why="$why; network not tried (CLINIC_THIRDPARTY_OFFLINE)"
        return 1
    fi
    if [ -n "$net_failed" ]; then
        why="$why; network not tried: $net_failed"
        return 1
    fi
    g=$scratch/$slug.git
    if git init -q --bare "$g" 2>/dev/null &&
       timeout 90 git -c http.lowSpeedLimit=1000 -c http.lowSpeedTime=20 \
           --git-dir="$g" fetch -q --depth 1 \
           "https://github.com/$1" "$2" > "$scratch/git.err" 2>&1; then
        src_git=$g
        return 0
    fi
    why="$why; git fetch: $(tail -n 1 "$scratch/git.err" | tr '\t' ' ')"
    t=$scratch/$slug.tree
    mkdir -p "$t"
    if command -v curl > /dev/null 2>&1 &&
       curl -fsSL --connect-timeout 10 --max-time 120 \
           "https://codeload.github.com/$1/tar.gz/$2" \
           -o "$scratch/$slug.tar.gz" 2> "$scratch/curl.err" &&
       tar -xzf "$scratch/$slug.tar.gz" -C "$t" --strip-components=1 \
           2> "$scratch/curl.err"; then
        src_tree=$t
        return 0
    fi
    if command -v curl > /dev/null 2>&1; then
        why="$why; codeload: $(tail -n 1 "$scratch/curl.err" | tr '\t' ' ')"
    else
        why="$why; codeload: no curl"
    fi
    net_failed="github.com did not give $1 at $(date -u +%H:%M) UTC"
    echo "$net_failed" > "$dest/network-failed"
    return 1
}

# a failure of the network less than an hour old stands
net_failed=
if [ -n "$(find "$dest/network-failed" -mmin -60 2>/dev/null)" ]; then
    net_failed="$(cat "$dest/network-failed") (retried an hour after)"
fi

files=0 have=0 opened=
grep -v '^#' "$manifest" | grep -v '^[[:space:]]*$' > "$scratch/entries"
while read -r repo commit path blob _license; do
    files=$((files + 1))
    slug=$(echo "$repo" | tr / +)
    target=$dest/$slug/$path
    if [ -f "$target" ] && [ "$(blob_of "$target")" = "$blob" ]; then
        have=$((have + 1))
        continue
    fi
    if [ "$opened" != "$repo@$commit" ]; then
        opened=$repo@$commit
        open_repo "$repo" "$commit" || true
    fi
    if [ -n "$src_git" ]; then
        git --git-dir="$src_git" cat-file blob "$blob" > "$scratch/file" 2>/dev/null || :
    elif [ -n "$src_tree" ] && [ -f "$src_tree/$path" ]; then
        cp "$src_tree/$path" "$scratch/file"
    else
        : > "$scratch/file"
    fi
    if [ -s "$scratch/file" ] && put "$scratch/file" "$target" "$blob"; then
        have=$((have + 1))
    elif [ -n "$src_git$src_tree" ]; then
        printf '%s/%s\t%s\n' "$repo" "$path" \
            "its source lacks blob $blob (at $commit)" >> "$scratch/unavailable"
    else
        printf '%s/%s\t%s\n' "$repo" "$path" "$why" >> "$scratch/unavailable"
    fi
done < "$scratch/entries"

cp "$scratch/unavailable" "$dest/unavailable.tmp$$"
mv -f "$dest/unavailable.tmp$$" "$dest/unavailable"
echo "thirdparty: $have of $files files in $dest" >&2
if [ -s "$dest/unavailable" ]; then
    echo "thirdparty: cannot have $((files - have)) files here:" >&2
    cut -f1 "$dest/unavailable" | sed 's/^/  /' >&2
    echo "thirdparty: why (each repository's sources, in the order tried):" >&2
    cut -f2 "$dest/unavailable" | sort -u | sed 's/^/  /' >&2
fi
echo "THIRDPARTY='$dest'"
