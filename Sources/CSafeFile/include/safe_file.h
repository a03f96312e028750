#ifndef RASTERKIT_SAFE_FILE_H
#define RASTERKIT_SAFE_FILE_H

/// Temporary output files that are created safely and removed on the way out
/// (SPEC section 10). C because the cleanup runs in a signal handler, which
/// may only call async-signal-safe functions (unlink, sigaction, raise) and
/// touch plain static memory: no Swift runtime, no allocation, no locks.

/// Most temporary files alive at once (one per writer; frame sequences write
/// one frame at a time).
#define RK_TEMP_SLOTS 64
/// Longest temporary path kept in the registry, with its NUL.
#define RK_TEMP_PATH_MAX 4096

/// Creates `path` exclusively (O_CREAT|O_EXCL), without following a link
/// (O_NOFOLLOW), close-on-exec, mode 0666 minus the umask, and registers it so
/// that SIGINT, SIGTERM, SIGHUP, SIGPIPE or SIGXFSZ unlink it before the
/// process dies. Returns the descriptor and stores the registry slot in
/// `*slot`; -1 with errno set on failure (EEXIST if anything is at `path`,
/// EMFILE if the registry is full, ENAMETOOLONG for a long path).
/// The first call installs the signal handlers, for each of those signals
/// whose disposition is still the default (an ignored or handled signal is
/// left alone).
int rk_temp_create(const char *path, int *slot);

/// Forgets slot `slot` (after the temporary file was renamed or unlinked).
void rk_temp_release(int slot);

/// The number of registered temporary files (for tests).
int rk_temp_live_count(void);

#endif
