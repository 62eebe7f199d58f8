/*
 * check_io.c — reading as clinic.py reads, and the safe writer: unchanged
 * files untouched, permissions kept, symlinks written through, parent
 * directories made, and every failure (read-only directory, disk full,
 * one file of a commit failing) leaving the targets as they were and no
 * temp file behind.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/io.h"
#include "unit.h"

static char dir[256];

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            rm_rf(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_io.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    rm_rf(dir);
}

static const char *in_dir(const char *name)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* The file's content ("<missing>" when it does not exist). */
static char *get(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "rb");
    if (!f)
        return strcpy(buf, "<missing>");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Number of entries in the directory (temp files would show up). */
static int entries(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void set_old_mtime(const char *path)
{
    struct timeval tv[2] = {{1000000000, 0}, {1000000000, 0}};
    ck_assert_int_eq(utimes(path, tv), 0);
}

static time_t mtime_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return st.st_mtime;
}

/* ---- reading --------------------------------------------------------- */

START_TEST(read_file_and_text)
{
    const char *p = in_dir("a.c");
    put(p, "a\r\nb\rc\n");
    char *data;
    size_t len;
    ck_assert_int_eq(io_read_file(p, &data, &len), 0);
    ck_assert_uint_eq(len, 7);
    ck_assert_str_eq(data, "a\r\nb\rc\n");
    free(data);
    ck_assert_int_eq(io_read_text(p, &data, &len), 0);
    ck_assert_uint_eq(len, 6);
    ck_assert_str_eq(data, "a\nb\nc\n");
    free(data);
    ck_assert_int_eq(io_clinic_read(NULL, p, &data, &len), 0);
    ck_assert_str_eq(data, "a\nb\nc\n");
    free(data);

    errno = 0;
    ck_assert_int_eq(io_read_file(in_dir("missing.c"), &data, &len), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_int_eq(io_read_file(dir, &data, &len), -1);
    ck_assert_int_eq(errno, EISDIR);
}
END_TEST

START_TEST(utf8_errors_as_python_words_them)
{
    static const struct {
        const char *bytes;
        const char *message;
    } cases[] = {
        {"ab\xff", "'utf-8' codec can't decode byte 0xff in position 2: "
                   "invalid start byte"},
        {"\xe2\x82", "'utf-8' codec can't decode bytes in position 0-1: "
                     "unexpected end of data"},
        {"\xe2", "'utf-8' codec can't decode byte 0xe2 in position 0: "
                 "unexpected end of data"},
        {"\xe2(\xa1", "'utf-8' codec can't decode byte 0xe2 in position 0: "
                      "invalid continuation byte"},
        {"\xe2\x82(", "'utf-8' codec can't decode bytes in position 0-1: "
                      "invalid continuation byte"},
        {"\xed\xa0\x80", "'utf-8' codec can't decode byte 0xed in position "
                         "0: invalid continuation byte"},
        {"x\xc0\xaf", "'utf-8' codec can't decode byte 0xc0 in position 1: "
                      "invalid start byte"},
        {"\xf4\x90\x80\x80", "'utf-8' codec can't decode byte 0xf4 in "
                             "position 0: invalid continuation byte"},
        {"\xf0\x9f\x98\x80\x80", "'utf-8' codec can't decode byte 0x80 in "
                                 "position 4: invalid start byte"},
    };
    char msg[256];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert(!io_check_utf8(cases[i].bytes, strlen(cases[i].bytes), msg,
                                 sizeof msg));
        ck_assert_str_eq(msg, cases[i].message);
    }
    const char *ok = "plain, \xc3\xa9, \xe2\x82\xac, \xf0\x9f\x98\x80";
    ck_assert(io_check_utf8(ok, strlen(ok), msg, sizeof msg));
}
END_TEST

/* ---- writing --------------------------------------------------------- */

