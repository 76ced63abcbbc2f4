/// Words common enough in code and prose that a rule keyed on one of them (or on part of one)
/// wakes on most files, so its keyword prefilter selects nothing.
///
/// The list is measured, not guessed: every run of three or more letters (lower-cased) that
/// occurs in more than 5% of the .py files of CPython 3.11's standard library
/// (site-packages and caches left out; 1,790 files, so in more than 89 of them): 965 words, English
/// ("probably", "basic", "together") and programming ("path", "pattern", "self") alike. On that
/// corpus the keyword `pat` woke the Airtable rule on 51% of the files, `basic` 12.7% and
/// `ably` (inside "probably") 8.6%: the three keywords of the pack this list caught. Names of
/// credentials (`password`, `secret`, `token`) are not in it (as words each is in fewer than
/// 5% of the files; as parts of longer names in 2.6%, 1.1% and 7.2%), and they are what a
/// secret-named assignment rule must be keyed on.
enum CommonWords {
    static let words: [String] = [
        "abc", "able", "about", "above", "absolute", "abspath", "accept", "access", "action", "actual", "actually",
        "add", "addcleanup", "added", "adding", "additional", "address", "after", "again", "against", "all", "allow",
        "allowed", "allows", "already", "also", "always", "and", "another", "any", "anything", "api", "apis", "appear",
        "append", "appropriate", "are", "arg", "args", "argument", "arguments", "argv", "around", "array", "ascii",
        "assert", "assertequal", "assertfalse", "assertin", "assertionerror", "assertis", "assertisinstance",
        "assertisnone", "assertnotequal", "assertnotin", "assertraises", "assertraisesregex", "asserttrue", "assume",
        "async", "attr", "attribute", "attributeerror", "attributes", "author", "available", "avoid", "back", "bad",
        "bar", "base", "based", "basename", "basic", "baz", "because", "been", "before", "behavior", "being", "bell",
        "below", "better", "between", "big", "bin", "binary", "bind", "bit", "block", "body", "bool", "both", "bound",
        "bpo", "break", "broken", "buf", "buffer", "bug", "bugs", "build", "built", "builtin", "builtins", "but",
        "byte", "bytearray", "bytes", "bytesio", "cache", "call", "callable", "callback", "called", "calling", "calls",
        "can", "cancel", "cannot", "case", "cases", "catch", "cause", "chain", "change", "changed", "changes", "char",
        "character", "characters", "chars", "check", "checking", "checks", "child", "children", "class", "classes",
        "classmethod", "clean", "cleanup", "clear", "client", "close", "closed", "cls", "cmd", "code", "codec",
        "codecinfo", "codecs", "collect", "collections", "colon", "com", "comma", "command", "comment", "common",
        "compare", "comparison", "compatibility", "compatible", "compile", "compiled", "complete", "complex", "config",
        "connection", "constants", "constructor", "contain", "containing", "contains", "content", "contents",
        "context", "contextlib", "continue", "control", "convert", "copy", "copyright", "correct", "correctly",
        "corresponding", "could", "count", "cpython", "crash", "create", "created", "creates", "creating", "ctypes",
        "current", "currently", "custom", "darwin", "data", "date", "debug", "decode", "decoding", "dedent", "def",
        "default", "defaults", "define", "defined", "del", "delete", "depending", "deprecated", "deprecationwarning",
        "description", "descriptor", "destroy", "details", "device", "dict", "dictionary", "did", "didn", "different",
        "digit", "dir", "directly", "directories", "directory", "dirname", "disable", "disabled", "display",
        "distutils", "doc", "does", "doesn", "don", "done", "dot", "double", "down", "due", "dummy", "dump", "dumps",
        "during", "each", "effect", "either", "element", "elements", "elif", "else", "email", "empty", "enable",
        "encode", "encoded", "encoding", "encodings", "end", "endswith", "enough", "ensure", "enter", "entries",
        "entry", "enumerate", "env", "environ", "environment", "eof", "equal", "equals", "equivalent", "err", "errno",
        "error", "errors", "escape", "etc", "eval", "even", "event", "events", "every", "everything", "exactly",
        "example", "exc", "except", "exception", "exceptions", "exec", "executable", "exist", "existing", "exists",
        "exit", "expect", "expected", "explicit", "explicitly", "expression", "ext", "extend", "extended", "extension",
        "extensions", "extra", "fail", "failed", "fails", "failure", "false", "feed", "few", "field", "fields", "file",
        "filename", "fileno", "files", "filter", "final", "finally", "find", "first", "five", "fix", "fixed", "flag",
        "flags", "float", "flush", "following", "foo", "for", "force", "form", "format", "found", "four", "frame",
        "from", "full", "func", "function", "functions", "functools", "future", "generate", "generated", "generator",
        "get", "getattr", "getitem", "getregentry", "gets", "getvalue", "give", "given", "global", "globals", "good",
        "got", "greater", "group", "handle", "handled", "handler", "handling", "happen", "has", "hasattr", "hash",
        "have", "header", "headers", "hello", "help", "helper", "here", "highest", "hook", "horizontal", "host", "how",
        "however", "html", "http", "https", "idle", "idlelib", "ignore", "ignored", "implement", "implementation",
        "implemented", "implements", "import", "imported", "importerror", "importlib", "imports", "include",
        "includes", "including", "incrementaldecoder", "incrementalencoder", "index", "indexerror", "info",
        "information", "init", "initial", "initialize", "inner", "input", "insert", "inside", "instance", "instances",
        "instead", "int", "integer", "interface", "internal", "interpreter", "into", "invalid", "isinstance", "isn",
        "iso", "issue", "issues", "item", "items", "iter", "iterable", "iterator", "itertools", "its", "itself",
        "join", "just", "keep", "key", "keyerror", "keys", "keyword", "know", "known", "kwargs", "lambda", "large",
        "last", "later", "latin", "leading", "least", "left", "len", "length", "less", "let", "letter", "level", "lib",
        "library", "like", "limit", "line", "lineno", "lines", "link", "linux", "list", "lists", "load", "loader",
        "loads", "local", "locals", "location", "log", "long", "longer", "look", "lookup", "loop", "low", "lower",
        "mac", "made", "main", "make", "makes", "manager", "many", "map", "mapping", "mark", "match", "matches",
        "matching", "max", "maximum", "maxsize", "may", "means", "memory", "memoryview", "message", "messages",
        "method", "methods", "middle", "might", "min", "minus", "missing", "mock", "mod", "mode", "modified", "modify",
        "module", "modules", "more", "most", "msg", "much", "multiple", "must", "name", "named", "names", "namespace",
        "necessary", "need", "needed", "needs", "negative", "nested", "never", "new", "newline", "next", "node", "non",
        "none", "nonlocal", "normal", "not", "note", "nothing", "notimplemented", "notimplementederror", "now", "null",
        "num", "number", "numbers", "obj", "object", "objects", "off", "offset", "old", "once", "one", "only", "open",
        "operation", "operator", "option", "optional", "options", "order", "org", "orig", "original", "oserror",
        "other", "otherwise", "our", "out", "output", "over", "overflowerror", "override", "own", "pack", "package",
        "pair", "parameter", "parameters", "parent", "parse", "parser", "parsing", "part", "partial", "parts", "pass",
        "passed", "passing", "patch", "path", "paths", "pattern", "pep", "per", "percent", "pickle", "pipe", "place",
        "plain", "platform", "platforms", "plus", "point", "policy", "pop", "popen", "pos", "position", "posix",
        "possible", "possibly", "prefix", "present", "prevent", "previous", "print", "probably", "process", "program",
        "properly", "property", "proto", "protocol", "provide", "provided", "provides", "put", "python", "raise",
        "raised", "raises", "random", "range", "rather", "raw", "read", "reading", "readline", "real", "really",
        "reason", "received", "record", "recursive", "reduce", "ref", "reference", "references", "register",
        "registered", "regular", "relative", "release", "remove", "removed", "replace", "report", "repr", "request",
        "required", "requires", "res", "reserved", "reset", "resource", "rest", "result", "results", "return",
        "returned", "returning", "returns", "reverse", "rfc", "right", "root", "rstrip", "run", "running", "runs",
        "runtimeerror", "safe", "same", "save", "script", "search", "second", "section", "see", "seek", "select",
        "self", "send", "sep", "separate", "separator", "seq", "sequence", "server", "set", "setattr", "sets",
        "setting", "setup", "setupclass", "several", "shared", "shift", "short", "should", "shouldn", "show", "side",
        "sign", "signal", "similar", "simple", "since", "single", "size", "skip", "skipif", "skipped", "skiptest",
        "skipunless", "sleep", "slots", "small", "socket", "software", "some", "something", "sort", "sorted", "source",
        "space", "spaces", "spam", "spec", "special", "specific", "specified", "specify", "split", "splitlines",
        "square", "stack", "standard", "start", "starting", "starts", "startswith", "stat", "state", "statement",
        "staticmethod", "status", "stderr", "stdin", "stdout", "still", "stop", "stopiteration", "store", "str",
        "stream", "streamreader", "streamwriter", "strict", "string", "stringio", "strings", "strip", "struct",
        "structure", "stuff", "style", "sub", "subclass", "subclasses", "subprocess", "subtest", "such", "suffix",
        "suite", "super", "support", "supported", "supports", "sure", "syntax", "syntaxerror", "sys", "system",
        "table", "tag", "take", "takes", "target", "teardown", "tell", "temp", "tempfile", "temporary", "test",
        "testcase", "tested", "testfn", "testing", "tests", "text", "textwrap", "than", "that", "the", "their", "them",
        "then", "there", "these", "they", "thing", "things", "this", "those", "though", "thread", "threading", "three",
        "through", "time", "timeout", "times", "title", "tkinter", "too", "top", "total", "traceback", "trailing",
        "tree", "true", "try", "trying", "tuple", "tuples", "two", "txt", "type", "typeerror", "types", "undefined",
        "under", "underlying", "unexpected", "unicode", "unit", "unittest", "unix", "unknown", "unless", "unlink",
        "unsupported", "until", "update", "upper", "usage", "use", "used", "useful", "user", "uses", "using", "utf",
        "util", "val", "valid", "value", "valueerror", "values", "var", "variable", "variables", "various", "vars",
        "verbose", "verbosity", "verify", "version", "versions", "vertical", "very", "via", "wait", "want", "warn",
        "warning", "warnings", "was", "way", "weakref", "well", "were", "what", "when", "where", "whether", "which",
        "while", "whitespace", "width", "will", "win", "windows", "with", "within", "without", "won", "word", "work",
        "working", "works", "world", "would", "wrap", "wrapped", "wrapper", "write", "writing", "written", "wrong",
        "www", "xbb", "xff", "xxx", "yet", "yield", "you", "your", "zero", "zerodivisionerror", "zip"
    ]

    /// Every substring of every word above, so a keyword is checked with one lookup; each maps
    /// to the shortest word that holds it (`pat`: `path`), the one a message names.
    static let fragments: [String: String] = {
        var result: [String: String] = [:]
        for word in words {
            let letters = Array(word.utf8)
            for start in 0..<letters.count {
                for end in (start + 1)...letters.count {
                    let fragment = String(decoding: letters[start..<end], as: UTF8.self)
                    if let known = result[fragment], known.utf8.count <= word.utf8.count { continue }
                    result[fragment] = word
                }
            }
        }
        return result
    }()

    /// The common word `keyword` is, or is part of (case-insensitive), or nil.
    static func word(containing keyword: String) -> String? {
        fragments[keyword.lowercased()]
    }
}
