#!/usr/bin/python3
"""The host side of qemu/ara.sh eval: reads the two case studies' CSVs (and
the instruction counts) of one run, and writes summary.md and the plots.

usage: eval-report.py [--rts FILE] [--rtm FILE] [--instructions FILE]
                      [--note TEXT]... --out DIR
Writes DIR/summary.md (and prints it), DIR/summary.json (the same figures
for programs: means, interval half-widths, ratios as [value, lo, hi], what
is missing) and the plots, DIR/*.png and DIR/*.svg.
  --rts FILE           rts_study's CSV:
                       workload,config,size_bytes,repeat,seconds,ctx_switches,chunks
  --rtm FILE           rtm_study.sh's CSV: program,config,repeat,seconds,entries,verified
  --instructions FILE  guest instructions per RTS run (qemu/eval.sh):
                       workload,config,size_bytes,repeat,instructions,el0,own
  --note TEXT          a line for the summary's "Run" section (repeatable)
  --out DIR            where summary.md and the plots (PNG and SVG) go
At least one of --rts and --rtm; the summary names the studies it covers.

Statistics (docs/evaluation.md): per group of runs the mean and its 95 %
confidence interval (Student's t, n - 1 degrees of freedom); an overhead is
a difference of two means, its interval Welch's; a ratio of two positive
quantities has the interval their intervals' ends give (the smallest and
the largest quotient), "unbounded" where the divisor's interval reaches 0.
An ARA run of the RTM study whose report ara-verify did not accept
(verified 0) does not count; the summary says how many were dropped.

Exit status: 0 summary and plots written, every configuration present;
1 an input could not be read or is malformed (the message names the file
and line); 2 usage; 3 written, but a configuration has no (counted) runs:
the summary says which, at its top.
"""
import argparse
import csv
import json
import math
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402 (after the backend)
import matplotlib.ticker  # noqa: E402
from scipy import stats  # noqa: E402

RTS_CONFIGS = ["none", "ara", "shm", "socket", "fifo"]
RTS_IPC = ["shm", "socket", "fifo"]
RTS_WORKLOADS = ["gcm", "cenc"]
RTM_CONFIGS = ["plain", "ara", "ipc"]
RTS_HEADER = ["workload", "config", "size_bytes", "repeat", "seconds", "ctx_switches", "chunks"]
RTM_HEADER = ["program", "config", "repeat", "seconds", "entries", "verified"]
INSN_HEADER = ["workload", "config", "size_bytes", "repeat", "instructions", "el0", "own"]
MIB = 1 << 20

# The paper's figures (section 7, a Cortex-A76): what the summary sets ours beside.
PAPER_RTS_ARA_2GB = "0.13 s on 2 GB"
PAPER_RTS_RATIO = {"shm": ("8-12x", "9.7x"), "fifo": ("8-12x", "15x"), "socket": ("8-12x", "11.6x")}
PAPER_RTS_CSW_2GB = {"ara": "~220", "shm": "~120,000", "fifo": "~120,000", "socket": "~41,000"}
PAPER_RTM_SPEEDUP = "30-55x (cpython, flightdm, lbm, ntest, omnetpp, sqlite, stockfish, zstd)"
PAPER_2GB = 2 * 1024 ** 3


class InputError(Exception):
    pass


# --- statistics -----------------------------------------------------------

class Mean:
    """The mean of samples and its 95 % confidence interval (Student's t)."""

    def __init__(self, samples):
        self.n = len(samples)
        self.mean = statistics.fmean(samples)
        self.var = statistics.variance(samples) if self.n > 1 else math.nan
        self.half = (stats.t.ppf(0.975, self.n - 1) * math.sqrt(self.var / self.n)
                     if self.n > 1 else math.nan)

    @property
    def lo(self):
        return self.mean - self.half

    @property
    def hi(self):
        return self.mean + self.half


class Diff:
    """a.mean - b.mean with Welch's 95 % interval."""

    def __init__(self, a, b):
        self.mean = a.mean - b.mean
        va, vb = a.var / a.n, b.var / b.n
        if a.n < 2 or b.n < 2:
            self.half = math.nan
        elif va + vb == 0:
            self.half = 0.0
        else:
            df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1))
            self.half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
        self.lo, self.hi = self.mean - self.half, self.mean + self.half


