#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// The registry: a slot is live while `live[i]` is 1; its path is written
// before the flag is set (release) and read by the handler after it sees the
// flag (acquire), so the handler never reads a half-written path.
static char paths[RK_TEMP_SLOTS][RK_TEMP_PATH_MAX];
static int live[RK_TEMP_SLOTS];
// -1: the slot is a file; n >= 0: a directory holding the files 0 ... n-1.
static int counts[RK_TEMP_SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
#define CLEANUP_SIGNAL_COUNT (int)(sizeof cleanup_signals / sizeof cleanup_signals[0])

// `dir` + "/" + decimal `n` into `out` (RK_TEMP_PATH_MAX + 16 bytes), without
// snprintf, which is not async-signal-safe.
static void numbered(char *out, const char *dir, int n) {
    size_t length = strlen(dir);
    memcpy(out, dir, length);
    out[length++] = '/';
    char digits[16];
    int k = 0;
    do { digits[k++] = (char)('0' + n % 10); n /= 10; } while (n > 0);
    while (k > 0) out[length++] = digits[--k];
    out[length] = 0;
}

static void remove_slot(int i) {
    int count = __atomic_load_n(&counts[i], __ATOMIC_ACQUIRE);
    if (count < 0) { unlink(paths[i]); return; }
    char name[RK_TEMP_PATH_MAX + 16];
    for (int n = 0; n < count; n++) { numbered(name, paths[i], n); unlink(name); }
    rmdir(paths[i]); // fails, harmlessly, if anything else is in it
}

// Async-signal-safe: unlink, rmdir, sigaction, sigprocmask, raise only. The signal
// is then re-raised with its default action, so the exit status still says
// which signal ended the process (a shell sees 128+N).
/// Raises `sig` again with its default action (async-signal-safe).
static void raise_default(int sig) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

static void on_signal(int sig) {
    int saved = errno;
    for (int i = 0; i < RK_TEMP_SLOTS; i++) {
        if (__atomic_load_n(&live[i], __ATOMIC_ACQUIRE)) remove_slot(i);
    }
    raise_default(sig);
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

// Registers `path` in a free slot (counts[] = `count`, -1 for a file) and
// runs `make` on it with every signal blocked on this thread; the slot is
// freed again if `make` fails. Returns make's result (-1 with errno on failure).
static int register_and_make(const char *path, int count, int *slot, int (*make)(const char *)) {
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
    int result = -1, err = EMFILE;
    if (found >= 0) {
        memcpy(paths[found], path, length + 1);
        __atomic_store_n(&counts[found], count, __ATOMIC_RELEASE);
        __atomic_store_n(&live[found], 1, __ATOMIC_RELEASE);
        result = make(path);
        err = errno;
        // Not ours (EEXIST...): never let the handler remove it.
        if (result < 0) __atomic_store_n(&live[found], 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&slots_lock);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (result < 0) { errno = err; return -1; }
    *slot = found;
    return result;
}

static int make_file(const char *path) {
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

static int make_directory(const char *path) { return mkdir(path, 0700); }

int rk_temp_create(const char *path, int *slot) {
    return register_and_make(path, -1, slot, make_file);
}

int rk_tempdir_create(const char *path, int *slot) {
    if (strlen(path) >= RK_TEMP_PATH_MAX - 16) { errno = ENAMETOOLONG; return -1; }
    return register_and_make(path, 0, slot, make_directory);
}

void rk_tempdir_set_count(int slot, int count) {
    if (slot < 0 || slot >= RK_TEMP_SLOTS || count < 0) return;
    __atomic_store_n(&counts[slot], count, __ATOMIC_RELEASE);
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

// Interrupt watching: while on, SIGINT, SIGTERM and SIGHUP only set `pending`.
static const int watched_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define WATCHED_SIGNAL_COUNT (int)(sizeof watched_signals / sizeof watched_signals[0])
static struct sigaction watched_old[WATCHED_SIGNAL_COUNT];
static volatile sig_atomic_t pending_signal = 0;
static int watching = 0;

static void on_watched_signal(int sig) { pending_signal = sig; }

void rk_interrupt_watch(void) {
    // The cleanup handlers go in first, so that unwatching restores them.
    pthread_once(&handlers_once, install_handlers);
    if (watching) return;
    watching = 1;
    pending_signal = 0;
    for (int i = 0; i < WATCHED_SIGNAL_COUNT; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_watched_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(watched_signals[i], &sa, &watched_old[i]);
        // An ignored signal (nohup) stays ignored.
        if (!(watched_old[i].sa_flags & SA_SIGINFO) && watched_old[i].sa_handler == SIG_IGN)
            sigaction(watched_signals[i], &watched_old[i], NULL);
    }
}

int rk_interrupt_pending(void) { return pending_signal; }

void rk_interrupt_unwatch(void) {
    if (!watching) return;
    watching = 0;
    for (int i = 0; i < WATCHED_SIGNAL_COUNT; i++) sigaction(watched_signals[i], &watched_old[i], NULL);
}

void rk_interrupt_raise(int sig) {
    rk_interrupt_unwatch();
    raise_default(sig);
}
