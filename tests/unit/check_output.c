/*
 * check_output.c — unit tests of the output router (output.c), the output
 * directives (directive.c) and the file driver (driver.c).
 *
 * Expected routings and texts were taken from clinic.py (CPython 3.11):
 * its Clinic.presets, destination_buffers and BlockPrinter.
 */
#include <check.h>
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "scan/block.h"
#include "drive/clinic.h"
#include "generate/output.h"
#include "parse/route.h"
#include "parse/directive.h"
#include "unit.h"

/* ---- helpers ---------------------------------------------------------- */

/* Runs a directive line ("output preset file") the way the DSL parser
   hands it over; returns 0, or -1 when it failed (message in
   c->diagnostics). */
static int run(Clinic *c, Block *block, const char *line)
{
    char *copy = arena_strdup(c->arena, line);
    const char *words[16];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 16;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    jmp_buf recover;
    c->recover = &recover;
    if (setjmp(recover)) {
        c->recover = NULL;
        return -1;
    }
    ck_assert(directive_run(c, block, words[0], words + 1, n - 1, 7));
    c->recover = NULL;
    return 0;
}

/* The message of the last error, without the "FILE:LINE: error: ". */
static const char *last_error(Clinic *c)
{
    const char *s = strstr(c->diagnostics.buf, "error: ");
    ck_assert_ptr_nonnull(s);
    const char *next;
    while ((next = strstr(s + 1, "error: ")))
        s = next;
    return s + strlen("error: ");
}

/* "file 1" for where field i goes now. */
static const char *route(Clinic *c, int field)
{
    const TextBuffer *tb = c->router->fields.fields[field];
    return arena_printf(c->arena, "%s %d", tb->dest->name, tb->index);
}

static void check_routes(Clinic *c, const char *const expected[ROUTER_NFIELDS])
{
    for (int i = 0; i < ROUTER_NFIELDS; i++)
        ck_assert_msg(!strcmp(route(c, i), expected[i]),
                      "%s routed to %s, expected %s", router_field_names[i],
                      route(c, i), expected[i]);
}

static const char *const default_routes[ROUTER_NFIELDS] = {
    "file 0", "suppress 0", "file 0", "file 0", "file 0",
    "suppress 0", "file 0", "file 0", "file 1", "block 0",
};

enum { CPP_IF, DOCSTRING_PROTOTYPE, DOCSTRING_DEFINITION, METHODDEF_DEFINE,
       IMPL_PROTOTYPE, PARSER_PROTOTYPE, PARSER_DEFINITION, CPP_ENDIF,
       METHODDEF_IFNDEF, IMPL_DEFINITION };

/* ---- routing ---------------------------------------------------------- */

START_TEST(test_field_names_in_reference_order)
{
    static const char *const names[ROUTER_NFIELDS] = {
        "cpp_if", "docstring_prototype", "docstring_definition",
        "methoddef_define", "impl_prototype", "parser_prototype",
        "parser_definition", "cpp_endif", "methoddef_ifndef",
        "impl_definition",
    };
    for (int i = 0; i < ROUTER_NFIELDS; i++) {
        ck_assert_str_eq(router_field_names[i], names[i]);
        ck_assert_int_eq(router_field_index(names[i]), i);
    }
    ck_assert_int_eq(router_field_index("everything"), -1);
}
END_TEST

START_TEST(test_default_routing)
{
    Clinic *c = unit_clinic("x.c", NULL);
    check_routes(c, default_routes);
    /* the four built-in destinations, in clinic.py's order */
    ck_assert_int_eq(c->router->ndests, 4);
    ck_assert_str_eq(c->router->dests[0]->name, "block");
    ck_assert_str_eq(c->router->dests[1]->name, "suppress");
    ck_assert_str_eq(c->router->dests[2]->name, "buffer");
    ck_assert_str_eq(c->router->dests[3]->name, "file");
    ck_assert_str_eq(c->router->dests[3]->filename, "./clinic/x.c.h");
    ck_assert_str_eq(router_line_prefix(c), "");
    ck_assert_str_eq(router_line_suffix(c), "");
    clinic_free(c);
}
END_TEST

