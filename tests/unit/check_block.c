/*
 * check_block.c — the scanner and printer against clinic.py's BlockParser
 * and BlockPrinter.  Expected texts and messages were produced by running
 * the reference's BlockParser/BlockPrinter on the same inputs.
 *
 * clinic_fail (with its kin) and the cpp monitor are stubbed here so the
 * scanner is tested on its own: the stub monitor records every line it is
 * fed, and like the real one wants every line after one ending in a
 * backslash.
 */
#include <check.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/block.h"
#include "scan/cpp.h"
#include "generate/printer.h"
#include "unit.h"

/* ---- stubs ----------------------------------------------------------- */

#define MAX_FED 64
typedef struct Fed {
    int n;
    int linenos[MAX_FED];
    char lines[MAX_FED][128];
    bool continued;            /* the last line ended in a backslash */
} Fed;

bool cpp_wants_any_line(const CppMonitor *m)
{
    return ((const Fed *)(const void *)m)->continued;
}

void cpp_writeline_n(Clinic *c, CppMonitor *m, const char *line, size_t n,
                     int lineno)
{
    (void)c;
    Fed *fed = (Fed *)(void *)m;
    if (fed->n < MAX_FED) {
        fed->linenos[fed->n] = lineno;
        snprintf(fed->lines[fed->n], sizeof fed->lines[0], "%.*s", (int)n,
                 line);
        fed->n++;
    }
    fed->continued = n >= 2 && line[n - 2] == '\\' && line[n - 1] == '\n';
}

void clinic_fail(Clinic *c, int line, const char *fmt, ...)
{
    va_list ap;
    sb_addf(&c->diagnostics, "%s:%d: error: ", c->filename,
            line ? line : c->line);
    va_start(ap, fmt);
    sb_vaddf(&c->diagnostics, fmt, ap);
    va_end(ap);
    sb_addc(&c->diagnostics, '\n');
    c->errors++;
    longjmp(*c->recover, 1);
}

/* message.c's clinic_failm_note calls it; the scanner never does */
void clinic_fail_note(Clinic *c, int line, const char *note,
                      const char *fmt, ...)
{
    (void)note;
    (void)fmt;
    clinic_fail(c, line, "clinic_fail_note");
}

void clinic_warn(Clinic *c, int line, const char *fmt, ...)
{
    va_list ap;
    sb_addf(&c->diagnostics, "%s:%d: warning: ", c->filename,
            line ? line : c->line);
    va_start(ap, fmt);
    sb_vaddf(&c->diagnostics, fmt, ap);
    va_end(ap);
    sb_addc(&c->diagnostics, '\n');
}

/* ---- helpers --------------------------------------------------------- */

#define MAX_BLOCKS 16
static Clinic clinic;
static Fed fed;
static Block blocks[MAX_BLOCKS];
static int nblocks;

static void setup(void)
{
    memset(&clinic, 0, sizeof clinic);
    memset(&fed, 0, sizeof fed);
    clinic.arena = clinic.file_arena = arena_new();
    clinic.filename = "t.c";
    clinic.dialect = dialect_default();
    clinic.cpp = (CppMonitor *)(void *)&fed;
    sb_init(&clinic.diagnostics);
    nblocks = 0;
}

static void teardown(void)
{
    sb_free(&clinic.diagnostics);
    arena_free(clinic.arena);
}

/* Scans text into blocks[]; false (and the diagnostic) on an error. */
static bool scan(const char *text, bool verify)
{
    jmp_buf jb;
    clinic.recover = &jb;
    nblocks = 0;
    sb_reset(&clinic.diagnostics);
    if (setjmp(jb))
        return false;
    BlockParser *bp = block_parser_new(&clinic, text, strlen(text),
                                       &(BlockScan){.verify = verify});
    while (nblocks < MAX_BLOCKS && block_parser_next(bp, &blocks[nblocks])) {
        /* the scanner leaves a mismatch to its caller: here, an error */
        if (blocks[nblocks].checksum_error)
            clinic_fail(&clinic, blocks[nblocks].checksum_error_line, "%s",
                        blocks[nblocks].checksum_error);
        nblocks++;
    }
    return true;
}