START_TEST(cr_and_nul_found_anywhere)
{
    /* each byte at every place of texts around the vector widths */
    static char text[600];
    for (size_t len = 0; len <= sizeof text; len += len < 140 ? 1 : 37)
        for (size_t at = 0; at <= len; at += at < 140 ? 1 : 29) {
            memset(text, 'x', sizeof text);
            bool cr, nul;
            io_find_cr_nul(text, len, &cr, &nul);
            ck_assert(!cr && !nul);
            if (at == len)
                continue;
            text[at] = '\r';
            io_find_cr_nul(text, len, &cr, &nul);
            ck_assert(cr && !nul);
            text[at] = '\0';
            io_find_cr_nul(text, len, &cr, &nul);
            ck_assert(!cr && nul);
            /* both, the "\r" after the NUL (or over it) */
            size_t later = len - 1 - (len - 1 - at) / 2;
            text[later] = '\r';
            io_find_cr_nul(text, len, &cr, &nul);
            ck_assert(cr && nul == (later != at));
        }
}
END_TEST

START_TEST(scan_finds_where_plain_text_ends)
{
    /* plain_len stops at the first NUL, 0x0b-0x1f or byte >= 0x80 (or is
       0 without a quick way to look), and the "\r" and NUL are found
       either side of it */
    static char text[600];
    static const unsigned char odd[] = {0, 0x0b, '\r', 0x1f, 0x80, 0xe2};
    for (size_t len = 1; len <= sizeof text; len += len < 140 ? 1 : 37)
        for (size_t at = 0; at < len; at += at < 140 ? 1 : 29)
            for (size_t k = 0; k < sizeof odd; k++) {
                memset(text, 'x', sizeof text);
                text[len / 3] = '\t';
                text[len / 2] = '\n';
                text[at] = (char)odd[k];
                IoTextScan scan;
                io_scan_text(text, len, &scan);
                ck_assert(scan.plain_len == at || scan.plain_len == 0);
                ck_assert(scan.has_cr == (odd[k] == '\r'));
                ck_assert(scan.has_nul == (odd[k] == 0));
                text[at] = 'x';
                if (at != len / 3 && at != len / 2) {
                    io_scan_text(text, len, &scan);
                    ck_assert(scan.plain_len == len || scan.plain_len == 0);
                    ck_assert(!scan.has_cr && !scan.has_nul);
                }
            }
}
END_TEST