class Ratio:
    """x.mean / y.mean; the interval from the ends of both intervals."""

    def __init__(self, x, y):
        self.value = x.mean / y.mean if y.mean else math.inf
        if math.isnan(x.half) or math.isnan(y.half):
            self.lo = self.hi = math.nan
        elif y.lo <= 0 <= y.hi or x.lo < 0:
            self.lo, self.hi = math.nan, math.inf  # unbounded
        else:
            self.lo, self.hi = x.lo / y.hi, x.hi / y.lo


def fit_line(xs, ys):
    """Least squares y = a + b x: (b, b's 95 % half-width, a, R^2)."""
    r = stats.linregress(xs, ys)
    n = len(xs)
    half = stats.t.ppf(0.975, n - 2) * r.stderr if n > 2 else math.nan
    return r.slope, half, r.intercept, r.rvalue ** 2


# --- input ----------------------------------------------------------------

def read_csv(path, header, kinds):
    """Rows as dicts, each value converted by kinds[column]; InputError names
    the file and line of anything wrong."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from e
    if not rows:
        raise InputError(f"{path}: empty (expected the header {','.join(header)})")
    got = rows[0]
    if got != header:
        raise InputError(f"{path}:1: header {','.join(got)}, expected {','.join(header)}")
    out = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(f"{path}:{line}: {len(row)} fields, expected {len(header)}")
        try:
            out.append({k: kinds.get(k, str)(v) for k, v in zip(header, row)})
        except ValueError as e:
            raise InputError(f"{path}:{line}: {e}") from e
    return out


def nonneg(conv):
    def check(v):
        x = conv(v)
        if not x >= 0:
            raise ValueError(f"'{v}' is not a number >= 0")
        return x
    return check


def verified(v):
    if v not in ("0", "1", "-"):
        raise ValueError(f"verified '{v}' is not 0, 1 or -")
    return v


def member(allowed, what):
    def check(v):
        if v not in allowed:
            raise ValueError(f"{what} '{v}' is not one of {', '.join(allowed)}")
        return v
    return check


RTS_KINDS = {"workload": member(RTS_WORKLOADS, "workload"), "config": member(RTS_CONFIGS, "config"),
             "size_bytes": nonneg(int), "repeat": nonneg(int), "seconds": nonneg(float),
             "ctx_switches": nonneg(int), "chunks": nonneg(int)}
INSN_KINDS = {"workload": member(RTS_WORKLOADS, "workload"), "config": member(RTS_CONFIGS, "config"),
              "size_bytes": nonneg(int), "repeat": nonneg(int), "instructions": nonneg(int),
              "el0": nonneg(int), "own": nonneg(int)}
RTM_KINDS = {"config": member(RTM_CONFIGS, "config"), "repeat": nonneg(int),
             "seconds": nonneg(float), "entries": nonneg(int), "verified": verified}


# --- formatting -----------------------------------------------------------

def num(x, digits=3):
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "unbounded"
    return f"{x:.{digits}g}"


def times(x):
    return num(x) + "x" if math.isfinite(x) else num(x)


def with_ci(m, digits=3):
    """'mean ± half' (the mean's or a difference's)."""
    return f"{num(m.mean, digits)} ± {num(m.half, 2)}"


def ratio_text(r):
    if math.isnan(r.lo) and math.isnan(r.hi):
        return f"{num(r.value)}x (one run: no interval)"
    if math.isinf(r.hi):
        return f"{num(r.value)}x [unbounded: the divisor is not told from 0]"
    return f"{num(r.value)}x [{num(r.lo)}, {num(r.hi)}]"


def size_text(b):
    return f"{b / MIB:g} MiB" if b % (MIB // 4) == 0 else f"{b} B"


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def save(fig, out, name):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"))
    plt.close(fig)
    return [f"{name}.png", f"{name}.svg"]


def errorbar_yerr(ms):
    return [0 if math.isnan(m.half) else m.half for m in ms]


# --- the RTS study --------------------------------------------------------

def group(rows, *keys, value):
    g = {}
    for r in rows:
        g.setdefault(tuple(r[k] for k in keys), []).append(r[value])
    return g


def rts_section(rows, insns, out, missing, plots, res):
    md = []
    for wl in [w for w in RTS_WORKLOADS if any(r["workload"] == w for r in rows)]:
        wrows = [r for r in rows if r["workload"] == wl]
        secs = group(wrows, "config", "size_bytes", value="seconds")
        csws = group(wrows, "config", "size_bytes", value="ctx_switches")
        sizes = sorted({r["size_bytes"] for r in wrows})
        for c in RTS_CONFIGS:
            for z in sizes:
                if (c, z) not in secs:
                    missing.append(f"RTS {wl}: configuration {c} has no runs at {size_text(z)}")
        md.append(f"## RTS case study, workload `{wl}`\n")
        md.append({"gcm": "ARA's chunk format: 64 KiB AES-GCM chunks (the paper's workload).\n",
                   "cenc": "CENC samples of a real fragmented MP4 (1-second fragments).\n"}[wl])
        mean = {k: Mean(v) for k, v in secs.items()}
        csw = {k: Mean([float(x) for x in v]) for k, v in csws.items()}
        head = ["size", "config", "runs", "seconds per run (mean ± 95 % CI)",
                "overhead over none, s", "overhead / ara's", "context switches per run"]
        body = []
        for z in sizes:
            base, ara = mean.get(("none", z)), mean.get(("ara", z))
            ara_over = Diff(ara, base) if ara and base else None
            for c in RTS_CONFIGS:
                m = mean.get((c, z))
                if not m:
                    body.append([size_text(z), c, 0, "MISSING", "", "", ""])
                    continue
                over = Diff(m, base) if base and c != "none" else None
                rel = Ratio(over, ara_over) if over and ara_over and c in RTS_IPC else None
                body.append([size_text(z), c, m.n, with_ci(m), with_ci(over) if over else "",
                             ratio_text(rel) if rel else "", with_ci(csw[(c, z)], 4)])
                res.setdefault(wl, {}).setdefault(str(z), {})[c] = {
                    "runs": m.n, "mean": m.mean, "half": m.half,
                    "overhead": over.mean if over else None, "overhead_half": over.half if over else None,
                    "over_ara": [rel.value, rel.lo, rel.hi] if rel else None,
                    "ctx_switches": csw[(c, z)].mean}
        md.append(table(head, body))
        md.append("\nOverhead: the difference of the means, Welch's 95 % interval; overhead / "
                  "ara's: an IPC design's overhead as a multiple of ARA's, the interval from "
                  "the ends of both overheads' intervals.\n")

        # Linear growth: seconds per run against the stream size, every run.
        fits = {}
        for c in RTS_CONFIGS:
            pts = [(r["size_bytes"] / MIB, r["seconds"]) for r in wrows if r["config"] == c]
            if len({x for x, _ in pts}) >= 2:
                fits[c] = fit_line([x for x, _ in pts], [y for _, y in pts])
        if fits:
            md.append("\nGrowth with the stream size: least squares of every run's seconds on its "
                      "size (slope with its 95 % interval, R^2); the overhead's slope is the "
                      "configuration's less none's.\n\n")
            body = []
            for c, (b, half, a, r2) in fits.items():
                ob = b - fits["none"][0] if "none" in fits and c != "none" else math.nan
                rel = (ob / (fits["ara"][0] - fits["none"][0])
                       if c in RTS_IPC and "ara" in fits and "none" in fits else math.nan)
                res[wl].setdefault("fit", {})[c] = {"slope": b, "slope_half": half, "intercept": a,
                                                    "r2": r2}
                body.append([c, f"{num(b)} ± {num(half, 2)}", num(a), f"{r2:.4f}",
                             num(ob) if c != "none" else "", times(rel) if c in RTS_IPC else ""])
            md.append(table(["config", "slope, s per MiB", "intercept, s", "R^2",
                             "overhead slope, s per MiB", "overhead slope / ara's"], body))

        insn_md = insn_section(wl, [r for r in insns if r["workload"] == wl], missing,
                               res[wl].setdefault("instructions", {}), out, plots) if insns else ""
        insn_at = res[wl].get("instructions", {})

        # The paper beside ours, at our largest size.
        z = sizes[-1]
        md.append(f"\nThe paper's figures (Cortex-A76, 2 and 8 GB) beside ours (the emulator, "
                  f"{size_text(z)}; context switches scaled to the paper's 2 GB: x {PAPER_2GB} / {z} "
                  f"bytes):\n\n")
        body = []
        base, ara = mean.get(("none", z)), mean.get(("ara", z))
        ara_over = Diff(ara, base) if ara and base else None
        if ara_over:
            body.append(["ARA's overhead", PAPER_RTS_ARA_2GB,
                         f"{with_ci(ara_over)} s on {size_text(z)}"])
        for c in RTS_IPC:
            m = mean.get((c, z))
            if m and ara_over:
                two, eight = PAPER_RTS_RATIO[c]
                at = insn_at.get(str(z), {})
                own = (f"; instructions (own) over none per byte: {c} {num(at[c]['per_byte']['own'])}, "
                       f"ARA {num(at['ara']['per_byte']['own'])}" if c in at and "ara" in at else
                       f"; no instructions counted at {size_text(z)}" if insns else "")
                body.append([f"{c} overhead / ARA's", f"{two} (2 GB), {eight} (8 GB)",
                             ratio_text(Ratio(Diff(m, base), ara_over)) + own])
        for c in RTS_CONFIGS[1:]:
            if (c, z) in csw:
                scaled = csw[(c, z)].mean * PAPER_2GB / z
                body.append([f"{c} context switches per 2 GB", PAPER_RTS_CSW_2GB[c], f"{scaled:,.0f}"])
        md.append(table(["figure", "paper", "ours"], body))

        plots += rts_plots(wl, sizes, mean, csw, out)
        md.append(insn_md)
    if insns and any(r["workload"] not in {w["workload"] for w in rows} for r in insns):
        missing.append("instruction counts of a workload the RTS CSV has no runs of")
    return "\n".join(md)


def insn_section(wl, rows, missing, res, out, plots):
    if not rows:
        missing.append(f"RTS {wl}: no instruction counts")
        return ""
    kinds = ("instructions", "own", "el0")
    m = {k: {key: statistics.fmean(v) for key, v in group(rows, "config", "size_bytes", value=k).items()}
         for k in kinds}
    sizes = sorted({r["size_bytes"] for r in rows})
    runs = group(rows, "config", "size_bytes", value="repeat")
    per_byte = {}
    head = ["size", "config", "runs", "instructions per run", "over none, per byte: all", "own",
            "EL0", "overhead / ara's: all", "own"]
    body = []
    for z in sizes:
        for c in RTS_CONFIGS:
            if (c, z) not in runs:
                missing.append(f"RTS {wl}: no instruction counts of {c} at {size_text(z)}")
                continue
            row = [size_text(z), c, len(runs[(c, z)]), f"{m['instructions'][(c, z)]:,.0f}"]
            if c == "none" or ("none", z) not in runs:
                body.append(row + [""] * 5)
                continue
            over = {k: m[k][(c, z)] - m[k][("none", z)] for k in kinds}
            ara = {k: m[k][("ara", z)] - m[k][("none", z)] for k in kinds} if ("ara", z) in runs else None
            # A multiple of ARA's overhead means nothing where ARA adds none.
            rel = {k: over[k] / ara[k] if c in RTS_IPC and ara and ara[k] > 0 else math.nan for k in kinds}
            res.setdefault(str(z), {})[c] = {"per_byte": {k: over[k] / z for k in kinds},
                                             "over_ara": rel}
            per_byte.setdefault(c, {})[z] = over["own"] / z
            body.append(row + [num(over[k] / z) for k in kinds]
                        + [times(rel[k]) if c in RTS_IPC else "" for k in ("instructions", "own")])
    if per_byte:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for c, pts in per_byte.items():
            ax.plot([z / MIB for z in pts], list(pts.values()), marker="o", label=c)
        ax.set(xlabel="stream size (MiB)", ylabel="guest instructions over none, per byte (own)",
               title=f"RTS study ({wl}): instructions the isolation adds")
        # symlog: a configuration that runs fewer instructions than none shows below 0.
        ax.set_yscale("symlog", linthresh=0.01)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.legend()
        plots += save(fig, out, f"rts_{wl}_instructions")
    return (f"\nGuest instructions of the timed part of a run (the counting plugin between "
            f"rts_study's marks, workload `{wl}`): all, the kernel's included; own, all but those of "
            f"the interrupts that land in the run (the timer tick: the figure least moved by the "
            f"host's load); EL0, user code alone. Means over the counted runs; the figure the "
            f"emulator's speed does not change.\n\n" + table(head, body))


def rts_plots(wl, sizes, mean, csw, out):
    xs = [z / MIB for z in sizes]
    files = []
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in RTS_CONFIGS:
        ms = [mean[(c, z)] for z in sizes if (c, z) in mean]
        if ms:
            ax.errorbar([z / MIB for z in sizes if (c, z) in mean], [m.mean for m in ms],
                        yerr=errorbar_yerr(ms), marker="o", capsize=3, label=c)
    ax.set(xlabel="stream size (MiB)", ylabel="seconds per run (mean, 95 % CI)",
           title=f"RTS study ({wl}): time to decrypt the stream")
    ax.legend()
    files += save(fig, out, f"rts_{wl}_seconds")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in RTS_CONFIGS[1:]:
        have = [z for z in sizes if (c, z) in mean and ("none", z) in mean]
        ds = [Diff(mean[(c, z)], mean[("none", z)]) for z in have]
        if ds:
            ax.errorbar([z / MIB for z in have], [d.mean for d in ds],
                        yerr=[0 if math.isnan(d.half) else d.half for d in ds],
                        marker="o", capsize=3, label=c)
    ax.set(xlabel="stream size (MiB)", ylabel="overhead over none (s, mean, 95 % CI)",
           title=f"RTS study ({wl}): the cost of isolating the decryption")
    ax.legend()
    files += save(fig, out, f"rts_{wl}_overhead")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.8 / len(RTS_CONFIGS)
    for i, c in enumerate(RTS_CONFIGS):
        ms = [csw.get((c, z)) for z in sizes]
        ax.bar([j + i * width for j in range(len(sizes))], [m.mean if m else 0 for m in ms],
               width, yerr=[0 if not m or math.isnan(m.half) else m.half for m in ms],
               capsize=2, label=c)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(sizes))], [f"{x:g}" for x in xs])
    ax.set_yscale("symlog")
    ax.set(xlabel="stream size (MiB)", ylabel="context switches per run (mean, 95 % CI)",
           title=f"RTS study ({wl}): context switches")
    ax.legend()
    files += save(fig, out, f"rts_{wl}_ctx_switches")
    return files


# --- the RTM study --------------------------------------------------------

def rtm_section(rows, out, missing, plots, res):
    programs = list(dict.fromkeys(r["program"] for r in rows))
    dropped = {p: sum(1 for r in rows if r["program"] == p and r["config"] == "ara"
                      and r["verified"] != "1") for p in programs}
    for r in rows:
        if r["config"] != "ara" and r["verified"] != "-":
            raise InputError(f"rtm: {r['program']} {r['config']} repeat {r['repeat']}: "
                             f"verified '{r['verified']}', expected - (only ARA's runs are verified)")
    counted = [r for r in rows if r["config"] != "ara" or r["verified"] == "1"]
    secs = group(counted, "program", "config", value="seconds")
    md = ["## RTM case study\n",
          "Each program uninstrumented (plain), instrumented with ARA's log (ara) and "
          "instrumented with the log in another process over a Unix socket, one synchronous "
          "hand-off per edge (ipc). An ARA run counts only if ara-verify accepted its report.\n\n"]
    total = sum(dropped.values())
    res["dropped"] = dropped
    md.append(f"ARA runs dropped (report not verified): {total}"
              + (" (" + ", ".join(f"{p}: {n}" for p, n in dropped.items() if n) + ")" if total else "")
              + "\n\n")
    body, speedups = [], {}
    for p in programs:
        mean = {c: Mean(secs[(p, c)]) for c in RTM_CONFIGS if (p, c) in secs}
        for c in RTM_CONFIGS:
            if c not in mean:
                why = " (every ARA run dropped: not verified)" if c == "ara" and dropped[p] else ""
                missing.append(f"RTM {p}: configuration {c} has no counted runs{why}")
        for c in RTM_CONFIGS:
            if c not in mean:
                body.append([p, c, 0, dropped[p] if c == "ara" else "", "MISSING", "", "", ""])
                continue
            run = [r for r in counted if r["program"] == p and r["config"] == c]
            rate = Mean([r["entries"] / r["seconds"] for r in run]) if c != "plain" else None
            body.append([p, c, mean[c].n, dropped[p] if c == "ara" else "", with_ci(mean[c]),
                         ratio_text(Ratio(mean[c], mean["plain"])) if "plain" in mean and c != "plain" else "",
                         f"{statistics.fmean(r['entries'] for r in run):,.0f}" if c != "plain" else "",
                         with_ci(rate) if rate else ""])
            res.setdefault(p, {})[c] = {
                "runs": mean[c].n, "mean": mean[c].mean, "half": mean[c].half,
                "entries": statistics.fmean(r["entries"] for r in run),
                "entries_per_second": [rate.mean, rate.half] if rate else None}
        if "ara" in mean and "ipc" in mean:
            speedups[p] = Ratio(mean["ipc"], mean["ara"])
            res[p]["speedup"] = [speedups[p].value, speedups[p].lo, speedups[p].hi]
        if "plain" in mean:
            for c in ("ara", "ipc"):
                if c in mean:
                    r = Ratio(mean[c], mean["plain"])
                    res[p][c]["over_plain"] = [r.value, r.lo, r.hi]
    md.append(table(["program", "config", "runs counted", "dropped", "seconds (mean ± 95 % CI)",
                     "run time / plain", "entries logged", "entries per second"], body))
    md.append("\nThe paper's figure beside ours: ARA against the IPC logger, run time of ipc / "
              "run time of ara.\n\n")
    md.append(table(["program", "paper", "ours"],
                    [[p, PAPER_RTM_SPEEDUP if i == 0 else "", ratio_text(s)]
                     for i, (p, s) in enumerate(speedups.items())]))
    plots += rtm_plots(programs, secs, out)
    return "".join(md)


def rtm_plots(programs, secs, out):
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(programs)), 4.5))
    for i, c in enumerate(["ara", "ipc"]):
        rs = [Ratio(Mean(secs[(p, c)]), Mean(secs[(p, "plain")]))
              if (p, c) in secs and (p, "plain") in secs else None for p in programs]
        vals = [r.value if r else 0 for r in rs]
        err = [[0 if not r or math.isnan(r.lo) else r.value - r.lo for r in rs],
               [0 if not r or math.isnan(r.lo) or math.isinf(r.hi) else r.hi - r.value for r in rs]]
        ax.bar([j + i * 0.4 for j in range(len(programs))], vals, 0.4, yerr=err, capsize=3, label=c)
    ax.set_xticks([j + 0.2 for j in range(len(programs))], programs)
    ax.set_yscale("log")
    ax.axhline(1, color="grey", linewidth=0.8, label="plain")
    ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set(xlabel="program", ylabel="run time / plain's (ratio of means, 95 % interval)",
           title="RTM study: the cost of logging every edge")
    ax.legend()
    return save(fig, out, "rtm_runtime_ratio")


# --- main -----------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(usage=argparse.SUPPRESS, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rts")
    ap.add_argument("--rtm")
    ap.add_argument("--instructions")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    if not a.rts and not a.rtm:
        ap.error("give --rts, --rtm or both")
    if a.instructions and not a.rts:
        ap.error("--instructions counts RTS runs: give --rts too")
    try:
        rts = read_csv(a.rts, RTS_HEADER, RTS_KINDS) if a.rts else None
        insns = read_csv(a.instructions, INSN_HEADER, INSN_KINDS) if a.instructions else None
        rtm = read_csv(a.rtm, RTM_HEADER, RTM_KINDS) if a.rtm else None
        os.makedirs(a.out, exist_ok=True)
        missing, plots, parts, results = [], [], [], {}
        if rts is not None:
            parts.append(rts_section(rts, insns, a.out, missing, plots, results.setdefault("rts", {}))
                         if rts else "")
            if not rts:
                missing.append(f"RTS: {a.rts} has no runs")
        if rtm is not None:
            parts.append(rtm_section(rtm, a.out, missing, plots, results.setdefault("rtm", {}))
                         if rtm else "")
            if not rtm:
                missing.append(f"RTM: {a.rtm} has no runs")
    except InputError as e:
        print(f"eval-report: {e}", file=sys.stderr)
        return 1
    covers = " and ".join(s for s, f in (("RTS", a.rts), ("RTM", a.rtm)) if f)
    head = ["# ARA evaluation: summary\n",
            f"This summary covers the {covers} case stud{'ies' if a.rts and a.rtm else 'y'}"
            + ("" if a.rts and a.rtm else f" only (no {'RTM' if a.rts else 'RTS'} CSV given)") + ".\n"]
    if missing:
        head.append("\n**INCOMPLETE**: " + "; ".join(missing) + ".\n")
    if a.note:
        head.append("\n## Run\n\n" + "".join(f"- {n}\n" for n in a.note))
    head.append("\nPlots: " + ", ".join(f"[{p}]({p})" for p in plots) + "\n")
    summary = "\n".join(head + parts)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(summary)
    results["missing"] = missing
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(results, f, indent=1, allow_nan=True)
    print(summary)
    return 3 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
