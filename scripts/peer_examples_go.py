"""Reads the examples of gitleaks' Go rule generators for scripts/bench-peer-examples: a
small evaluator for the Go expressions they are written in (string literals, `+`,
fmt.Sprintf, append, composite literals, package and function variables, and the helpers
the caller passes in) and a generator of random strings of a regex (secrets.NewSecret).
What it cannot evaluate (loops, encoders, struct literals) is an Unknown and left out."""
import re

try:
    import re._parser as sre_parse, re._constants as sre_c
except ImportError:  # Python before 3.11
    import sre_parse, sre_constants as sre_c


# ---- random strings of a regex (secrets.NewSecret) ----

def generate(pattern, rng):
    try:
        tree = sre_parse.parse(pattern)
    except Exception:
        return None
    out = []
    try:
        emit(tree, rng, out)
    except Exception:
        return None
    return "".join(out)


CATEGORIES = {
    sre_c.CATEGORY_DIGIT: "0123456789",
    sre_c.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    sre_c.CATEGORY_SPACE: " ",
}


def charset(items):
    chars, negate = [], False
    for op, av in items:
        if op is sre_c.NEGATE:
            negate = True
        elif op is sre_c.LITERAL:
            chars.append(chr(av))
        elif op is sre_c.RANGE:
            chars.extend(chr(c) for c in range(av[0], av[1] + 1))
        elif op is sre_c.CATEGORY:
            chars.extend(CATEGORIES.get(av, "abcdefghijklmnopqrstuvwxyz"))
    if negate:
        chars = [c for c in CATEGORIES[sre_c.CATEGORY_WORD] if c not in chars]
    return chars


