/**
 * The `pane-died` hook's file: one JSON line per death, appended by tmux. The host follows it from
 * its size at start with fs.watch (no polling) and turns each new complete line into a death.
 */
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface DeathRecord { paneId: string; status: number | null; signal: number | null }

/**
 * Complete lines of `text` as death records, and how many bytes they used; a torn last line (no
 * newline yet) is left for the next read. Lines that are not `pane_died` JSON are skipped.
 */
export function parseDeathLines(text: Buffer): { records: DeathRecord[]; consumed: number } {
  const end = text.lastIndexOf(0x0a);
  if (end === -1) return { records: [], consumed: 0 };
  const records = text.subarray(0, end).toString('utf8').split('\n').flatMap((line): DeathRecord[] => {
    try {
      const record = JSON.parse(line) as { kind?: unknown; pane?: unknown; status?: unknown; signal?: unknown };
      if (record.kind !== 'pane_died' || typeof record.pane !== 'string' || !/^%\d+$/.test(record.pane)) return [];
      return [{ paneId: record.pane, status: typeof record.status === 'number' ? record.status : null, signal: typeof record.signal === 'number' ? record.signal : null }];
    } catch {
      return [];
    }
  });
  return { records, consumed: end + 1 };
}

export interface DeathFollower { close(): void }

/** Create the file (and its folder) if needed, then report every death appended from now on. */
export async function followDeathFile(file: string, onDeath: (record: DeathRecord) => void): Promise<DeathFollower> {
  await mkdir(dirname(file), { recursive: true });
  await (await open(file, 'a')).close();
  let offset = (await stat(file)).size;
  let reading = false;
  let again = false;
  let closed = false;

  const readNew = async (): Promise<void> => {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size <= offset) return;
      const bytes = Buffer.alloc(size - offset);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
      const { records, consumed } = parseDeathLines(bytes.subarray(0, bytesRead));
      offset += consumed;
      for (const record of records) if (!closed) onDeath(record);
    } finally {
      await handle.close();
    }
  };
  const read = (): void => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void readNew().catch(() => undefined).finally(() => {
      reading = false;
      if (again && !closed) {
        again = false;
        read();
      }
    });
  };

  const watcher: FSWatcher = watch(file, read);
  watcher.on('error', () => undefined);
  return {
    close: () => {
      closed = true;
      watcher.close();
    },
  };
}
