#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run every test of the series: each script in tools/checks/, in name
order, as one KTAP subtest (one per base for a check that names bases).

A script prints KTAP and ends with a line "N passed, N failed[, N
skipped]"; those counts are summed here into the final line, and a
script that exits non-zero without counting a failure counts as one.
Exits non-zero if any test failed. Each check's line carries its wall
seconds and the CPU seconds (user + system) of its processes ("ok 5
20-kunit-6.12 # 1750s, cpu 2900s"), and the last comment line the
totals: on 2 cores the CPU total over 2 is the shortest the run could
take.

    tools/check [--full] [PATTERN...]
        only the checks whose names contain PATTERN, not followed by a
        digit (e.g. "series", "6.1", "model-6.12")

A check with a line "# full: WHY" is left out of the 45-minute default
run and reported as a skip that says WHY; --full (or a PATTERN that
names it) runs it. A check names the bases it runs on with "# bases:",
and runs once per base as NAME-BASE with BASE set.

The checks of the bases after the first (their series, coverage and
model: builds and single-threaded tools, no QEMU) run in a lane of
their own, in order, at nice 19, from the start: they take the CPU that
the first base's checks leave idle (QEMU boots, kernel links, git,
Python) and next to nothing from them, so that a QEMU row's timeout is
not shortened. So do the first base's checks that have a "# lane: WHY"
line (WHY: why it shares nothing with the first base's other checks),
after them. They are reported after the first base's other checks,
before the checks that read every base's results (85-generated,
90-packages), so that the first base's never wait for them.

Each check runs under tools/exec-trace, which records every program it
executes for the last check, 90-packages, to hold against
tools/packages; a tools/check run inside another one (05-check) is
traced by the outer one already. tools/check (shell) installs what is
missing and sets the environment (tools/lib.sh) before this runs.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Only tools/checks/05-check (the tests of this runner) sets these.
CHECK_DIR = os.environ.get('CHECK_DIR', os.path.join(TOP, 'tools', 'checks'))
PREFETCH = os.environ.get('CHECK_PREFETCH', os.path.join(TOP, 'tools', 'base-tree'))


def die(msg):
    print(f'check: error: {msg}', file=sys.stderr)
    sys.exit(1)


def header(key, path):
    """The text of the script's "# KEY: " lines."""
    with open(path, errors='replace') as fh:
        return '\n'.join(line[len(key) + 4:].rstrip('\n') for line in fh
                         if line.startswith(f'# {key}: '))


def known_bases():
    with open(os.path.join(TOP, 'tools', 'bases')) as fh:
        return [line.split(' | ')[0] for line in fh if not line.startswith('#')]


class Run:
    """One run of a check: NAME, its BASE ('-': none) and its script."""

    def __init__(self, name, base, script):
        self.name, self.base, self.script = name, base, script
        self.full_why = header('full', script)
        self.lane_line = header('lane', script)
        self.log = None


def find_runs(patterns):
    runs = []
    bases = known_bases()
    for f in sorted(os.listdir(CHECK_DIR)):
        s = os.path.join(CHECK_DIR, f)
        if not f[:1].isdigit():
            continue
        names = header('bases', s).split()
        for b in names:
            if b not in bases:
                die(f"{s} names base '{b}', which tools/bases does not have")
        runs += [Run(f'{f}-{b}', b, s) for b in names] or [Run(f, '-', s)]
    if patterns:
        runs = [r for r in runs
                if any(re.search(re.escape(p) + '[^0-9]', r.name + '-') for p in patterns)]
    if not runs:
        die(f"no check matches '{' '.join(patterns)}'")
    return runs


def kill_tree(pid):
    """PID and every process under it (read from /proc)."""
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/status') as fh:
                if re.search(rf'^PPid:\s*{pid}$', fh.read(), re.M):
                    kill_tree(int(d))
        except OSError:
            pass
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


