#!/usr/bin/env python3
"""The table of scripts/gpu-spectral-variants.sh (issue 18): the 50 GH components' gradient on 10x19x38 by the
cluster route's variants and by dense cuBLAS, one call and per call of 20, the ratios mode by mode, and (with the
ncu files) each variant's fraction of the SM's L1/shared-memory pipe and of the FP64 (DFMA) and tensor (DMMA) pipes.
Usage: spectral_variants_table.py OUT_DIR"""
import csv
import json
import os
import sys

SMS = 132              # H200 SMs
SHARED_PER_CLOCK = 1   # shared-memory wavefronts per SM per clock (128 bytes)
DFMA_PER_CLOCK = 64    # FP64 FMA per SM per clock on the vector pipe
DMMA_PER_CLOCK = 128   # FP64 FMA per SM per clock on the tensor cores (m8n8k4: 256 FMA per warp instruction)


def loom_row(out, name):
    try:
        return json.load(open(os.path.join(out, name + ".json")))["result"]
    except (OSError, KeyError, ValueError):
        return None


def us(r):
    return r["median_s"] * 1e6 if r else float("nan")


def variants(out):
    """The rows of spectral_cluster_timing's table (the dense row last)."""
    rows, dense = [], None
    try:
        lines = open(os.path.join(out, "variants.txt")).read().splitlines()
    except OSError:
        return rows, dense
    for line in lines[1:]:
        f = line.split()
        if len(f) < 14:
            continue
        if f[0] == "dense":
            dense = (float(f[9]), float(f[10]), f[13])
            continue
        products = {"yes": "mma", "r": "mma+dr", "no": "fma", "s": "strips"}.get(f[1], f[1])
        rows.append({"label": f"G{f[0]} {products}{' pad' if f[2] == 'yes' else ''}"
                              f" {f[4]}/SM {f[5]} {f[7]}b/{f[8]}", "one": float(f[9]), "stream": float(f[10]),
                     "error": f[13]})
    return rows, dense


def ncu(path):
    """{launch id: {metric name: value}} from an ncu --csv file (the launches in order)."""
    launches = {}
    try:
        lines = [l for l in open(path).read().splitlines() if l.startswith('"')]
    except OSError:
        return []
    for rec in csv.DictReader(lines):
        try:
            value = float(rec["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            continue
        launches.setdefault(int(rec["ID"]), {})[rec["Metric Name"]] = value
    return [launches[k] for k in sorted(launches)]


def main():
    out = sys.argv[1]
    c1, c20, d1, d20, auto = (loom_row(out, n) for n in ("cluster-1", "cluster-20", "dense-1", "dense-20", "auto-1"))
    print("\n== issue 18: the 50 GH components on 10x19x38, loom spectral (what a user gets) ==")
    print(f"{'route':<44} {'one call us':>12} {'per call of 20 us':>18}")
    print(f"{'cluster (default variant)':<44} {us(c1):>12.1f} {us(c20):>18.1f}")
    print(f"{'dense strided-batched cuBLAS (the paper)':<44} {us(d1):>12.1f} {us(d20):>18.1f}")
    print(f"{'dense / cluster, same mode':<44} {us(d1) / us(c1):>11.2f}x {us(d20) / us(c20):>17.2f}x   (target >= 5x)")
    print(f"{'auto: ' + (auto['strategy'] + '/' + auto.get('angular', '?') if auto else 'failed'):<44} {us(auto):>12.1f}")
    if c1:
        print(f"(cluster model {c1['flops'] / 1e6:.1f} MFLOP, {c1['bytes'] / 1e6:.1f} MB: one call "
              f"{c1['flops'] / c1['median_s'] / 1e12:.2f} TFlop/s; target <= 20 us one call)")

    rows, dense = variants(out)
    sections, metrics = ncu(os.path.join(out, "ncu-sections.csv")), ncu(os.path.join(out, "ncu-metrics.csv"))
    print("\n== the cluster route's variants (spectral_cluster_timing, same stopwatch as its dense row) ==")
    print(f"{'variant':<36} {'one us':>7} {'of 20 us':>8} {'dense/1':>8} {'dense/20':>8} {'L1 %':>6} {'shared %':>8}"
          f" {'confl %':>7} {'DFMA %':>7} {'DMMA %':>7} {'ncu us':>7} {'error':>9}")
    for i, r in enumerate(rows):
        s = sections[i] if i < len(sections) else {}
        m = metrics[i] if i < len(metrics) else {}
        l1 = s.get("L1/TEX Cache Throughput", m.get("l1tex__throughput.avg.pct_of_peak_sustained_elapsed", float("nan")))
        cycles = m.get("sm__cycles_elapsed.avg", float("nan"))
        wave = m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", float("nan"))
        conflicts = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", float("nan"))
        shared = 100 * wave / (SMS * SHARED_PER_CLOCK * cycles)
        dfma = 100 * 32 * m.get("sm__inst_executed_pipe_fp64.sum", float("nan")) / (SMS * DFMA_PER_CLOCK * cycles)
        # ops of the tensor path counted as 2 per FMA
        dmma = 100 * m.get("sm__ops_path_tensor_src_fp64.sum", float("nan")) / 2 / (SMS * DMMA_PER_CLOCK * cycles)
        ncu_us = m.get("gpu__time_duration.sum", float("nan")) / 1e3
        print(f"{r['label']:<36} {r['one']:>7.2f} {r['stream']:>8.2f} "
              f"{(dense[0] / r['one'] if dense else float('nan')):>7.2f}x "
              f"{(dense[1] / r['stream'] if dense else float('nan')):>7.2f}x {l1:>6.1f} {shared:>8.1f} "
              f"{100 * conflicts / wave if wave == wave and wave else float('nan'):>7.1f} {dfma:>7.1f} {dmma:>7.1f}"
              f" {ncu_us:>7.1f} {r['error']:>9}")
    if dense:
        print(f"{'dense cuBLAS':<36} {dense[0]:>7.2f} {dense[1]:>8.2f} {'1x':>8} {'1x':>8}"
              f"{'':>48} {dense[2]:>9}")
    print("(variant: components per cluster, products (mma+dr: d_r too, from shared memory), padded rows, blocks per SM the kernel is built for, extents,"
          " blocks launched / blocks the device holds at once)")
    print("(L1 %: L1/TEX throughput of peak; shared %: shared-memory wavefronts of 1 per SM per clock; confl %: bank"
          " conflicts of the wavefronts; DFMA %: FP64 pipe instructions x 32 of 64 FMA per SM per clock; DMMA %: the"
          " tensor path's FP64 ops / 2 of 128 FMA per SM per clock; all over the elapsed cycles under ncu)")


if __name__ == "__main__":
    main()
