#!/usr/bin/env python3
"""test/check_mermaid.py -- the Mermaid diagrams of the documents are well formed
enough to draw what they say (no renderer, no network; .ci/run's docs stage).

For each ```mermaid block of README.md and doc/*.md (or the files given):
  - it is closed, and its first line names a diagram type Mermaid knows;
  - flowchart / graph: every line's quotes and brackets pair up, 'subgraph'
    and 'end' pair up, and every node an edge names is defined somewhere in
    the block with a label (ID["..."], ID{"..."}, ...) or is a subgraph:
    Mermaid would draw a misspelt id as a new, bare node;
  - sequenceDiagram: every message's two ends and every note's are declared
    participants (or actors): Mermaid would add a misspelt one as a new column.
Other diagram types are only checked for their first line.

usage: python3 test/check_mermaid.py [FILE.md ...]
Prints each problem, then 'N passed, N failed' (one per block); exits non-zero on any.
"""
import re
import subprocess
import sys

TYPES = ("flowchart", "graph", "sequenceDiagram", "classDiagram", "stateDiagram",
         "stateDiagram-v2", "erDiagram", "gantt", "pie", "journey", "gitGraph",
         "mindmap", "timeline", "quadrantChart", "requirementDiagram", "C4Context",
         "sankey-beta", "xychart-beta", "block-beta")
ID = r"[A-Za-z_][A-Za-z0-9_]*"
# a node's shape with its label, longest openers first; labels were emptied of quoted text
SHAPE = re.compile(r"(" + ID + r")\s*(\(\(.*?\)\)|\[\[.*?\]\]|\[\(.*?\)\]|\(\[.*?\]\)|\{\{.*?\}\}"
                   r"|\[/.*?/\]|\[\\.*?\\\]|\[.*?\]|\(.*?\)|\{.*?\}|>.*?\])")
# an edge between two nodes: -->, ---, -.->, ==>, --o, --x, <-->, with a label
# already reduced to "" (-- "" -->) or |...|
EDGE = re.compile(r"\s*(?:<?(?:--|==|-\.)\s*\"\"\s*(?:-->|==>|-\.->|---)|<?[-=.]{2,}[>ox]?)\s*(?:\|[^|]*\|)?\s*")
SKIP = re.compile(r"^(%%|classDef\b|class\b|style\b|linkStyle\b|click\b|direction\b)")
SEQ_DECL = re.compile(r"^(participant|actor)\s+(" + ID + r")\b")
SEQ_MSG = re.compile(r"^(" + ID + r")\s*(?:-->>|->>|-->|->|--x|-x|--\)|-\))\s*[+-]?(" + ID + r")\s*:")
SEQ_NOTE = re.compile(r"^[Nn]ote\s+(?:over|left of|right of)\s+(" + ID + r")(?:\s*,\s*(" + ID + r"))?\s*:")
SEQ_OTHER = re.compile(r"^(%%|loop\b|alt\b|else\b|opt\b|par\b|and\b|critical\b|break\b|rect\b|end\b"
                       r"|autonumber\b|activate\b|deactivate\b|box\b|title\b)")


def blocks(path):
    """(first line number, lines, closed) of each ```mermaid block of the file"""
    out, cur, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if cur is None:
                if s.startswith("```mermaid"):
                    cur, start = [], n
            elif s.startswith("```"):
                out.append((start, cur, True))
                cur = None
            else:
                cur.append((n, line.rstrip("\n")))
    if cur is not None:
        out.append((start, cur, False))
    return out


def balanced(text):
    pairs, stack = {")": "(", "]": "[", "}": "{"}, []
    for c in text:
        if c in "([{":
            stack.append(c)
        elif c in ")]}":
            if not stack or stack.pop() != pairs[c]:
                return False
    return not stack


def check_flowchart(lines):
    problems, defined, used, depth = [], set(), [], 0
    for n, line in lines:
        s = line.strip()
        if not s or SKIP.match(s):
            continue
        if s.count('"') % 2:
            problems.append(f"line {n}: an unclosed quote")
            continue
        s = re.sub(r'"[^"]*"', '""', s)
        if s.startswith("subgraph"):
            depth += 1
            m = re.match(r"subgraph\s+(" + ID + r")", s)
            if m:
                defined.add(m.group(1))
            continue
        if s == "end":
            depth -= 1
            if depth < 0:
                problems.append(f"line {n}: 'end' without 'subgraph'")
            continue
        if not balanced(s):
            problems.append(f"line {n}: brackets do not pair up")
            continue
        for m in SHAPE.finditer(s):
            defined.add(m.group(1))
        bare = SHAPE.sub(lambda m: m.group(1), s)
        for part in EDGE.split(bare):
            for node in part.split("&"):
                node = node.strip().rstrip(";")
                if not node:
                    continue
                if not re.fullmatch(ID, node):
                    problems.append(f"line {n}: cannot read '{node}' as a node")
                else:
                    used.append((n, node))
    if depth > 0:
        problems.append("a 'subgraph' without 'end'")
    for n, node in used:
        if node not in defined:
            problems.append(f"line {n}: node '{node}' has no label anywhere in the block (a misspelt id?)")
    return problems


def check_sequence(lines):
    problems, declared = [], set()
    for _, line in lines:
        m = SEQ_DECL.match(line.strip())
        if m:
            declared.add(m.group(2))
    for n, line in lines:
        s = line.strip()
        if not s or SEQ_DECL.match(s) or SEQ_OTHER.match(s):
            continue
        m = SEQ_MSG.match(s) or SEQ_NOTE.match(s)
        if not m:
            problems.append(f"line {n}: cannot read '{s}' as a message or note")
            continue
        for who in m.groups():
            if who and who not in declared:
                problems.append(f"line {n}: '{who}' is not a declared participant")
    return problems


def main(argv):
    files = argv or ["README.md"] + subprocess.run(
        ["git", "ls-files", "doc/*.md"], capture_output=True, text=True).stdout.split()
    passed = failed = 0
    for path in files:
        for start, lines, closed in blocks(path):
            body = [(n, l) for n, l in lines if l.strip() and not l.strip().startswith("%%")]
            first = body[0][1].split()[0] if body else ""
            if not closed:
                problems = ["no closing ```"]
            elif first not in TYPES:
                problems = [f"'{first}' is not a Mermaid diagram type"]
            elif first in ("flowchart", "graph"):
                problems = check_flowchart(body[1:])
            elif first == "sequenceDiagram":
                problems = check_sequence(body[1:])
            else:
                problems = []
            for p in problems:
                print(f"BROKEN {path}: the mermaid block at line {start}: {p}")
            if problems:
                failed += 1
            else:
                passed += 1
    print(f"mermaid blocks in {len(files)} Markdown files:")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