class Checker:
    def __init__(self, full, patterns):
        self.full, self.npat = full, len(patterns)
        self.runs = find_runs(patterns)
        self.traced = bool(os.environ.get('CHECK_TRACE_DIR'))
        self.tmp = tempfile.mkdtemp()
        self.trace_dir = os.path.join(self.tmp, 'trace')
        os.mkdir(self.trace_dir)
        os.environ['CHECK_TRACE_DIR'] = self.trace_dir
        self.bases = list(dict.fromkeys(r.base for r in self.runs if r.base != '-'))
        self.prefetch = []
        self.lane = None
        self.lane_proc = None
        self.lane_cpu = 0
        self.stopping = False

    def full_only(self, r):
        """Why R is left out of this run, or ''."""
        return r.full_why if r.full_why and not self.full and not self.npat else ''

    def in_lane(self, r):
        return r.base != '-' and (r.base != self.bases[0] or bool(r.lane_line))

    def command(self, r):
        if self.traced or r.name.endswith('-packages'):
            return [r.script]
        return [os.path.join(TOP, 'tools', 'exec-trace'),
                os.path.join(self.trace_dir, r.name), r.script]

    def spawn(self, r, env, **kw):
        """Start R; returns the process and its start time."""
        return subprocess.Popen(self.command(r), env=env, stderr=subprocess.STDOUT,
                                **kw), time.time()

    @staticmethod
    def reap(p):
        """Wait for P; its exit status and the CPU seconds of its tree."""
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
        return rc, int(ru.ru_utime + ru.ru_stime)

    def order(self):
        """The first base's checks (but those with a lane line), the
        lane's, then the checks that need no base after the last based
        one (those that read every base's results)."""
        main = [r for r in self.runs if not self.in_lane(r)]
        lane = [r for r in self.runs if self.in_lane(r)]
        last = max([i for i, r in enumerate(main) if r.base != '-'], default=-1)
        self.runs = main[:last + 1] + lane + main[last + 1:]
        return lane

    def lane_thread(self, lane, env):
        # nice is per thread on Linux, and a child inherits its
        # parent thread's
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        for r in lane:
            if self.stopping:
                break
            if self.full_only(r):
                continue
            e = dict(env, BASE=r.base)
            with open(r.log, 'w') as out:
                self.lane_proc, t0 = self.spawn(r, e, stdout=out, stdin=subprocess.DEVNULL)
                rc, cpu = self.reap(self.lane_proc)
            r.result = (rc, int(time.time() - t0), cpu)
            self.lane_cpu += cpu
        self.lane_proc = None

    def run_main(self, r, env):
        """Run R, its output to its log and, indented, to ours."""
        with open(r.log, 'w') as log:
            p, t0 = self.spawn(r, env, stdout=subprocess.PIPE)
            out = Indent(r.name)
            for line in iter(p.stdout.readline, b''):
                log.write(line.decode(errors='replace'))
                log.flush()
                out.write(line.decode(errors='replace'))
            p.stdout.close()
            rc, cpu = self.reap(p)
        r.result = (rc, int(time.time() - t0), cpu)
        return cpu

    def main(self):
        lane = self.order()
        for r in self.runs:
            r.log = os.path.join(self.tmp, r.name)
            r.result = None
        env = dict(os.environ)
        if not os.environ.get('KERNEL_TREE'):
            for b in self.bases[1:]:
                self.prefetch.append(subprocess.Popen(
                    [PREFETCH], env=dict(env, BASE=b), stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL))
        if lane:
            self.lane = threading.Thread(target=self.lane_thread, args=(lane, env),
                                         daemon=True)
            self.lane.start()
        totals = [0, 0, 0]
        cpu = 0
        start = time.time()
        print('KTAP version 1')
        print(f'1..{len(self.runs)}', flush=True)
        for n, r in enumerate(self.runs, 1):
            # a check without a base gets the caller's BASE, not the
            # last check's
            run_env = dict(env, BASE=r.base) if r.base != '-' else env
            why = self.full_only(r)
            if why:
                print(f'ok {n} {r.name} # SKIP not in the default run ({why}): '
                      'tools/check --full', flush=True)
                totals[2] += 1
                continue
            if self.lane and self.in_lane(r):
                while r.result is None and self.lane.is_alive():
                    time.sleep(1)
                if r.result is None:
                    with open(r.log, 'w') as fh:
                        fh.write(f'# {r.name}: the lane of the later bases ended before it\n')
                    r.result = (1, 0, 0)
                out = Indent(r.name)
                with open(r.log, errors='replace') as fh:
                    for line in fh:
                        out.write(line)
            else:
                cpu += self.run_main(r, run_env)
            self.account(n, r, totals)
        if self.lane:
            self.lane.join()
        print(f'# tools/check took {int(time.time() - start)} s, '
              f'cpu {cpu + self.lane_cpu} s')
        print(f'{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped', flush=True)
        return 1 if totals[1] else 0

    @staticmethod
    def account(n, r, totals):
        """Add R's counts to TOTALS and print its result line."""
        rc, secs, csecs = r.result
        with open(r.log, errors='replace') as fh:
            text = fh.read()
        summary = re.findall(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?', text, re.M)
        p, f, k = (int(x or 0) for x in summary[-1]) if summary else (0, 0, 0)
        totals[0] += p
        totals[2] += k
        plan = re.search(r'^1\.\.(\d+)$', text, re.M)
        ran = len(re.findall(r'^(?:not )?ok \d+(?: |$)', text, re.M))
        # A check that printed no summary line, a plan that is not its
        # number of results, or exited non-zero without counting a
        # failure, counts as one failure, once.
        if not summary:
            print(f'# {r.name} printed no summary line')
            f = 1
        elif plan and int(plan.group(1)) != ran:
            print(f'# {r.name} planned {plan.group(1)} tests and reported {ran}')
            f = max(f, 1)
        elif rc and not f:
            f = 1
        totals[1] += f
        if rc == 0 and f == 0:
            print(f'ok {n} {r.name} # {secs}s, cpu {csecs}s', flush=True)
        else:
            print(f'not ok {n} {r.name} # {secs}s, cpu {csecs}s, exit {rc}', flush=True)

    def cleanup(self):
        self.stopping = True
        for p in self.prefetch:
            p.kill()
        if self.lane_proc:
            kill_tree(self.lane_proc.pid)
        shutil.rmtree(self.tmp, ignore_errors=True)


class Indent:
    """A check's KTAP, indented, with its "# Subtest:" line after its
    "KTAP version" line, where kunit.py parse expects it."""

    def __init__(self, name):
        self.name, self.seen = name, False

    def write(self, line):
        line = line if line.endswith('\n') else line + '\n'
        sys.stdout.write('    ' + line)
        if not self.seen and line.startswith('KTAP version'):
            sys.stdout.write(f'    # Subtest: {self.name}\n')
            self.seen = True
        sys.stdout.flush()


def main(argv):
    full = bool(argv) and argv[0] == '--full'
    checker = Checker(full, argv[1:] if full else argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return checker.main()
    finally:
        checker.cleanup()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