START_TEST(test_presets)
{
    static const struct {
        const char *name;
        const char *routes[ROUTER_NFIELDS];
    } presets[] = {
        { "block", { "suppress 0", "suppress 0", "block 0", "block 0",
                     "block 0", "suppress 0", "block 0", "suppress 0",
                     "buffer 1", "block 0" } },
        { "original", { "suppress 0", "suppress 0", "block 0", "block 0",
                        "block 0", "suppress 0", "block 0", "suppress 0",
                        "buffer 1", "block 0" } },
        { "file", { "file 0", "suppress 0", "file 0", "file 0", "file 0",
                    "suppress 0", "file 0", "file 0", "file 1",
                    "block 0" } },
        { "buffer", { "buffer 0", "suppress 0", "buffer 0", "buffer 0",
                      "suppress 0", "suppress 0", "buffer 0", "buffer 0",
                      "buffer 1", "block 0" } },
        { "partial-buffer", { "buffer 0", "block 0", "buffer 0", "block 0",
                              "suppress 0", "block 0", "buffer 0",
                              "buffer 0", "buffer 1", "block 0" } },
    };
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        ck_assert_int_eq(run(c, &b, arena_printf(c->arena, "output preset %s",
                                                 presets[i].name)), 0);
        check_routes(c, presets[i].routes);
    }
    ck_assert_int_eq(run(c, &b, "output preset nope"), -1);
    ck_assert_str_eq(last_error(c), "Unknown preset 'nope'!\n");
    ck_assert_int_eq(run(c, &b, "output preset"), -1);
    ck_assert_str_eq(last_error(c), "Unknown preset ''!\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_output_field_and_everything)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "output impl_prototype buffer"), 0);
    ck_assert_str_eq(route(c, IMPL_PROTOTYPE), "buffer 0");
    ck_assert_int_eq(run(c, &b, "output everything suppress"), 0);
    for (int i = 0; i < ROUTER_NFIELDS; i++)
        ck_assert_str_eq(route(c, i), "suppress 0");

    /* the destination is looked up before the field name is checked */
    ck_assert_int_eq(run(c, &b, "output bogus nowhere"), -1);
    ck_assert_str_eq(last_error(c), "Destination does not exist: 'nowhere'\n");
    ck_assert_int_eq(run(c, &b, "output impl_prototype"), -1);
    ck_assert_str_eq(last_error(c), "Destination does not exist: ''\n");
    ck_assert_int_eq(run(c, &b, "output bogus block"), -1);
    ck_assert_str_eq(last_error(c),
        "Invalid command / destination name 'bogus', must be one of:\n"
        "  preset push pop print everything cpp_if docstring_prototype "
        "docstring_definition methoddef_define impl_prototype "
        "parser_prototype parser_definition cpp_endif methoddef_ifndef "
        "impl_definition\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_push_pop)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "output push"), 0);
    ck_assert_int_eq(run(c, &b, "output preset buffer"), 0);
    ck_assert_int_eq(run(c, &b, "output push"), 0);
    ck_assert_int_eq(run(c, &b, "output everything block"), 0);
    ck_assert_str_eq(route(c, CPP_IF), "block 0");
    ck_assert_int_eq(run(c, &b, "output pop"), 0);
    ck_assert_str_eq(route(c, CPP_IF), "buffer 0");
    ck_assert_str_eq(route(c, IMPL_PROTOTYPE), "suppress 0");
    ck_assert_int_eq(run(c, &b, "output pop"), 0);
    check_routes(c, default_routes);
    ck_assert_int_eq(run(c, &b, "output pop"), -1);
    ck_assert_str_eq(last_error(c), "Can't 'output pop', stack is empty!\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_push_copies_the_routing)
{
    /* pushing many times grows the stack; each level is its own copy */
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(run(c, &b, "output push"), 0);
        ck_assert_int_eq(run(c, &b, i % 2 ? "output everything buffer"
                                          : "output everything block"), 0);
    }
    for (int i = 19; i >= 0; i--) {
        ck_assert_str_eq(route(c, CPP_IF), i % 2 ? "buffer 0" : "block 0");
        ck_assert_int_eq(run(c, &b, "output pop"), 0);
    }
    check_routes(c, default_routes);
    clinic_free(c);
}
END_TEST

START_TEST(test_output_print)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "output print"), 0);
    ck_assert_str_eq(b.output,
        "cpp_if file 0\n"
        "docstring_prototype suppress 0\n"
        "docstring_definition file 0\n"
        "methoddef_define file 0\n"
        "impl_prototype file 0\n"
        "parser_prototype suppress 0\n"
        "parser_definition file 0\n"
        "cpp_endif file 0\n"
        "methoddef_ifndef file 1\n"
        "impl_definition block 0\n");
    clinic_free(c);
}
END_TEST

/* ---- buffers ---------------------------------------------------------- */

START_TEST(test_dump_clears)
{
    Clinic *c = unit_clinic("x.c", NULL);
    output_append_field(c, IMPL_DEFINITION, "one\n");
    output_append_field(c, IMPL_DEFINITION, "two\n");
    ck_assert_str_eq(output_dump_block(c), "one\ntwo\n");
    ck_assert_str_eq(output_dump_block(c), "");
    router_append_block(c, "three\n");
    ck_assert_str_eq(output_dump_block(c), "three\n");

    /* 'dump NAME' appends to the block's output and empties it too */
    Block b = {0};
    output_append_field(c, CPP_IF, "in file\n");
    ck_assert_int_eq(run(c, &b, "dump file"), 0);
    ck_assert_str_eq(b.output, "in file\n");
    ck_assert_int_eq(run(c, &b, "dump file"), 0);
    ck_assert_str_eq(b.output, "in file\n");
    ck_assert_int_eq(run(c, &b, "dump nope"), -1);
    ck_assert_str_eq(last_error(c), "Destination does not exist: 'nope'\n");

    /* dumping nothing still counts as output for 'preserve' */
    Block empty = {0};
    ck_assert_int_eq(run(c, &empty, "dump buffer"), 0);
    ck_assert_str_eq(empty.output, "");
    ck_assert(empty.output_appended);
    clinic_free(c);
}
END_TEST

START_TEST(test_buffer_numbering)
{
    /* methoddef_ifndef goes to buffer 1 of 'file': whatever the order of
       appends, a dump gives buffer 0 then buffer 1 */
    Clinic *c = unit_clinic("x.c", NULL);
    output_append_field(c, METHODDEF_IFNDEF, "#ifndef X\n");
    output_append_field(c, CPP_IF, "#if A\n");
    output_append_field(c, METHODDEF_IFNDEF, "#endif\n");
    output_append_field(c, DOCSTRING_DEFINITION, "doc\n");
    Destination *file = router_get_destination(c, "file");
    ck_assert_int_eq(file->nbuffers, 2);
    ck_assert_str_eq(destination_dump(c, file),
                     "#if A\ndoc\n#ifndef X\n#endif\n");
    ck_assert_str_eq(destination_dump(c, file), "");
    clinic_free(c);
}
END_TEST

START_TEST(test_buffer_series_grows_both_ways)
{
    /* BufferSeries: asking for index n creates everything up to n, and a
       negative index comes before index 0 */
    Clinic *c = unit_clinic("x.c", NULL);
    TextBuffer *b3 = router_get_buffer(c, "buffer", 3);
    Destination *d = b3->dest;
    ck_assert_int_eq(d->nbuffers, 4);
    ck_assert_int_eq(d->start, 0);
    TextBuffer *m2 = router_get_buffer(c, "buffer", -2);
    ck_assert_int_eq(d->nbuffers, 6);
    ck_assert_int_eq(d->start, -2);
    ck_assert_int_eq(m2->index, -2);
    ck_assert_ptr_eq(router_get_buffer(c, "buffer", 3), b3);
    ck_assert_ptr_eq(router_get_buffer(c, "buffer", -2), m2);
    textbuffer_append(c, b3, "three ");
    textbuffer_append(c, router_get_buffer(c, "buffer", 0), "zero ");
    textbuffer_append(c, m2, "minus-two ");
    ck_assert_str_eq(destination_dump(c, d), "minus-two zero three ");
    clinic_free(c);
}
END_TEST

