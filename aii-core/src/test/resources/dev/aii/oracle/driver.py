# Runs a batch of commands, each under its own strace, one after another,
# inside the oracle's sandbox (its own user, namespaces and scratch
# directory, set up by whoever starts this). It never runs a command any
# other way than through strace, which refuses every execve after the
# command's own and every state-changing call, so a finding is recorded,
# not carried out.
#
# usage: driver.py STRACE LIMIT_SECONDS BATCH RESULTS TRACE_DIR
#   BATCH: one JSON object a line: {"id": N, "cwd": DIR, "env": {...}, "argv": [PATH, ARG...]}
#   RESULTS: one line a command: "<id> <status> <milliseconds> <timedout 0|1>"
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


def run(strace, limit, command, trace_dir):
    trace = os.path.join(trace_dir, "trace.%d" % command["id"])
    argv = [strace, "-f", "--seccomp-bpf", "-qq", "-s", "4096", "-y", "-o", trace,
            "-e", "trace=" + TRACE, "-e", "signal=none",
            # No :when= here: the injection counters are per process, and a child's first execve would get
            # through. strace starts the command before it traces, so the command's own execve is not refused.
            "-e", "inject=" + INJECT + ":error=EPERM",
            "--"] + command["argv"]
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            os.chdir(command["cwd"])
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.closerange(3, 65536)
            os.execve(strace, argv, command["env"])
        finally:
            os._exit(127)
    fd = os.pidfd_open(pid)
    timed_out = 0
    while True:
        left = limit - (time.monotonic() - started)
        if left <= 0:
            timed_out = 1
            os.killpg(pid, signal.SIGKILL)
            break
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            break
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    elapsed = int((time.monotonic() - started) * 1000)
    return "%d %d %d %d\n" % (command["id"], os.waitstatus_to_exitcode(status), elapsed, timed_out)


def main():
    strace, limit, batch, results, trace_dir = sys.argv[1:6]
    with open(batch, encoding="utf-8") as lines, open(results, "w", encoding="utf-8") as out:
        for line in lines:
            if line.strip():
                out.write(run(strace, float(limit), json.loads(line), trace_dir))
                out.flush()


if __name__ == "__main__":
    main()
