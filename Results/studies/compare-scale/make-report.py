import csv, sys, random
src, n, out, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rows = list(csv.DictReader(open(src)))
rows = [r for r in rows if r['status'] == 'ok' and r['sweep'] == '' and r['samples_ms']][:50]
rng = random.Random(seed)
with open(out, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator='\r\n')
    w.writeheader()
    for i in range(n):
        r = dict(rows[i % len(rows)])
        r['param'] = (r['param'] + ' ' if r['param'] else '') + f'rep={i}'
        s = [float(x) for x in r['samples_ms'].split(' ')][:5]
        s = [x * (1 + rng.gauss(0, 0.02)) for x in s]
        r['samples_ms'] = ' '.join(f'{x:.6g}' for x in s)
        r['samples'] = str(len(s))
        r['sample_rounds'] = ' '.join(['1'] * len(s)) if r.get('sample_rounds') else ''
        r['rounds'] = '1' if r.get('rounds') else r.get('rounds', '')
        w.writerow(r)
