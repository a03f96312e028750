#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// The registry: a slot is live while `live[i]` is 1; its path is written
// before the flag is set (release) and read by the handler after it sees the
// flag (acquire), so the handler never reads a half-written path.
static char paths[RK_TEMP_SLOTS][RK_TEMP_PATH_MAX];
static int live[RK_TEMP_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
#define CLEANUP_SIGNAL_COUNT (int)(sizeof cleanup_signals / sizeof cleanup_signals[0])

// Async-signal-safe: unlink, sigaction, sigprocmask, raise only. The signal
// is then re-raised with its default action, so the exit status still says
// which signal ended the process (a shell sees 128+N).
static void on_signal(int sig) {
    int saved = errno;
    for (int i = 0; i < RK_TEMP_SLOTS; i++) {
        if (__atomic_load_n(&live[i], __ATOMIC_ACQUIRE)) unlink(paths[i]);
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    errno = saved;
}

static void install_handlers(void) {
    for (int i = 0; i < CLEANUP_SIGNAL_COUNT; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) != 0) continue;
        // Someone chose to ignore or handle it (nohup, the Swift runtime,
        // a host application): keep their choice.
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask); // no other cleanup signal interrupts the handler
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

int rk_temp_create(const char *path, int *slot) {
    pthread_once(&handlers_once, install_handlers);
    size_t length = strlen(path);
    if (length >= RK_TEMP_PATH_MAX) { errno = ENAMETOOLONG; return -1; }
    // This thread takes no signal between creating the file and recording
    // it; a signal delivered to another thread finds the slot already live
    // (the path is registered before the file exists: unlinking a name
    // that is not there yet is harmless).
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_mutex_lock(&slots_lock);
    int found = -1;
    for (int i = 0; i < RK_TEMP_SLOTS; i++) {
        if (!__atomic_load_n(&live[i], __ATOMIC_ACQUIRE)) { found = i; break; }
    }
    int fd = -1, err = EMFILE;
    if (found >= 0) {
        memcpy(paths[found], path, length + 1);
        __atomic_store_n(&live[found], 1, __ATOMIC_RELEASE);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        err = errno;
        // Not ours (EEXIST...): never let the handler unlink it.
        if (fd < 0) __atomic_store_n(&live[found], 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&slots_lock);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) { errno = err; return -1; }
    *slot = found;
    return fd;
}

void rk_temp_release(int slot) {
    if (slot < 0 || slot >= RK_TEMP_SLOTS) return;
    __atomic_store_n(&live[slot], 0, __ATOMIC_RELEASE);
}

int rk_temp_live_count(void) {
    int n = 0;
    for (int i = 0; i < RK_TEMP_SLOTS; i++) n += __atomic_load_n(&live[i], __ATOMIC_ACQUIRE);
    return n;
}
