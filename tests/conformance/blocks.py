"""Split a clinic-processed file into blocks the way clinic.py's BlockParser
does, and strip generated output.

This mirrors BlockParser (clinic.py 1560-1722) line by line, but keeps line
indices instead of text so that the stripper can delete exactly the lines the
reference considers output: from the line after a block's stop line through
its own end marker.  A stray end marker sitting after ordinary C code is
never mistaken for a block's marker, because (like the reference) we only
look for a marker directly after a stop line and give up at the next start
line.
"""
import re

_START = {"c": ("/*[", " input]"), "py": ("#/*[", " input]")}
_STOP = {"c": "[{} start generated code]*/", "py": "#[{} start generated code]*/"}
_SUM = {"c": ("/*[{} end generated code: ", "]*/"),
        "py": ("#/*[{} end generated code: ", "]*/")}


class Block:
    """A clinic block: indices into the line list.

    start   -- the '/*[NAME input]' line
    stop    -- the stop line (None: the body ran to a start line or EOF)
    marker  -- the end-marker line (None: no output and no marker)
    output  -- (first, last+1) of the output lines, empty when no marker
    """

    def __init__(self, dsl_name, start):
        self.dsl_name = dsl_name
        self.start = start
        self.stop = None
        self.marker = None
        self.output = (None, None)

    def body(self, lines):
        end = self.stop if self.stop is not None else self.output[0]
        return lines[self.start + 1:end]


def language_of(path):
    return "py" if path.endswith(".py") else "c"


def split_lines(text):
    # clinic.py uses str.splitlines(keepends=True): same line breaks here.
    return text.splitlines(keepends=True)


def parse(lines, lang="c"):
    """Return the list of Blocks in lines (a list from split_lines)."""
    before, after = _START[lang]
    start_re = re.compile("^" + re.escape(before) + r"(\w+)" + re.escape(after) + "$")
    sum_re_cache = {}

    def start_name(line):
        m = start_re.match(line.lstrip())
        return m.group(1) if m else None

    blocks = []
    i, n = 0, len(lines)
    while i < n:
        name = start_name(lines[i])
        i += 1
        if not name:
            continue
        b = Block(name, i - 1)
        stop_line = _STOP[lang].format(name)
        while i < n:
            line = lines[i]
            i += 1
            if line.startswith(stop_line):
                b.stop = i - 1
                break
            if start_name(line):
                break  # the reference swallows this start line, as here
        if name not in sum_re_cache:
            sb, sa = _SUM[lang]
            sum_re_cache[name] = re.compile(
                "^" + re.escape(sb.format(name)) + "(.+)" + re.escape(sa) + "$")
        sum_re = sum_re_cache[name]
        j = i
        found = False
        while j < n:
            line = lines[j]
            j += 1
            m = sum_re.match(line.lstrip())
            if m and m.group(1):
                found = True
                break
            if start_name(line):
                break
        if found:
            b.output = (i, j - 1)
            b.marker = j - 1
            i = j
        else:
            b.output = (i, i)
        blocks.append(b)
    return blocks


def checksum(text, length=16):
    import hashlib
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:length]


def neutral_marker(dsl_name, body, lang="c"):
    """An end marker for a block with empty output: valid for the reference
    (only the output checksum is verified) and says 'regenerate me'."""
    sb, sa = _SUM[lang]
    args = "output={} input={}".format(checksum(""), checksum(body))
    return sb.format(dsl_name) + args + sa + "\n"


def guard_stray_markers(lines, lang="c"):
    """After output was removed, a block's forward scan for its end marker
    can run past ordinary C code into a stray end marker further down (one
    CPython file, Modules/_asynciomodule.c, has one after leave_task()).
    Give such a block an empty-output marker of its own right after its
    stop line, so the scan stops there, as it did in the pristine file."""
    while True:
        for b in parse(lines, lang):
            if b.marker is not None and b.output[0] != b.output[1] and b.stop is not None:
                body = "".join(lines[b.start + 1:b.stop])
                lines = lines[:b.stop + 1] + [neutral_marker(b.dsl_name, body, lang)] + lines[b.stop + 1:]
                break
        else:
            return lines


def strip_lines(lines, lang="c"):
    drop = set()
    for b in parse(lines, lang):
        if b.marker is not None:
            drop.update(range(b.output[0], b.marker + 1))
    return guard_stray_markers([l for k, l in enumerate(lines) if k not in drop], lang)


def strip(text, lang="c"):
    """Text with every block's output and end marker removed."""
    return "".join(strip_lines(split_lines(text), lang))


def segments(text, lang="c"):
    """List of (block input, block output+marker) for every block."""
    lines = split_lines(text)
    out = []
    for b in parse(lines, lang):
        inp = "".join(lines[b.start:(b.stop + 1) if b.stop is not None else b.output[0]])
        o = "".join(lines[b.output[0]:b.marker + 1]) if b.marker is not None else ""
        out.append((inp, o))
    return out
