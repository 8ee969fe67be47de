# Runs a batch of commands, each under its own strace, one after another,
# inside the oracle's sandbox (its own user, namespaces and scratch
# directory, set up by whoever starts this). It never runs a command any
# other way than through strace, which refuses every execve after the
# command's own and every state-changing call, so a finding is recorded,
# not carried out.
#
# usage: driver.py STRACE LIMIT_SECONDS BATCH RESULTS TRACE_DIR (the mark in AII_ORACLE_MARK)
#   BATCH: one JSON object a line: {"id": N, "cwd": DIR, "env": {...}, "argv": [PATH, ARG...]}
#   RESULTS: one line a command: "<id> <status> <milliseconds> <timedout 0|1> <shows MARK 0|1> <cpu ms>"
#     (when it ran out of time, the CPU time its processes took in the 0.3 s after, else -1)
#   AII_ORACLE_MARK: a string every environment in the sandbox holds, and no command line: output that holds
#   it shows an environment
import json
import os
import select
import signal
import sys
import time

# Traced: what the oracle judges. Injected (refused with EPERM): every call that would change something
# outside the command, so that a hole the policy leaves is seen without being used.
TRACE = ("execve,execveat,open,openat,openat2,creat,truncate,ftruncate,rename,renameat,renameat2,"
         "unlink,unlinkat,rmdir,mkdir,mkdirat,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,"
         "chown,fchown,lchown,fchownat,utime,utimes,utimensat,futimesat,mknod,mknodat,"
         "setxattr,lsetxattr,fsetxattr,removexattr,lremovexattr,fremovexattr,fallocate,"
         "connect,kill,tkill,tgkill,settimeofday,clock_settime,clock_adjtime,adjtimex,"
         "sethostname,setdomainname,mount,umount2,pivot_root,swapon,swapoff,reboot,"
         "init_module,finit_module,delete_module,kexec_load,ptrace,process_vm_writev,"
         "setpriority,sched_setscheduler,unshare,setns,chroot,acct,quotactl,syslog,bpf,"
         "perf_event_open,keyctl,add_key,request_key,iopl,ioperm")
INJECT = ("execve,execveat,truncate,ftruncate,rename,renameat,renameat2,unlink,unlinkat,rmdir,mkdir,"
          "mkdirat,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,chown,fchown,lchown,fchownat,"
          "utime,utimes,utimensat,futimesat,mknod,mknodat,setxattr,lsetxattr,fsetxattr,removexattr,"
          "lremovexattr,fremovexattr,fallocate,kill,tkill,tgkill,settimeofday,clock_settime,"
          "clock_adjtime,adjtimex,sethostname,setdomainname,mount,umount2,pivot_root,swapon,swapoff,"
          "reboot,init_module,finit_module,delete_module,kexec_load,ptrace,process_vm_writev,"
          "setpriority,sched_setscheduler,unshare,setns,chroot,acct,quotactl,syslog,bpf,"
          "perf_event_open,keyctl,add_key,request_key,iopl,ioperm")


def session_cpu_ms(session):
    """The CPU time, in milliseconds, of every process in the session (the command, its children, strace),
    and whether one of them is running or runnable, waiting for the disk, or stopped at a call for strace."""
    total = 0
    running = False
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # After the name: state, ppid, pgrp, session, ..., utime (14th field) and stime (15th).
        if int(fields[3]) == session:
            total += (int(fields[11]) + int(fields[12])) * 1000 // tick
            # Running, waiting for the disk, or stopped for strace at a call: working, not waiting.
            running = running or fields[0] in (b"R", b"D", b"t")
    return total, running


def run(strace, limit, command, trace_dir, mark):
    trace = os.path.join(trace_dir, "trace.%d" % command["id"])
    argv = [strace, "-f", "--seccomp-bpf", "-qq", "-s", "4096", "-y", "-o", trace,
            "-e", "trace=" + TRACE, "-e", "signal=none",
            # No :when= here: the injection counters are per process, and a child's first execve would get
            # through. strace starts the command before it traces, so the command's own execve is not refused.
            "-e", "inject=" + INJECT + ":error=EPERM",
            "--"] + command["argv"]
    started = time.monotonic()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            os.chdir(command["cwd"])
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(write_end, 1)
            os.dup2(write_end, 2)
            os.closerange(3, 65536)
            os.execve(strace, argv, command["env"])
        finally:
            os._exit(127)
    os.close(write_end)
    fd = os.pidfd_open(pid)
    timed_out = 0
    cpu = -1
    shows = 0
    tail = b""
    exited = False
    while True:
        left = limit - (time.monotonic() - started)
        if left <= 0:
            timed_out = 1
            # How much CPU the command's processes take over a short while: a walk of a big tree keeps
            # working, a read of a FIFO or a terminal waits.
            first, running = session_cpu_ms(pid)
            for _ in range(6):
                time.sleep(0.05)
                used, now_running = session_cpu_ms(pid)
                running = running or now_running
            cpu = used - first
            if running:
                # Runnable or in the disk at some sample: working, however little CPU a busy machine gave it.
                cpu = max(cpu, 10)
            os.killpg(pid, signal.SIGKILL)
            break
        ready, _, _ = select.select([fd, read_end] if read_end >= 0 else [fd], [], [], left)
        if read_end in ready:
            chunk = os.read(read_end, 65536)
            if not chunk:
                os.close(read_end)
                read_end = -1
            else:
                # The mark may be split between two reads: keep the end of the last one.
                if mark in tail + chunk:
                    shows = 1
                tail = chunk[-len(mark):]
        if fd in ready:
            exited = True
        if exited and read_end < 0:
            break
        if exited and read_end >= 0 and not select.select([read_end], [], [], 0.2)[0]:
            # A process left behind holds the pipe: the command itself is done.
            break
    if read_end >= 0:
        os.close(read_end)
    try:
        # Whatever the command left behind in its group goes with it.
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    elapsed = int((time.monotonic() - started) * 1000)
    return "%d %d %d %d %d %d\n" % (command["id"], os.waitstatus_to_exitcode(status), elapsed, timed_out, shows,
                                    cpu)


def main():
    strace, limit, batch, results, trace_dir = sys.argv[1:6]
    mark = os.environ["AII_ORACLE_MARK"]
    with open(batch, encoding="utf-8") as lines, open(results, "w", encoding="utf-8") as out:
        for line in lines:
            if line.strip():
                out.write(run(strace, float(limit), json.loads(line), trace_dir, mark.encode()))
                out.flush()


if __name__ == "__main__":
    main()
