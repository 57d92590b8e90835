#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A seating is named only in its own files and the registry (docs/architecture.md,
"Seatings"; issue 26's "Done when").

In the C++ under core/, daemon/ and drivers/, outside the seatings' own files, the registry
and the engine seating's daemon side, no string literal may be a seating's name ("sighted",
"two-boards", ...) or say `seating = NAME` / `--seating NAME`, and no code may name a
`Seating::` value: everything else asks the registry (core/game/seatings.h) and the
seating's description. The names are read from the seatings' own files (their `name()`), so
a new seating is checked as soon as it exists.

The daemon's shell, the files that serve every seating alike (SHELL_FILES: live mode's loop,
the board set, the config, the program's main), may not name a seating in code either: no
identifier there may have a seating's name among its words, in snake_case or CamelCase
(`engine_`, `follow_engine`, `EngineOpponent`, `SightedSeating`, `sighted_press`,
`OneBoard...`, `two_boards_...`), nor include a header of one (`engine_game.h`): what a
seating needs of the shell it registers, and the shell asks for it without knowing which
seating asked (issue 35). GENERIC would list the identifiers that only look like one,
each with why; it is empty.

Run: seating_names_test.py SOURCE_DIR. It first checks a small planted tree, so that a
check that has stopped finding anything fails too, then the project's tree; each finding
is printed as FILE:LINE: what.
"""

import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pylib"))
import planted_check  # noqa: E402

# The files that may name seatings: each seating's own, the registry, and the engine
# seating's daemon side (its engine run beside the game).
ALLOWED = [
    re.compile(r"core/game/(one_board|sighted|two_boards|engine|seatings)\.(h|cpp)$"),
    re.compile(r"daemon/tactiled/engine_(opponent|game|start|companion)\.(h|cpp)$"),
]
AREAS = ("core", "daemon", "drivers")
# The shell: the files that serve every seating alike and must not name one, not even in
# an identifier.
SHELL_FILES = (
    "daemon/tactiled/live.cpp",
    "daemon/tactiled/live.h",
    "daemon/tactiled/board_set.cpp",
    "daemon/tactiled/board_set.h",
    "daemon/tactiled/config.cpp",
    "daemon/tactiled/config.h",
    "daemon/tactiled/main.cpp",
)
# Identifiers of the shell that have a seating's words but name none, and why.
GENERIC = {
    # None today: a name that only looks like a seating's is renamed rather than allowed
    # (BoardSet::board_b_open(), config.cpp's only_with_board_b()).
}
SUFFIXES = (".h", ".cpp", ".hpp", ".cc")
NAME_RE = re.compile(r'std::string_view\s+name\(\)\s+const\s+override\s*\{\s*return\s+"([^"]+)"')


def literals_and_code(text):
    """Splits C++ text into its string literals (with their line numbers) and its code
    (comments and literals blanked, lines kept)."""
    literals = []
    code = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            skipped = text[i:j]
            line += skipped.count("\n")
            code.append("\n" * skipped.count("\n"))
            i = j
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = ")" + raw.group(1) + '"'
            start = i + raw.end()
            j = text.find(end, start)
            j = n if j < 0 else j
            literals.append((line, text[start:j]))
            line += text[i:j].count("\n")
            code.append("\n" * text[i:j].count("\n"))
            i = j + len(end)
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                literals.append((line, text[i + 1:j]))
            code.append(" ")
            i = j + 1
            continue
        if c == "\n":
            line += 1
        code.append(c)
        i += 1
    return literals, "".join(code)


def seating_names(root):
    names = set()
    for path in (root / "core" / "game").glob("*.cpp"):
        names.update(NAME_RE.findall(path.read_text(encoding="utf-8")))
    return names


def words_of(identifier):
    """The lower-case words of a snake_case or CamelCase identifier: `follow_engine` ->
    follow, engine; `EngineOpponent` -> engine, opponent; `kTwoBoards` -> k, two, boards."""
    words = []
    for part in identifier.split("_"):
        words += [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", part)]
    return words


def seating_identifiers(root, names):
    """The shell's identifiers that have a seating's name among their words."""
    seatings = {name: re.split(r"[-_ ]", name.lower()) for name in names}
    found = []
    for rel in SHELL_FILES:
        path = root / rel
        if not path.exists():
            found.append(f"{rel}: missing: the shell's list of files (SHELL_FILES) is stale")
            continue
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.split("\n"), start=1):
            if m := re.match(r'\s*#\s*include\s*[<"]([^">]+)[">]', line):
                words = words_of(m.group(1))
                for name, parts in sorted(seatings.items()):
                    if any(words[i:i + len(parts)] == parts for i in range(len(words))):
                        found.append(
                            f"{rel}:{number}: includes the seating's {m.group(1)} ({name})")
                        break
        _, code = literals_and_code(text)
        for number, text in enumerate(code.split("\n"), start=1):
            said = []
            for identifier in re.findall(r"[A-Za-z_]\w*", text):
                if identifier in GENERIC or identifier in said:
                    continue
                words = words_of(identifier)
                for name, parts in sorted(seatings.items()):
                    if any(words[i:i + len(parts)] == parts for i in range(len(words))):
                        found.append(
                            f"{rel}:{number}: the seating identifier {identifier} ({name})")
                        said.append(identifier)
                        break
    return found


def findings(root):
    names = seating_names(root)
    if len(names) < 2:
        return [f"core/game: found the names of {len(names)} seatings (their name()), "
                "expected every seating's: has name() changed its form?"]
    alternatives = "|".join(re.escape(n) for n in sorted(names))
    said = re.compile(r"(?:\bseating\s*=\s*|--seating[ =])(" + alternatives + r")\b")
    enum_value = re.compile(r"(?<![\w:])Seating::\w+")
    found = []
    for area in AREAS:
        for path in sorted((root / area).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.suffix not in SUFFIXES or any(a.search(rel) for a in ALLOWED):
                continue
            literals, code = literals_and_code(path.read_text(encoding="utf-8"))
            for line, text in literals:
                if text in names:
                    found.append(f'{rel}:{line}: the seating name "{text}"')
                for m in said.finditer(text):
                    at = line + text.count("\n", 0, m.start())
                    found.append(f'{rel}:{at}: names the seating "{m.group(1)}" ("{m.group(0)}")')
            for number, text in enumerate(code.split("\n"), start=1):
                if m := enum_value.search(text):
                    found.append(f"{rel}:{number}: the seating value {m.group(0)}")
    return found + seating_identifiers(root, names)


def planted_tree(root):
    """A tree with two seatings and one file of each kind of finding, beside what may
    name them: the seating's own file, comments, words inside other text."""
    files = {
        "core/game/one_board.cpp": 'std::string_view name() const override { return "one-board"; }\n',
        "core/game/engine.cpp": 'std::string_view name() const override { return "engine"; }\n'
                                'const char* k = "engine";\n',
        "core/game/resume.cpp": '// the "engine" record\n/* "one-board" */\n'
                                'bool f(std::string t) {\n  return t == "engine";\n}\n',
        "daemon/tactilectl/help.cpp": 'const char* h = R"(\n  runs the engine\n'
                                      '  --board b (seating = one-board)\n)";\n',
        "drivers/script/x.h": "auto s = Seating::TwoBoards;  // EngineSeating::x is fine\n"
                              "char c = '\"'; const char* ok = \"the engine's move\";\n",
        "core/game/two_boards.cpp":
            'std::string_view name() const override { return "two-boards"; }\n',
        # The shell: identifiers with a seating's words are findings (GENERIC is empty);
        # comments and strings are the literal rules' matter.
        "daemon/tactiled/live.cpp": "#include \"engine_game.h\"  // the engine's\n"
                                    "EngineOpponent engine_;\n"
                                    "void follow_engine() { say(\"an engine_ move\"); }\n"
                                    "int engines = 0; bool x = two_boards();\n",
        "daemon/tactiled/live.h": "",
        "daemon/tactiled/board_set.cpp": "bool BoardSet::player_clock_runs() {\n"
                                         "  return !two_boards();  // sighted: any clock\n}\n",
        "daemon/tactiled/board_set.h": "",
        "daemon/tactiled/config.cpp": "std::string only_for_two_boards();\n"
                                      "bool TwoBoardsLike = 1, kOneBoardMax = 2;\n",
        "daemon/tactiled/config.h": "",
        "daemon/tactiled/main.cpp": "#include \"core/game/seatings.h\"\n"
                                    "auto s = game::two_boards_seating();\n",
        "daemon/tactiled/game_runner.cpp": "EngineOpponent e;  // not the shell\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [
        'core/game/resume.cpp:4: the seating name "engine"',
        'daemon/tactilectl/help.cpp:3: names the seating "one-board" ("seating = one-board")',
        "drivers/script/x.h:1: the seating value Seating::TwoBoards",
        "daemon/tactiled/live.cpp:1: includes the seating's engine_game.h (engine)",
        "daemon/tactiled/live.cpp:2: the seating identifier EngineOpponent (engine)",
        "daemon/tactiled/live.cpp:2: the seating identifier engine_ (engine)",
        "daemon/tactiled/live.cpp:3: the seating identifier follow_engine (engine)",
        "daemon/tactiled/live.cpp:4: the seating identifier two_boards (two-boards)",
        "daemon/tactiled/board_set.cpp:2: the seating identifier two_boards (two-boards)",
        "daemon/tactiled/config.cpp:1: the seating identifier only_for_two_boards (two-boards)",
        "daemon/tactiled/config.cpp:2: the seating identifier TwoBoardsLike (two-boards)",
        "daemon/tactiled/config.cpp:2: the seating identifier kOneBoardMax (one-board)",
        "daemon/tactiled/main.cpp:2: the seating identifier two_boards_seating (two-boards)",
    ]


def main():
    return planted_check.run(
        planted_tree, findings, lambda: findings(pathlib.Path(sys.argv[1])),
        lambda n: f"{n} place(s) name a seating outside its own files and the registry: "
                  "ask the registry (core/game/seatings.h) or the seating's description instead",
        "no seating named outside its own files and the registry")


if __name__ == "__main__":
    sys.exit(main())
