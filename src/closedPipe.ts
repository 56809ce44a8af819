/**
 * A reader that has gone is no error (`swarm journal | head -1`): the write that finds the pipe closed
 * (EPIPE, or a write after the stream was torn down) ends the output quietly instead of an unhandled
 * 'error' event with a stack. Shared by the two entry points (src/cli.ts and the agents' light
 * bundles through src/hot.ts); Node's built-ins only, so the light bundles stay light.
 */

function closedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * `onStdoutGone` runs once when standard output's reader has gone; a gone reader of standard error is
 * only silenced (the command's own exit code stands). Any other write error is left as it was: to
 * another listener of the stream (the dashboard's), else thrown.
 */
export function quietWhenReaderGoes(onStdoutGone: () => void): void {
  let told = false;
  const watch = (stream: NodeJS.WriteStream, gone: () => void) => {
    stream.on('error', (error) => {
      if (!closedPipe(error)) {
        if (stream.listenerCount('error') === 1) throw error;
        return;
      }
      gone();
    });
  };
  watch(process.stdout, () => {
    if (told) return;
    told = true;
    onStdoutGone();
  });
  watch(process.stderr, () => {});
}
