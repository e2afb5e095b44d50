#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes checker/rv/hwmon_attrs.def: the standard hwmon sysfs attribute
names and the attributes each HWMON_CHANNEL_INFO() flag creates.

Usage: tools/mkhwmonattrs.py [LINUX-SOURCE-TARBALL] > checker/rv/hwmon_attrs.def
(default /usr/src/linux-source-6.12.tar.xz, Debian's linux-source-6.12).

The names are facts of the kernel's ABI, read from
Documentation/hwmon/sysfs-interface.rst (the standard names: every
`name` written in backquotes, "[0-*]"/"[1-*]" becoming '#', and the
average-samples table), include/linux/hwmon.h (HWMON_x_y flag ->
enum value) and drivers/hwmon/hwmon.c (enum value -> attribute name).
The kernel's files are GPL-2.0; only the names are taken.  Run once per
kernel release that changes them; the output is committed.
"""
import re
import sys
import tarfile

tarball = sys.argv[1] if len(sys.argv) > 1 else "/usr/src/linux-source-6.12.tar.xz"
want = {"Documentation/hwmon/sysfs-interface.rst", "include/linux/hwmon.h",
        "drivers/hwmon/hwmon.c"}
text = {}
with tarfile.open(tarball) as tar:
    for m in tar:
        rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
        if rel in want:
            text[rel] = tar.extractfile(m).read().decode("utf-8")
        if len(text) == len(want):
            break
missing = want - set(text)
if missing:
    sys.exit("mkhwmonattrs: not in %s: %s" % (tarball, ", ".join(sorted(missing))))

doc = text["Documentation/hwmon/sysfs-interface.rst"]
std = set()
for m in re.finditer(r"`([a-z][a-z_]*(?:\[[01]-\*\][a-z_]*)*)`", doc):
    std.add(re.sub(r"\[[01]-\*\]", "#", m.group(1)))
# the "Average sample configuration" table names them without backquotes
for m in re.finditer(r"^\|\s*([a-z_]*samples)\s*\|", doc, re.M):
    std.add(m.group(1))

flags = re.findall(r"^#define\s+(HWMON_[A-Z0-9_]+)\s+BIT\((hwmon_\w+)\)",
                   text["include/linux/hwmon.h"], re.M)
names = dict(re.findall(r"\[(hwmon_\w+)\]\s*=\s*\"([a-z0-9_%]+)\"",
                        text["drivers/hwmon/hwmon.c"]))
types = ("chip", "temp", "in", "curr", "power", "energy", "humidity", "fan",
         "pwm", "intrusion")
rows = []
for flag, enum in flags:
    t = next((t for t in types if enum.startswith("hwmon_%s_" % t)), None)
    if t is None or enum not in names:
        continue        # hwmon_chip_register_tz: no file
    rows.append((t, flag, names[enum].replace("%d", "#")))

print("/* SPDX-License-Identifier: GPL-2.0-only */")
print("/*")
print(" * hwmon's own sysfs ABI, written by tools/mkhwmonattrs.py from")
print(" * %s: do not edit." % tarball.rsplit("/", 1)[-1])
print(" * HWMON_STD(name): a standard attribute of")
print(" *   Documentation/hwmon/sysfs-interface.rst ('#': the channel number)")
print(" * HWMON_FLAG(type, flag, name): the attribute a HWMON_CHANNEL_INFO(type,")
print(" *   ...) flag creates (drivers/hwmon/hwmon.c's templates)")
print(" */")
for s in sorted(std):
    print('HWMON_STD("%s")' % s)
for t, flag, n in rows:
    print('HWMON_FLAG("%s", "%s", "%s")' % (t, flag, n))
