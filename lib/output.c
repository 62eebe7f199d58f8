/*
 * output.c — the output stage: generated fields appended where the
 * routing configuration (route.c) sends them, and the end-of-file pass
 * that empties leftover buffers and assembles the files of "file"
 * destinations (checking what is on disk before replacing it).
 */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "gen.h"
#include "message.h"
#include "route.h"
#include "target.h"
#include "text.h"

/* ---- the interface the generator and the DSL use ---------------------- */

/* Generated text goes out in the target's words; the first text of a
   destination that calls the target's helpers is preceded by the
   target's preamble, the #include of the header written beside it at
   the end (router_finish). */
void router_append_field(Clinic *c, int field, const char *text)
{
    router_append_field_n(c, field, text, strlen(text));
}

void router_append_field_n(Clinic *c, int field, const char *text, size_t n)
{
    TextBuffer *tb = c->router->fields.fields[field];
    const Target *t = c->target;
    bool uses_helpers;
    const char *given = text;
    text = target_rewrite(c->arena, t, text, &uses_helpers);
    if (t->preamble && uses_helpers && tb->dest->type != DEST_SUPPRESS &&
        !tb->dest->has_preamble) {
        tb->dest->has_preamble = true;
        text = arena_printf(c->arena, "%s%s", t->preamble, text);
    }
    if (text != given)
        n = strlen(text);
    /* the buffers outlive the function being rendered (clinic.c's
       render_function): they grow in the file's arena */
    Arena *current = c->arena;
    c->arena = c->file_arena;
    textbuffer_append_n(c, tb, text, n);
    c->arena = current;
}

const char *router_dump_block(Clinic *c)
{
    return destination_dump(c, router_get_destination(c, "block"));
}




/* ---- end of file ------------------------------------------------------ */

/* Lexically the same file? ("./x" and "x", "a//b" and "a/b") */
static const char *path_normalize(Arena *a, const char *p)
{
    StrBuf sb = STRBUF_INIT;
    const char *s = p;
    if (*s == '/')
        sb_addc(&sb, '/');
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 1 && s[0] == '.') {
            /* "." components mean nothing */
        } else if (n) {
            if (sb.len && sb.buf[sb.len - 1] != '/')
                sb_addc(&sb, '/');
            sb_add(&sb, s, n);
        }
        s += n;
    }
    return sb_take(&sb, a);
}

/* Are a and b one file?  Asked of the caller (by device and inode), or
   by name when there is no file system. */
static bool same_file(Clinic *c, const char *a, const char *b)
{
    if (c->options.same_file)
        return c->options.same_file(c->options.same_file_userdata, a, b);
    return !strcmp(path_normalize(c->arena, a), path_normalize(c->arena, b));
}

/* Reads an existing file through the caller's reader.  Returns NULL when
   it does not exist. */
static const char *read_existing(Clinic *c, const char *path, size_t *len)
{
    if (!c->options.read_file)
        return NULL;
    char *data = NULL;
    size_t n = 0;
    errno = 0;
    if (c->options.read_file(c->options.read_userdata, path, &data, &n)) {
        if (errno == ENOENT || errno == 0)
            return NULL;
        if (errno == ENOTDIR) {
            /* os.makedirs() meets a non-directory on the way */
            const char *slash = strrchr(path, '/');
            clinic_failm(c, 0, MSG_DESTINATION_MKDIR,
                         MSG_ARGS(path, slash ? arena_strndup(c->arena, path,
                                                (size_t)(slash - path)) : ""));
        }
        clinic_fail(c, 0, "Can't read destination file %s: %s",
                    route_repr(c, path),
                    errno == EINVAL ? "not a regular file" : strerror(errno));
    }
    /* kept as read (NUL-terminated, see ClinicReadFn), not copied */
    if (!data) {
        *len = 0;
        return "";
    }
    arena_adopt(c->arena, data);
    *len = n;
    return data;
}

static void add_output_file(Clinic *c, const char *path, const char *text,
                            size_t len, bool changed)
{
    /* two destinations on one file (under one name or two): the last
       write wins, as on disk, and the file is written once */
    for (size_t i = 0; i < c->nfiles; i++) {
        if (!strcmp(c->files[i].path, path) ||
            same_file(c, c->files[i].path, path)) {
            c->files[i].path = path;
            c->files[i].text = text;
            c->files[i].len = len;
            c->files[i].changed = changed;
            return;
        }
    }
    ClinicOutputFile *grown = arena_array_of(c->arena, ClinicOutputFile,
                                             c->nfiles + 1);
    if (c->nfiles)
        memcpy(grown, c->files, c->nfiles * sizeof *grown);
    grown[c->nfiles].path = path;
    grown[c->nfiles].text = text;
    grown[c->nfiles].len = len;
    grown[c->nfiles].changed = changed;
    c->files = grown;
    c->nfiles++;
}

