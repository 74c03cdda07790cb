#!/usr/bin/env python3
"""Lists the folder -> folder dependencies inside one source folder and the cycles among them.

Usage: scripts/folder-cycles.py src/Runner Dashboard.Runner
A file in <root>/<Folder>/... depends on folder F when it has `using <Namespace>.F[.X];` or names a type qualified by
`F.` or `<Namespace>.F.` (e.g. `Agents.AgentLevels`, `Topologies.RunTopology`). Files directly in <root> are "root".
Prints each edge with one file that makes it, then every strongly connected component of more than one folder
(a cycle). Exit code 1 when there is a cycle.
"""
import os
import re
import sys

root, namespace = sys.argv[1].rstrip('/'), sys.argv[2]
folders = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and d not in ('bin', 'obj', 'node_modules'))
edges = {}
for folder in folders:
    for directory, _, files in os.walk(os.path.join(root, folder)):
        if '/bin' in directory or '/obj' in directory or 'node_modules' in directory:
            continue
        for name in files:
            if not name.endswith('.cs'):
                continue
            path = os.path.join(directory, name)
            text = open(path, encoding='utf-8').read()
            code = re.sub(r'//.*', '', text)  # comments and docs name folders without depending on them
            for other in folders:
                if other == folder:
                    continue
                pattern = rf'(using\s+{re.escape(namespace)}\.{other}\b)|((?<![\w.]){re.escape(namespace)}\.{other}\.[A-Z])|((?<![\w.]){other}\.[A-Z]\w*)'
                if re.search(pattern, code):
                    edges.setdefault((folder, other), path)

for (a, b), path in sorted(edges.items()):
    print(f'{a} -> {b}   ({path})')

# Tarjan's strongly connected components.
graph = {f: [b for (a, b) in edges if a == f] for f in folders}
index, low, stack, on, components, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop(); on.discard(w); component.append(w)
            if w == v:
                break
        components.append(component)
for f in folders:
    if f not in index:
        visit(f)
cycles = [sorted(c) for c in components if len(c) > 1]
print(f'cycles: {len(cycles)}')
for c in cycles:
    print('  ' + ', '.join(c))
sys.exit(1 if cycles else 0)
