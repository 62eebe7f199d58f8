#!/usr/bin/env python3
"""Differential tests of clinic's Python interpreter against Python itself.

Generates random programs over the language python blocks are written in
(statements, arithmetic on ints of any size and floats, strings and their
methods, every formatting mini-language, lists, dicts, sets, tuples,
comprehensions, functions with every kind of parameter, closures, classes
with inheritance and super(), and the errors all of these raise), runs
each with clinic's interpreter (tests/pyvm/pyvm_run.c) and with the
Python running this script (python3, 3.11), and compares what they print
and the type of the exception that ended them, if any.  A mismatch prints
the program, both outputs, and keeps the program in --keep.

    differential.py --interp build/tests/pyvm_run [--seed N] [--count N]
                    [--keep DIR] [--show SEED]

The programs of one seed are the same on every run: make check runs a
fixed seed, make fuzz a long run from a seed of the day.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

# ---- generation ---------------------------------------------------------

ASCII_WORDS = ["a", "b", "ab", "abc", "Hello", "x y", "  pad  ", "A-B-C",
               "one,two,three", "", "42", "3.5", "MiXeD", "tab\there",
               "line\nbreak", "quote'in", 'dq"in', "back\\slash", "_id1"]
UNICODE_WORDS = ["é", "naïve", "€uro", "中文", "zß"]
INT_LITERALS = ["0", "1", "2", "3", "7", "10", "-1", "-5", "100", "255",
                "0x1f", "0o17", "0b101", "1_000", "12345678901234567890",
                "-98765432109876543210", "(2**64)", "(10**20)"]
FLOAT_LITERALS = ["0.5", "1.5", "-2.25", "3.14159", "1e10", "1e-3",
                  "2.0", "0.1", "100.0", "-0.0", "1e300"]
TYPES = ["int", "float", "str", "bool", "list", "dict", "tuple", "set"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.vars = {t: [] for t in TYPES}
        self.funcs = []          # (name, params, kind)
        self.classes = []        # (name, attrs)
        self.instances = []      # (var, class)
        self.counter = 0
        self.lines = []
        self.depth = 0
        self.in_loop = False
        self.in_func = False

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def emit(self, line):
        self.lines.append("    " * self.depth + line)

    # -- expressions, by type; d is the remaining depth --

    def var(self, t):
        return self.pick(self.vars[t]) if self.vars[t] else None

    def str_lit(self, ascii_only=False):
        words = ASCII_WORDS if ascii_only or not self.chance(0.15) \
            else UNICODE_WORDS
        return repr(self.pick(words))

    def e_int(self, d):
        v = self.var("int")
        if d <= 0 or self.chance(0.3):
            return v if v and self.chance(0.6) else self.pick(INT_LITERALS)
        c = self.r.randrange(18)
        a, b = lambda: self.e_int(d - 1), lambda: self.e_int(d - 1)
        if c == 0:
            return "(%s %s %s)" % (a(), self.pick(["+", "-", "*"]), b())
        if c == 1:
            return "(%s %s %s)" % (a(), self.pick(["//", "%"]),
                                   self.pick([b(), "3", "7", "-2"]))
        if c == 2:
            return "(%s ** %d)" % (a(), self.r.randrange(0, 6 if
                                                          self.chance(0.8)
                                                          else 70))
        if c == 3:
            return "(%s %s %s)" % (a(), self.pick(["&", "|", "^"]), b())
        if c == 4:
            return "(%s %s %d)" % (a(), self.pick(["<<", ">>"]),
                                   self.r.randrange(0, 70))
        if c == 5:
            return "len(%s)" % self.pick([self.e_str(d - 1),
                                          self.e_list(d - 1),
                                          self.e_dict(d - 1)])
        if c == 6:
            return "%s(%s)" % (self.pick(["abs", "-", "+", "~"]), a())
        if c == 7:
            return "int(%s)" % self.pick([self.e_float(d - 1),
                                          repr(str(self.r.randrange(-99, 999))),
                                          "' 12 '", "'0x1f', 16", "'z', 36",
                                          self.e_bool(d - 1), "'1_0'",
                                          self.e_str(d - 1)])
        if c == 8:
            return "ord(%s)" % self.pick(["'a'", "'€'", "%s[0]" % self.e_str(d - 1)])
        if c == 9:
            return "%s.%s(%s)" % (self.e_str(d - 1), self.pick(
                ["find", "rfind", "count", "index"]), self.str_lit())
        if c == 10:
            return "%s(%s)" % (self.pick(["sum", "min", "max"]), self.e_list(d - 1))
        if c == 11:
            return "(%s if %s else %s)" % (a(), self.e_bool(d - 1), b())
        if c == 12:
            return "%s[%s]" % (self.e_list(d - 1), self.e_int(0))
        if c == 13:
            return "%s[%s]" % (self.e_dict(d - 1), self.str_lit(True))
        if c == 14:
            return "round(%s)" % self.e_float(d - 1)
        if c == 15:
            return "divmod(%s, %s)[%d]" % (a(), self.pick(["3", "-4", b()]),
                                           self.r.randrange(2))
        if c == 16 and self.instances:
            var, cls = self.pick(self.instances)
            return "%s.%s" % (var, self.pick(cls["int_attrs"]))
        if c == 17 and self.funcs:
            return self.call_func(d - 1)
        return a()

    def e_float(self, d):
        v = self.var("float")
        if d <= 0 or self.chance(0.3):
            return v if v and self.chance(0.5) else self.pick(FLOAT_LITERALS)
        c = self.r.randrange(8)
        a = lambda: self.e_float(d - 1)
        if c == 0:
            return "(%s %s %s)" % (a(), self.pick(["+", "-", "*", "/"]),
                                   self.pick([a(), self.e_int(d - 1)]))
        if c == 1:
            return "(%s / %s)" % (self.e_int(d - 1), self.pick(["3", "7", "-8",
                                                                self.e_int(d - 1)]))
        if c == 2:
            return "float(%s)" % self.pick([self.e_int(d - 1), "'1.25'",
                                            "' -3e2 '", "'inf'", "'nan'",
                                            self.str_lit()])
        if c == 3:
            return "round(%s, %d)" % (a(), self.r.randrange(-2, 5))
        if c == 4:
            return "(%s %s %s)" % (a(), self.pick(["//", "%"]),
                                   self.pick(["2.5", "-1.5", a()]))
        if c == 5:    # (a negative base to 0.5 would be complex)
            return self.pick(["(%s ** %s)" % (a(), self.pick(["2", "-1", "3"])),
                              "(abs(%s) ** 0.5)" % a()])
        if c == 6:
            return "abs(%s)" % a()
        return a()

    def e_str(self, d):
        v = self.var("str")
        if d <= 0 or self.chance(0.25):
            return v if v and self.chance(0.6) else self.str_lit()
        c = self.r.randrange(22)
        s = lambda: self.e_str(d - 1)
        if c == 0:
            return "(%s + %s)" % (s(), s())
        if c == 1:
            return "(%s * %d)" % (s(), self.r.randrange(-1, 4))
        if c == 2:
            return "%s[%s:%s%s]" % (s(), self.pick(["", "1", "-2", "0"]),
                                    self.pick(["", "3", "-1", "10"]),
                                    self.pick(["", ":2", ":-1"]))
        if c == 3:
            ascii_s = self.str_lit(True)
            return "%s.%s()" % (ascii_s, self.pick(
                ["upper", "lower", "title", "capitalize", "swapcase",
                 "strip", "lstrip", "rstrip", "casefold"]))
        if c == 4:
            return "%s.replace(%s, %s%s)" % (s(), self.str_lit(True),
                                             self.str_lit(True),
                                             self.pick(["", ", 1", ", 0"]))
        if c == 5:
            return "%s.join(%s)" % (self.str_lit(True), self.pick(
                [self.e_list_str(d - 1), "map(str, %s)" % self.e_list(d - 1),
                 s()]))
        if c == 6:
            return "str(%s)" % self.any_expr(d - 1)
        if c == 7:
            return "repr(%s)" % self.any_expr(d - 1)
        if c == 8:
            return self.fstring(d - 1)
        if c == 9:
            return self.percent_format(d - 1)
        if c == 10:
            return self.str_format(d - 1)
        if c == 11:
            return "%s.%s(%d%s)" % (s(), self.pick(["center", "ljust", "rjust"]),
                                    self.r.randrange(0, 12),
                                    self.pick(["", ", '*'", ", '-'"]))
        if c == 12:
            return "%s.zfill(%d)" % (self.pick([s(), "'-42'", "'+7'"]),
                                     self.r.randrange(0, 8))
        if c == 13:
            return "%s(%s)" % (self.pick(["hex", "oct", "bin"]), self.e_int(d - 1))
        if c == 14:
            return "chr(%s)" % self.pick(["65", "0x20ac", "97 + 3", "10"])
        if c == 15:
            return "%s[%s]" % (s(), self.e_int(0))
        if c == 16:
            return "format(%s, %s)" % (self.any_num(d - 1), repr(self.spec()))
        if c == 17:
            return "ascii(%s)" % s()
        if c == 18:
            return "%s.strip(%s)" % (s(), self.str_lit(True))
        if c == 19:
            return "' '.join(%s.split(%s))" % (s(), self.pick(["", "','", "' '", "None, 1"]))
        if c == 20 and self.instances:
            var, cls = self.pick(self.instances)
            return self.pick(["str(%s)" % var, "%s.describe()" % var,
                              "repr(%s)" % var])
        return "%s.expandtabs(4)" % s()

    def e_bool(self, d):
        if d <= 0 or self.chance(0.2):
            v = self.var("bool")
            return v if v and self.chance(0.5) else self.pick(["True", "False"])
        c = self.r.randrange(12)
        if c == 0:
            return "(%s %s %s)" % (self.e_int(d - 1),
                                   self.pick(["<", "<=", "==", "!=", ">", ">="]),
                                   self.e_int(d - 1))
        if c == 1:
            return "(%s < %s <= %s)" % (self.e_int(d - 1), self.e_int(d - 1),
                                         self.e_int(d - 1))
        if c == 2:
            return "(%s %s %s)" % (self.e_bool(d - 1), self.pick(["and", "or"]),
                                   self.e_bool(d - 1))
        if c == 3:
            return "(not %s)" % self.e_bool(d - 1)
        if c == 4:
            return "(%s %s %s)" % (self.e_int(d - 1), self.pick(["in", "not in"]),
                                   self.pick([self.e_list(d - 1), self.e_set(d - 1)]))
        if c == 5:
            return "(%s in %s)" % (self.str_lit(True), self.e_str(d - 1))
        if c == 6:
            return "%s.%s()" % (self.e_str(d - 1), self.pick(
                ["isdigit", "isspace", "isidentifier", "isascii",
                 "isprintable"]))
        if c == 7:
            return "isinstance(%s, %s)" % (self.any_expr(d - 1), self.pick(
                ["int", "str", "(list, tuple)", "float", "bool", "dict"]))
        if c == 8:
            return "%s(%s)" % (self.pick(["any", "all", "bool"]),
                               self.e_list(d - 1))
        if c == 9:
            return "%s.%s(%s)" % (self.e_str(d - 1),
                                  self.pick(["startswith", "endswith"]),
                                  self.pick([self.str_lit(True), "('a', 'b')"]))
        if c == 10:
            return "(%s == %s)" % (self.any_expr(d - 1), self.any_expr(d - 1))
        return "(%s is None)" % self.any_expr(d - 1)

    def e_list(self, d):
        v = self.var("list")
        if d <= 0 or self.chance(0.25):
            if v and self.chance(0.6):
                return v
            return "[%s]" % ", ".join(self.pick(INT_LITERALS[:12])
                                      for _ in range(self.r.randrange(0, 5)))
        c = self.r.randrange(12)
        if c == 0:
            x = self.fresh("i")
            return "[%s for %s in %s%s]" % (
                self.pick(["%s * 2" % x, x, "%s %% 3" % x, "-%s" % x]), x,
                self.e_iterable(d - 1),
                self.pick(["", " if %s > 1" % x, " if %s %% 2" % x]))
        if c == 1:
            return "sorted(%s%s)" % (self.e_list(d - 1), self.pick(
                ["", ", reverse=True", ", key=lambda x: -x",
                 ", key=lambda x: (x % 3, x)"]))
        if c == 2:
            return "list(range(%s))" % self.pick(["5", "2, 9", "10, 0, -3",
                                                  "%s %% 7" % self.e_int(d - 1)])
        if c == 3:
            return "(%s + %s)" % (self.e_list(d - 1), self.e_list(d - 1))
        if c == 4:
            return "%s[%s:%s]" % (self.e_list(d - 1), self.pick(["", "1", "-2"]),
                                  self.pick(["", "3", "-1", "::-1"][:3]))
        if c == 5:
            return "[%s] * %d" % (self.e_int(d - 1), self.r.randrange(0, 4))
        if c == 6:
            return "list(map(lambda x: x + %s, %s))" % (self.e_int(0),
                                                        self.e_list(d - 1))
        if c == 7:
            return "list(filter(None, %s))" % self.e_list(d - 1)
        if c == 8:
            return "[len(w) for w in %s]" % self.e_list_str(d - 1)
        if c == 9:
            return "list(reversed(%s))" % self.e_list(d - 1)
        if c == 10:
            return "sorted(%s)" % self.e_set(d - 1)
        return "[%s, %s]" % (self.e_int(d - 1), self.e_int(d - 1))

    def e_list_str(self, d):
        c = self.r.randrange(4)
        if c == 0:
            return "%s.split(%s)" % (self.e_str(d - 1), self.pick(["", "','", "'b'"]))
        if c == 1:
            return "sorted(%s)" % self.e_str(d - 1)
        if c == 2:
            return "[%s]" % ", ".join(self.str_lit() for _ in range(self.r.randrange(4)))
        return "list(%s)" % self.e_str(d - 1)

    def e_iterable(self, d):
        return self.pick([self.e_list(d), "range(%d)" % self.r.randrange(6),
                          self.e_set(d), "%s.values()" % self.e_dict(d)])

    def e_dict(self, d):
        v = self.var("dict")
        if d <= 0 or self.chance(0.3):
            if v and self.chance(0.6):
                return v
            return "{%s}" % ", ".join("%s: %s" % (self.str_lit(True), self.e_int(0))
                                      for _ in range(self.r.randrange(0, 4)))
        c = self.r.randrange(5)
        if c == 0:
            k = self.fresh("k")
            return "{%s: %s for %s in %s}" % (
                "str(%s)" % k, "%s * %s" % (k, k), k, self.e_iterable(d - 1))
        if c == 1:
            return "dict(zip(%s, %s))" % (self.e_list_str(d - 1), self.e_list(d - 1))
        if c == 2:
            return "{**%s, %s: %s}" % (self.e_dict(d - 1), self.str_lit(True),
                                      self.e_int(d - 1))
        if c == 3:
            return "dict(%s, extra=%s)" % (self.e_dict(d - 1), self.e_int(d - 1))
        return "(%s | %s)" % (self.e_dict(d - 1), self.e_dict(d - 1))

    def e_tuple(self, d):
        v = self.var("tuple")
        if d <= 0 or self.chance(0.3):
            if v and self.chance(0.5):
                return v
            return self.pick(["()", "(1,)", "(1, 'a', None)", "(2.5, -3)"])
        c = self.r.randrange(4)
        if c == 0:
            return "(%s, %s)" % (self.any_expr(d - 1), self.any_expr(d - 1))
        if c == 1:
            return "tuple(%s)" % self.e_list(d - 1)
        if c == 2:
            return "divmod(%s, %s)" % (self.e_int(d - 1), self.pick(["3", "-7", self.e_int(0)]))
        return "%s.partition(%s)" % (self.e_str(d - 1), self.str_lit(True))

    def e_set(self, d):
        v = self.var("set")
        if d <= 0 or self.chance(0.3):
            if v and self.chance(0.6):
                return v
            return "{%s}" % ", ".join(self.pick(INT_LITERALS[:14])
                                      for _ in range(self.r.randrange(1, 6)))
        c = self.r.randrange(5)
        if c == 0:
            return "(%s %s %s)" % (self.e_set(d - 1), self.pick(["|", "&", "-", "^"]),
                                   self.e_set(d - 1))
        if c == 1:
            return "set(%s)" % self.e_list(d - 1)
        if c == 2:
            x = self.fresh("s")
            return "{%s %% 5 for %s in %s}" % (x, x, self.e_list(d - 1))
        if c == 3:
            return "%s.union(%s)" % (self.e_set(d - 1), self.e_list(d - 1))
        return "set(range(%d, %d))" % (self.r.randrange(-3, 3), self.r.randrange(0, 40))

    def any_num(self, d):
        return self.pick([self.e_int(d), self.e_float(d)])

    def any_expr(self, d):
        t = self.pick(["int", "int", "float", "str", "str", "bool", "list",
                       "dict", "tuple", "set"])
        return getattr(self, "e_" + t)(d)

    def spec(self):
        fill = self.pick(["", "", "*", "0", " "])
        align = self.pick(["", "<", ">", "^", "="]) if fill or self.chance(0.5) else ""
        if fill and not align:
            fill = ""
        sign = self.pick(["", "", "+", "-", " "])
        alt = self.pick(["", "", "#"])
        zero = self.pick(["", "", "0"]) if not fill else ""
        width = self.pick(["", "", "5", "10", "1"])
        group = self.pick(["", "", "", ",", "_"])
        prec = self.pick(["", "", ".2", ".0", ".5"])
        typ = self.pick(["", "", "d", "x", "X", "o", "b", "f", "e", "g", "G",
                         "%", "n", "E", "F"])
        return fill + align + sign + alt + zero + width + group + prec + typ

    def fstring(self, d):
        parts = []
        for _ in range(self.r.randrange(1, 4)):
            c = self.r.randrange(4)
            if c == 0:
                parts.append(self.pick(["x=", " | ", "-", "{{", "}}", "é"]))
            elif c == 1:
                parts.append("{%s!%s}" % (self.any_expr(d), self.pick("rsa")))
            elif c == 2:
                parts.append("{%s:%s}" % (self.any_num(d), self.spec()))
            else:
                parts.append("{%s:{%s}}" % (self.e_str(0), "'>' + str(%d)" %
                                            self.r.randrange(1, 9)))
        body = "".join(parts)
        q = '"' if "'" in body else "'"
        if q in body:
            return "'f'"
        return "f" + q + body + q

    def percent_format(self, d):
        convs = self.pick([["s"], ["d", "s"], ["r"], ["5.2f"], ["x", "o"],
                           ["-6s", "+d"], ["c"], ["%"], ["e", "g"], ["05d"],
                           ["#x"], ["a"]])
        fmt = " ".join("%" + c for c in convs)
        args = []
        for c in convs:
            if c == "%":
                continue
            if c[-1] in "dxoegf":
                args.append(self.any_num(d))
            elif c == "c":
                args.append(self.pick(["65", "'z'"]))
            else:
                args.append(self.any_expr(d))
        if self.chance(0.1):
            args.append("1")
        if len(args) == 1 and self.chance(0.5):
            return "(%r %% %s)" % (fmt, args[0] if not args[0].startswith("(")
                                   else "(%s,)" % args[0])
        return "(%r %% (%s,))" % (fmt, ", ".join(args)) if args else "(%r %% ())" % fmt

    def str_format(self, d):
        c = self.r.randrange(4)
        if c == 0:
            return "'{} and {}'.format(%s, %s)" % (self.any_expr(d), self.any_expr(d))
        if c == 1:
            return "'{0}{1}{0!r}'.format(%s, %s)" % (self.any_expr(d), self.any_expr(d))
        if c == 2:
            return "'{name:%s}'.format(name=%s)" % (self.spec(), self.any_num(d))
        return "'{0[1]} {1.real}'.format(%s, %s)" % (self.e_list(d), self.e_int(d))

    # -- functions and classes --

    def call_func(self, d):
        name, params, _ = self.pick(self.funcs)
        args = []
        for kind, pname in params:
            if kind == "pos":
                args.append(self.e_int(d))
            elif kind == "default" and self.chance(0.5):
                args.append("%s=%s" % (pname, self.e_int(d)) if self.chance(0.5)
                            else self.e_int(d))
            elif kind == "kwonly":
                args.append("%s=%s" % (pname, self.e_int(d)))
        if self.chance(0.1):
            args.append(self.e_int(d))       # maybe one too many
        if self.chance(0.05):
            args.append("nosuch=1")
        pos = [a for a in args if "=" not in a.split("(")[0]]
        kw = [a for a in args if "=" in a.split("(")[0]]
        return "%s(%s)" % (name, ", ".join(pos + kw))

    def s_def(self):
        name = self.fresh("f")
        params = []
        sig = []
        for _ in range(self.r.randrange(0, 3)):
            p = self.fresh("p")
            params.append(("pos", p))
            sig.append(p)
        if self.chance(0.5):
            p = self.fresh("p")
            params.append(("default", p))
            sig.append("%s=%s" % (p, self.pick(INT_LITERALS[:8])))
        if self.chance(0.3):
            sig.append("*args")
        if self.chance(0.4):
            p = self.fresh("k")
            if "*args" not in sig:
                sig.append("*")
            params.append(("kwonly", p))
            sig.append("%s=%s" % (p, self.pick(INT_LITERALS[:6])))
        if self.chance(0.2):
            sig.append("**kw")
        self.emit("def %s(%s):" % (name, ", ".join(sig)))
        self.depth += 1
        saved = self.vars["int"]
        self.vars["int"] = saved + [p for _, p in params]
        was_in_func = self.in_func
        self.in_func = True
        if self.chance(0.4):
            inner = self.fresh("g")
            acc = self.fresh("acc")
            self.emit("%s = 0" % acc)
            self.emit("def %s(x):" % inner)
            self.emit("    nonlocal %s" % acc)
            self.emit("    %s += x" % acc)
            self.emit("    return %s" % acc)
            self.emit("%s(%s)" % (inner, self.e_int(1)))
            self.vars["int"].append(acc)
        for _ in range(self.r.randrange(0, 3)):
            self.statement(1)
        extra = " + len(args)" if "*args" in sig else ""
        extra += " + len(kw)" if "**kw" in sig else ""
        self.emit("return %s%s" % (self.e_int(2), extra))
        self.in_func = was_in_func
        self.vars["int"] = saved
        self.depth -= 1
        self.funcs.append((name, params, "def"))

    def s_class(self):
        name = self.fresh("C")
        base = self.pick(self.classes) if self.classes and self.chance(0.5) else None
        attr = self.fresh("a")
        cls = {"name": name, "int_attrs": [attr, "n"]}
        self.emit("class %s%s:" % (name, "(%s)" % base["name"] if base else ""))
        self.depth += 1
        self.emit("%s = %s" % (attr, self.pick(INT_LITERALS[:10])))
        self.emit("def __init__(self, n=%s):" % self.pick(INT_LITERALS[:6]))
        if base:
            self.emit("    super().__init__(n + 1)")
        self.emit("    self.n = n")
        self.emit("def describe(self):")
        self.emit("    return %s %% (type(self).__name__, self.n, self.%s)" %
                  (repr(self.pick(["%s(%d, %d)", "<%s n=%r a=%r>", "%s:%s:%s"])),
                   attr))
        # a repr of its own: object's has an address in it
        self.emit("def __repr__(self):")
        self.emit("    return '%s(%%r)' %% (self.n,)" % name)
        if self.chance(0.3):
            self.emit("def __eq__(self, other):")
            self.emit("    return isinstance(other, %s) and self.n == other.n" % name)
            self.emit("__hash__ = None")
        if self.chance(0.3):
            self.emit("def __len__(self):")
            self.emit("    return abs(self.n) % 5")
        if base and self.chance(0.6):
            self.emit("def describe(self):")
            self.emit("    return 'sub ' + super().describe()")
        if self.chance(0.3):
            self.emit("@staticmethod")
            self.emit("def twice(x):")
            self.emit("    return x * 2")
            self.emit("@classmethod")
            self.emit("def make(cls, n):")
            self.emit("    return cls(n)")
            self.emit("@property")
            self.emit("def double(self):")
            self.emit("    return self.n * 2")
            cls["int_attrs"].append("double")
        self.depth -= 1
        self.classes.append(cls)
        var = self.fresh("obj")
        self.emit("%s = %s(%s)" % (var, name, self.e_int(1)))
        self.instances.append((var, cls))

    # -- statements --

    def s_assign(self, d):
        t = self.pick(TYPES)
        name = self.fresh()
        self.emit("%s = %s" % (name, getattr(self, "e_" + t)(d)))
        self.vars[t].append(name)

    def s_print(self, d):
        n = self.r.randrange(1, 4)
        args = [self.any_expr(d) for _ in range(n)]
        kw = self.pick(["", "", ", sep='|'", ", end='!\\n'", ", sep=''"])
        self.emit("print(%s%s)" % (", ".join(args), kw))

    def s_mutate(self, d):
        c = self.r.randrange(10)
        l, dc, s = self.var("list"), self.var("dict"), self.var("set")
        if l and c == 0:
            self.emit("%s.%s(%s)" % (l, self.pick(["append", "remove", "count",
                                                   "index"]), self.e_int(d)))
        elif l and c == 1:
            self.emit("%s.%s()" % (l, self.pick(["pop", "sort", "reverse",
                                                 "clear"])))
        elif l and c == 2:
            self.emit("%s[%s] = %s" % (l, self.e_int(0), self.e_int(d)))
        elif l and c == 3:
            self.emit("del %s[%s]" % (l, self.pick(["0", "-1", "1:3", "::2"])))
        elif dc and c == 4:
            self.emit("%s[%s] = %s" % (dc, self.str_lit(True), self.e_int(d)))
        elif dc and c == 5:
            self.emit("print(%s.pop(%s, %s), %s.setdefault(%s, 5))" % (
                dc, self.str_lit(True), self.e_int(0), dc, self.str_lit(True)))
        elif s and c == 6:
            self.emit("%s.%s(%s)" % (s, self.pick(["add", "discard"]),
                                     self.e_int(d)))
        elif l and c == 7:
            self.emit("%s[1:2] = %s" % (l, self.e_list(d)))
        elif c == 8 and self.vars["int"]:
            v = self.pick(self.vars["int"])
            op = self.pick(["+", "-", "*", "//", "%", "|", "<<"])
            self.emit("%s %s= %s" % (v, op, self.pick(
                ["2", "3", self.e_int(0) if op != "<<" else "5"])))
        elif c == 9 and self.vars["str"]:
            v = self.pick(self.vars["str"])
            self.emit("%s += %s" % (v, self.e_str(0)))
        else:
            self.s_print(d)

    def s_unpack(self, d):
        a, b = self.fresh(), self.fresh()
        if self.chance(0.5):
            self.emit("%s, *%s = %s" % (a, b, self.e_list(d)))
            self.vars["list"].append(b)
        else:
            self.emit("%s, %s = %s" % (a, b, self.pick(
                ["divmod(%s, 3)" % self.e_int(d), "(%s, %s)" %
                 (self.e_int(d), self.e_int(d)), self.e_list(d)])))
            self.vars["int"].append(b)
        self.vars["int"].append(a)

    def block(self, depth):
        self.depth += 1
        for _ in range(self.r.randrange(1, 3)):
            self.statement(depth)
        self.depth -= 1

    def statement(self, depth):
        c = self.r.randrange(100)
        d = self.r.randrange(1, 4)
        if c < 22:
            self.s_assign(d)
        elif c < 42:
            self.s_print(d)
        elif c < 54:
            self.s_mutate(d)
        elif c < 58:
            self.s_unpack(d)
        elif c < 66 and depth < 2:
            self.emit("if %s:" % self.e_bool(d))
            self.block(depth + 1)
            if self.chance(0.4):
                self.emit("elif %s:" % self.e_bool(d))
                self.block(depth + 1)
            if self.chance(0.5):
                self.emit("else:")
                self.block(depth + 1)
        elif c < 73 and depth < 2:
            x = self.fresh("x")
            self.emit("for %s in %s:" % (x, self.e_iterable(d)))
            self.vars["int"].append(x)
            was = self.in_loop
            self.in_loop = True
            self.block(depth + 1)
            if self.chance(0.3):
                self.emit("    if %s %s 2: %s" % (x, self.pick([">", "==", "<"]),
                                                 self.pick(["break", "continue"])))
            self.in_loop = was
            self.vars["int"].remove(x)
            if self.chance(0.3):
                self.emit("else:")
                self.emit("    print('no break')")
        elif c < 77 and depth < 2:
            n = self.fresh("n")
            self.emit("%s = %d" % (n, self.r.randrange(0, 6)))
            self.emit("while %s > 0:" % n)
            self.emit("    %s -= 1" % n)
            self.block(depth + 1)
        elif c < 81 and depth < 1:
            self.s_def()
        elif c < 85 and depth < 1:
            self.s_class()
        elif c < 90 and self.funcs:
            self.emit("print(%s)" % self.call_func(d))
        elif c < 93:
            self.emit("assert %s, %s" % (self.e_bool(d), self.str_lit(True)))
        elif c < 95 and depth < 1 and self.chance(0.5):
            self.emit("raise %s(%s)" % (self.pick(["ValueError", "RuntimeError",
                                                   "KeyError", "TypeError"]),
                                        self.e_str(1)))
        elif c < 98:
            self.emit("print(%s)" % self.pick([
                "[(i, j) for i in range(3) for j in range(i) if j != 1]",
                "sorted(%s.items())" % (self.var("dict") or "{'b': 2, 'a': 1}"),
                "list(zip(%s, %s))" % (self.e_list(1), self.e_list_str(1)),
                "{k: v for k, v in enumerate(%s)}" % self.e_list_str(1),
                "max(%s, key=len)" % self.e_list_str(1),
                "min(%s, default=-1)" % self.e_list(1)]))
        else:
            self.emit("print(%s)" % self.pick(["undefined_name", "None + 1",
                                               "[][0]", "{}['k']",
                                               "'a'.nosuch", "int('x')",
                                               "1 / 0", "(1).real.imag"]))

    def program(self, n):
        for _ in range(n):
            self.statement(0)
        return "\n".join(self.lines) + "\n"


def generate(seed, n=None):
    r = random.Random(seed)
    g = Gen(r)
    return g.program(n or r.randrange(6, 30))


# Big ints, past the sizes where the interpreter multiplies by Karatsuba's
# split (40 limbs of 9 digits) and converts bases by divide and conquer
# (48 limbs): operands of 300 to 100,000 bits, some all ones or a power
# of two (carries through every limb), given as hex literals (decimal
# ones past 4,300 digits are a SyntaxError), every result printed in
# bases 16, 8 and 2 and, under 4,300 digits, 10.  (The refusal past 4,300
# digits is make bounds' to check: these programs have no try.)
BIGINT_PROGRAMS = 30
BIGINT_BITS = [300, 1300, 1500, 4000, 5000, 9000, 20000, 60000, 150000]


def generate_bigint(seed):
    r = random.Random(seed)
    lines = []

    def value(bits):
        x = r.getrandbits(bits) | 1
        c = r.random()
        if c < 0.15:
            x = (1 << bits) - 1
        elif c < 0.25:
            x = 1 << bits
        return -x if r.random() < 0.3 else x

    def lit(x):
        return ("-" if x < 0 else "") + hex(abs(x))

    for _ in range(2):
        lines.append("x = " + lit(value(r.choice(BIGINT_BITS))))
        lines.append("y = " + lit(value(r.choice(BIGINT_BITS))))
        small = lit(value(r.choice(BIGINT_BITS[:5])))
        sh = r.choice([1, 29, 31, 32, 33, 100, 2900, 70000])
        lines.append("for v in (x * y, x * x, x << %d, x >> %d, x & y, x | y, "
                     "x ^ y, ~x, abs(x).bit_length(), x * %s, x // %s, "
                     "x %% %s, round(x, -%d)):" % (sh, sh, small, small, small,
                                                  r.choice([1, 9, 300, 4000])))
        lines.append("    print(hex(v), %s)" % r.choice([
            "oct(v)[-30:]", "bin(v)[:50]", "format(v, '_X')[-40:]",
            "'%#o' % v", "'%x' % v"]))
        lines.append("    print(str(v) if len(hex(v)) < 3500 else len(hex(v)))")
        for base, alphabet in ((7, "0123456"), (36, "0123456789abcdefghijklmnop"
                                                    "qrstuvwxyz"), (10, "0123456789")):
            n = r.choice([5, 100, 900, 4300])
            digits = "".join(r.choice(alphabet) for _ in range(n))
            lines.append("print(hex(int(%r, %d)))" % (digits, base))
        lines.append("print(int(hex(x), 16) == x, int(bin(y), 0) == y, "
                     "int(oct(abs(y))[2:], 8) == abs(y))")
        lines.append("print(hex((x %% 10 ** 4000) ** 3), hex(3 ** %d))"
                     % r.randrange(30000))
    return "\n".join(lines) + "\n"

# ---- running ------------------------------------------------------------

# The reference: this Python (python3, 3.11) running each program as a
# script, in a child process so that memory and time are bounded.
REFERENCE = r"""
import contextlib, io, sys, warnings
warnings.simplefilter("ignore")      # "is" with a literal, ...
for path in sys.argv[1:]:
    src = open(path, encoding="utf-8").read()
    out = io.StringIO()
    try:
        code = compile(src, path, "exec")
        with contextlib.redirect_stdout(out):
            exec(code, {"__name__": "__main__"})
    except BaseException as e:
        out.write("EXCEPTION: %s\n" % type(e).__qualname__)
    sys.stdout.write("\x01 %s\n" % path + out.getvalue())
    sys.stdout.flush()