static void finish_file_destination(Clinic *c, Destination *d,
                                     const char *output)
{
    /* An existing file is checked before it is replaced (it must be one
       verified 'preserve' block) unless -f.  clinic.py skips the check
       for a path without a directory part ('{basename_root}_gen.h'):
       its os.makedirs('') raises the FileNotFoundError that also means
       "no file yet", and a hand-written file of that name would be
       overwritten.  We check it: a deliberate difference (man page,
       DIFFERENCES FROM CLINIC.PY). */
    bool verify = !c->options.force;
    const char *dirname, *basename;
    route_path_split(c->arena, d->filename, &dirname, &basename);

    if (same_file(c, d->filename, c->filename)) {
        /* The input is never a lone 'preserve' block (it declared this
           destination), so clinic.py's check always refuses it, in its
           words; where it does not check, it would overwrite the input
           with the routed file's text, which we refuse in ours. */
        if (verify && *dirname)
            clinic_failm(c, 0, MSG_DESTINATION_MODIFIED,
                         MSG_ARGS(d->filename));
        clinic_fail(c, 0, "Destination %s would overwrite the input "
                    "file %s!", d->name, route_repr(c, d->filename));
    }

    size_t old_len = 0;
    const char *old = read_existing(c, d->filename, &old_len);
    Block existing = {0};   /* its verified output: block_print reuses
                               the checksum when the output is the same */
    if (old && verify) {
        /* A destination file must hold nothing but one 'preserve' block
           whose checksums still verify. */
        /* Its errors (a checksum mismatch) name the file and line they
           are in; clinic_process() restores the input's name if one is
           raised. */
        const char *input_name = c->filename;
        int input_line = c->line;
        c->filename = d->filename;
        BlockParser *bp = block_parser_new(c, old, old_len, true);
        block_parser_defer_checksums(bp);
        Block b;
        int nblocks = 0;
        bool preserve_only = false;
        while (block_parser_next(bp, &b)) {
            if (b.checksum_error) {
                /* where the file's text starts to differ from the text
                   it gets now, when this is the block that would be
                   rewritten */
                const char *note = NULL;
                if (nblocks == 0 && !strcmp(b.input, "preserve\n")) {
                    size_t n = strlen(output);
                    const char *fresh = n && output[n - 1] != '\n'
                        ? arena_printf(c->arena, "%s\n", output) : output;
                    note = block_mismatch_note(c, "this file's",
                                               b.output ? b.output : "",
                                               fresh, b.checksum_error_line);
                }
                clinic_fail_note(c, b.checksum_error_line, note, "%s",
                                 b.checksum_error);
            }
            if (nblocks++ == 0) {
                preserve_only = !strcmp(b.input, "preserve\n");
                existing = b;
            }
        }
        c->filename = input_name;
        c->line = input_line;
        if (nblocks != 1 || !preserve_only)
            clinic_failm(c, 0, MSG_DESTINATION_MODIFIED,
                         MSG_ARGS(d->filename));
    }

    Block block = {0};
    block.input = "preserve\n";
    block.dsl_name = "clinic";
    const char *header = gen_includes_header(c);
    block.output = *header ? arena_printf(c->arena, "%s%s", header, output)
                           : output;
    block.verified_output = existing.verified_output;
    block.verified_len = existing.verified_len;
    memcpy(block.verified_sum, existing.verified_sum,
           sizeof block.verified_sum);
    if (c->options.no_output) {   /* checked; its text is not wanted */
        block_check_output(c, &block);
        add_output_file(c, d->filename, NULL, 0, false);
        return;
    }
    /* compared with the file's text as it is printed: an unchanged file
       is not copied */
    PrintOut out;
    printout_init(&out, old, old_len);
    block_print(c, &out, &block);
    size_t len = out.len;
    bool changed = !printout_unchanged(&out);
    const char *text = changed
        ? arena_strndup(c->arena, printout_at(&out, 0), len) : old;
    printout_free(&out);
    add_output_file(c, d->filename, text, len, changed);
}

/* The target's header, beside the file that includes it (for the block
   and buffer destinations, the input).  It is clinic's own text: written
   whenever it differs, never merged with anything. */
static void write_target_header(Clinic *c, const Destination *d)
{
    const Target *t = c->target;
    if (!t->header_name || !d->has_preamble || c->options.no_output)
        return;
    const char *dirname, *basename;
    route_path_split(c->arena, d->type == DEST_FILE ? d->filename
                                                    : c->filename,
                     &dirname, &basename);
    const char *path = *dirname
        ? arena_printf(c->arena, "%s/%s", dirname, t->header_name)
        : t->header_name;
    size_t len = strlen(t->header_text), old_len = 0;
    const char *old = read_existing(c, path, &old_len);
    bool changed = !old || old_len != len ||
                   memcmp(old, t->header_text, len) != 0;
    add_output_file(c, path, t->header_text, len, changed);
}

void router_finish(Clinic *c, PrintOut *out)
{
    Router *r = c->router;
    for (size_t i = 0; i < r->ndests; i++)
        write_target_header(c, r->dests[i]);
    for (size_t i = 0; i < r->ndests; i++) {
        Destination *d = r->dests[i];
        if (d->type == DEST_SUPPRESS)
            continue;
        const char *output = destination_dump(c, d);
        if (!*output)
            continue;
        if (d->type == DEST_BUFFER) {
            clinic_warn(c, 0, "Destination buffer %s not empty at end of "
                        "file, emptying.", route_repr(c, d->name));
            Block block = {0};
            block.input = arena_printf(c->arena, "dump %s\n", d->name);
            block.dsl_name = "clinic";
            block.output = output;
            printout_add(out, "\n", 1);
            block_print(c, out, &block);
        } else {
            finish_file_destination(c, d, output);
        }
    }
}
