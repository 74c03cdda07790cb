#!/usr/bin/env python3
"""Prints the slowest test classes and tests of the .trx files that ./test.sh wrote, to see where CI time goes.

Usage: scripts/slowest-tests.py RESULTS_DIR [N = 15]
Reads every *.trx (Visual Studio test results, the `trx` logger of `dotnet test`) in RESULTS_DIR; a test's time is its
UnitTestResult's duration (hh:mm:ss.fffffff), a class's the sum of its tests' (classes run one at a time in Web.Tests;
in the other projects they overlap, so a class's sum can exceed its share of the wall clock). Prints seconds.
"""
import collections, glob, os, sys
import xml.etree.ElementTree as ET

NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}


def seconds(text):
    h, m, s = text.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def main():
    folder = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    tests, classes, projects = [], collections.Counter(), collections.Counter()
    for path in sorted(glob.glob(os.path.join(folder, "*.trx"))):
        root = ET.parse(path).getroot()
        klass = {d.get("id"): d.find("t:TestMethod", NS).get("className") for d in root.iterfind(".//t:UnitTest", NS)}
        project = os.path.splitext(os.path.basename(path))[0]
        for r in root.iterfind(".//t:UnitTestResult", NS):
            d = seconds(r.get("duration", "0:0:0"))
            name = klass.get(r.get("testId"), "?")
            tests.append((d, r.get("testName")))
            classes[f"{project} {name.rsplit('.', 1)[-1]}"] += d
            projects[project] += d
    print("test time by project (s):", ", ".join(f"{p} {s:.0f}" for p, s in projects.most_common()))
    print(f"slowest {top} classes (s):")
    for name, s in classes.most_common(top):
        print(f"  {s:7.1f}  {name}")
    print(f"slowest {top} tests (s):")
    for s, name in sorted(tests, reverse=True)[:top]:
        print(f"  {s:7.1f}  {name}")


if __name__ == "__main__":
    main()