START_TEST(new_file_gets_umask_mode)
{
    const char *p = in_dir("new.c");
    mode_t old = umask(022);
    IoError err;
    ck_assert_int_eq(io_write_file(p, "x\n", 2, &err), 1);
    umask(old);
    ck_assert_str_eq(get(p), "x\n");
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0644);
    ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(unchanged_file_not_touched)
{
    const char *p = in_dir("same.c");
    put(p, "same\n");
    set_old_mtime(p);
    struct stat before, after;
    ck_assert_int_eq(stat(p, &before), 0);
    IoError err;
    ck_assert_int_eq(io_write_file(p, "same\n", 5, &err), 0);
    ck_assert_int_eq(stat(p, &after), 0);
    ck_assert_int_eq(after.st_mtime, 1000000000);
    ck_assert_uint_eq(after.st_ino, before.st_ino);
    ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(changed_file_replaced_keeping_mode)
{
    const char *p = in_dir("mode.c");
    put(p, "old\n");
    ck_assert_int_eq(chmod(p, 0751), 0);
    set_old_mtime(p);
    IoError err;
    ck_assert_int_eq(io_write_file(p, "new\n", 4, &err), 1);
    ck_assert_str_eq(get(p), "new\n");
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0751);
    ck_assert_int_ne(st.st_mtime, 1000000000);
    ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(symlink_written_through)
{
    ck_assert_int_eq(mkdir(in_dir("real"), 0755), 0);
    const char *target = in_dir("real/t.c");
    const char *link = in_dir("link.c");
    put(target, "old\n");
    ck_assert_int_eq(chmod(target, 0640), 0);
    ck_assert_int_eq(symlink("real/t.c", link), 0);
    IoError err;
    ck_assert_int_eq(io_write_file(link, "new\n", 4, &err), 1);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(get(in_dir("real/t.c")), "new\n");
    ck_assert_int_eq(stat(in_dir("real/t.c"), &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    ck_assert_int_eq(entries(in_dir("real")), 1);
    ck_assert_int_eq(entries(dir), 2);

    /* a dangling link: the file it names is created */
    ck_assert_int_eq(symlink("real/created.c", in_dir("dangling.c")), 0);
    ck_assert_int_eq(io_write_file(in_dir("dangling.c"), "c\n", 2, &err), 1);
    ck_assert_int_eq(lstat(in_dir("dangling.c"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_str_eq(get(in_dir("real/created.c")), "c\n");
}
END_TEST

START_TEST(read_only_directory)
{
    /* root ignores directory permissions: test as nobody */
    bool was_root = geteuid() == 0;
    if (was_root) {
        ck_assert_int_eq(chmod(dir, 0777), 0);
        ck_assert_int_eq(seteuid(65534), 0);
    }
    ck_assert_int_eq(mkdir(in_dir("ro"), 0755), 0);
    const char *p = in_dir("ro/f.c");
    put(p, "old\n");
    ck_assert_int_eq(chmod(in_dir("ro"), 0555), 0);
    IoError err;
    ck_assert_int_eq(io_write_file(p, "new\n", 4, &err), -1);
    ck_assert_int_eq(err.errnum, EACCES);
    ck_assert_str_eq(err.path, p);
    char expected[2048];
    snprintf(expected, sizeof expected, "can't write in directory %s: "
             "Permission denied", in_dir("ro"));
    ck_assert_str_eq(err.message, expected);
    ck_assert_str_eq(get(p), "old\n");
    ck_assert_int_eq(entries(in_dir("ro")), 1);
    /* unchanged content needs no write access at all */
    ck_assert_int_eq(io_write_file(p, "old\n", 4, &err), 0);
    ck_assert_int_eq(chmod(in_dir("ro"), 0755), 0);
    if (was_root)
        ck_assert_int_eq(seteuid(0), 0);
}
END_TEST

static int writes_before_full;

/* A disk that fills up after writes_before_full calls. */
static ssize_t full_disk_write(int fd, const void *buf, size_t n)
{
    if (writes_before_full-- <= 0) {
        errno = ENOSPC;
        return -1;
    }
    return write(fd, buf, n > 3 ? 3 : n);
}

/* A write that only ever writes one byte: short writes are resumed. */
static ssize_t trickle_write(int fd, const void *buf, size_t n)
{
    (void)n;
    return write(fd, buf, 1);
}

START_TEST(disk_full)
{
    const char *p = in_dir("full.c");
    put(p, "old\n");
    IoCommit *commit = io_commit_new();
    writes_before_full = 1;
    io_commit_set_write_fn(commit, full_disk_write);
    io_commit_add(commit, p, "a much longer new text\n", 23, false);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    ck_assert_int_eq(err.errnum, ENOSPC);
    ck_assert_str_eq(err.message, "can't write: No space left on device");
    io_commit_free(commit);
    ck_assert_str_eq(get(p), "old\n");
    ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(short_writes_resumed)
{
    const char *p = in_dir("trickle.c");
    IoCommit *commit = io_commit_new();
    io_commit_set_write_fn(commit, trickle_write);
    io_commit_add(commit, p, "several bytes\n", 14, false);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), 1);
    io_commit_free(commit);
    ck_assert_str_eq(get(p), "several bytes\n");
}
END_TEST

START_TEST(commit_is_all_or_nothing)
{
    const char *a = in_dir("a.c"), *b = in_dir("b.h");
    put(a, "old a\n");
    put(b, "old b\n");
    IoCommit *commit = io_commit_new();
    /* a's text fits in the two writes allowed; b's does not */
    writes_before_full = 2;
    io_commit_set_write_fn(commit, full_disk_write);
    io_commit_add(commit, a, "new a\n", 6, false);
    io_commit_add(commit, b, "new b, longer\n", 14, false);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    ck_assert_str_eq(err.path, b);
    io_commit_free(commit);
    ck_assert_str_eq(get(a), "old a\n");
    ck_assert_str_eq(get(b), "old b\n");
    ck_assert_int_eq(entries(dir), 2);

    /* and when all goes well, only the changed ones are written */
    set_old_mtime(a);
    commit = io_commit_new();
    io_commit_add(commit, a, "old a\n", 6, false);
    io_commit_add(commit, b, "new b\n", 6, false);
    ck_assert_int_eq(io_commit_run(commit, &err), 1);
    io_commit_free(commit);
    ck_assert_int_eq(mtime_of(a), 1000000000);
    ck_assert_str_eq(get(b), "new b\n");
    ck_assert_int_eq(entries(dir), 2);
}
END_TEST

START_TEST(parent_directories_made)
{
    const char *p = in_dir("gen/clinic/x.c.h");
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, p, "routed\n", 7, true);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), 1);
    io_commit_free(commit);
    ck_assert_str_eq(get(p), "routed\n");
}
END_TEST

START_TEST(file_in_the_way_of_directory)
{
    put(in_dir("gen"), "a file\n");
    const char *p = in_dir("gen/x.c.h");
    const char *main_file = in_dir("m.c");
    put(main_file, "old\n");
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, p, "routed\n", 7, true);
    io_commit_add(commit, main_file, "new\n", 4, false);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    char expected[2048];
    snprintf(expected, sizeof expected,
             "Can't write to destination %s, can't make directory %s/gen!",
             p, dir);
    ck_assert_str_eq(err.message, expected);
    ck_assert_int_eq(err.errnum, ENOTDIR);
    ck_assert_str_eq(get(main_file), "old\n");
    ck_assert_str_eq(get(in_dir("gen")), "a file\n");

    /* deeper: a file where a middle directory should be */
    commit = io_commit_new();
    io_commit_add(commit, in_dir("gen/sub/x.h"), "r\n", 2, true);
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    ck_assert_int_eq(entries(dir), 2);
}
END_TEST

START_TEST(routed_file_never_through_a_symlink)
{
    const char *victim = in_dir("victim.txt");
    const char *link = in_dir("gen.h");
    put(victim, "precious\n");
    ck_assert_int_eq(symlink("victim.txt", link), 0);
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, link, "routed\n", 7, true);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    ck_assert_int_eq(err.errnum, ELOOP);
    ck_assert(strstr(err.message, "symbolic link"));
    ck_assert_str_eq(get(victim), "precious\n");
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));

    /* dangling: the file it names is not created */
    ck_assert_int_eq(symlink("nowhere.h", in_dir("dangling.h")), 0);
    commit = io_commit_new();
    io_commit_add(commit, in_dir("dangling.h"), "r\n", 2, true);
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    ck_assert_int_eq(lstat(in_dir("nowhere.h"), &st), -1);
    ck_assert_int_eq(entries(dir), 3);
}
END_TEST

