/*
 * Prints, as "NAME VALUE" lines, what the system's headers say about every
 * value in OsConstants, so a test can compare the two on the machine it runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/wait.h>
#include <termios.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#define SHOW(name, value) printf("%s %lld\n", name, (long long) (value))

int main(void) {
    SHOW("POSIX_SPAWN_SETSID", POSIX_SPAWN_SETSID);
#ifdef POSIX_SPAWN_CLOEXEC_DEFAULT
    SHOW("POSIX_SPAWN_CLOEXEC_DEFAULT", POSIX_SPAWN_CLOEXEC_DEFAULT);
#else
    SHOW("POSIX_SPAWN_CLOEXEC_DEFAULT", 0);
#endif
    SHOW("POSIX_SPAWN_SETSIGDEF", POSIX_SPAWN_SETSIGDEF);
    SHOW("POSIX_SPAWN_SETSIGMASK", POSIX_SPAWN_SETSIGMASK);
    SHOW("O_RDONLY", O_RDONLY);
    SHOW("O_RDWR", O_RDWR);
    SHOW("O_WRONLY", O_WRONLY);
    SHOW("O_NONBLOCK", O_NONBLOCK);
    SHOW("F_GETFL", F_GETFL);
    SHOW("F_SETFL", F_SETFL);
    SHOW("O_NOCTTY", O_NOCTTY);
    SHOW("O_CLOEXEC", O_CLOEXEC);
    SHOW("F_GETFD", F_GETFD);
    SHOW("F_SETFD", F_SETFD);
    SHOW("FD_CLOEXEC", FD_CLOEXEC);
    SHOW("F_DUPFD_CLOEXEC", F_DUPFD_CLOEXEC);
    SHOW("POLLIN", POLLIN);
    SHOW("POLLERR", POLLERR);
    SHOW("POLLHUP", POLLHUP);
    SHOW("POLLNVAL", POLLNVAL);
    SHOW("sizeof(struct pollfd)", sizeof(struct pollfd));
    SHOW("offsetof(struct pollfd, revents)", offsetof(struct pollfd, revents));
    SHOW("sizeof(nfds_t)", sizeof(nfds_t));
    SHOW("P_PID", P_PID);
    SHOW("WNOHANG", WNOHANG);
    SHOW("WEXITED", WEXITED);
    SHOW("WNOWAIT", WNOWAIT);
    SHOW("CLD_EXITED", CLD_EXITED);
    SHOW("CLD_KILLED", CLD_KILLED);
    SHOW("CLD_DUMPED", CLD_DUMPED);
    SHOW("sizeof(siginfo_t)", sizeof(siginfo_t));
    SHOW("offsetof(siginfo_t, si_pid)", offsetof(siginfo_t, si_pid));
    SHOW("offsetof(siginfo_t, si_code)", offsetof(siginfo_t, si_code));
    SHOW("TCIFLUSH", TCIFLUSH);
    SHOW("SIGHUP", SIGHUP);
    SHOW("SIGINT", SIGINT);
    SHOW("SIGQUIT", SIGQUIT);
    SHOW("SIGKILL", SIGKILL);
    SHOW("SIGPIPE", SIGPIPE);
    SHOW("SIGTERM", SIGTERM);
    SHOW("SIGSTOP", SIGSTOP);
    SHOW("SIGCONT", SIGCONT);
    SHOW("NSIG - 1", NSIG - 1);
#ifdef __linux__
    SHOW("PR_SET_CHILD_SUBREAPER", PR_SET_CHILD_SUBREAPER);
    SHOW("SPLICE_F_MOVE", SPLICE_F_MOVE);
    SHOW("SPLICE_F_NONBLOCK", SPLICE_F_NONBLOCK);
    SHOW("SYS_pidfd_send_signal", SYS_pidfd_send_signal);
    SHOW("SYS_pidfd_open", SYS_pidfd_open);
#endif
    SHOW("fits(posix_spawnattr_t)", sizeof(posix_spawnattr_t) <= 512);
    SHOW("fits(posix_spawn_file_actions_t)", sizeof(posix_spawn_file_actions_t) <= 512);
    SHOW("fits(sigset_t)", sizeof(sigset_t) <= 512);
    SHOW("EPERM", EPERM);
    SHOW("ENOENT", ENOENT);
    SHOW("ESRCH", ESRCH);
    SHOW("EINTR", EINTR);
    SHOW("EIO", EIO);
    SHOW("ENXIO", ENXIO);
    SHOW("E2BIG", E2BIG);
    SHOW("ENOEXEC", ENOEXEC);
    SHOW("EBADF", EBADF);
    SHOW("ECHILD", ECHILD);
    SHOW("EAGAIN", EAGAIN);
    SHOW("ENOMEM", ENOMEM);
    SHOW("EACCES", EACCES);
    SHOW("EFAULT", EFAULT);
    SHOW("ENOTDIR", ENOTDIR);
    SHOW("EISDIR", EISDIR);
    SHOW("EINVAL", EINVAL);
    SHOW("ENFILE", ENFILE);
    SHOW("EMFILE", EMFILE);
    SHOW("ENOTTY", ENOTTY);
    SHOW("ETXTBSY", ETXTBSY);
    SHOW("ENAMETOOLONG", ENAMETOOLONG);
    SHOW("ENOSYS", ENOSYS);
    SHOW("ELOOP", ELOOP);
#ifdef EBADARCH
    SHOW("EBADEXEC", EBADEXEC);
    SHOW("EBADARCH", EBADARCH);
    SHOW("EBADMACHO", EBADMACHO);
#endif
    return 0;
}
