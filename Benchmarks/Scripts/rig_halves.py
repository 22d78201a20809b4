#!/usr/bin/env python3
"""Disjoint halves of real stereo sets: is their difference in baseline and rotation inside the
combined 95% interval?

usage: rig_halves.py BINARY OUTDIR NAME:FOLDER:KIND:SIZE[:MODEL] ...
FOLDER holds left/ and right/ with the same file names for a set. For each set, three seeded random
partitions of its sets into two halves (seeds 1, 2, 3); each half is linked into OUTDIR and
calibrated as a rig by BINARY (`calibrate pictures --pattern KIND:SIZE --model MODEL`); inside when
|a - b| <= sqrt(ci_a^2 + ci_b^2), the 95% half widths from rig.json, and again with the corners'
scatter alone (1.96 noise_std). Benchmarks/HISTORY.md, "Intervals on real stereo sets", has the
sets and the runs.
"""
import json, math, os, random, subprocess, sys
binary, out = sys.argv[1], sys.argv[2]
rows = []
for spec in sys.argv[3:]:
    parts = spec.split(':')
    name, folder, pattern = parts[0], parts[1], parts[2] + ':' + parts[3]
    model = parts[4] if len(parts) > 4 else 'pinhole'
    left = sorted(os.listdir(os.path.join(folder, 'left'))); right = set(os.listdir(os.path.join(folder, 'right')))
    stems = [f for f in left if f in right]
    for seed in (1, 2, 3):
        order = stems[:]; random.Random(seed).shuffle(order)
        halves = [sorted(order[:len(order) // 2]), sorted(order[len(order) // 2:])]
        results = []
        for h, files in enumerate(halves):
            root = os.path.join(out, f'{name}-{seed}-{h}')
            subprocess.run(['rm', '-rf', root])
            for cam in ('left', 'right'):
                os.makedirs(os.path.join(root, 'pictures', cam))
                for f in files: os.symlink(os.path.abspath(os.path.join(folder, cam, f)), os.path.join(root, 'pictures', cam, f))
            r = subprocess.run([binary, 'calibrate', 'pictures', '--pattern', pattern, '--model', model, '--out', 'rig'], cwd=root, capture_output=True, text=True)
            if r.returncode != 0:
                results.append(None); print(name, seed, h, 'failed:', r.stderr.strip().splitlines()[-1:]); continue
            j = json.load(open(os.path.join(root, 'rig', 'rig.json')))
            e = j['cameras'][1]['extrinsics']
            results.append({k: (e[k]['value'], (e[k]['ci95'][1] - e[k]['ci95'][0]) / 2, e[k]['noise_std'] * 1.96) for k in ('baseline', 'rotation_angle_degrees')} | {'spread': j.get('set_spread', {})})
        if None in results: continue
        for k in ('baseline', 'rotation_angle_degrees'):
            (a, ha, na), (b, hb, nb) = results[0][k], results[1][k]
            d = abs(a - b); both = math.hypot(ha, hb); noise = math.hypot(na, nb)
            rows.append((name, seed, k, d, both, noise))
            print(f'{name:28s} seed {seed} {k:23s} halves {a:.5g} / {b:.5g}: differ {d:.3g}; combined 95% {both:.3g} ({d / both:.2f}), scatter alone {noise:.3g} ({d / noise:.2f})', flush=True)
inside = sum(1 for r in rows if r[3] <= r[4]); inside_noise = sum(1 for r in rows if r[3] <= r[5])
print(f'inside the combined 95% interval: {inside} of {len(rows)} with the spread, {inside_noise} of {len(rows)} with the scatter alone')
