#!/bin/sh
# strip_output.sh FILE...: remove clinic's output from each file in place:
# everything from the line after a stop line ("[clinic start generated
# code]*/") through the end marker ("/*[clinic end generated code: ...]*/"),
# so that clinic has every block to write again.
for f in "$@"; do
    awk '
        skipping && /^\/\*\[(clinic|python) end generated code:/ { skipping = 0; next }
        skipping { next }
        { print }
        /^\[(clinic|python) start generated code\]\*\// { skipping = 1 }
    ' "$f" > "$f.strip.tmp" && mv "$f.strip.tmp" "$f"
done