/* Scans and prints every block back (a block without output printed
   with an empty one, as after a DSL that generated nothing). */
static char *scan_print(const char *text)
{
    ck_assert_msg(scan(text, true), "%s", clinic.diagnostics.buf);
    PrintOut out;
    printout_init(&out, NULL, 0);
    for (int i = 0; i < nblocks; i++) {
        if (blocks[i].dsl_name && !blocks[i].output)
            blocks[i].output = "";
        block_print(&clinic, &out, &blocks[i]);
    }
    char *printed = arena_strndup(clinic.arena, printout_at(&out, 0), out.len);
    printout_free(&out);
    return printed;
}

static const char *error_of(const char *text, bool verify)
{
    ck_assert(!scan(text, verify));
    return clinic.diagnostics.buf;
}

/* A file with one generated block "module foo" -> "gen\n". */
#define BLOCK_FOO                                                          \
    "/*[clinic input]\nmodule foo\n[clinic start generated code]*/\n"      \
    "gen\n"                                                                \
    "/*[clinic end generated code: output=c241544a10079080 "              \
    "input=bb0565424c99751c]*/\n"

/* ---- tests ----------------------------------------------------------- */

START_TEST(verbatim_only)
{
    ck_assert(scan("int x;\nint y;\n", true));
    ck_assert_int_eq(nblocks, 1);
    ck_assert_ptr_null(blocks[0].dsl_name);
    ck_assert_str_eq(blocks[0].input, "int x;\nint y;\n");
    ck_assert_int_eq(blocks[0].line, 1);
}
END_TEST

START_TEST(block_with_output)
{
    const char *text = "int x;\n" BLOCK_FOO "int y;\n";
    ck_assert(scan(text, true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[0].input, "int x;\n");
    ck_assert_str_eq(blocks[1].dsl_name, "clinic");
    ck_assert_str_eq(blocks[1].input, "module foo\n");
    ck_assert_str_eq(blocks[1].output, "gen\n");
    ck_assert_str_eq(blocks[1].indent, "");
    ck_assert_int_eq(blocks[1].line, 2);
    ck_assert_int_eq(blocks[1].body_line, 3);
    ck_assert_str_eq(blocks[2].input, "int y;\n");
    ck_assert_int_eq(blocks[2].line, 7);
    ck_assert_str_eq(scan_print(text), text);
}
END_TEST

START_TEST(borrowed_output_prints_alike)
{
    /* with the output borrowed from the text, the block is the same and
       prints the same; made a string, it reads as the copy would */
    Clinic *c = &clinic;
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb))
        ck_abort_msg("%s", c->diagnostics.buf);
    const char *text = "int x;\n" BLOCK_FOO "int y;\n";
    BlockParser *bp = block_parser_new(c, text, strlen(text),
                                       &(BlockScan){.verify = true,
                                                    .borrow = true});
    PrintOut out;
    printout_init(&out, NULL, 0);
    Block b;
    int n = 0;
    while (block_parser_next(bp, &b)) {
        if (b.dsl_name) {
            ck_assert_ptr_eq(b.output, b.borrowed_output);
            ck_assert_ptr_eq(b.output, strstr(text, "gen\n"));
            ck_assert_uint_eq(block_output_len(&b), 4);
        }
        block_print(c, &out, &b);
        n++;
    }
    ck_assert_int_eq(n, 3);
    ck_assert_uint_eq(out.len, strlen(text));
    ck_assert(memcmp(printout_at(&out, 0), text, out.len) == 0);
    printout_free(&out);

    /* a deferred checksum mismatch: the output is a string for the note */
    const char *tampered = "a\n/*[clinic input]\nmodule m\n"
                           "[clinic start generated code]*/\nout tampered\n"
                           "/*[clinic end generated code: "
                           "output=9bc27bdc827962fd input=0000]*/\nb\n";
    bp = block_parser_new(c, tampered, strlen(tampered),
                          &(BlockScan){.verify = true, .borrow = true});
    ck_assert(block_parser_next(bp, &b));
    ck_assert(block_parser_next(bp, &b));
    ck_assert_ptr_nonnull(b.checksum_error);
    ck_assert_ptr_ne(b.output, b.borrowed_output);
    ck_assert_str_eq(b.output, "out tampered\n");
    ck_assert_uint_eq(block_output_len(&b), 13);
}
END_TEST

