# Per-warp executed-instruction counts of each probe kernel from ncu_raw.csv: the .sum columns
# divided by the launch's warps (2; reduce0 8), as a table (isel_summary.txt)
import csv, sys
lines = [l for l in open(sys.argv[1] if len(sys.argv) > 1 else 'ncu_raw.csv') if l.startswith('"')]
rows = list(csv.reader(lines))
h = rows[0]
cols = ['smsp__inst_executed.sum', 'smsp__sass_inst_executed_op_branch.sum', 'smsp__sass_inst_executed_op_global_ld.sum',
        'smsp__sass_inst_executed_op_local_ld.sum', 'smsp__sass_inst_executed_op_local_st.sum',
        'smsp__thread_inst_executed.sum', 'smsp__thread_inst_executed_pred_on.sum']
print(f"{'kernel':14s} {'inst/warp':>9s} {'bra/warp':>8s} {'ldg':>4s} {'ldl':>4s} {'stl':>4s} {'thr/warp':>9s} {'predon/warp':>11s}")
for r in rows[2:]:
    d = dict(zip(h, r))
    warps = int(d['Block Size'].strip('()').split(',')[0]) // 32
    v = [float(d[c].replace(',', '')) / warps for c in cols]
    print(f"{d['Kernel Name']:14s} {v[0]:9g} {v[1]:8g} {v[2]:4g} {v[3]:4g} {v[4]:4g} {v[5]:9g} {v[6]:11g}")