START_TEST(test_large_appends)
{
    Clinic *c = unit_clinic("x.c", NULL);
    StrBuf expect = STRBUF_INIT;
    for (int i = 0; i < 5000; i++) {
        const char *s = arena_printf(c->arena, "line %d\n", i);
        output_append_field(c, IMPL_DEFINITION, s);
        sb_adds(&expect, s);
    }
    ck_assert_str_eq(output_dump_block(c), expect.buf);
    sb_free(&expect);
    clinic_free(c);
}
END_TEST

START_TEST(test_text_across_pieces)
{
    /* a buffer's text grows by pieces (one append may span several, and
       a big one takes pieces of the largest size); emptied, it keeps
       them and fills them again from the first */
    Clinic *c = unit_clinic("x.c", NULL);
    TextBuffer *tb = router_get_buffer(c, "buffer", 0);
    for (int round = 0; round < 3; round++) {
        StrBuf expect = STRBUF_INIT;
        for (int i = 0; i < 300; i++) {
            const char *s = arena_printf(c->arena, "r%d line %d\n", round, i);
            textbuffer_append(c, tb, s);
            sb_adds(&expect, s);
        }
        size_t big = 200000 + (size_t)round * 1000;
        char *block = arena_alloc(c->arena, big + 1);
        for (size_t i = 0; i < big; i++)
            block[i] = (char)('a' + (i * 7 + (size_t)round) % 26);
        textbuffer_append_n(c, tb, block, big);
        sb_add(&expect, block, big);
        textbuffer_append(c, tb, "end\n");
        sb_adds(&expect, "end\n");
        ck_assert_uint_eq(tb->len, expect.len);
        ck_assert_str_eq(destination_dump(c, tb->dest), expect.buf);
        ck_assert_uint_eq(tb->len, 0);
        sb_free(&expect);
    }
    clinic_free(c);
}
END_TEST

/* ---- destination directive -------------------------------------------- */

START_TEST(test_destination_new)
{
    Clinic *c = unit_clinic("Modules/foo.c", NULL);
    Block b = {0};
    ck_assert_str_eq(router_get_destination(c, "file")->filename,
                     "Modules/clinic/foo.c.h");
    ck_assert_int_eq(run(c, &b, "destination mine new file "
                     "{path}|{dirname}|{basename}|{basename_root}|"
                     "{basename_extension}"), 0);
    ck_assert_str_eq(router_get_destination(c, "mine")->filename,
                     "Modules/foo.c|Modules|foo.c|Modules/foo|.c");
    ck_assert_int_eq(run(c, &b, "destination buf new buffer"), 0);
    ck_assert_int_eq(run(c, &b, "destination quiet new suppress"), 0);
    ck_assert_int_eq(c->router->ndests, 7);
    ck_assert_str_eq(c->router->dests[4]->name, "mine");
    ck_assert_int_eq(c->router->dests[5]->type, DEST_BUFFER);
    ck_assert_int_eq(c->router->dests[6]->type, DEST_SUPPRESS);
    ck_assert_int_eq(run(c, &b, "output everything buf"), 0);
    ck_assert_str_eq(route(c, CPP_IF), "buf 0");
    clinic_free(c);
}
END_TEST

