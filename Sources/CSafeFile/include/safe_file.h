#ifndef RASTERKIT_SAFE_FILE_H
#define RASTERKIT_SAFE_FILE_H

/// Temporary output files that are created safely and removed on the way out
/// (docs/contract.md §10). C because the cleanup runs in a signal handler, which
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

/// Creates the directory `path` (mkdir, mode 0700: it fails if anything is
/// at `path`) and registers it like `rk_temp_create`: on those signals the
/// files named 0, 1, ... count-1 in it (decimal, see `rk_tempdir_set_count`)
/// are unlinked, then the directory is removed if that left it empty.
/// Returns 0 and the slot in `*slot`, or -1 with errno set.
int rk_tempdir_create(const char *path, int *slot);

/// Sets how many numbered files the directory in `slot` may hold: raise it
/// before creating file count-1.
void rk_tempdir_set_count(int slot, int count);

/// Forgets slot `slot` (after the temporary file was renamed or unlinked).
void rk_temp_release(int slot);

/// The number of registered temporary files (for tests).
int rk_temp_live_count(void);

/// Until `rk_interrupt_unwatch`, SIGINT, SIGTERM and SIGHUP do not end the
/// process: they are only recorded (`rk_interrupt_pending` returns the last
/// one's number, 0 while none arrived), so that a process waiting for a
/// child can pass the signal on, wait for it and clean up first.
void rk_interrupt_watch(void);
int rk_interrupt_pending(void);
/// Restores the handlers that were in place before `rk_interrupt_watch`.
void rk_interrupt_unwatch(void);
/// Stops watching and ends the process by `sig` with its default action,
/// so the exit status still says which signal ended it.
void rk_interrupt_raise(int sig);

#endif
