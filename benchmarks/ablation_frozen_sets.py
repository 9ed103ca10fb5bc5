#!/usr/bin/env python3
"""Which Funcs freezing leaves under search: Halide's Anderson2021 beside Beamscope, per app.

Reads the reference's log (HL_DEBUG_AUTOSCHEDULE=1, its "Node:", "realize: ... with K stages"
and "Freezing NAME with cost = C" lines; benchmarks/ablation_frozen_sets.sh writes it) and our
`beamscope-cli search APP --json` result (its "frozen" list and "freeze_ranking"). Prints one
Markdown row per app: N, Funcs frozen by each, the Funcs each leaves under search, how many
distinct costs the reference's frozen Funcs had, and a comma-separated list of the reference's
frozen Funcs for `beamscope-cli search APP --freeze LIST` (names as our DAG spells them).

    benchmarks/ablation_frozen_sets.py DIR APP...   (DIR holds ref-APP.log and ours-APP.json)
"""
import json
import re
import sys


def plain(name):
    """The reference suffixes Func names with $1; anonymous lambdas are numbered differently."""
    name = name.split('$')[0]
    return 'lambda' if re.fullmatch(r'lambda_\d+', name) else name


def reference(path):
    nodes, stages, frozen, costs = [], {}, [], set()
    with open(path, errors='replace') as log:
        for line in log:
            m = re.match(r'Node: (\S+)', line)
            if m and plain(m.group(1)) not in nodes:
                nodes.append(plain(m.group(1)))
            m = re.match(r'realize: (\S+) .* with (\d+) stages', line)
            if m:
                stages[plain(m.group(1))] = int(m.group(2))
            m = re.match(r'Freezing (\S+) with cost = (\S+)', line)
            if m:
                frozen.append(plain(m.group(1)))
                costs.add(m.group(2))
    return nodes, stages, frozen, costs


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: ablation_frozen_sets.py DIR APP...')
    folder = sys.argv[1]
    print('| app | N | ref frozen | distinct ref costs | ours frozen | same frozen | '
          'ref under search | ours under search |')
    print('|---|---:|---:|---:|---:|---:|---|---|')
    for app in sys.argv[2:]:
        nodes, stages, ref_frozen, costs = reference(f'{folder}/ref-{app}.log')
        with open(f'{folder}/ours-{app}.json') as f:
            ours = json.load(f)
        ranking = [plain(r['func']) for r in ours.get('freeze_ranking', [])]
        names = ranking or [plain(x['name']) for x in ours['funcs']]
        ours_frozen = {plain(x) for x in ours['frozen']}
        if not ref_frozen:
            print(f'| {app} | {len(names)} | (no pre-pass in the log) | | {len(ours_frozen)} | | | |')
            continue
        ref_set = set(ref_frozen)
        n = len([x for x in nodes if not x.endswith('_im')])
        ref_left = [x for x in nodes if x not in ref_set and not x.endswith('_im')]
        ours_left = [x for x in names if x not in ours_frozen and not x.endswith('_im')]

        def staged(x):
            return x + (f' ({stages[x]} stages)' if stages.get(x, 1) > 1 else '')

        print(f'| {app} | {n} | {len(ref_set)} | {len(costs)} | {len(ours_frozen)} | '
              f'{len(ref_set & ours_frozen)} | {", ".join(map(staged, ref_left))} | '
              f'{", ".join(ours_left)} |')
        ours_name = {plain(x['name']): x['name'] for x in ours['funcs']}
        print(f'<!-- {app} --freeze {",".join(sorted(ours_name.get(x, x) for x in ref_set))} -->')


if __name__ == '__main__':
    main()
