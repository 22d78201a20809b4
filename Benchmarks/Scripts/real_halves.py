#!/usr/bin/env python3
"""Disjoint halves of real calibration sets: is their difference inside the combined 95% interval?

usage: real_halves.py BINARY OUTDIR SET:PATTERN[:MODEL] ... [--splits N] [--params fx,fy,cx,cy]
For each set (a folder of pictures), N seeded random partitions into two disjoint halves (seeds
1000, 1001, ...); each half is linked into OUTDIR and calibrated on its own by BINARY (`calibrate
--no-cross-validate`); for each parameter, inside when |a - b| <= sqrt(ci_a^2 + ci_b^2), the 95%
half widths from calibration.json. Prints each comparison, each set's count and the total with the
median |z| (the difference over its combined standard deviation). Benchmarks/HISTORY.md,
"Intervals on real sets", has the sets and the runs.
"""
import json, os, random, shutil, subprocess, sys, math

def images(folder):
    return sorted(f for f in os.listdir(folder) if f.lower().endswith(('.jpg', '.jpeg', '.png', '.bmp')))

def calibrate(binary, folder, pattern, model, out):
    if os.path.exists(out): shutil.rmtree(out)
    cmd = [binary, 'calibrate', folder, '--pattern', pattern, '--out', out, '--no-cross-validate']
    if model: cmd += ['--model', model]
    r = subprocess.run(cmd, capture_output=True, text=True)
    path = os.path.join(out, 'calibration.json')
    if r.returncode not in (0, 2) or not os.path.exists(path):
        return None, r.stderr.strip().splitlines()[-1:] if r.stderr else r.returncode
    return json.load(open(path)), r.stderr

def half_width(doc, name):
    u = doc.get('uncertainty', {}).get(name)
    if u is None: return None
    return u.get('ci95_half_width')

def value(doc, name):
    run = doc['final_run'] or doc['first_run']
    for p in run['parameters']:
        if p['name'] == name: return p['value']
    return None

def main():
    args = sys.argv[1:]
    splits = 4; params = ['fx', 'fy', 'cx', 'cy', 'k1', 'k2']
    if '--splits' in args:
        i = args.index('--splits'); splits = int(args[i + 1]); del args[i:i + 2]
    if '--params' in args:
        i = args.index('--params'); params = args[i + 1].split(','); del args[i:i + 2]
    binary, outdir = args[0], args[1]
    total = inside = 0
    zs = []
    for spec in args[2:]:
        parts = spec.split(':')
        folder = parts[0]
        model = None
        if parts[-1] in ('pinhole', 'rational', 'fisheye', 'pinhole-radtan'):
            model = parts[-1]; parts = parts[:-1]
        pattern = ':'.join(parts[1:])
        names = images(folder)
        name = os.path.basename(folder.rstrip('/'))
        set_in = set_total = 0
        for split in range(splits):
            rng = random.Random(1000 + split)
            order = names[:]; rng.shuffle(order)
            halves = [sorted(order[0::2]), sorted(order[1::2])]
            docs = []
            for h, half in enumerate(halves):
                d = os.path.join(outdir, f'{name}-{split}-{h}')
                if os.path.exists(d): shutil.rmtree(d)
                os.makedirs(d)
                for f in half: os.symlink(os.path.abspath(os.path.join(folder, f)), os.path.join(d, f))
                doc, err = calibrate(binary, d, pattern, model, d + '-out')
                docs.append(doc)
                if doc is None: print(f'  {name} split {split} half {h}: failed {err}')
            if None in docs: continue
            line = []
            for p in params:
                a, b = value(docs[0], p), value(docs[1], p)
                ia, ib = half_width(docs[0], p), half_width(docs[1], p)
                if None in (a, b, ia, ib): continue
                comb = math.hypot(ia, ib)
                ok = abs(a - b) <= comb
                z = abs(a - b) / (comb / 1.96) if comb > 0 else float('inf')
                zs.append(z)
                set_total += 1; set_in += ok
                line.append(f'{p} {"in " if ok else "OUT"} |d| {abs(a-b):.4g} ci {comb:.4g}')
            print(f'  {name} split {split}: ' + '; '.join(line), flush=True)
        total += set_total; inside += set_in
        print(f'{name}: {set_in}/{set_total} inside', flush=True)
    zs.sort()
    med = zs[len(zs)//2] if zs else float('nan')
    print(f'ALL: {inside}/{total} inside ({100*inside/max(total,1):.1f}%), median |z| {med:.2f}')

main()