START_TEST(known_plain_text_splits_alike)
{
    /* told where the first odd byte is, the scanner still splits at the
       form feed past it, and counts the same lines */
    const char *text = "int x;\n" BLOCK_FOO "a\fb\n/*[clinic input]\n"
                       "module m\n[clinic start generated code]*/\n";
    for (int told = 0; told < 2; told++) {
        Clinic *c = &clinic;
        jmp_buf jb;
        c->recover = &jb;
        if (setjmp(jb))
            ck_abort_msg("%s", c->diagnostics.buf);
        BlockScan how = {.verify = true};
        if (told)
            how.plain_len = (size_t)(strchr(text, '\f') - text);
        BlockParser *bp = block_parser_new(c, text, strlen(text), &how);
        Block b;
        int n = 0, last_line = 0;
        while (block_parser_next(bp, &b)) {
            n++;
            last_line = b.line;
        }
        ck_assert_int_eq(n, 4);
        ck_assert_int_eq(last_line, 8);
        ck_assert_int_eq(block_parser_lines_read(bp), 10);
    }
}
END_TEST

START_TEST(marker_arguments_split_as_shlex_does)
{
    /* quoted, escaped, many fields, blanks around '=': all verify */
    static const char *const markers[] = {
        "output=c241544a10079080 input=bb0565424c99751c",
        "output=\"c241544a10079080\" input='x'",
        "a=1 b=2 c=3 d=4 e=5 output=c241544a10079080 input=x",
        "output=c241544a10079\\080 input=x",
        "  output=c241544a10079080\tinput=x  ",
        "checksum=c241544a10079080",
        "input=x output=0 output=c241",
    };
    for (size_t i = 0; i < sizeof markers / sizeof *markers; i++) {
        char text[256];
        snprintf(text, sizeof text, "/*[clinic input]\nmodule foo\n"
                 "[clinic start generated code]*/\ngen\n"
                 "/*[clinic end generated code: %s]*/\n", markers[i]);
        ck_assert_msg(scan(text, true), "%s: %s", markers[i],
                      clinic.diagnostics.buf);
        ck_assert_ptr_nonnull(blocks[0].verified_output);
    }
    ck_assert_str_eq(error_of("/*[clinic input]\n[clinic start generated "
                              "code]*/\ngen\n/*[clinic end generated code: "
                              "output=c241 input=x output=c240]*/\n", true),
                     "t.c:4: error: Checksum mismatch!\n"
                     "Expected: c240\n"
                     "Computed: c241\n"
                     "Suggested fix: remove all generated code including "
                     "the end marker,\nor use the '-f' option.\n");
}
END_TEST

