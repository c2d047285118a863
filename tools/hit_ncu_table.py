#!/usr/bin/env python3
"""Reads Nsight Compute's raw CSV (--csv --page raw --print-units base) of gpu__time_duration.sum,
dram__bytes_read.sum and dram__bytes_write.sum and prints every launch (id, microseconds, MB read and written, the
kernel's name cut short), then the sums per kernel name: the bytes each kernel of `loom hit`'s step really moves,
to hold against traffic.hpp's model. Usage: hit_ncu_table.py FILE.csv [LAUNCHES SHOWN]"""
import csv
import re
import sys


def number(text):
    # ncu's raw CSV writes thousands separators ("690,336") even with --print-units base
    return float(text.replace(",", ""))


def rows(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]
    table = list(csv.reader(lines))
    if not table:
        return []
    head = table[0]
    col = {name: i for i, name in enumerate(head)}
    out = []
    for r in table[1:]:
        if len(r) != len(head) or not r[col["ID"]].isdigit():
            continue  # the units row
        out.append({
            "id": int(r[col["ID"]]),
            "name": r[col["Kernel Name"]],
            "us": number(r[col["gpu__time_duration.sum"]]) / 1e3,
            "read": number(r[col["dram__bytes_read.sum"]]) / 1e6,
            "write": number(r[col["dram__bytes_write.sum"]]) / 1e6,
        })
    return out


def short(name, width=58):
    # loom's kernels are lambdas named after the function around them (demangled names)
    found = re.search(r"loom::hit::[A-Za-z_0-9:]+", name)
    base = found.group(0) if found else name.split("(")[0]
    return base[-width:]


def main():
    launches = rows(sys.argv[1])
    if not launches:
        print("no launches in", sys.argv[1])
        return
    shown = int(sys.argv[2]) if len(sys.argv) > 2 else len(launches)
    print(f"{'id':>4} {'us':>9} {'read MB':>9} {'write MB':>9}  kernel (the first {shown} launches)")
    for r in launches[:shown]:
        print(f"{r['id']:>4} {r['us']:>9.1f} {r['read']:>9.1f} {r['write']:>9.1f}  {short(r['name'])}")
    sums = {}
    for r in launches:
        s = sums.setdefault(short(r["name"]), [0, 0.0, 0.0, 0.0])
        s[0] += 1
        s[1] += r["us"]
        s[2] += r["read"]
        s[3] += r["write"]
    print(f"\n{'launches':>8} {'ms':>8} {'read GB':>8} {'write GB':>8} {'TB/s':>6}  kernel (sums over the launches)")
    for name, (count, us, read, write) in sorted(sums.items(), key=lambda kv: -kv[1][1]):
        rate = (read + write) / us if us > 0 else 0  # MB per us: TB/s
        print(f"{count:>8} {us / 1e3:>8.3f} {read / 1e3:>8.2f} {write / 1e3:>8.2f} {rate:>6.2f}  {short(name)}")
    total = [sum(s[i] for s in sums.values()) for i in range(4)]
    print(f"{total[0]:>8} {total[1] / 1e3:>8.3f} {total[2] / 1e3:>8.2f} {total[3] / 1e3:>8.2f}  all")


if __name__ == "__main__":
    main()