START_TEST(changed_since_read_not_written)
{
    const char *in = in_dir("in.c"), *routed = in_dir("in.c.h");
    put(in, "v1\n");
    struct stat st;
    ck_assert_int_eq(stat(in, &st), 0);
    IoStamp read;
    io_stamp_of(&st, &read);

    /* another process renames a new version over the input */
    put(in_dir("next"), "v2\n");
    ck_assert_int_eq(rename(in_dir("next"), in), 0);
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, routed, "from v1\n", 8, true);
    io_commit_add(commit, in, "v1 done\n", 8, false);
    io_commit_expect(commit, in, &read);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    ck_assert_int_eq(err.errnum, ESTALE);
    ck_assert_str_eq(err.path, in);
    ck_assert(strstr(err.message, "changed while clinic was running"));
    ck_assert_str_eq(get(in), "v2\n");
    ck_assert_int_eq(entries(dir), 1);   /* no routed file, no temp */

    /* a file read that is gone since has changed too */
    ck_assert_int_eq(stat(in, &st), 0);
    io_stamp_of(&st, &read);
    commit = io_commit_new();
    io_commit_add(commit, routed, "from v2\n", 8, true);
    io_commit_add(commit, in, "v2 done\n", 8, false);
    io_commit_expect(commit, in, &read);
    io_commit_expect(commit, routed, &read);
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    io_commit_free(commit);
    ck_assert_str_eq(get(in), "v2\n");

    /* unchanged since read: written, the routed file (renamed first)
       not mistaken for a change */
    commit = io_commit_new();
    io_commit_add(commit, routed, "from v2\n", 8, true);
    io_commit_add(commit, in, "v2 done\n", 8, false);
    io_commit_expect(commit, in, &read);
    ck_assert_int_eq(io_commit_run(commit, &err), 2);
    io_commit_free(commit);
    ck_assert_str_eq(get(in), "v2 done\n");
    ck_assert_str_eq(get(routed), "from v2\n");

    /* changed, but already what the commit would write (a concurrent
       clinic): no error, nothing renamed */
    ck_assert_int_eq(stat(in, &st), 0);
    io_stamp_of(&st, &read);
    put(in_dir("next"), "v3\n");
    ck_assert_int_eq(rename(in_dir("next"), in), 0);
    commit = io_commit_new();
    io_commit_add(commit, in, "v3\n", 3, false);
    io_commit_expect(commit, in, &read);
    ck_assert_int_eq(io_commit_run(commit, &err), 0);
    io_commit_free(commit);
    ck_assert_str_eq(get(in), "v3\n");
}
END_TEST