START_TEST(line_is_the_scanners_position)
{
    /* after a block with output clinic.py's line_number is the end
       marker's line; without output, the stop line's */
    Clinic *c = &clinic;
    jmp_buf jb;
    c->recover = &jb;
    if (setjmp(jb))
        ck_abort_msg("%s", c->diagnostics.buf);
    const char *text = "a\n" BLOCK_FOO "b\n/*[clinic input]\nx\n"
                       "[clinic start generated code]*/\nc\nd\n";
    BlockParser *bp = block_parser_new(c, text, strlen(text),
                                       &(BlockScan){.verify = true});
    Block b;
    ck_assert(block_parser_next(bp, &b));
    ck_assert_int_eq(c->line, 2);          /* the start line read */
    ck_assert(block_parser_next(bp, &b));
    ck_assert_int_eq(c->line, 6);
    ck_assert(block_parser_next(bp, &b));
    ck_assert_str_eq(b.input, "b\n");
    ck_assert(block_parser_next(bp, &b));
    ck_assert_ptr_null(b.output);
    ck_assert_int_eq(b.line, 8);
    ck_assert_int_eq(b.body_line, 9);
    ck_assert_int_eq(c->line, 10);
    ck_assert(block_parser_next(bp, &b));
    ck_assert_str_eq(b.input, "c\nd\n");
    ck_assert(!block_parser_next(bp, &b));
}
END_TEST