START_TEST(test_file_path_templates)
{
    static const struct { const char *file, *expect; } cases[] = {
        { "foo.c", ".|foo.c|foo|.c" },
        { "/abs/dir/x.cpp", "/abs/dir|x.cpp|/abs/dir/x|.cpp" },
        { "/top.h", "/|top.h|/top|.h" },
        { "a.b/noext.c", "a.b|noext.c|a.b/noext|.c" },
        { "dir//two.tar.c", "dir|two.tar.c|dir//two.tar|.c" },
        { ".hidden.c", ".|.hidden.c|.hidden|.c" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Clinic *c = unit_clinic(cases[i].file, NULL);
        Block b = {0};
        ck_assert_int_eq(run(c, &b, "destination t new file "
                         "{dirname}|{basename}|{basename_root}|"
                         "{basename_extension}"), 0);
        ck_assert_str_eq(router_get_destination(c, "t")->filename,
                         cases[i].expect);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_destination_errors)
{
    static const struct { const char *line, *message; } cases[] = {
        { "destination", "DSLParser.directive_destination() missing 2 "
          "required positional arguments: 'name' and 'command'\n" },
        { "destination a", "DSLParser.directive_destination() missing 1 "
          "required positional argument: 'command'\n" },
        { "destination a new", "Clinic.add_destination() missing 1 "
          "required positional argument: 'type'\n" },
        { "destination a b", "unknown destination command 'b'\n" },
        { "destination a new two-pass", "Invalid destination type "
          "'two-pass' for a , must be buffer, file, suppress\n" },
        { "destination a new block", "Invalid destination type 'block' "
          "for a , must be buffer, file, suppress\n" },
        { "destination a new file", "Not enough arguments for destination "
          "a new file\n" },
        { "destination a new file x y", "Too many arguments for "
          "destination a new file\n" },
        { "destination a new buffer x", "Too many arguments for "
          "destination a new buffer\n" },
        { "destination block new buffer", "Destination already exists: "
          "'block'\n" },
        { "destination nope clear", "Destination does not exist: "
          "'nope'\n" },
        { "destination suppress clear", "Can't clear destinationsuppress , "
          "it's not of type buffer\n" },
        { "destination file clear", "Can't clear destinationfile , it's "
          "not of type buffer\n" },
        { "destination t new file {nope}", "Unknown field '{nope}' in file "
          "name template '{nope}' for destination t\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Clinic *c = unit_clinic("x.c", NULL);
        Block b = {0};
        ck_assert_int_eq(run(c, &b, cases[i].line), -1);
        ck_assert_str_eq(last_error(c), cases[i].message);
        ck_assert_int_eq(c->errors, 1);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_destination_clear)
{
    /* clinic.py's clear() crashes; we do what its documentation says */
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    router_append_block(c, "dropped\n");
    TextBuffer *one = router_get_buffer(c, "buffer", 1);
    textbuffer_append(c, one, "dropped too\n");
    ck_assert_int_eq(run(c, &b, "destination block clear"), 0);
    ck_assert_int_eq(run(c, &b, "destination buffer clear"), 0);
    ck_assert_str_eq(output_dump_block(c), "");
    ck_assert_str_eq(destination_dump(c, one->dest), "");
    router_append_block(c, "kept\n");
    ck_assert_str_eq(output_dump_block(c), "kept\n");
    ck_assert_ptr_null(b.output);
    clinic_free(c);
}
END_TEST

/* ---- set, printout, preserve, version ---------------------------------- */

START_TEST(test_set)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    /* run() splits on spaces; the DSL's shlex split keeps a quoted
       "{block comment start}" one word, so pass the words directly */
    const char *args[] = { "line_prefix", "{block comment start}//{{x}}" };
    jmp_buf recover;
    c->recover = &recover;
    if (setjmp(recover))
        ck_abort_msg("%s", c->diagnostics.buf);
    ck_assert(directive_run(c, &b, "set", args, 2, 3));
    const char *args2[] = { "line_suffix", "{block comment end}" };
    ck_assert(directive_run(c, &b, "set", args2, 2, 4));
    c->recover = NULL;
    ck_assert_str_eq(router_line_prefix(c), "/*//{x}");
    ck_assert_str_eq(router_line_suffix(c), "*/");

    ck_assert_int_eq(run(c, &b, "set line_prefix {x}"), -1);
    ck_assert_str_eq(last_error(c),
                     "Unknown field '{x}' in value for line_prefix\n");
    ck_assert_int_eq(run(c, &b, "set foo bar"), -1);
    ck_assert_str_eq(last_error(c), "unknown variable 'foo'\n");
    ck_assert_int_eq(run(c, &b, "set line_prefix"), -1);
    ck_assert_str_eq(last_error(c), "DSLParser.directive_set() missing 1 "
                     "required positional argument: 'value'\n");
    ck_assert_int_eq(run(c, &b, "set a b c"), -1);
    ck_assert_str_eq(last_error(c), "DSLParser.directive_set() takes 3 "
                     "positional arguments but 4 were given\n");
    ck_assert_int_eq(run(c, &b, "set line_prefix ok"), 0);
    ck_assert_str_eq(router_line_prefix(c), "ok");
    clinic_free(c);
}
END_TEST

START_TEST(test_printout)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "printout hello world"), 0);
    ck_assert_int_eq(run(c, &b, "printout"), 0);
    ck_assert_str_eq(b.output, "hello world\n\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_preserve)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "preserve"), 0);
    ck_assert(b.preserve_output);
    ck_assert_int_eq(run(c, &b, "preserve"), -1);
    ck_assert_str_eq(last_error(c), "Can't have preserve twice in one block!\n");
    ck_assert_int_eq(run(c, &b, "preserve x"), -1);
    ck_assert_str_eq(last_error(c), "DSLParser.directive_preserve() takes 1 "
                     "positional argument but 2 were given\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_version)
{
    static const char *const ok[] = {
        "1", "1.0", "0.9", "01", "1.0.0.0", "0001.00000", "1a1", "1.0a5",
    };
    static const struct { const char *line, *message; } bad[] = {
        { "version 2", "Insufficient Clinic version!\n  Version: 1\n"
                       "  Required: 2\n" },
        { "version 1.0.1", "Insufficient Clinic version!\n  Version: 1\n"
                           "  Required: 1.0.1\n" },
        { "version 10", "Insufficient Clinic version!\n  Version: 1\n"
                        "  Required: 10\n" },
        { "version 1a", "Unsupported version string: '1a'\n" },
        { "version 1.a", "Unsupported version string: '1.a'\n" },
        { "version x", "Illegal character 'x' in version string 'x'\n" },
        { "version", "DSLParser.directive_version() missing 1 required "
                     "positional argument: 'required'\n" },
        { "version 1 2", "DSLParser.directive_version() takes 2 positional "
                         "arguments but 3 were given\n" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        Clinic *c = unit_clinic("x.c", NULL);
        Block b = {0};
        ck_assert_msg(run(c, &b, arena_printf(c->arena, "version %s",
                                              ok[i])) == 0,
                      "version %s: %s", ok[i], c->diagnostics.buf);
        clinic_free(c);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Clinic *c = unit_clinic("x.c", NULL);
        Block b = {0};
        ck_assert_int_eq(run(c, &b, bad[i].line), -1);
        ck_assert_str_eq(last_error(c), bad[i].message);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_arity_messages)
{
    static const struct { const char *line, *message; } cases[] = {
        { "dump", "DSLParser.directive_dump() missing 1 required positional "
                  "argument: 'name'\n" },
        { "dump a b", "DSLParser.directive_dump() takes 2 positional "
                      "arguments but 3 were given\n" },
        { "set", "DSLParser.directive_set() missing 2 required positional "
                 "arguments: 'name' and 'value'\n" },
        { "output", "DSLParser.directive_output() missing 1 required "
                    "positional argument: 'command_or_name'\n" },
        { "output a b c", "DSLParser.directive_output() takes from 2 to 3 "
                          "positional arguments but 4 were given\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Clinic *c = unit_clinic("x.c", NULL);
        Block b = {0};
        ck_assert_int_eq(run(c, &b, cases[i].line), -1);
        ck_assert_str_eq(last_error(c), cases[i].message);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_not_a_directive)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    const char *args[] = { "x" };
    ck_assert(!directive_run(c, &b, "module", args, 1, 1));
    ck_assert(!directive_run(c, &b, "class", args, 1, 1));
    ck_assert(!directive_run(c, &b, "@classmethod", args, 0, 1));
    ck_assert(!directive_run(c, &b, "foo.bar", args, 0, 1));
    ck_assert_int_eq(c->errors, 0);
    clinic_free(c);
}
END_TEST

/* ---- diagnostics ------------------------------------------------------ */

START_TEST(test_fail_and_warn_format)
{
    Clinic *c = unit_clinic("dir/x.c", NULL);
    jmp_buf recover;
    c->recover = &recover;
    volatile int reached = 0;
    if (!setjmp(recover)) {
        clinic_warn(c, 3, "careful %d", 1);
        c->line = 9;
        clinic_warn(c, 0, "line from context");
        clinic_warn(c, -1, "whole file");
        clinic_fail(c, 12, "broken: %s", "yes");
        reached = 1;
    }
    ck_assert_int_eq(reached, 0);
    ck_assert_str_eq(c->diagnostics.buf,
                     "dir/x.c:3: warning: careful 1\n"
                     "dir/x.c:9: warning: line from context\n"
                     "dir/x.c: warning: whole file\n"
                     "dir/x.c:12: error: broken: yes\n");
    ck_assert_int_eq(c->errors, 1);
    clinic_free(c);
}
END_TEST

START_TEST(test_directive_errors_name_their_line)
{
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    ck_assert_int_eq(run(c, &b, "dump nope"), -1);   /* run() says line 7 */
    ck_assert_str_eq(c->diagnostics.buf,
                     "x.c:7: error: Destination does not exist: 'nope'\n");
    clinic_free(c);
}
END_TEST

/* ---- end of file ------------------------------------------------------ */

typedef struct FakeFiles {
    const char *path;
    const char *text;   /* NULL: absent */
    int error;          /* errno to fail with, if not ENOENT */
} FakeFiles;

static int fake_read(void *userdata, const char *path, char **data,
                     size_t *len)
{
    const FakeFiles *f = userdata;
    if (f->error) {
        errno = f->error;
        return -1;
    }
    if (!f->text || strcmp(path, f->path)) {
        errno = ENOENT;
        return -1;
    }
    *len = strlen(f->text);
    *data = malloc(*len + 1);
    memcpy(*data, f->text, *len + 1);
    return 0;
}

/* output_finish under a recovery point; -1 when it failed. */
static int finish(Clinic *c, PrintOut *out)
{
    jmp_buf recover;
    c->recover = &recover;
    if (setjmp(recover)) {
        c->recover = NULL;
        return -1;
    }
    output_finish(c, out);
    c->recover = NULL;
    return 0;
}

static const char int_x_file[] =
    "/*[clinic input]\npreserve\n[clinic start generated code]*/\n"
    "int x;\n"
    "/*[clinic end generated code: output=70f09c7c967ce9d6 "
    "input=a9049054013a1b77]*/\n";

START_TEST(test_finish_buffer_leftovers)
{
    Clinic *c = unit_clinic("x.c", NULL);
    PrintOut out = PRINTOUT_INIT;
    textbuffer_append(c, router_get_buffer(c, "buffer", 0), "X\n");
    c->line = 42;
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_str_eq(printout_at(&out, 0),
        "\n/*[clinic input]\ndump buffer\n[clinic start generated code]*/\n"
        "X\n/*[clinic end generated code: output=b5fec669aca110f1 "
        "input=524ce2e021e4eba6]*/\n");
    ck_assert_str_eq(c->diagnostics.buf, "x.c:42: warning: Destination "
                     "buffer 'buffer' not empty at end of file, emptying.\n");
    ck_assert_int_eq(c->nfiles, 0);
    printout_free(&out);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_empty_and_suppressed)
{
    /* nothing left anywhere but in 'suppress': nothing is written */
    Clinic *c = unit_clinic("x.c", NULL);
    PrintOut out = PRINTOUT_INIT;
    output_append_field(c, DOCSTRING_PROTOTYPE, "never seen\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(out.len, 0);
    ck_assert_int_eq(c->nfiles, 0);
    ck_assert_int_eq(c->diagnostics.len, 0);
    printout_free(&out);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_file_new_and_unchanged)
{
    FakeFiles files = { "./clinic/x.c.h", NULL, 0 };
    ClinicOptions o = {0};
    o.read_file = fake_read;
    o.read_userdata = &files;

    /* absent: written, changed */
    Clinic *c = clinic_new("x.c", &o);
    PrintOut out = PRINTOUT_INIT;
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(out.len, 0);
    ck_assert_int_eq(c->nfiles, 1);
    ck_assert_str_eq(c->files[0].path, "./clinic/x.c.h");
    ck_assert_str_eq(c->files[0].text, int_x_file);
    ck_assert_int_eq(c->files[0].len, strlen(int_x_file));
    ck_assert(c->files[0].changed);
    clinic_free(c);

    /* present and identical: not changed */
    files.text = int_x_file;
    c = clinic_new("x.c", &o);
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(c->nfiles, 1);
    ck_assert(!c->files[0].changed);
    clinic_free(c);

    /* present, a valid preserve file with other text: changed */
    c = clinic_new("x.c", &o);
    output_append_field(c, CPP_IF, "int y;\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(c->nfiles, 1);
    ck_assert(c->files[0].changed);
    ck_assert(strstr(c->files[0].text, "int y;\n"));
    clinic_free(c);
    printout_free(&out);
}
END_TEST

START_TEST(test_finish_file_modified)
{
    static const char *const modified[] = {
        /* text after the block */
        "/*[clinic input]\npreserve\n[clinic start generated code]*/\n"
        "int x;\n/*[clinic end generated code: output=70f09c7c967ce9d6 "
        "input=a9049054013a1b77]*/\nextra\n",
        /* not a preserve block */
        "just text\n",
    };
    FakeFiles files = { "./clinic/x.c.h", NULL, 0 };
    ClinicOptions o = {0};
    o.read_file = fake_read;
    o.read_userdata = &files;
    for (size_t i = 0; i < sizeof modified / sizeof modified[0]; i++) {
        files.text = modified[i];
        Clinic *c = clinic_new("x.c", &o);
        PrintOut out = PRINTOUT_INIT;
        output_append_field(c, CPP_IF, "int x;\n");
        ck_assert_int_eq(finish(c, &out), -1);
        ck_assert_str_eq(last_error(c), "Modified destination file "
                         "'./clinic/x.c.h', not overwriting!\n");
        printout_free(&out);
        clinic_free(c);

        /* -f: no check, simply overwritten */
        o.force = true;
        c = clinic_new("x.c", &o);
        output_append_field(c, CPP_IF, "int x;\n");
        ck_assert_int_eq(finish(c, &out), 0);
        ck_assert_int_eq(c->nfiles, 1);
        ck_assert(c->files[0].changed);
        o.force = false;
        printout_free(&out);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_finish_file_without_directory_checked)
{
    /* clinic.py's os.makedirs('') raises FileNotFoundError, which skips
       the check of a destination file that has no directory part and
       overwrites a hand-written file; we check it (unless -f) */
    FakeFiles files = { "x_gen.h", "hand-written\n", 0 };
    ClinicOptions o = {0};
    o.read_file = fake_read;
    o.read_userdata = &files;
    for (int force = 0; force < 2; force++) {
        o.force = force;
        Clinic *c = clinic_new("x.c", &o);
        Block b = {0};
        PrintOut out = PRINTOUT_INIT;
        ck_assert_int_eq(run(c, &b, "destination gen new file "
                                   "{basename_root}_gen.h"), 0);
        ck_assert_int_eq(run(c, &b, "output everything gen"), 0);
        output_append_field(c, CPP_IF, "int x;\n");
        if (!force) {
            ck_assert_int_eq(finish(c, &out), -1);
            ck_assert_str_eq(last_error(c), "Modified destination file "
                             "'x_gen.h', not overwriting!\n");
        } else {
            ck_assert_int_eq(finish(c, &out), 0);
            ck_assert_int_eq(c->nfiles, 1);
            ck_assert_str_eq(c->files[0].path, "x_gen.h");
            ck_assert_str_eq(c->files[0].text, int_x_file);
            ck_assert(c->files[0].changed);
        }
        printout_free(&out);
        clinic_free(c);
    }
}
END_TEST

START_TEST(test_finish_file_bad_checksum)
{
    /* an edited destination file fails the checksum check, reported at
       its own name and line; the input's name is back afterwards */
    static const char edited[] =
        "/*[clinic input]\npreserve\n[clinic start generated code]*/\n"
        "int z;\n/*[clinic end generated code: output=70f09c7c967ce9d6 "
        "input=a9049054013a1b77]*/\n";
    FakeFiles files = { "./clinic/x.c.h", edited, 0 };
    ClinicOptions o = {0};
    o.read_file = fake_read;
    o.read_userdata = &files;
    Clinic *c = clinic_new("x.c", &o);
    ck_assert_int_eq(clinic_process(c, "/*[clinic input]\nspam\n"
                                       "[clinic start generated code]*/\n",
                                    54), -1);
    ck_assert_msg(!strncmp(c->diagnostics.buf, "./clinic/x.c.h:5: error: "
                           "Checksum mismatch!\n", 44),
                  "%s", c->diagnostics.buf);
    /* and where the edit is: its output's first line, "int z;" */
    ck_assert_msg(strstr(c->diagnostics.buf, "./clinic/x.c.h:5: note: this "
                         "file's generated code differs from what clinic "
                         "writes from line 4 on"), "%s", c->diagnostics.buf);
    ck_assert_str_eq(c->filename, "x.c");
    ck_assert_ptr_null(c->output);
    ck_assert_int_eq(c->nfiles, 0);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_file_read_error)
{
    FakeFiles files = { "./clinic/x.c.h", NULL, EACCES };
    ClinicOptions o = {0};
    o.read_file = fake_read;
    o.read_userdata = &files;
    Clinic *c = clinic_new("x.c", &o);
    PrintOut out = PRINTOUT_INIT;
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), -1);
    ck_assert(strstr(last_error(c), "Can't read destination file "
                     "'./clinic/x.c.h'"));
    printout_free(&out);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_file_is_input)
{
    Clinic *c = unit_clinic("dir/x.c", NULL);
    Block b = {0};
    PrintOut out = PRINTOUT_INIT;
    ck_assert_int_eq(run(c, &b, "destination self new file "
                               "./{dirname}/./{basename}"), 0);
    ck_assert_int_eq(run(c, &b, "output everything self"), 0);
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), -1);
    ck_assert_str_eq(last_error(c), "Modified destination file "
                     "'./dir/./x.c', not overwriting!\n");
    printout_free(&out);
    clinic_free(c);

    /* where clinic.py does not check (-f, or no directory part) it
       would overwrite the input with the routed file's text */
    c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(run(c, &b, "destination self new file {path}"), 0);
    ck_assert_int_eq(run(c, &b, "output everything self"), 0);
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), -1);
    ck_assert_str_eq(last_error(c), "Destination self would overwrite the "
                     "input file 'x.c'!\n");
    printout_free(&out);
    clinic_free(c);

    ClinicOptions o = {0};
    o.force = true;
    c = clinic_new("dir/x.c", &o);
    ck_assert_int_eq(run(c, &b, "destination self new file {path}"), 0);
    ck_assert_int_eq(run(c, &b, "output everything self"), 0);
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), -1);
    ck_assert_str_eq(last_error(c), "Destination self would overwrite the "
                     "input file 'dir/x.c'!\n");
    printout_free(&out);
    clinic_free(c);
}
END_TEST

/* A file system where "x.c" is also reachable as "alias.c", and
   "one.h" as "two.h", as a symlink or an absolute path would make it. */
static bool fake_same_file(void *userdata, const char *a, const char *b)
{
    (void)userdata;
    static const char *const names[][2] = {
        {"x.c", "alias.c"}, {"one.h", "two.h"},
    };
    if (!strcmp(a, b))
        return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((!strcmp(a, names[i][0]) && !strcmp(b, names[i][1])) ||
            (!strcmp(a, names[i][1]) && !strcmp(b, names[i][0])))
            return true;
    return false;
}

START_TEST(test_finish_file_is_input_by_identity)
{
    /* the names differ, the file is the same: refused all the same */
    ClinicOptions o = {0};
    o.same_file = fake_same_file;
    Clinic *c = clinic_new("x.c", &o);
    Block b = {0};
    PrintOut out = PRINTOUT_INIT;
    ck_assert_int_eq(run(c, &b, "destination self new file alias.c"), 0);
    ck_assert_int_eq(run(c, &b, "output everything self"), 0);
    output_append_field(c, CPP_IF, "int x;\n");
    ck_assert_int_eq(finish(c, &out), -1);
    ck_assert(strstr(last_error(c), "'alias.c'"));
    ck_assert_int_eq(c->nfiles, 0);
    printout_free(&out);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_destinations_on_one_file)
{
    /* two destinations, two names, one file: written once, with the
       text of the last, as clinic.py's second write would leave it */
    ClinicOptions o = {0};
    o.same_file = fake_same_file;
    Clinic *c = clinic_new("x.c", &o);
    Block b = {0};
    PrintOut out = PRINTOUT_INIT;
    ck_assert_int_eq(run(c, &b, "destination one new file one.h"), 0);
    ck_assert_int_eq(run(c, &b, "destination two new file two.h"), 0);
    ck_assert_int_eq(run(c, &b, "output cpp_if one"), 0);
    ck_assert_int_eq(run(c, &b, "output docstring_definition two"), 0);
    output_append_field(c, CPP_IF, "int one;\n");
    output_append_field(c, DOCSTRING_DEFINITION, "int two;\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(c->nfiles, 1);
    ck_assert_str_eq(c->files[0].path, "two.h");
    ck_assert(strstr(c->files[0].text, "int two;\n"));
    ck_assert(!strstr(c->files[0].text, "int one;\n"));
    printout_free(&out);
    clinic_free(c);
}
END_TEST

START_TEST(test_finish_order_and_two_files)
{
    /* user destinations come after the built-in ones; two file
       destinations give two files */
    Clinic *c = unit_clinic("x.c", NULL);
    Block b = {0};
    PrintOut out = PRINTOUT_INIT;
    ck_assert_int_eq(run(c, &b, "destination other new file "
                               "{basename_root}_other.h"), 0);
    ck_assert_int_eq(run(c, &b, "destination mine new buffer"), 0);
    ck_assert_int_eq(run(c, &b, "output cpp_if other"), 0);
    ck_assert_int_eq(run(c, &b, "output impl_prototype mine"), 0);
    output_append_field(c, CPP_IF, "int x;\n");
    output_append_field(c, DOCSTRING_DEFINITION, "int y;\n");
    output_append_field(c, IMPL_PROTOTYPE, "X\n");
    textbuffer_append(c, router_get_buffer(c, "buffer", 1), "B\n");
    ck_assert_int_eq(finish(c, &out), 0);
    ck_assert_int_eq(c->nfiles, 2);
    ck_assert_str_eq(c->files[0].path, "./clinic/x.c.h");
    ck_assert_str_eq(c->files[1].path, "x_other.h");
    ck_assert_str_eq(c->files[1].text, int_x_file);
    ck_assert(strstr(printout_at(&out, 0), "dump buffer\n"));
    ck_assert(strstr(printout_at(&out, 0), "dump mine\n"));
    ck_assert(strstr(printout_at(&out, 0), "dump buffer\n") < strstr(printout_at(&out, 0), "dump mine\n"));
    ck_assert(strstr(c->diagnostics.buf, "'buffer' not empty"));
    ck_assert(strstr(c->diagnostics.buf, "'mine' not empty"));
    printout_free(&out);
    clinic_free(c);
}
END_TEST

/* ---- clinic_process --------------------------------------------------- */

static int process(Clinic *c, const char *text)
{
    return clinic_process(c, text, strlen(text));
}

START_TEST(test_process_language_check)
{
    Clinic *c = unit_clinic("x.txt", NULL);
    ck_assert_int_eq(process(c, "/*[clinic input]\n"), -1);
    ck_assert_str_eq(c->diagnostics.buf, "x.txt: error: Can't identify "
                     "file type for file 'x.txt'\n");
    ck_assert_ptr_null(c->output);
    clinic_free(c);

    c = unit_clinic("Makefile", NULL);
    ck_assert_int_eq(process(c, ""), -1);
    ck_assert_str_eq(c->diagnostics.buf, "Makefile: error: Can't extract "
                     "file type for file 'Makefile'\n");
    clinic_free(c);
}
END_TEST

START_TEST(test_process_without_markers)
{
    /* no start marker: the text comes back as it is, even text the cpp
       monitor would refuse */
    static const char text[] = "#else\nint x;\n#endif\n/* no [clinic] */\n";
    Clinic *c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, text), 0);
    ck_assert_int_eq(c->output_len, strlen(text));
    ck_assert_str_eq(c->output, text);
    ck_assert_int_eq(c->nfiles, 0);
    clinic_free(c);
}
END_TEST

