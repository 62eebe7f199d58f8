/*
 * output.c — the output stage: generated fields appended where the
 * routing configuration (route.c) sends them, and the end-of-file pass
 * that empties leftover buffers and assembles the files of "file"
 * destinations (checking what is on disk before replacing it).
 */
#include "generate/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "generate/printer.h"
#include "base/checksum.h"
#include "generate/gen.h"
#include "model/message.h"
#include "parse/route.h"
#include "model/target.h"
#include "base/io.h"
#include "base/text.h"

/* ---- the interface the generator and the DSL use ---------------------- */

/* Generated text goes out in the target's words; the first text of a
   destination that calls the target's helpers is preceded by the
   target's preamble, the #include of the header written beside it at
   the end (output_finish). */
void output_append_field(Clinic *c, int field, const char *text)
{
    output_append_field_n(c, field, text, strlen(text));
}

void output_append_field_n(Clinic *c, int field, const char *text, size_t n)
{
    TextBuffer *tb = c->router->fields.fields[field];
    const Target *t = c->target;
    bool uses_helpers;
    const char *given = text;
    text = target_rewrite(c->arena, t, text, &uses_helpers);
    if (t->preamble && uses_helpers && tb->dest->type != DEST_SUPPRESS &&
        !tb->dest->has_preamble) {
        tb->dest->has_preamble = true;
        text = arena_concat_of(c->arena,
                               arena_printf(c->arena, t->preamble,
                                            c->dialect->major,
                                            c->dialect->minor),
                               text);
    }
    if (text != given)
        n = strlen(text);
    /* the buffers outlive the function being rendered (driver.c's
       render_function): they grow in the file's arena */
    Arena *current = c->arena;
    c->arena = c->file_arena;
    textbuffer_append_n(c, tb, text, n);
    c->arena = current;
}

const char *output_dump_block(Clinic *c)
{
    /* the first destination, which cannot be replaced */
    return destination_dump(c, c->router->dests[0]);
}




/* ---- end of file ------------------------------------------------------ */

/* Are a and b one file?  Asked of the caller (by device and inode), or
   by name (os.path.normpath's) when there is no file system. */
static bool same_file(Clinic *c, const char *a, const char *b)
{
    if (c->options.same_file)
        return c->options.same_file(c->options.same_file_userdata, a, b);
    char *x = io_normpath(a), *y = io_normpath(b);
    bool same = !strcmp(x, y);
    free(x);
    free(y);
    return same;
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
        if (errno == ELOOP)   /* the reader's word for a symlink */
            clinic_fail(c, 0, "Destination file %s is a symbolic link: "
                        "clinic writes the files it routes output to "
                        "itself, never through a link (remove the link)",
                        route_repr(c, path));
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

/* The text of d's buffers end to end, as Destination.dump() gives it,
   without clearing them: only for a message. */
static const char *destination_text(Clinic *c, const Destination *d)
{
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < d->nbuffers; i++)
        for (const TextPiece *p = d->buffers[i]->first; p; p = p->next)
            sb_add(&sb, p->text, p->len);
    return sb_take(&sb, c->arena);
}

/* block_check_output() of a routed file's output (n bytes at s, in
   whatever memory it was written to): clinic.py fails on a lone surrogate
   ("\\ud800") when it hashes the output, in block_print()'s words. */
static void check_routed_output(Clinic *c, const char *s, size_t n)
{
    size_t at;
    unsigned cp;
    if (text_find_surrogate(s, n, &at, &cp))
        clinic_fail(c, 0, "'utf-8' codec can't encode character "
                    "'\\u%04x' in position %zu: surrogates not allowed", cp,
                    at);
}

/* A routed file as clinic writes it: its 'preserve' block alone. */
static const char routed_start[] =
    "/*[clinic input]\npreserve\n[clinic start generated code]*/\n";
static const char routed_end[] = "/*[clinic end generated code: output=";
/* After routed_end, where the end marker's pieces stand: the output's
   checksum, " input=", the input's checksum, the comment's end and a
   newline. */
enum {
    ROUTED_OUTPUT_SUM = 0,
    ROUTED_INPUT_WORD = ROUTED_OUTPUT_SUM + CHECKSUM_MARKER_LEN,
    ROUTED_INPUT_SUM = ROUTED_INPUT_WORD + 7,
    ROUTED_CLOSE = ROUTED_INPUT_SUM + CHECKSUM_MARKER_LEN,
    ROUTED_AFTER_END = ROUTED_CLOSE + 4
};
#define ROUTED_END_LEN (sizeof routed_end - 1 + ROUTED_AFTER_END)

