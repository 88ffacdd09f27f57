/**
 * A reader that stops reading (`pim-sync history | head -30`) closes the pipe; the next write to
 * stdout fails with EPIPE. For a command line tool that is a normal end, not a failure: the
 * process ends at once with exit 0 and nothing on stderr, whatever the command was doing.
 * Installed once by the entry on the process's stdout (this listener comes first, so the
 * command never sees the error as its own, e.g. a write waiting for `drain`). Any other error on
 * stdout is left as it was: to the command's own listener, or thrown when there is none.
 */
export function endQuietlyOnClosedStdout(stdout: NodeJS.WriteStream, exit: (code: number) => never): void {
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") exit(0);
    if (stdout.listenerCount("error") === 1) throw error;
  });
}