START_TEST(test_process_unknown_dsl)
{
    Clinic *c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, "int a;\n/*[foo input]\nbar\n"
                                "[foo start generated code]*/\n"), -1);
    ck_assert_str_eq(c->diagnostics.buf,
                     "x.c:2: error: No parser to handle 'foo' block.\n");
    ck_assert_ptr_null(c->output);
    clinic_free(c);
}
END_TEST

START_TEST(test_process_directives)
{
    static const char text[] =
        "int a;\n"
        "/*[clinic input]\n"
        "printout hello\n"
        "[clinic start generated code]*/\n"
        "int b;\n";
    Clinic *c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, text), 0);
    ck_assert_str_eq(c->output,
        "int a;\n"
        "/*[clinic input]\n"
        "printout hello\n"
        "[clinic start generated code]*/\n"
        "hello\n"
        "/*[clinic end generated code: output=f572d396fae92066 "
        "input=11c76f642b3fea89]*/\n"
        "int b;\n");
    ck_assert_int_eq(c->output_len, strlen(c->output));
    ck_assert_int_eq(c->diagnostics.len, 0);
    clinic_free(c);
}
END_TEST

START_TEST(test_process_error_leaves_no_output)
{
    Clinic *c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, "/*[clinic input]\n"
                                "output pop\n"
                                "[clinic start generated code]*/\n"), -1);
    ck_assert_str_eq(c->diagnostics.buf,
                     "x.c:2: error: Can't 'output pop', stack is empty!\n");
    ck_assert_ptr_null(c->output);
    ck_assert_int_eq(c->nfiles, 0);
    clinic_free(c);
}
END_TEST

