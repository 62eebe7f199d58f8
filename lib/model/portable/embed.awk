# embed.awk -- lib/model/portable/clinic_portable.h as a C string, for clinic to
# write beside the portable code it generates (the Makefile runs it into
# $(BUILD)/gen/portable_header.c).  Backslashes, quotes and question marks
# (trigraphs) are escaped; every line keeps its newline.
BEGIN {
    print "/* Generated from lib/model/portable/clinic_portable.h by lib/model/portable/embed.awk. */"
    print "#include <stddef.h>"
    print ""
    print "extern const char portable_header_text[];"
    print "extern const size_t portable_header_len;"
    print ""
    print "const char portable_header_text[] ="
}
{
    # character by character: awk's gsub() reads backslashes in its
    # replacement differently from one awk to the next
    out = ""
    for (i = 1; i <= length($0); i++) {
        ch = substr($0, i, 1)
        if (ch == "\\" || ch == "\"" || ch == "?")
            out = out "\\"
        out = out ch
    }
    print "    \"" out "\\n\""
}
END {
    print "    ;"
    print "const size_t portable_header_len = sizeof portable_header_text - 1;"
}