START_TEST(indented_start_line_printed_unindented)
{
    ck_assert(scan("x\n    /*[clinic input]\nmodule foo\n"
                   "[clinic start generated code]*/\ngen", true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[1].dsl_name, "clinic");
    ck_assert_ptr_null(blocks[1].output);
    ck_assert_str_eq(scan_print("x\n  /*[clinic input]\nmodule foo\n"
                                "[clinic start generated code]*/\ngen"),
                     "x\n/*[clinic input]\nmodule foo\n"
                     "[clinic start generated code]*/\n"
                     "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
                     "input=bb0565424c99751c]*/\ngen");
}
END_TEST

START_TEST(any_dsl_name)
{
    ck_assert(scan("/*[python input]\nprint(1)\n"
                   "[python start generated code]*/\n"
                   "/*[foo_bar2 input]\nx\n", true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[0].dsl_name, "python");
    ck_assert_str_eq(blocks[0].input, "print(1)\n");
    ck_assert_str_eq(blocks[1].input, "");   /* an empty verbatim block */
    ck_assert_str_eq(blocks[2].dsl_name, "foo_bar2");
    ck_assert_str_eq(blocks[2].input, "x\n");
    /* not start lines: trailing text, a space in the name */
    ck_assert(scan("/*[clinic input] \n/*[a b input]\n", true));
    ck_assert_int_eq(nblocks, 1);
    ck_assert_ptr_null(blocks[0].dsl_name);
}
END_TEST

START_TEST(legacy_checksum_marker)
{
    const char *full = "a\n/*[clinic input]\nmodule m\n"
                       "[clinic start generated code]*/\nout\n"
                       "/*[clinic end generated code: "
                       "checksum=9bc27bdc827962fd4c5ca9fe53dd3f15325655f9]*/\n"
                       "b\n";
    ck_assert(scan(full, true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[1].output, "out\n");
    /* a short legacy checksum is compared on its own length */
    ck_assert(scan("/*[clinic input]\nm\n[clinic start generated code]*/\n"
                   "out\n/*[clinic end generated code: checksum=9bc27bd]*/\n",
                   true));
    ck_assert_str_eq(blocks[0].output, "out\n");
    /* and printed back in the new form */
    ck_assert_str_eq(scan_print(full),
                     "a\n/*[clinic input]\nmodule m\n"
                     "[clinic start generated code]*/\nout\n"
                     "/*[clinic end generated code: output=9bc27bdc827962fd "
                     "input=ef9721c2ed7abe8d]*/\nb\n");
}
END_TEST

START_TEST(checksum_mismatch)
{
    const char *text = "a\n/*[clinic input]\nmodule m\n"
                       "[clinic start generated code]*/\nout tampered\n"
                       "/*[clinic end generated code: output=9bc27bdc827962fd "
                       "input=0000]*/\nb\n";
    ck_assert_str_eq(error_of(text, true),
                     "t.c:6: error: Checksum mismatch!\n"
                     "Expected: 9bc27bdc827962fd\n"
                     "Computed: 37d8ec6b912abc71\n"
                     "Suggested fix: remove all generated code including "
                     "the end marker,\nor use the '-f' option.\n");
    /* -f: not verified, the tampered output is taken as it is */
    ck_assert(scan(text, false));
    ck_assert_str_eq(blocks[1].output, "out tampered\n");
}
END_TEST

START_TEST(empty_checksum_compares_all_digits)
{
    ck_assert_str_eq(error_of("x\n/*[clinic input]\nm\n"
                              "[clinic start generated code]*/\n"
                              "/*[clinic end generated code: output= "
                              "input=x]*/\nend\n", true),
                     "t.c:5: error: Checksum mismatch!\nExpected: \n"
                     "Computed: da39a3ee5e6b4b0d3255bfef95601890afd80709\n"
                     "Suggested fix: remove all generated code including "
                     "the end marker,\nor use the '-f' option.\n");
}
END_TEST

START_TEST(block_never_processed)
{
    /* no end marker: the lines after the stop line are verbatim again */
    const char *text = "a\n/*[clinic input]\nmodule m\n"
                       "[clinic start generated code]*/\nb\nc\n";
    ck_assert(scan(text, true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_ptr_null(blocks[1].output);
    ck_assert_str_eq(blocks[2].input, "b\nc\n");
    ck_assert_int_eq(blocks[2].line, 5);
    ck_assert_str_eq(scan_print(text),
                     "a\n/*[clinic input]\nmodule m\n"
                     "[clinic start generated code]*/\n"
                     "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
                     "input=ef9721c2ed7abe8d]*/\nb\nc\n");
}
END_TEST

START_TEST(no_stop_line)
{
    ck_assert_str_eq(scan_print("a\n/*[clinic input]\nmodule m\nmore\n"),
                     "a\n/*[clinic input]\nmodule m\nmore\n"
                     "[clinic start generated code]*/\n"
                     "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
                     "input=927af00312a4f421]*/\n");
}
END_TEST

START_TEST(stray_markers)
{
    /* an end marker of another dsl is output-to-be, then verbatim */
    ck_assert(scan("a\n/*[clinic input]\nmodule m\n"
                   "[clinic start generated code]*/\nb\n"
                   "/*[python end generated code: output=x input=y]*/\nc\n",
                   true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_ptr_null(blocks[1].output);
    ck_assert_str_eq(blocks[2].input,
                     "b\n/*[python end generated code: output=x input=y]*/\n"
                     "c\n");
    /* a start line stops the search for the end marker */
    ck_assert_str_eq(scan_print("a\n/*[clinic input]\nmodule m\n"
                                "[clinic start generated code]*/\nb\n"
                                "/*[clinic input]\nm2\n"
                                "[clinic start generated code]*/\n"
                                "/*[clinic end generated code: "
                                "output=da39a3ee5e6b4b0d "
                                "input=c1750d6f07cfcec3]*/\nc\n"),
                     "a\n/*[clinic input]\nmodule m\n"
                     "[clinic start generated code]*/\n"
                     "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
                     "input=ef9721c2ed7abe8d]*/\nb\n/*[clinic input]\nm2\n"
                     "[clinic start generated code]*/\n"
                     "/*[clinic end generated code: output=da39a3ee5e6b4b0d "
                     "input=c1750d6f07cfcec3]*/\nc\n");
    /* an indented end marker is found too */
    ck_assert(scan("/*[clinic input]\nm\n[clinic start generated code]*/\n"
                   "out\n   /*[clinic end generated code: "
                   "output=9bc27bdc827962fd input=9a40b379906cd7be]*/\nend\n",
                   true));
    ck_assert_str_eq(blocks[0].output, "out\n");
}
END_TEST

START_TEST(start_line_quirks)
{
    /* a start line inside a body: clinic.py ends the block there and
       drops the line; we refuse */
    ck_assert_str_eq(error_of("a\n/*[clinic input]\nmodule m\n"
                              "/*[python input]\nfoo\n"
                              "[clinic start generated code]*/\nc\n", true),
                     "t.c:4: error: start line inside the block that began "
                     "at line 2, which has no '[clinic start generated "
                     "code]*/' line (clinic.py would drop this line)\n");
    /* a start line as the last line: clinic.py drops it; we refuse */
    ck_assert_str_eq(error_of("a\n/*[clinic input]\n", true),
                     "t.c:2: error: block left open at end of file: nothing "
                     "follows its start line (clinic.py would drop that "
                     "line)\n");
    ck_assert_str_eq(error_of("a\n/*[clinic input]", true),
                     "t.c:2: error: block left open at end of file: nothing "
                     "follows its start line (clinic.py would drop that "
                     "line)\n");
    /* a body that runs to the end: closed there, with a warning */
    ck_assert(scan("a\n/*[clinic input]\nmodule m\n", true));
    ck_assert(strstr(clinic.diagnostics.buf, "t.c:2: warning: block has no "
                     "'[clinic start generated code]*/' line"));
}
END_TEST

START_TEST(garbage_after_stop_line)
{
    ck_assert_str_eq(error_of("a\n/*[clinic input]\nmodule m\n"
                              "[clinic start generated code]*/ junk\n", true),
                     "t.c:4: error: Garbage after stop line: ' junk\\n'\n");
    /* -f does not matter here */
    ck_assert_str_eq(error_of("a\n/*[clinic input]\nmodule m\n"
                              "[clinic start generated code]*/x", false),
                     "t.c:4: error: Garbage after stop line: 'x'\n");
    /* whitespace is fine */
    ck_assert(scan("a\n/*[clinic input]\nmodule m\n"
                   "[clinic start generated code]*/  \t\n", true));
}
END_TEST

START_TEST(whitespace_before_stop_line)
{
    ck_assert_str_eq(
        error_of("a\n/*[clinic input]\nmodule m\n"
                 "  [clinic start generated code]*/\n", true),
        "t.c:4: error: Whitespace is not allowed before the stop line: "
        "'  [clinic start generated code]*/\\n'\n");
}
END_TEST

START_TEST(mangled_marker)
{
    ck_assert_str_eq(
        error_of("a\n/*[clinic input]\nmodule m\n"
                 "[clinic start generated code]*/\n"
                 "/*[clinic end generated code: output input=x]*/\n", false),
        "t.c:5: error: Mangled Argument Clinic marker line: "
        "'/*[clinic end generated code: output input=x]*/\\n'\n");
    ck_assert_str_eq(
        error_of("x\n/*[clinic input]\nm\n[clinic start generated code]*/\n"
                 "/*[clinic end generated code: output='abc input=x]*/\n",
                 true),
        "t.c:5: error: No closing quotation\n");
    /* shlex quoting is understood */
    ck_assert(scan("x\n/*[clinic input]\nm\n[clinic start generated code]*/\n"
                   "/*[clinic end generated code: output='da39a3ee5e6b4b0d' "
                   "\"input\"=x]*/\nend\n", true));
}
END_TEST

START_TEST(cpp_sees_what_parse_line_sees)
{
    /* every line clinic.py reads without lookahead, start and stop lines
       included, that can matter to the monitor (one with '#', '/' or a
       backslash); output lines only when they are read again as text */
    ck_assert(scan("#if A\n" BLOCK_FOO "/*[clinic input]\nm\n"
                   "[clinic start generated code]*/\n#endif\n", true));
    ck_assert_int_eq(fed.n, 6);
    const int linenos[] = {1, 2, 4, 7, 9, 10};
    const char *lines[] = {"#if A\n", "/*[clinic input]\n",
                           "[clinic start generated code]*/\n",
                           "/*[clinic input]\n",
                           "[clinic start generated code]*/\n",
                           "#endif\n"};
    /* lines 3 and 8 hold nothing the monitor looks at; lines 5 and 6
       (output, end marker) are only looked ahead at; line 10 is looked
       ahead at, put back, then read as text */
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(fed.linenos[i], linenos[i]);
        ck_assert_str_eq(fed.lines[i], lines[i]);
    }
}
END_TEST

START_TEST(cpp_sees_continued_lines)
{
    /* a plain line is passed on when it continues a line ending in a
       backslash; the plain line after it is not */
    ck_assert(scan("int a;\n#if A && \\\n    B\nint b;\n#endif\n", true));
    ck_assert_int_eq(fed.n, 3);
    ck_assert_int_eq(fed.linenos[0], 2);
    ck_assert_str_eq(fed.lines[1], "    B\n");
    ck_assert_int_eq(fed.linenos[1], 3);
    ck_assert_int_eq(fed.linenos[2], 5);
}
END_TEST

START_TEST(plain_lines_are_skipped_but_counted)
{
    /* stretches of lines that matter to nobody are skipped at once: the
       blocks, their lines and the lines fed to the monitor stay exact,
       across a '\r' break (not skipped), a continued line and a block
       whose output is looked ahead at */
    const char *text =
        "a\nb\n#if X && \\\n  Y\nc\rd\ne\n"
        "/*[clinic input]\nm\n[clinic start generated code]*/\n"
        "out 1\nout 2\nout 3\n"
        "/*[clinic end generated code: output=0123456789abcdef "
        "input=x]*/\nf\ng\n#endif\nh\n";
    ck_assert_str_eq(error_of(text, true),
                     "t.c:14: error: Checksum mismatch!\n"
                     "Expected: 0123456789abcdef\n"
                     "Computed: d1de27ac4cb7097f\n"
                     "Suggested fix: remove all generated code including "
                     "the end marker,\nor use the '-f' option.\n");
    memset(&fed, 0, sizeof fed);
    ck_assert(scan(text, false));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[0].input, "a\nb\n#if X && \\\n  Y\nc\rd\ne\n");
    ck_assert_int_eq(blocks[1].line, 8);
    ck_assert_str_eq(blocks[1].output, "out 1\nout 2\nout 3\n");
    ck_assert_int_eq(blocks[2].line, 15);
    ck_assert_str_eq(blocks[2].input, "f\ng\n#endif\nh\n");
    const int linenos[] = {3, 4, 8, 10, 17};
    ck_assert_int_eq(fed.n, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(fed.linenos[i], linenos[i]);
}
END_TEST

START_TEST(line_numbers_are_real_lines)
{
    /* a form feed splits a line for clinic.py (str.splitlines) but not
       for editors and compilers: we report real line numbers */
    ck_assert(scan("a\n\f\nb\n\f/*[clinic input]\nmodule m\n"
                   "[clinic start generated code]*/\nz\n", true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_int_eq(blocks[1].line, 4);
    ck_assert_int_eq(blocks[1].body_line, 5);
    /* ... but where it splits lines, a start line may follow it */
    ck_assert(scan("x\f/*[clinic input]\nm\n", true));
    ck_assert_int_eq(nblocks, 2);
    ck_assert_str_eq(blocks[0].input, "x\f");
    ck_assert_str_eq(blocks[1].dsl_name, "clinic");
}
END_TEST

START_TEST(crlf_does_not_break)
{
    const char *text = "a\r\n/*[clinic input]\r\nmodule m\r\n"
                       "[clinic start generated code]*/\r\nb\r\n";
    ck_assert(scan(text, true));
    ck_assert_int_eq(nblocks, 3);
    ck_assert_str_eq(blocks[1].input, "module m\r\n");
    ck_assert_int_eq(blocks[2].line, 5);
}
END_TEST

START_TEST(nul_byte_refused)
{
    jmp_buf jb;
    clinic.recover = &jb;
    if (setjmp(jb)) {
        ck_assert_str_eq(clinic.diagnostics.buf,
                         "t.c:2: error: NUL byte in the input: not "
                         "supported\n");
        return;
    }
    block_parser_new(&clinic, "a\nb\0c\n", 6, &(BlockScan){.verify = true});
    ck_abort_msg("a NUL byte was accepted");
}
END_TEST

START_TEST(print_adds_final_newline)
{
    Block b = {0};
    b.dsl_name = "clinic";
    b.input = "module foo\n";
    b.output = "gen";
    PrintOut out;
    printout_init(&out, NULL, 0);
    block_print(&clinic, &out, &b);
    ck_assert_str_eq(out.text.buf, BLOCK_FOO);
    printout_free(&out);
}
END_TEST

START_TEST(language_check)
{
    Arena *a = clinic.arena;
    ck_assert_ptr_null(block_language_error(a, "x.c"));
    ck_assert_ptr_null(block_language_error(a, "dir.d/x.hpp"));
    ck_assert_ptr_null(block_language_error(a, "a/.b.h"));
    ck_assert_str_eq(block_language_error(a, "..c"),
                     "Can't extract file type for file '..c'");
    ck_assert_str_eq(block_language_error(a, "x.py"),
                     "Can't identify file type for file 'x.py'");
    ck_assert_str_eq(block_language_error(a, "x.C"),
                     "Can't identify file type for file 'x.C'");
    ck_assert_str_eq(block_language_error(a, "Makefile"),
                     "Can't extract file type for file 'Makefile'");
    ck_assert_str_eq(block_language_error(a, "dir.c/.c"),
                     "Can't extract file type for file 'dir.c/.c'");
    ck_assert_str_eq(block_language_error(a, "x."),
                     "Can't extract file type for file 'x.'");
}
END_TEST

START_TEST(start_marker_anywhere)
{
    const char *s = "int x; /*[clinic input] */";
    ck_assert(block_has_start_marker(s, strlen(s)));
    s = "int x; /*[clinic end generated code: output=x input=y]*/";
    ck_assert(!block_has_start_marker(s, strlen(s)));
    ck_assert(!block_has_start_marker("", 0));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("block");
    TCase *tc = tcase_create("scanner");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, verbatim_only);
    tcase_add_test(tc, block_with_output);
    tcase_add_test(tc, borrowed_output_prints_alike);
    tcase_add_test(tc, known_plain_text_splits_alike);
    tcase_add_test(tc, marker_arguments_split_as_shlex_does);
    tcase_add_test(tc, line_is_the_scanners_position);
    tcase_add_test(tc, indented_start_line_printed_unindented);
    tcase_add_test(tc, any_dsl_name);
    tcase_add_test(tc, legacy_checksum_marker);
    tcase_add_test(tc, checksum_mismatch);
    tcase_add_test(tc, empty_checksum_compares_all_digits);
    tcase_add_test(tc, block_never_processed);
    tcase_add_test(tc, no_stop_line);
    tcase_add_test(tc, stray_markers);
    tcase_add_test(tc, start_line_quirks);
    tcase_add_test(tc, garbage_after_stop_line);
    tcase_add_test(tc, whitespace_before_stop_line);
    tcase_add_test(tc, mangled_marker);
    tcase_add_test(tc, cpp_sees_what_parse_line_sees);
    tcase_add_test(tc, cpp_sees_continued_lines);
    tcase_add_test(tc, plain_lines_are_skipped_but_counted);
    tcase_add_test(tc, line_numbers_are_real_lines);
    tcase_add_test(tc, crlf_does_not_break);
    tcase_add_test(tc, nul_byte_refused);
    tcase_add_test(tc, print_adds_final_newline);
    tcase_add_test(tc, language_check);
    tcase_add_test(tc, start_marker_anywhere);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