START_TEST(test_process_checksum_mismatch_note)
{
    /* a block regenerated, then one line of its output edited by hand:
       clinic.py's message, then where the edit starts */
    static const char block[] =
        "/*[clinic input]\noutput preset block\nmodule m\nm.f\n"
        "    a: int\n\nSummary.\n[clinic start generated code]*/\n";
    Clinic *c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, block), 0);
    char *good = strdup(c->output);
    clinic_free(c);

    char *edited = malloc(strlen(good) + 16);
    const char *at = strstr(good, "PyDoc_STRVAR");
    ck_assert_ptr_nonnull(at);
    int line = 1;
    for (const char *p = good; p < at; p++)
        line += *p == '\n';
    sprintf(edited, "%.*s/* hand */%s", (int)(at - good), good, at);
    c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, edited), -1);
    ck_assert(strstr(c->diagnostics.buf, "error: Checksum mismatch!\n"));
    char note[256];
    snprintf(note, sizeof note, "note: m.f's generated code differs from "
             "what clinic writes from line %d on: -f to overwrite it, or "
             "restore the generated code\n", line);
    ck_assert_msg(strstr(c->diagnostics.buf, note), "%s", c->diagnostics.buf);
    clinic_free(c);

    /* only the checksum edited */
    char *sum = strdup(good);
    char *out = strstr(sum, "output=");
    ck_assert_ptr_nonnull(out);
    memcpy(out + 7, "0123456789abcdef", 16);
    c = unit_clinic("x.c", NULL);
    ck_assert_int_eq(process(c, sum), -1);
    ck_assert(strstr(c->diagnostics.buf, "note: m.f's generated code is what "
                     "clinic writes, only its checksum differs"));
    clinic_free(c);
    free(sum);
    free(edited);
    free(good);
}
END_TEST

