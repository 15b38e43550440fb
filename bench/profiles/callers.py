#!/usr/bin/env python3
"""perf script | callers.py LEAF_PATTERN [DEPTH]: for the samples whose
leaf matches, their caller chains DEPTH frames up, by share of all samples."""
import collections
import re
import sys

from stacks import samples, short

pattern = re.compile(sys.argv[1])
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 2
total, chains = 0, collections.Counter()
for _, _, frames in samples(sys.stdin):
    total += 1
    if pattern.search(frames[0]):
        chains[" <- ".join(short(f) for f in frames[1 : 1 + depth])] += 1
for chain, count in chains.most_common(15):
    print(f"{100 * count / max(total, 1):5.2f}% {chain}")
