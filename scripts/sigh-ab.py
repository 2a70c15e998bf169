#!/usr/bin/env python3
"""Two (or more) satdoku binaries side by side on puzzles of sigh's corpus.

Usage: scripts/sigh-ab.py BIN_A,BIN_B INDICES ROUNDS [BACKEND]

INDICES: comma-separated corpus indices (0-based lines of
../shared/datasets/variants-sigh/puzzles.jsonl). Per puzzle, each binary runs
`solve --unique --output json --format sigh -q --jobs 1 --timeout 30 --backend BACKEND` (dfs by
default) on a one-line file, interleaved A B A B for ROUNDS rounds; prints status, native nodes and
the smallest CPU time (user + system, from rusage: process start included) per binary, then totals.
"""
import json, resource, subprocess, sys, tempfile, os
corpus=[json.loads(l) for l in open(os.path.join(os.path.dirname(__file__), '../../shared/datasets/variants-sigh/puzzles.jsonl')) if l.strip()]
bins=sys.argv[1].split(','); idx=[int(x) for x in sys.argv[2].split(',')]; R=int(sys.argv[3]); backend=sys.argv[4] if len(sys.argv)>4 else 'dfs'
def run(b, path):
    before=resource.getrusage(resource.RUSAGE_CHILDREN)
    out=subprocess.run([b,'solve','--unique','--output','json','--format','sigh','-q','--jobs','1','--timeout','30','--backend',backend,path],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL).stdout
    after=resource.getrusage(resource.RUSAGE_CHILDREN)
    rec=json.loads(out.decode().splitlines()[0])
    return after.ru_utime-before.ru_utime+after.ru_stime-before.ru_stime, rec
tot=[0.0]*len(bins)
for i in idx:
    path=tempfile.mktemp(suffix='.txt'); open(path,'w').write(''.join(corpus[i]['input'].split())+'\n')
    best=[None]*len(bins); recs=[None]*len(bins)
    for r in range(R):
        for k,b in enumerate(bins):
            c,rec=run(b,path)
            best[k]=c if best[k] is None else min(best[k],c); recs[k]=rec
    os.unlink(path)
    for k in range(len(bins)): tot[k]+=best[k]
    print(i, ' | '.join(f"{recs[k].get('status')} {recs[k].get('nodes')} {best[k]:.3f}s" for k in range(len(bins))), flush=True)
print('total', ' | '.join(f"{t:.3f}" for t in tot))