static Suite *output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *t = tcase_create("routing");
    tcase_add_test(t, test_field_names_in_reference_order);
    tcase_add_test(t, test_default_routing);
    tcase_add_test(t, test_presets);
    tcase_add_test(t, test_output_field_and_everything);
    tcase_add_test(t, test_push_pop);
    tcase_add_test(t, test_push_copies_the_routing);
    tcase_add_test(t, test_output_print);
    suite_add_tcase(s, t);

    t = tcase_create("buffers");
    tcase_add_test(t, test_dump_clears);
    tcase_add_test(t, test_buffer_numbering);
    tcase_add_test(t, test_buffer_series_grows_both_ways);
    tcase_add_test(t, test_large_appends);
    suite_add_tcase(s, t);

    t = tcase_create("directives");
    tcase_add_test(t, test_destination_new);
    tcase_add_test(t, test_file_path_templates);
    tcase_add_test(t, test_destination_errors);
    tcase_add_test(t, test_destination_clear);
    tcase_add_test(t, test_text_across_pieces);
    tcase_add_test(t, test_set);
    tcase_add_test(t, test_printout);
    tcase_add_test(t, test_preserve);
    tcase_add_test(t, test_version);
    tcase_add_test(t, test_arity_messages);
    tcase_add_test(t, test_not_a_directive);
    tcase_add_test(t, test_fail_and_warn_format);
    tcase_add_test(t, test_directive_errors_name_their_line);
    suite_add_tcase(s, t);

    t = tcase_create("end of file");
    tcase_add_test(t, test_finish_buffer_leftovers);
    tcase_add_test(t, test_finish_empty_and_suppressed);
    tcase_add_test(t, test_finish_file_new_and_unchanged);
    tcase_add_test(t, test_finish_file_modified);
    tcase_add_test(t, test_finish_file_without_directory_checked);
    tcase_add_test(t, test_finish_file_bad_checksum);
    tcase_add_test(t, test_finish_file_read_error);
    tcase_add_test(t, test_finish_file_is_input);
    tcase_add_test(t, test_finish_file_is_input_by_identity);
    tcase_add_test(t, test_finish_destinations_on_one_file);
    tcase_add_test(t, test_finish_order_and_two_files);
    suite_add_tcase(s, t);

    t = tcase_create("process");
    tcase_add_test(t, test_process_language_check);
    tcase_add_test(t, test_process_without_markers);
    tcase_add_test(t, test_process_unknown_dsl);
    tcase_add_test(t, test_process_directives);
    tcase_add_test(t, test_process_error_leaves_no_output);
    tcase_add_test(t, test_process_checksum_mismatch_note);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return unit_run(output_suite());
}
