#!/usr/bin/env python3
"""Fails when the folders of core/ include each other in a cycle (docs/architecture.md, Layout).

Usage: core_include_cycles.py CORE_DIR

Reads every #include "folder/..." line of the .h/.cpp/.inl files under CORE_DIR, builds the graph
"folder A includes a header of folder B", and prints each cycle with one include line per edge
as evidence. Exit status 0: no cycle; 1: a cycle (named on stderr); 2: bad arguments.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/[^"]+"')


def folder_graph(core):
    """{folder: {included folder: first 'file:line: text' that includes it}}."""
    folders = {p.name for p in core.iterdir() if p.is_dir()}
    graph = {f: {} for f in folders}
    for path in sorted(core.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".inl") or not path.is_file():
            continue
        owner = path.relative_to(core).parts[0]
        if owner not in folders:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m or m.group(1) not in folders or m.group(1) == owner:
                continue
            where = f"{path.relative_to(core)}:{number}: {line.strip()}"
            graph[owner].setdefault(m.group(1), where)
    return graph


def strongly_connected(graph):
    """Tarjan's components with more than one folder, each sorted, in sorted order."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def one_cycle(graph, component):
    """A shortest path from the component's first folder back to itself, inside the component."""
    start = component[0]
    members = set(component)
    previous = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w not in members:
                    continue
                if w == start:
                    path = [v]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    path.reverse()
                    return path + [start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    return [start]


def main(argv):
    if len(argv) != 2 or not pathlib.Path(argv[1]).is_dir():
        print("usage: core_include_cycles.py CORE_DIR", file=sys.stderr)
        return 2
    core = pathlib.Path(argv[1])
    graph = folder_graph(core)
    components = strongly_connected(graph)
    for component in components:
        cycle = one_cycle(graph, component)
        print("include cycle between core folders: " + " -> ".join(cycle), file=sys.stderr)
        for a, b in zip(cycle, cycle[1:]):
            print(f"  {a} -> {b}: {graph[a][b]}", file=sys.stderr)
    if components:
        return 1
    edges = sum(len(targets) for targets in graph.values())
    print(f"no include cycle between the {len(graph)} folders of {core} ({edges} edges)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
