/**
 * Claude Code's own files under a profile (SCREENS.md): the session state files
 * (`sessions/<pid>.json`, matched by session id, not by pid, so a wrapper process does not matter)
 * and the transcript (`projects/<cwd>/<session>.jsonl`, found by session id: long folder names are cut
 * and hashed). Reads only; small reads (the transcript's tail).
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseClaudeSession, type ClaudeSession } from './session.js';
import { readSlice, readTextIfExists } from '../../adapters/files.js';

/** The profile folder: the account's CLAUDE_CONFIG_DIR, else Claude's default. */
export function claudeConfigDir(dir: string | undefined): string {
  return dir !== undefined && dir.trim() !== '' ? dir : join(homedir(), '.claude');
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The state of session `sessionId`, from whichever `sessions/*.json` names it; null when none does. */
export function claudeSessionState(configDir: string, sessionId: string): ClaudeSession | null {
  const dir = join(configDir, 'sessions');
  for (const name of list(dir)) {
    if (!name.endsWith('.json')) continue;
    const text = readTextIfExists(join(dir, name));
    const session = text === null ? null : parseClaudeSession(text, sessionId);
    if (session !== null) return session;
  }
  return null;
}

/** `projects/*\/<sessionId>.jsonl`, or null. */
export function findTranscript(configDir: string, sessionId: string): string | null {
  const projects = join(configDir, 'projects');
  for (const folder of list(projects)) {
    const path = join(projects, folder, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  return null;
}

/** The last `max` bytes of a file as text (a torn first line is the parser's to skip); null when unreadable. */
export function readTail(path: string, max = 256 * 1024): string | null {
  return readSlice(path, (size) => ({ from: Math.max(0, size - max), length: Math.min(size, max) }))?.text ?? null;
}
