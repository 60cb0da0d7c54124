#!/usr/bin/python3
"""Host test of qemu/eval-report.py on the fixture CSVs in fixtures/ (made-up
runs, not measurements): its means, 95 % intervals, overheads, ratios and
fits against the same figures computed here independently (own Student's t
by numerical integration, own least squares), a missing configuration and
an unverified ARA run reported as such, bad input refused, and the plots
written as PNG and SVG.

usage: test_eval_report.py REPORT_PY FIXTURES_DIR WORK_DIR
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

REPORT, FIXTURES, WORK = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def close(a, b, what, rel=1e-6):
    check(a is not None and b is not None and math.isclose(a, b, rel_tol=rel, abs_tol=1e-12),
          f"{what}: got {a}, expected {b}")


# --- independent statistics -----------------------------------------------

def t_cdf(x, df):
    """Student's t CDF for x >= 0: 1/2 + the integral of its density from 0
    to x (composite Simpson, 2000 intervals)."""
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    f = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)  # noqa: E731
    n, h = 2000, x / 2000
    s = f(0) + f(x) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return 0.5 + s * h / 3


def t975(df):
    lo, hi = 0.0, 100.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < 0.975 else (lo, mid)
    return (lo + hi) / 2


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, var, t975(n - 1) * math.sqrt(var / n)


def welch(a, b):
    (ma, va, _), (mb, vb, _) = mean_ci(a), mean_ci(b)
    sa, sb = va / len(a), vb / len(b)
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
    return ma - mb, t975(df) * math.sqrt(sa + sb)


# The quantile itself against printed tables (two-sided 95 %).
close(t975(2), 4.302653, "t(0.975, 2)", rel=1e-5)
close(t975(4), 2.776445, "t(0.975, 4)", rel=1e-5)
close(t975(19), 2.093024, "t(0.975, 19)", rel=1e-5)


# --- running the program --------------------------------------------------

def run(name, rts="rts.csv", rtm="rtm.csv", insns="instructions.csv", src=FIXTURES):
    out = os.path.join(WORK, name)
    shutil.rmtree(out, ignore_errors=True)
    args = [REPORT, "--out", out]
    for opt, f in (("--rts", rts), ("--rtm", rtm), ("--instructions", insns)):
        if f:
            args += [opt, os.path.join(src, f)]
    p = subprocess.run(args, capture_output=True, text=True)
    res = summary = None
    if os.path.exists(os.path.join(out, "summary.json")):
        with open(os.path.join(out, "summary.json")) as f:
            res = json.load(f)
        with open(os.path.join(out, "summary.md")) as f:
            summary = f.read()
    return p, out, res, summary


def rows(name, src=FIXTURES):
    with open(os.path.join(src, name), newline="") as f:
        return list(csv.DictReader(f))


def write(name, header, rs):
    os.makedirs(os.path.join(WORK, "in"), exist_ok=True)
    with open(os.path.join(WORK, "in", name), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rs)


os.makedirs(WORK, exist_ok=True)
p, out, res, summary = run("complete")
check(p.returncode == 0, f"complete fixtures: status {p.returncode}, expected 0 ({p.stderr.strip()})")
check(res is not None, "complete fixtures: no summary.json")
if res is None:
    sys.exit(1)
check(res["missing"] == [], f"complete fixtures: missing {res['missing']}")
check("INCOMPLETE" not in summary, "complete fixtures: summary says INCOMPLETE")

# RTS: every configuration's mean and interval, its overhead over none
# (Welch), the IPC overheads as multiples of ARA's (the intervals' ends).
rts = rows("rts.csv")
secs = {}
for r in rts:
    secs.setdefault((r["workload"], r["size_bytes"], r["config"]), []).append(float(r["seconds"]))
for (wl, z, c), xs in secs.items():
    got = res["rts"][wl][z][c]
    m, _, half = mean_ci(xs)
    close(got["mean"], m, f"rts {wl} {z} {c} mean")
    close(got["half"], half, f"rts {wl} {z} {c} CI half-width", rel=1e-5)
    check(got["runs"] == len(xs), f"rts {wl} {z} {c} runs")
    if c != "none":
        d, dh = welch(xs, secs[(wl, z, "none")])
        close(got["overhead"], d, f"rts {wl} {z} {c} overhead")
        close(got["overhead_half"], dh, f"rts {wl} {z} {c} overhead half-width", rel=1e-5)
    if c in ("shm", "socket", "fifo"):
        d, dh = welch(xs, secs[(wl, z, "none")])
        a, ah = welch(secs[(wl, z, "ara")], secs[(wl, z, "none")])
        v, lo, hi = got["over_ara"]
        close(v, d / a, f"rts {wl} {z} {c} overhead / ara's")
        close(lo, (d - dh) / (a + ah), f"rts {wl} {z} {c} overhead / ara's, low end", rel=1e-5)
        close(hi, (d + dh) / (a - ah), f"rts {wl} {z} {c} overhead / ara's, high end", rel=1e-5)

# The growth with size: least squares of seconds on MiB, every run.
for c in ("none", "ara", "shm"):
    pts = [(int(r["size_bytes"]) / 2 ** 20, float(r["seconds"])) for r in rts
           if r["workload"] == "gcm" and r["config"] == c]
    n = len(pts)
    mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    syy = sum((y - my) ** 2 for _, y in pts)
    fit = res["rts"]["gcm"]["fit"][c]
    close(fit["slope"], sxy / sxx, f"gcm {c} slope")
    close(fit["intercept"], my - sxy / sxx * mx, f"gcm {c} intercept")
    close(fit["r2"], sxy ** 2 / (sxx * syy), f"gcm {c} R^2")
check("fit" not in res["rts"]["cenc"], "cenc has one size: no fit expected")

# Instruction counts: the means' differences over none per byte, and the
# IPC designs' as multiples of ARA's, for all, own and EL0.
ins = rows("instructions.csv")
cnt = {}
for r in ins:
    for k in ("instructions", "own", "el0"):
        cnt.setdefault((r["workload"], r["size_bytes"], r["config"], k), []).append(int(r[k]))
avg = {key: sum(v) / len(v) for key, v in cnt.items()}
for (wl, z, c, k) in avg:
    if c == "none":
        continue
    over = avg[(wl, z, c, k)] - avg[(wl, z, "none", k)]
    got = res["rts"][wl]["instructions"][z][c]
    close(got["per_byte"][k], over / int(z), f"{wl} {z} {c} {k} instructions over none per byte")
    if c in ("shm", "socket", "fifo"):
        close(got["over_ara"][k], over / (avg[(wl, z, "ara", k)] - avg[(wl, z, "none", k)]),
              f"{wl} {z} {c} {k} instructions overhead / ara's")

# RTM: means, ratios to plain, ARA/IPC speed-up, entries per second.
rtm = rows("rtm.csv")
by = {}
for r in rtm:
    by.setdefault((r["program"], r["config"]), []).append(r)
for (prog, c), rs in by.items():
    xs = [float(r["seconds"]) for r in rs]
    got = res["rtm"][prog][c]
    m, _, half = mean_ci(xs)
    close(got["mean"], m, f"rtm {prog} {c} mean")
    close(got["half"], half, f"rtm {prog} {c} CI half-width", rel=1e-5)
    if c != "plain":
        pm, _, ph = mean_ci([float(r["seconds"]) for r in by[(prog, "plain")]])
        v, lo, hi = got["over_plain"]
        close(v, m / pm, f"rtm {prog} {c} / plain")
        close(lo, (m - half) / (pm + ph), f"rtm {prog} {c} / plain, low end", rel=1e-5)
        close(hi, (m + half) / (pm - ph), f"rtm {prog} {c} / plain, high end", rel=1e-5)
        rate, _, rh = mean_ci([int(r["entries"]) / float(r["seconds"]) for r in rs])
        close(got["entries_per_second"][0], rate, f"rtm {prog} {c} entries per second")
        close(got["entries_per_second"][1], rh, f"rtm {prog} {c} entries per second half", rel=1e-5)
    im, _, _ = mean_ci([float(r["seconds"]) for r in by[(prog, "ipc")]])
    am, _, _ = mean_ci([float(r["seconds"]) for r in by[(prog, "ara")]])
    close(res["rtm"][prog]["speedup"][0], im / am, f"rtm {prog} ARA/IPC speed-up")

# The plots: PNG and SVG of each, real files of their format.
want = [f"rts_{w}_{k}" for w in ("gcm", "cenc")
        for k in ("seconds", "overhead", "ctx_switches", "instructions")]
for name in want + ["rtm_runtime_ratio"]:
    for ext, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", None)):
        path = os.path.join(out, f"{name}.{ext}")
        data = open(path, "rb").read() if os.path.exists(path) else b""
        ok = data.startswith(magic) if magic else (data.startswith(b"<?xml") and b"<svg" in data)
        check(ok, f"{path}: not a {ext.upper()} file")
        check(f"]({name}.{ext})" in summary, f"summary does not link {name}.{ext}")

# An unverified ARA run does not count, and the summary says so.
bad = [dict(r) for r in rtm]
for r in bad:
    if r["program"] == "lua" and r["config"] == "ara" and r["repeat"] == "2":
        r["verified"] = "0"
write("rtm_one_unverified.csv", list(rtm[0].keys()), bad)
p, _, res2, summary2 = run("unverified", rtm="rtm_one_unverified.csv",
                           src=os.path.join(WORK, "in"), rts=None, insns=None)
check(p.returncode == 0, f"one unverified run: status {p.returncode}, expected 0")
if res2:
    check(res2["rtm"]["dropped"] == {"lua": 1, "sqlite": 0}, f"dropped {res2['rtm']['dropped']}")
    kept = [float(r["seconds"]) for r in bad if r["program"] == "lua" and r["config"] == "ara"
            and r["verified"] == "1"]
    close(res2["rtm"]["lua"]["ara"]["mean"], sum(kept) / len(kept), "lua ara mean without the dropped run")
    check(res2["rtm"]["lua"]["ara"]["runs"] == 2, "lua ara: 2 runs counted")
    check("ARA runs dropped (report not verified): 1 (lua: 1)" in summary2,
          "summary does not say one run was dropped")
    check("covers the RTM case study only" in summary2,
          "summary does not say it covers the RTM study alone")

# Every ARA run of a program unverified: that configuration is missing.
for r in bad:
    if r["program"] == "lua" and r["config"] == "ara":
        r["verified"] = "0"
write("rtm_all_unverified.csv", list(rtm[0].keys()), bad)
p, _, res3, summary3 = run("all_unverified", rtm="rtm_all_unverified.csv",
                           src=os.path.join(WORK, "in"), rts=None, insns=None)
check(p.returncode == 3, f"no verified ARA run: status {p.returncode}, expected 3")
check(res3 is not None and any("lua" in m and "ara" in m and "not verified" in m for m in res3["missing"]),
      f"no verified ARA run: not reported as missing ({res3 and res3['missing']})")
check(summary3 is not None and summary3.count("**INCOMPLETE**") == 1, "no verified ARA run: no INCOMPLETE")

# A configuration missing from the RTS CSV.
write("rts_no_fifo.csv", list(rts[0].keys()),
      [r for r in rts if not (r["config"] == "fifo" and r["size_bytes"] == "2097152")])
p, _, res4, summary4 = run("no_fifo", rts="rts_no_fifo.csv", src=os.path.join(WORK, "in"), rtm=None,
                           insns=None)
check(p.returncode == 3, f"fifo missing: status {p.returncode}, expected 3")
check(res4 is not None and any("fifo" in m and "2 MiB" in m for m in res4["missing"]),
      f"fifo missing: not reported ({res4 and res4['missing']})")
check(summary4 is not None and "**INCOMPLETE**" in summary4, "fifo missing: no INCOMPLETE")

# Bad input: refused with the file (and line) named, nothing written.
with open(os.path.join(WORK, "in", "rts_bad.csv"), "w") as f:
    f.write("workload,config,size_bytes,repeat,seconds,ctx_switches,chunks\ngcm,ara,1024,1,fast,0,1\n")
p, _, res5, _ = run("bad", rts="rts_bad.csv", src=os.path.join(WORK, "in"), rtm=None, insns=None)
check(p.returncode == 1 and "rts_bad.csv:2" in p.stderr, f"bad number: status {p.returncode}, {p.stderr!r}")
check(res5 is None, "bad number: a summary was written")
p, _, _, _ = run("absent", rts="no_such.csv", rtm=None, insns=None)
check(p.returncode == 1 and "no_such.csv: No such file or directory" in p.stderr,
      f"absent file: status {p.returncode}, {p.stderr!r}")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("eval-report: all checks passed")
