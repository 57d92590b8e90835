# SPDX-License-Identifier: GPL-3.0-or-later
"""The frame of a test that reads the project's tree for findings (names out of place,
names that no longer exist): it first proves itself on a small planted tree, so that a
check that has stopped finding anything fails too, then reads the tree and prints each
finding."""
import pathlib
import tempfile


def run(planted_tree, findings, tree_findings, broken, clean):
    """planted_tree(root) writes the planted tree under root and returns what
    findings(root) must find there; tree_findings() gives the project's. `broken(n)` is
    the summary line of n findings, `clean` the line of none. Returns the exit status."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        expected = planted_tree(root)
        got = findings(root)
        if got != expected:
            print("the check itself is broken: on the planted tree it found")
            print("\n".join(got) or "(nothing)")
            print("instead of")
            print("\n".join(expected))
            return 1
    found = tree_findings()
    for f in found:
        print(f)
    if found:
        print(broken(len(found)))
        return 1
    print(clean)
    return 0