START_TEST(missing_directory_without_make_dirs)
{
    IoError err;
    ck_assert_int_eq(io_write_file(in_dir("nodir/x.c"), "x\n", 2, &err), -1);
    ck_assert_int_eq(err.errnum, ENOENT);
    ck_assert_int_eq(entries(dir), 0);
}
END_TEST

/* ---- identity ------------------------------------------------------- */

START_TEST(same_file_by_identity)
{
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_int_eq(mkdir("sub", 0777), 0);
    put("x.c", "int x;\n");
    put("other.c", "int x;\n");
    ck_assert_int_eq(symlink("x.c", "link.c"), 0);
    ck_assert_int_eq(symlink("sub", "sublink"), 0);
    ck_assert_int_eq(link("x.c", "hard.c"), 0);
    char abs[2048];
    snprintf(abs, sizeof abs, "%s/x.c", dir);

    /* one file, many names */
    ck_assert(io_same_file("x.c", "x.c"));
    ck_assert(io_same_file("x.c", "./x.c"));
    ck_assert(io_same_file("x.c", abs));
    ck_assert(io_same_file("x.c", "link.c"));
    ck_assert(io_same_file("x.c", "hard.c"));
    ck_assert(io_same_file("x.c", "sub/../x.c"));
    ck_assert(io_same_file("x.c", ".//x.c"));
    ck_assert(!io_same_file("x.c", "other.c"));
    ck_assert(!io_same_file("x.c", "sub/x.c"));

    /* files that do not exist yet: by resolved path */
    ck_assert(io_same_file("sub/new.h", "sublink/new.h"));
    ck_assert(io_same_file("sub/new.h", "./sub/../sub/new.h"));
    ck_assert(io_same_file("sub/a/b/new.h", "sublink/a/c/../b/new.h"));
    ck_assert(!io_same_file("sub/new.h", "sub/new2.h"));
    ck_assert(!io_same_file("sub/new.h", "new.h"));
    /* a dangling symlink is written through: it names its target */
    ck_assert_int_eq(symlink("sub/gen.h", "dangling.h"), 0);
    ck_assert(io_same_file("dangling.h", "sub/gen.h"));
    ck_assert(io_same_file("dangling.h", "sublink/gen.h"));

    ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

START_TEST(commit_refuses_two_names_for_one_file)
{
    const char *a = in_dir("a.c");
    const char *link = in_dir("link.c");
    put(a, "old\n");
    ck_assert_int_eq(symlink("a.c", link), 0);
    IoCommit *commit = io_commit_new();
    io_commit_add(commit, a, "one\n", 4, false);
    io_commit_add(commit, link, "two\n", 4, false);
    IoError err;
    ck_assert_int_eq(io_commit_run(commit, &err), -1);
    ck_assert_str_eq(err.path, a);
    ck_assert(strstr(err.message, "is the same file as"));
    io_commit_free(commit);
    ck_assert_str_eq(get(a), "old\n");
    ck_assert_int_eq(entries(dir), 2);
}
END_TEST

START_TEST(temp_names_fit_the_name_limit)
{
    /* ".NAME.clinic-PID-XXXXXX" would pass the limit for a long NAME: the
       name is cut and hashed, and stays distinct */
    char name[256], other[256];
    memset(name, 'n', 250);
    name[250] = '\0';
    memcpy(other, name, 251);
    other[249] = 'o';
    char path[1024], path2[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(path2, sizeof path2, "%s/%s", dir, other);
    char *t = io_temp_name(path), *t2 = io_temp_name(path2);
    const char *base = strrchr(t, '/') + 1, *base2 = strrchr(t2, '/') + 1;
    ck_assert_uint_le(strlen(base), 255);
    ck_assert_str_ne(base, base2);
    ck_assert(!strncmp(base, ".nnnn", 5));
    free(t);
    free(t2);
    /* a short name is kept whole */
    t = io_temp_name(in_dir("x.c"));
    ck_assert(strstr(t, "/.x.c.clinic-"));
    free(t);
    /* and the longest name there is can be rewritten */
    memset(name, 'm', 255);
    name[255] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    put(path, "old\n");
    IoError err;
    ck_assert_int_eq(io_write_file(path, "new\n", 4, &err), 1);
    ck_assert_str_eq(get(path), "new\n");
    ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(special_files_are_not_read)
{
    const char *fifo = in_dir("f.c");
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    char *data;
    size_t len;
    /* a FIFO without a writer would block an open for reading */
    ck_assert_int_eq(io_read_file(fifo, &data, &len), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_int_eq(io_open_regular(dir), -1);
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_int_eq(io_read_file("/dev/zero", &data, &len), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_str_eq(io_file_kind(S_IFIFO), "a FIFO");
    /* nor replaced */
    IoError err;
    ck_assert_int_eq(io_write_file(fifo, "x\n", 2, &err), -1);
    ck_assert(strstr(err.message, "it is a FIFO, not a regular file"));
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

/* io_normpath is os.path.normpath (bar "//", which it makes "/") */
START_TEST(normpath_as_python)
{
    static const char *const cases[][2] = {
        {"a/b", "a/b"}, {"./x", "x"}, {"a//b", "a/b"}, {"/", "/"},
        {"//", "/"}, {"/..", "/"}, {"../a", "../a"}, {"a/..", "."},
        {"a/../..", ".."}, {"../../a/b/../c", "../../a/c"},
        {"/a/../../b", "/b"}, {"", "."}, {"a/./b/", "a/b"}, {"./", "."},
        {"x/../y/./z", "y/z"}, {"a/b/c/../../..", "."}, {"/x/y/..", "/x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = io_normpath(cases[i][0]);
        ck_assert_msg(!strcmp(got, cases[i][1]), "%s: %s, not %s",
                      cases[i][0], got, cases[i][1]);
        free(got);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("io");
    TCase *tc = tcase_create("io");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, read_file_and_text);
    tcase_add_test(tc, normpath_as_python);
    tcase_add_test(tc, utf8_errors_as_python_words_them);
    tcase_add_test(tc, cr_and_nul_found_anywhere);
    tcase_add_test(tc, scan_finds_where_plain_text_ends);
    tcase_add_test(tc, new_file_gets_umask_mode);
    tcase_add_test(tc, unchanged_file_not_touched);
    tcase_add_test(tc, changed_file_replaced_keeping_mode);
    tcase_add_test(tc, symlink_written_through);
    tcase_add_test(tc, read_only_directory);
    tcase_add_test(tc, disk_full);
    tcase_add_test(tc, short_writes_resumed);
    tcase_add_test(tc, commit_is_all_or_nothing);
    tcase_add_test(tc, parent_directories_made);
    tcase_add_test(tc, file_in_the_way_of_directory);
    tcase_add_test(tc, missing_directory_without_make_dirs);
    tcase_add_test(tc, routed_file_never_through_a_symlink);
    tcase_add_test(tc, changed_since_read_not_written);
    tcase_add_test(tc, same_file_by_identity);
    tcase_add_test(tc, commit_refuses_two_names_for_one_file);
    tcase_add_test(tc, temp_names_fit_the_name_limit);
    tcase_add_test(tc, special_files_are_not_read);
    suite_add_tcase(s, tc);
    return unit_run(s);
}