/* block_print() of the routed file's one block, 'preserve' with header
   and d's buffers as its output, written piece by piece where it goes:
   into out, which compares it with the old text in place, so that the
   output is neither put together first nor copied when unchanged.
   existing: the old file's block, whose verified checksum is reused when
   the output is the same. */
static void print_routed_file(Clinic *c, PrintOut *out, const Destination *d,
                              const char *header, const Block *existing)
{
    printout_add(out, routed_start, sizeof routed_start - 1);
    size_t output_at = out->len;
    printout_add(out, header, strlen(header));
    for (size_t i = 0; i < d->nbuffers; i++)
        for (const TextPiece *p = d->buffers[i]->first; p && p->len;
             p = p->next)
            printout_add(out, p->text, p->len);
    size_t n = out->len - output_at;
    check_routed_output(c, printout_at(out, output_at), n);
    /* the checksum covers the output as written: with its final "\n" */
    if (n && printout_at(out, output_at)[n - 1] != '\n') {
        printout_add(out, "\n", 1);
        n++;
    }
    const char *written = printout_at(out, output_at);
    char output_sum[CHECKSUM_MARKER_LEN + 1];
    char input_sum[CHECKSUM_MARKER_LEN + 1];
    if (existing->verified_output && existing->verified_len == n &&
        (existing->verified_output == written ||
         memcmp(existing->verified_output, written, n) == 0)) {
        /* the same text */
        memcpy(output_sum, existing->verified_sum, CHECKSUM_MARKER_LEN);
        output_sum[CHECKSUM_MARKER_LEN] = '\0';
    } else {
        checksum_compute(written, n, CHECKSUM_MARKER_LEN, output_sum);
    }
    checksum_compute("preserve\n", 9, CHECKSUM_MARKER_LEN, input_sum);
    char end[ROUTED_END_LEN], *e = end;
    memcpy(e, routed_end, sizeof routed_end - 1);
    e += sizeof routed_end - 1;
    memcpy(e + ROUTED_OUTPUT_SUM, output_sum, CHECKSUM_MARKER_LEN);
    memcpy(e + ROUTED_INPUT_WORD, " input=", 7);
    memcpy(e + ROUTED_INPUT_SUM, input_sum, CHECKSUM_MARKER_LEN);
    memcpy(e + ROUTED_CLOSE, "]*/\n", 4);
    printout_add(out, end, sizeof end);
}

