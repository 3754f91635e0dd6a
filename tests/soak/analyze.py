#!/usr/bin/env python3
"""analyze.py SAMPLES CLK_TCK: the soak test's figures from its samples.

SAMPLES is soak.sh's table: unix time, VmRSS, RssAnon, RssFile, RssShmem
(kB), open descriptors, utime+stime (ticks), threads, messages stored,
messages delivered, phase (deliver, drain, quiet), database size (kB).
Prints name=value lines for the shell: start, end and least-squares
slope (per minute) of each curve over the whole run, over its second
half and with nothing new (drain and quiet: the database does not grow,
so neither should SQLite's cache); the median descriptor count of each
quarter; the CPU mlqd used in each phase as a percentage of one core.
"""
import sys


def slope(points):
    """Least-squares slope of (t, y) per minute; 0 for fewer than 3."""
    if len(points) < 3:
        return 0.0
    n = len(points)
    mt = sum(t for t, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    if var == 0:
        return 0.0
    cov = sum((t - mt) * (y - my) for t, y in points)
    return cov / var * 60.0


def main():
    tck = float(sys.argv[2])
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            v = line.split()
            if len(v) != 12 or v[0] == "t":
                continue
            rows.append([float(x) for x in v[:10]] + [v[10], float(v[11])])
    if len(rows) < 4:
        sys.exit("analyze.py: fewer than 4 samples")
    t0, t1 = rows[0][0], rows[-1][0]
    half = t0 + (t1 - t0) / 2
    out = {"samples": len(rows), "minutes": "%.1f" % ((t1 - t0) / 60)}
    idle = [r for r in rows if r[10] != "deliver"]
    out["idle_minutes"] = "%.1f" % ((idle[-1][0] - idle[0][0]) / 60
                                    if len(idle) > 1 else 0)
    for col, name in ((1, "rss"), (2, "anon"), (3, "file"), (5, "fds"),
                      (7, "threads"), (11, "dbkb")):
        pts = [(r[0], r[col]) for r in rows]
        second = [p for p in pts if p[0] >= half]
        vals = [y for _, y in second]
        out[name + "_start"] = int(pts[0][1])
        out[name + "_end"] = int(pts[-1][1])
        out[name + "_min"] = int(min(y for _, y in pts))
        out[name + "_max"] = int(max(y for _, y in pts))
        out[name + "_slope"] = "%.2f" % slope(pts)
        out[name + "_slope2"] = "%.2f" % slope(second)
        out[name + "_max1"] = int(max(y for t, y in pts if t < half))
        out[name + "_max2"] = int(max(vals))
        out[name + "_slope_idle"] = "%.2f" % slope([(r[0], r[col])
                                                    for r in idle])
    q = (t1 - t0) / 4
    for k in (1, 2, 3, 4):
        fds = sorted(r[5] for r in rows
                     if t0 + (k - 1) * q <= r[0] <= t0 + k * q)
        out["fds_med%d" % k] = int(fds[len(fds) // 2]) if fds else 0
    for phase in ("deliver", "drain", "quiet"):
        ph = [r for r in rows if r[10] == phase]
        if len(ph) < 2 or ph[-1][0] <= ph[0][0]:
            out["cpu_" + phase] = "n/a"
            continue
        secs = (ph[-1][6] - ph[0][6]) / tck
        out["cpu_" + phase] = "%.1f" % (100.0 * secs / (ph[-1][0] - ph[0][0]))
        out["cpus_" + phase] = "%.1f" % secs
    out["cpu_total_s"] = "%.1f" % ((rows[-1][6] - rows[0][6]) / tck)
    for k, v in out.items():
        print("%s=%s" % (k, v))


if __name__ == "__main__":
    main()