def emit(tree, rng, out):
    for op, av in tree:
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.NOT_LITERAL or op is sre_c.ANY:
            out.append(rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz0123456789" if op is sre_c.ANY or c != chr(av)]))
        elif op is sre_c.IN:
            out.append(rng.choice(charset(av)))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or op.name == "POSSESSIVE_REPEAT":
            low, high, sub = av
            high = low + 8 if high == sre_c.MAXREPEAT else high
            for _ in range(rng.randint(low, high)):
                emit(sub, rng, out)
        elif op is sre_c.SUBPATTERN:
            emit(av[-1], rng, out)
        elif op is sre_c.BRANCH:
            emit(rng.choice(av[1]), rng, out)
        elif op is sre_c.AT:
            pass
        else:
            raise ValueError(op)


# ---- a small evaluator for the Go expressions of gitleaks' rule generators ----

class Unknown:
    """A value the evaluator does not compute (a rule struct, a loop variable, an encoder)."""


TOKEN = re.compile(r'''(?P<nl>\n)|(?P<ws>[ \t\r]+)|(?P<c1>//[^\n]*)|(?P<c2>/\*.*?\*/)|(?P<raw>`[^`]*`)'''
                   r'''|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<rune>'(?:[^'\\\n]|\\.)+')|(?P<num>[0-9][0-9_.xXa-fA-F]*)'''
                   r'''|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\.\.\.|:=|\+=|==|!=|&&|\|\||<-|<=|>=|[^\sA-Za-z0-9_])''', re.S)


def go_tokens(text):
    tokens = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ("ws", "c1"):
            continue
        if kind == "c2":
            if "\n" in m.group():
                tokens.append(("nl", "\n"))
            continue
        value = m.group()
        if kind == "raw":
            kind, value = "str", value[1:-1].replace("\r", "")
        elif kind == "str":
            try:
                value = value[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
                value = value.encode("latin-1").decode("utf-8", "replace")
            except (UnicodeError, ValueError):
                value = value[1:-1]
        tokens.append((kind, value))
    tokens.append(("eof", ""))
    return tokens


class GoEval:
    def __init__(self, helpers, rng):
        self.helpers, self.rng = helpers, rng
        self.skipped = 0

    def run(self, text, on_validate):
        """Evaluates the assignments of one Go file in order and calls on_validate(tps, fps,
        with_paths) at each utils.Validate / ValidateWithPaths call."""
        self.t = go_tokens(text)
        globals_, self.env, depth, i = {}, {}, 0, 0
        while self.t[i][0] != "eof":
            kind, value = self.t[i]
            prev = self.t[i - 1] if i else ("nl", "\n")
            if kind == "op" and value in "{}":
                depth += 1 if value == "{" else -1
            elif kind == "id" and value == "func" and depth == 0:
                self.env = dict(globals_)  # each rule function starts from the package's vars
            elif kind == "id" and value == "utils" and self.t[i + 2][1] in ("Validate", "ValidateWithPaths") \
                    and self.t[i + 3][1] == "(":
                self.i = i + 4
                args = self.args(")")
                if len(args) == 3:
                    on_validate(args[1], args[2], self.t[i + 2][1] == "ValidateWithPaths")
                i = self.i
                continue
            elif kind == "id" and prev[1] in ("\n", "{", ";", "var") and self.t[i + 1][1] in (":=", "="):
                self.i = i + 2
                try:
                    result = self.expr()
                    (globals_ if depth == 0 else self.env)[value] = result
                    i = self.i
                    continue
                except (ValueError, IndexError, TypeError, KeyError, StopIteration):
                    self.skipped += 1
            i += 1

    def peek(self):
        while self.t[self.i][0] == "nl":
            self.i += 1
        return self.t[self.i]

    def take(self, expected=None):
        tok = self.peek()
        if expected is not None and tok[1] != expected:
            raise ValueError("expected %r got %r" % (expected, tok[1]))
        self.i += 1
        return tok

    def args(self, close):
        values = []
        while self.peek()[1] != close:
            try:
                v = self.expr()
            except (ValueError, IndexError, TypeError, KeyError, StopIteration):
                v = Unknown()
                self.skip_to(close)
            if self.peek()[1] == "...":
                self.take()
                v = ("spread", v)
            values.append(v)
            if self.peek()[1] == ",":
                self.take()
            elif self.peek()[1] != close:
                self.skip_to(close)
        self.take(close)
        return values

    def skip_to(self, close):
        depth = 0
        while True:
            tok = self.t[self.i]
            if tok[0] == "eof":
                raise ValueError("eof")
            if tok[1] in "([{" and tok[0] == "op":
                depth += 1
            elif tok[1] in ")]}" and tok[0] == "op":
                if depth == 0 and tok[1] == close:
                    return
                depth -= 1
            elif tok[1] == "," and depth == 0:
                return
            self.i += 1

    def expr(self):
        value = self.primary()
        while self.t[self.i][1] == "+":
            self.take()
            right = self.primary()
            value = value + right if isinstance(value, str) and isinstance(right, str) else Unknown()
        return value

    def primary(self):
        kind, value = self.take()
        if kind == "str":
            return value
        if kind == "num":
            return value
        if value == "(":
            v = self.expr()
            self.take(")")
            return v
        if value in ("[", "map"):
            return self.composite(value)
        if kind != "id":
            raise ValueError(value)
        name = value
        while self.t[self.i][1] == ".":
            self.i += 1
            name += "." + self.take()[1]
        if self.t[self.i][1] == "(":
            self.i += 1
            return self.call(name, self.args(")"))
        if self.t[self.i][1] == "{" and (name[:1].isupper() or "." in name):  # a struct literal
            self.i += 1
            self.args("}")
            return Unknown()
        if name == "nil":
            return None
        return self.env.get(name, Unknown())

    def composite(self, first):
        while self.take()[1] != "{":  # the type: []string, map[string]string, [][]byte
            pass
        items = []
        while self.peek()[1] != "}":
            v = self.expr()
            if self.peek()[1] == ":":
                self.take()
                v = (v, self.expr())
            items.append(v)
            if self.peek()[1] == ",":
                self.take()
        self.take("}")
        if items and all(isinstance(x, tuple) for x in items):
            return dict(items)
        return items

    def call(self, name, args):
        flat = []
        for a in args:
            flat.extend(a[1] if isinstance(a, tuple) and a[0] == "spread" and isinstance(a[1], list) else [a])
        if name == "append":
            return (list(flat[0]) if isinstance(flat[0], list) else []) + flat[1:]
        if name == "secrets.NewSecret":
            return generate(flat[0], self.rng) if isinstance(flat[0], str) else Unknown()
        if name == "newPlausibleSecret" and isinstance(flat[0], str):
            # gitleaks' generic.go: NewSecret drawn again until it holds a digit 1-9 (its
            # stop-word check is not repeated here)
            for _ in range(100):
                value = generate(flat[0], self.rng)
                if value is None or re.search(r"[1-9]", value):
                    return value if value is not None else Unknown()
            return Unknown()
        if name == "fmt.Sprintf" and isinstance(flat[0], str):
            rest = iter(flat[1:])
            return re.sub(r"%[-+# 0-9.]*([svdqx%])", lambda m: "%" if m.group(1) == "%" else
                          ('"%s"' % next(rest)) if m.group(1) == "q" else str(next(rest)), flat[0])
        if name == "strings.Repeat":
            return flat[0] * int(flat[1])
        if name == "strings.ToUpper":
            return flat[0].upper()
        if name == "strings.ToLower":
            return flat[0].lower()
        if name == "strings.Join":
            return flat[1].join(flat[0])
        helper = self.helpers.get(name)
        if helper:
            return helper(*flat)
        return Unknown()