/* Whether s starts with an end marker's checksum: lowercase hex digits. */
static bool is_marker_sum(const char *s)
{
    for (int i = 0; i < CHECKSUM_MARKER_LEN; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* The check of an existing routed file, when it is as clinic wrote it:
   the start of its block, its output, and an end marker with the
   checksums in clinic's own form at its very end, and no "/" "*[" in the
   output (so no line in it can be a start line or an end marker, and
   the block parser would find just this block) nor a NUL.  Then the
   output's checksum is all there is to verify: the block parser is not
   needed to read the output line by line and copy it.  True, and the
   verified output in *existing, when the file passes; false when the
   block parser is to say what it finds. */
static bool verify_routed_file(Clinic *c, const Destination *d,
                               const char *old, size_t old_len,
                               Block *existing)
{
    size_t head = sizeof routed_start - 1;
    if (old_len < head + ROUTED_END_LEN ||
        memcmp(old, routed_start, head) != 0)
        return false;
    size_t end = old_len - ROUTED_END_LEN;
    const char *marker = old + end;
    if (memcmp(marker, routed_end, sizeof routed_end - 1) != 0)
        return false;
    const char *sum = marker + sizeof routed_end - 1;
    if (!is_marker_sum(sum + ROUTED_OUTPUT_SUM) ||
        memcmp(sum + ROUTED_INPUT_WORD, " input=", 7) != 0 ||
        !is_marker_sum(sum + ROUTED_INPUT_SUM) ||
        memcmp(sum + ROUTED_CLOSE, "]*/\n", 4) != 0 ||
        (end > head && old[end - 1] != '\n'))
        return false;
    /* the first "/" "*[" after the start is the end marker's (a NUL
       before it stops the search) */
    if (strstr(old + head, "/*[") != marker)
        return false;

    /* the block parser's sum: remembered for the run, or computed */
    const ClinicOptions *o = &c->options;
    size_t len = end - head;
    char full[CHECKSUM_HEX_LEN + 1];
    if (!o->sum_known ||
        !o->sum_known(o->sum_userdata, d->filename, head, len, full)) {
        checksum_compute(old + head, len, CHECKSUM_HEX_LEN, full);
        if (o->sum_note)
            o->sum_note(o->sum_userdata, d->filename, head, len, full);
    }
    if (memcmp(full, sum, 16) != 0)
        return false;
    existing->verified_output = old + head;
    existing->verified_len = len;
    memcpy(existing->verified_sum, full, sizeof full);
    return true;
}

static void finish_file_destination(Clinic *c, Destination *d)
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
    Block existing = {0};   /* its verified output: the printer reuses
                               the checksum when the output is the same */
    if (old && verify && !verify_routed_file(c, d, old, old_len, &existing)) {
        /* A destination file must hold nothing but one 'preserve' block
           whose checksums still verify. */
        /* Its errors (a checksum mismatch) name the file and line they
           are in; clinic_process() restores the input's name if one is
           raised. */
        const char *input_name = c->filename;
        int input_line = c->line;
        c->filename = d->filename;
        BlockParser *bp = block_parser_new(c, old, old_len,
                                           &(BlockScan){.verify = true});
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
                    const char *output = destination_text(c, d);
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

    /* The file's text is written once, where it goes: compared with the
       old text as it is printed, an unchanged file is not copied; a
       changed one is the printer's buffer, handed to the arena. */
    const char *header = gen_includes_header(c);
    PrintOut out;
    printout_init(&out, c->options.no_output ? NULL : old, old_len);
    print_routed_file(c, &out, d, header, &existing);
    destination_clear(d);
    if (c->options.no_output) {   /* checked; its text is not wanted */
        printout_free(&out);
        add_output_file(c, d->filename, NULL, 0, false);
        return;
    }
    size_t len = out.len;
    bool changed = !printout_unchanged(&out);
    const char *text = old;
    if (out.copied) {
        char *buf = sb_detach(&out.text, NULL);
        arena_adopt(c->arena, buf);
        text = buf;
    } else if (changed) {
        text = arena_strndup(c->arena, printout_at(&out, 0), len);
    }
    printout_free(&out);
    add_output_file(c, d->filename, text, len, changed);
}

/* The target's header, beside the file that includes it (for the block
   and buffer destinations, the input).  It is clinic's own text: written
   whenever it differs, never merged with anything.  A file of that name
   that clinic did not write (it does not begin with the header's mark,
   which every version of the header begins with) is the user's: refused
   unless -f, as a routed file that is not a lone 'preserve' block is. */
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
    size_t mark_len = t->header_mark ? strlen(t->header_mark) : 0;
    if (changed && old && !c->options.force &&
        (old_len < mark_len || memcmp(old, t->header_mark, mark_len) != 0))
        clinic_fail(c, 0, "%s exists and is not the header clinic writes: "
                    "not replacing it (move it away, or use -f to replace "
                    "it)", route_repr(c, path));
    add_output_file(c, path, t->header_text, len, changed);
}

void output_finish(Clinic *c, PrintOut *out)
{
    Router *r = c->router;
    for (size_t i = 0; i < r->ndests; i++)
        write_target_header(c, r->dests[i]);
    for (size_t i = 0; i < r->ndests; i++) {
        Destination *d = r->dests[i];
        if (d->type == DEST_SUPPRESS)
            continue;
        size_t total = 0;
        for (size_t k = 0; k < d->nbuffers; k++)
            total += d->buffers[k]->len;
        if (!total)
            continue;
        if (d->type == DEST_BUFFER) {
            const char *output = destination_dump(c, d);
            clinic_warn(c, 0, "Destination buffer %s not empty at end of "
                        "file, emptying.", route_repr(c, d->name));
            Block block = {0};
            block.input = arena_printf(c->arena, "dump %s\n", d->name);
            block.dsl_name = "clinic";
            block.output = output;
            printout_add(out, "\n", 1);
            block_print(c, out, &block);
        } else {
            finish_file_destination(c, d);
        }
    }
}