"""

MEMORY_LIMIT = 1 << 30

# "Did you mean": programs ending in a NameError or AttributeError with a
# near miss, whose traceback's last line (Python prints it uncaught, with
# the suggestion str(exception) lacks) must be ours.  No dunder names: a
# script's globals hold __file__, __spec__ ... that ours do not.
SUGGESTION_CASES = [
    "print(lenn([]))",
    "Print(1)",
    "pritn(1)",
    "memryview",
    "abcdef = 1\nprint(abcdeg)",
    "def f(alpha, beta):\n    gamma = 1\n    return gammma\nf(1, 2)",
    "def f(ab, ac):\n    return ad\nf(1, 2)",
    "def f():\n    xb = 1\n    xa = 2\n    return xc\nf()",
    "def f(Value):\n    return value\nf(1)",
    "print([x for x in range(3) if xx])",
    "class C:\n    val = 1\n    print(vall)",
    "averyveryveryveryveryverylongnamethatislong_x = 1\n"
    "print(averyveryveryveryveryverylongnamethatislong_y)",
    "nothing_near_this_name_at_all",
    "ValueErorr",
    "\n".join("name%d = %d" % (i, i) for i in range(800)) + "\nname8000",
    "class A:\n    value = 1\n    def method(self): pass\nA().valeu",
    "class A:\n    value = 1\nA.Value",
    "class A:\n    def __init__(self):\n        self.counter = 0\nA().countr",
    "class A:\n    x = 1\nclass B(A):\n    y = 2\nB().xx",
    "class A: pass\nA().__init",
    "class A: pass\nA.zzzzzz",
    "class A:\n    def f(self):\n        return self.gg\n    def g(self): pass\nA().f()",
    # the built-in classes' attributes (pyvm_dir.c)
    "'abc'.uper()",
    "[].apend(1)",
    "{}.iterms()",
    "(1).bit_lenght()",
    "int.from_byte",
    "x = 1.5\nx.is_integr()",
    "frozenset().unon",
    "b'x'.decod",
    "ValueError('x').arg",
    "class E(Exception): pass\nE().with_traceback2",
    "def f(): pass\nf.__nam__",
    "None.real",
    # dir() of them, in the exception's message
    "raise ValueError([dir(1) == dir(int), dir([]) == dir(list),\n"
    "                  dir(KeyError) == dir(KeyError('k')), dir(str),\n"
    "                  dir(print), dir({}.items())])",
    # dir() and globals() without arguments: the function's scope, the
    # class body's, the module's
    "def f(a, b=2):\n    c = 3\n    return dir()\ng = globals()\n"
    "class K:\n    x = 1\n    inner = dir()\n    called = f(1)\n"
    "    same = globals() is g\n"
    "raise ValueError([f(0), K.inner, K.called, K.same])",
]


def check_suggestions(interp, tmpdir):
    """Failures among SUGGESTION_CASES: (source, python's line, ours)."""
    failures = []
    for i, src in enumerate(SUGGESTION_CASES):
        path = os.path.join(tmpdir, "s%d.py" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write(src + "\n")
        ref = subprocess.run([sys.executable, path], capture_output=True,
                             text=True).stderr.strip().splitlines()[-1]
        got = subprocess.run([interp, path], capture_output=True,
                             text=True).stderr.strip().splitlines()
        got = got[-1].split(": ", 1)[1] if got else "(nothing)"
        if ref != got:
            failures.append((src, ref, got))
    return failures


def limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_batch(cmd, paths):
    """Outputs by program of a command that runs several, each one's
    after a line "\x01 PATH"; a program whose run did not finish has
    none."""
    try:
        p = subprocess.run(cmd + paths, capture_output=True, timeout=900,
                           preexec_fn=limit_memory)
        text = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode("utf-8", "replace")
    outputs, current = {}, None
    for line in text.splitlines(keepends=True):
        if line.startswith("\x01 ") and line[2:].strip() in paths:
            current = line[2:].strip()
            outputs[current] = ""
        elif current is not None:
            outputs[current] += line
    return outputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--interp", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--keep", help="directory for failing programs")
    ap.add_argument("--show", type=int, help="print the program of one seed")
    args = ap.parse_args()
    if args.show is not None:
        sys.stdout.write(generate(args.show))
        return 0
    if sys.version_info[:2] != (3, 11):
        # clinic.py 3.11 is the specification: another Python's messages,
        # reprs and corner cases would make the comparison meaningless.
        print("pyvm-diff: needs Python 3.11 as the reference, "
              "not %d.%d (set PYTHON)" % sys.version_info[:2])
        return 1
    failures = []
    skipped = 0
    batch = 100
    with tempfile.TemporaryDirectory() as tmpdir:
        for start in range(args.seed, args.seed + args.count, batch):
            seeds = range(start, min(start + batch, args.seed + args.count))
            srcs, paths = {}, []
            for seed in seeds:
                path = os.path.join(tmpdir, "p%d.py" % seed)
                srcs[path] = (seed, generate(seed))
                with open(path, "w", encoding="utf-8") as f:
                    f.write(srcs[path][1])
                paths.append(path)
            ours = run_batch([args.interp], paths)
            refs = run_batch([sys.executable, "-c", REFERENCE], paths)
            for path in paths:
                seed, src = srcs[path]
                ref = refs.get(path)
                if ref is None or ref.endswith("EXCEPTION: MemoryError\n"):
                    skipped += 1     # too big for the reference: not a test
                    continue
                got = ours.get(path, "(no output: clinic's interpreter "
                                     "died)\n")
                if ref != got:
                    failures.append((seed, src, ref, got))
        # the big-int programs: one batch, named by a negative seed
        srcs, paths = {}, []
        for i in range(1, BIGINT_PROGRAMS + 1):
            path = os.path.join(tmpdir, "b%d.py" % i)
            srcs[path] = (-i, generate_bigint(args.seed * 1000 + i))
            with open(path, "w", encoding="utf-8") as f:
                f.write(srcs[path][1])
            paths.append(path)
        ours = run_batch([args.interp], paths)
        refs = run_batch([sys.executable, "-c", REFERENCE], paths)
        for path in paths:
            seed, src = srcs[path]
            got = ours.get(path, "(no output: clinic's interpreter died)\n")
            if refs.get(path) != got:
                failures.append((seed, src, refs.get(path), got))
        hint_failures = check_suggestions(args.interp, tmpdir)
    for src, ref, got in hint_failures:
        print("== suggestion case\n%s\n-- python3: %s\n-- ours:    %s" %
              (src, ref, got))
    for seed, src, ref, ours_out in failures[:5]:
        print("== %s: program\n%s" % ("seed %d" % seed if seed > 0 else
                                        "big-int program %d" % -seed, src))
        print("-- python3 printed\n%s-- clinic's interpreter printed\n%s" %
              (ref, ours_out))
    if args.keep and failures:
        os.makedirs(args.keep, exist_ok=True)
        for seed, src, _, _ in failures:
            name = "p%d.py" % seed if seed > 0 else "b%d.py" % -seed
            with open(os.path.join(args.keep, name), "w",
                      encoding="utf-8") as f:
                f.write(src)
    # one program, one case: the count line make check adds up
    passed = (args.count + BIGINT_PROGRAMS - len(failures) - skipped +
              len(SUGGESTION_CASES) - len(hint_failures))
    print("pyvm-diff: %d passed, %d failed (programs of seeds %d-%d, %d of "
          "big ints, and %d suggestion cases%s)" %
          (passed, len(failures) + len(hint_failures), args.seed,
           args.seed + args.count - 1, BIGINT_PROGRAMS, len(SUGGESTION_CASES),
           "; %d too big for Python's memory, not compared" % skipped
           if skipped else ""))
    return 1 if failures or hint_failures else 0


if __name__ == "__main__":
    sys.exit(main())
