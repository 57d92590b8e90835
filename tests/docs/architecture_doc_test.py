#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""docs/architecture.md names only what exists (issue 35: the tour true, and kept so).

What it reads of the page (fenced ``` blocks are examples and are not read):

- Paths. A backticked word with a `/` or a file's ending (`.h`, `.cpp`, `.py`, `.cmake`,
  `.json`, `.md`, `.5`, ...), and in the prose a word that starts with a top folder
  (`core/`, `daemon/`, `drivers/`, `docs/`, `man/`, `tests/`, `script/`, ...) or ends in
  `.md`: it must be a file or folder of the tree, from the root, or, when it does not start
  with a top folder, the end of one (the page writes `one_board.cpp` under core/game's
  heading and `v2/gpiod_v2.cpp` after `drivers/gpio/`). A `*` is a glob that must match
  something. Not read: `build/...` (what a build makes) and templates with an `X` or `NAME`
  part (`daemon/tactiled/X_link.cpp`).
- Code names. A backticked span of one word that is qualified (`Session::Steps`,
  `record::ArbiterLog::line`), a call (`seatings()`), CamelCase (`Recognizer`) or
  snake_case (`run_live`), once stripped of `()`, `<...>` and a leading `&`: every part
  must be a name in the code of the C++ sources under core/, daemon/ and drivers/
  (comments and strings blanked), and in `A::b` the `b` must be written `A::b` or stand in
  a file that declares `A` (class, struct, enum or namespace A), so a member moved to
  another class is caught. A snake_case word may also be a CMake name (a target, a test,
  a function: CMakeLists.txt and *.cmake) or a JSON or log field (a whole string literal of
  those sources). `std::` names are the standard's and are not read.
- Words. A backticked span of one lowercase word, hyphens allowed (a config key such as
  `board-a`, a log record such as `late-press`, a command such as `gpio-check`, a member
  such as `prepare`): it must be a word of that code, of its string literals or of CMake,
  so a key, record or command gone from every source is caught (this cannot tell which
  of them it is: the code names above are the strict rule).
- Presets: the backticked words of the paragraph that starts "The build is CMake with
  presets" must be exactly the visible configure presets of CMakePresets.json.
- Anything else in backticks (`[%clk]`, `%T`, `#include`) is not read.

Run: architecture_doc_test.py SOURCE_DIR [BUILD_DIR] [DOC]. It first checks a small
planted tree, so that a check that has stopped finding anything fails too, then the
project's docs/architecture.md (or DOC); each finding is printed as DOC:LINE: what.
"""

import fnmatch
import json
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pylib"))
import planted_check  # noqa: E402

TOP_FOLDERS = ("core", "daemon", "drivers", "docs", "man", "tests", "script", "cmake", "hw",
               "packaging", "systemd", "udev")
CODE_AREAS = ("core", "daemon", "drivers")
CODE_SUFFIXES = (".h", ".cpp", ".hpp", ".cc")
FILE_ENDING = re.compile(r"\.(h|hpp|cpp|cc|c|py|cmake|json|md|txt|sh|5|1|8|service|rules|toml|\*)$")
TEMPLATE_PART = re.compile(r"(^|/)(X|NAME)(_[\w.]*|\.\w+)?(/|$)")
PRESETS_PARAGRAPH = "The build is CMake with presets"
QUALIFIED = re.compile(r"\b([A-Za-z_]\w*)\s*::\s*([A-Za-z_]\w*)")
WORD = re.compile(r"-{0,2}[a-z][a-z0-9]*(-[a-z0-9]+)*")  # a key, a record, a command


# Where something other than code may begin: a comment, a raw string, a string or a char.
NOT_CODE = re.compile(r'//|/\*|(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(|"|\'')


def blank_comments_and_strings(text):
    """C++ text with comments and string/char literals blanked (lines kept), and the list
    of its string literals."""
    out, literals = [], []
    i, n = 0, len(text)
    while (m := NOT_CODE.search(text, i)) is not None:
        at, token = m.start(), m.group(0)
        out.append(text[i:at])
        glued = at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")
        if token == "//":
            j = text.find("\n", at)
            i = n if j < 0 else j
        elif token == "/*":
            j = text.find("*/", at + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", at, j))
            i = j
        elif token.endswith("(") and not glued:  # a raw string
            close = ")" + m.group(1) + '"'
            j = text.find(close, m.end())
            j = n if j < 0 else j
            literals.append(text[m.end():j])
            out.append("\n" * text.count("\n", at, j))
            i = j + len(close)
        elif token == '"' or (token == "'" and not (at > 0 and text[at - 1].isalnum())):
            j = at + 1
            while j < n and text[j] != token and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if token == '"':
                literals.append(text[at + 1:j])
            out.append(" ")
            i = j + 1
        else:  # a digit separator (1'000), or R"( glued to a name
            out.append(text[at])
            i = at + 1
    out.append(text[i:])
    return "".join(out), literals


class Tree:
    """What the tree holds: its paths, its code's names and who declares what."""

    def __init__(self, root):
        self.root = root
        self.paths = set()
        files = []
        for folder, dirs, names in os.walk(root):
            # What git keeps and a build makes are not the tree the page tours.
            dirs[:] = [d for d in dirs if not (folder == str(root) and d in (".git", "build"))]
            rel = pathlib.Path(folder).relative_to(root).as_posix()
            prefix = "" if rel == "." else rel + "/"
            self.paths.update(prefix + d + "/" for d in dirs)
            self.paths.update(prefix + n for n in names)
            files += [root / (prefix + n) for n in names]
        self.code = {}  # file -> code with comments and strings blanked
        self.words = set()
        self.qualified = set()  # every A::b written in the code
        self.strings = set()
        self.string_words = set()
        for area in CODE_AREAS:
            for path in sorted((root / area).rglob("*")):
                if path.suffix in CODE_SUFFIXES and path.is_file():
                    code, literals = blank_comments_and_strings(path.read_text(encoding="utf-8"))
                    self.code[path.relative_to(root).as_posix()] = code
                    self.words.update(re.findall(r"[A-Za-z_]\w*", code))
                    self.qualified.update(QUALIFIED.findall(code))
                    self.strings.update(literals)
                    for literal in literals:
                        self.string_words.update(re.findall(r"\w[\w-]*", literal))
        self.cmake_words = set()
        for path in files:
            if path.name == "CMakeLists.txt" or path.suffix == ".cmake":
                text = path.read_text(encoding="utf-8")
                self.cmake_words.update(re.findall(r"[A-Za-z_]\w*", text))

    def has_path(self, word):
        word = word.rstrip(".,;:")
        if "*" in word:
            pattern = word.rstrip("/")
            if pattern.split("/")[0] not in TOP_FOLDERS:
                pattern = "*/" + pattern
            return any(fnmatch.fnmatchcase(p.rstrip("/"), pattern) for p in self.paths)
        bare = word.rstrip("/")
        if bare in self.paths or bare + "/" in self.paths:
            return True
        if word.split("/")[0] in TOP_FOLDERS and "/" in word:
            return False
        tail = "/" + bare
        return any(p.rstrip("/").endswith(tail) or p.rstrip("/") == bare for p in self.paths)

    def declares(self, owner):
        kinds = r"(?:class|struct|union|enum(?:\s+class)?|namespace)"
        attributes = r"(?:\[\[[^\]]*\]\]\s*)?"
        pattern = re.compile(kinds + r"\s+" + attributes + re.escape(owner) + r"\b(?!\s*;)")
        return [f for f, code in self.code.items() if pattern.search(code)]

    def member_of(self, owner, member):
        if (owner, member) in self.qualified:
            return True
        word = re.compile(r"\b" + re.escape(member) + r"\b")
        return any(word.search(self.code[f]) for f in self.declares(owner))


def doc_lines(doc_text):
    """(line number, text) of the page's prose, fenced blocks left out."""
    fenced = False
    for number, line in enumerate(doc_text.split("\n"), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def spans(doc_text):
    """(line, backticked text) of the prose; a span may not cross a line here, as the page
    writes none that does."""
    for number, line in doc_lines(doc_text):
        for m in re.finditer(r"`([^`]+)`", line):
            yield number, m.group(1)


def is_path(word):
    return "/" in word or bool(FILE_ENDING.search(word.rstrip(".,;:")))


def code_name(word):
    """The word as a code name to look for, or None when it is none (a key, a record)."""
    name = re.sub(r"<[^<>]*>", "", word)
    name = name.removesuffix("()").lstrip("&*")
    if not re.fullmatch(r"[A-Za-z_]\w*(::[A-Za-z_]\w*)*", name):
        return None
    if name.startswith("std::"):
        return None
    if ("::" in name or word.endswith("()") or re.fullmatch(r"[A-Z]\w*[a-z]\w*", name)
            or re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)+", name)):
        return name
    return None


def check_name(tree, name):
    parts = name.split("::")
    for part in parts:
        if part not in tree.words and not (
                len(parts) == 1 and re.fullmatch(r"[a-z0-9_]+", part)
                and (part in tree.cmake_words or part in tree.strings)):
            return f"`{name}`: no such name in the code of {', '.join(CODE_AREAS)}"
    for owner, member in zip(parts, parts[1:]):
        if not tree.member_of(owner, member):
            return f"`{name}`: {member} is not a member of {owner} (no {owner}::{member}, " \
                   f"nor {member} in a file declaring {owner})"
    return None


def presets_paragraph(doc_text):
    """(line, text) of the paragraph that names the presets."""
    lines = list(doc_lines(doc_text))
    start = next((i for i, (_, text) in enumerate(lines) if PRESETS_PARAGRAPH in text), None)
    paragraph = []
    for number, text in lines[start:] if start is not None else []:
        if not text.strip():
            break
        paragraph.append((number, text))
    return paragraph


def presets_findings(root, doc_text, doc_name):
    path = root / "CMakePresets.json"
    presets = {p["name"] for p in json.loads(path.read_text(encoding="utf-8"))["configurePresets"]
               if not p.get("hidden")}
    paragraph = presets_paragraph(doc_text)
    if not paragraph:
        return [f'{doc_name}: no paragraph starting "{PRESETS_PARAGRAPH}"']
    named, at = {}, paragraph[0][0]
    for number, text in paragraph:
        for m in re.finditer(r"`([a-z0-9-]+)`", text):
            named.setdefault(m.group(1), number)
    found = [f"{doc_name}:{line}: the preset `{name}` is not in CMakePresets.json"
             for name, line in sorted(named.items(), key=lambda x: x[1]) if name not in presets]
    found += [f"{doc_name}:{at}: the preset `{name}` of CMakePresets.json is not named"
              for name in sorted(presets - named.keys())]
    return found


def findings(root, doc_path):
    tree = Tree(root)
    doc_text = doc_path.read_text(encoding="utf-8")
    doc_name = doc_path.relative_to(root).as_posix() if doc_path.is_relative_to(root) \
        else doc_path.name
    found = []
    seen = set()

    def path_word(number, word):
        word = word.rstrip(".,;:)")
        if (word.startswith("build/") or TEMPLATE_PART.search(word)
                or (number, word) in seen):
            return
        seen.add((number, word))
        if not tree.has_path(word):
            found.append(f"{doc_name}:{number}: `{word}`: no such file or folder")

    preset_lines = {number for number, _ in presets_paragraph(doc_text)}
    for number, text in spans(doc_text):
        words = text.split()
        for word in words:
            if is_path(word) and not re.match(r"^-|^[%<]", word) and "(" not in word:
                path_word(number, word)
        if len(words) == 1 and not is_path(words[0]):
            name = code_name(words[0])
            if name and (problem := check_name(tree, name)):
                found.append(f"{doc_name}:{number}: {problem}")
            elif (not name and number not in preset_lines and WORD.fullmatch(words[0])
                  and words[0].lstrip("-") not in tree.words | tree.string_words
                  | tree.cmake_words):
                found.append(f"{doc_name}:{number}: `{words[0]}`: no such word in the code "
                             f"or strings of {', '.join(CODE_AREAS)} nor in CMake")
    for number, line in doc_lines(doc_text):
        prose = re.sub(r"`[^`]*`", " ", line)
        for m in re.finditer(r"(?<![\w/.`-])((?:" + "|".join(TOP_FOLDERS) +
                             r")/[\w./*-]*|[\w-]+\.md)\b/?", prose):
            path_word(number, m.group(1))
    found += presets_findings(root, doc_text, doc_name)
    return found


def planted_tree(root):
    """A tree with a few files and a page that names them, and names what is not there
    in each way the check reads."""
    files = {
        "CMakePresets.json": json.dumps({"configurePresets": [
            {"name": "base", "hidden": True}, {"name": "asan"}, {"name": "tsan"}]}),
        "CMakeLists.txt": "add_test(NAME doc_names_exist COMMAND x)\n",
        "core/game/session.h": "namespace game {\nclass Session {\n public:\n"
                               "  struct Steps;\n  void on_hole();\n};\n"
                               "// class Ghost { void haunt(); };\n"
                               'const char* k = "board_a";\n'
                               'const char* h = "--seating X: the hole";\n'
                               'const char* r[] = {"board-a", "late-press"};\n}\n',
        "core/game/session.cpp": "void game::Session::on_hole() {}\nint run_live() { return 0; }\n",
        "core/game/seatings.h": "class Forward;\nclass Registry { int size(); };\n",
        "docs/clock.md": "",
        "drivers/gpio/v2/gpiod_v2.cpp": "",
        "docs/architecture.md": "\n".join([
            "# Tour",
            "`core/game/session.h` and `session.cpp`, `v2/gpiod_v2.cpp`, `drivers/*/`",
            "`Session::Steps`, `game::Session::on_hole`, `run_live()`, `board_a` and",
            "`doc_names_exist`; keys `board-a`, `late-press`, `std::visit`, `X_link.cpp`",
            "and core/game/ in prose, docs/clock.md, clock.md, `build/asan/x`.",
            "`core/game/gone.h` and `drivers/*/gone.cmake` and docs/lost.md, lost.md",
            "`Ghost` and `Session::haunt` and `Registry::on_hole` and `vanished()` and",
            "`Forward::size` and `old_name` and `daemon/` and `game::Lost`, `gone-key`",
            "`engine_opponent.*`, `session.*`, `hole` and `board_a` and `--seating`,",
            "```",
            "`core/fenced/away.h` `Fenced`",
            "```",
            "",
            "The build is CMake with presets (`CMakePresets.json`): `asan`, `release`.",
        ]) + "\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    doc = "docs/architecture.md"
    return [
        f"{doc}:6: `core/game/gone.h`: no such file or folder",
        f"{doc}:6: `drivers/*/gone.cmake`: no such file or folder",
        f"{doc}:7: `Ghost`: no such name in the code of core, daemon, drivers",
        f"{doc}:7: `Session::haunt`: no such name in the code of core, daemon, drivers",
        f"{doc}:7: `Registry::on_hole`: on_hole is not a member of Registry "
        "(no Registry::on_hole, nor on_hole in a file declaring Registry)",
        f"{doc}:7: `vanished`: no such name in the code of core, daemon, drivers",
        f"{doc}:8: `Forward::size`: size is not a member of Forward "
        "(no Forward::size, nor size in a file declaring Forward)",
        f"{doc}:8: `old_name`: no such name in the code of core, daemon, drivers",
        f"{doc}:8: `daemon/`: no such file or folder",
        f"{doc}:8: `game::Lost`: no such name in the code of core, daemon, drivers",
        f"{doc}:8: `gone-key`: no such word in the code or strings of core, daemon, drivers "
        "nor in CMake",
        f"{doc}:9: `engine_opponent.*`: no such file or folder",
        f"{doc}:6: `docs/lost.md`: no such file or folder",
        f"{doc}:6: `lost.md`: no such file or folder",
        f"{doc}:14: the preset `release` is not in CMakePresets.json",
        f"{doc}:14: the preset `tsan` of CMakePresets.json is not named",
    ]


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    doc = root / "docs" / "architecture.md"
    if len(sys.argv) > 3:
        doc = pathlib.Path(sys.argv[3]).resolve()
    return planted_check.run(
        planted_tree, lambda planted: findings(planted, planted / "docs" / "architecture.md"),
        lambda: findings(root, doc),
        lambda n: f"{n} name(s) of docs/architecture.md not in the tree: make the page say "
                  "what is (the convention is at the top of tests/docs/architecture_doc_test.py)",
        "every file, folder, name and preset docs/architecture.md names exists")


if __name__ == "__main__":
    sys.exit(main())
