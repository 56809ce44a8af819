/**
 * Claude Code's transcript, `projects/<cwd>/<session>.jsonl` (SCREENS.md): the fallback for context
 * when no status line arrives, and an API error's hard limit. Pure: the text of the file's tail in.
 *
 * Context in use is `input + cache_creation_input + cache_read_input` tokens of the last main-chain
 * assistant entry; side chains, API-error entries and the `<synthetic>` model are skipped.
 * Decisions: an API-error entry is a hard limit only while no real reply follows it (a reply means the
 * limit has passed); a `compact_boundary` makes the context unknown until the next reply. Lines that
 * do not parse (a torn last line, or a torn first one when only the tail was read) are skipped.
 */
import { contextPercent } from '../../core/capacity/binding.js';
import { claudeErrorMeaning, type ClaudeLimit } from './hooks.js';
import { bool, obj, parseLine, str, type Json } from '../../core/protocol/jsonFields.js';
import { usageTokens } from './statusline.js';

export interface TranscriptTail {
  contextTokens: number | null;
  contextPct: number | null;
  /** The model of the last real reply (for `window: auto` without a reported window). */
  model: string | null;
  hardLimit: ClaudeLimit | null;
}

export function readTranscriptTail(jsonl: string, window: number | null): TranscriptTail {
  let contextTokens: number | null = null;
  let model: string | null = null;
  let hardLimit: ClaudeLimit | null = null;
  for (const line of jsonl.split('\n')) {
    const entry = parseLine(line);
    if (entry === null || bool(entry, 'isSidechain')) continue;
    if (str(entry, 'type') === 'system' && str(entry, 'subtype') === 'compact_boundary') {
      contextTokens = null;
      continue;
    }
    if (str(entry, 'type') !== 'assistant') continue;
    const message = obj(entry, 'message');
    if (bool(entry, 'isApiErrorMessage')) {
      hardLimit = claudeErrorMeaning(str(entry, 'error'), contentText(message)) ?? hardLimit;
      continue;
    }
    if (str(message, 'model') === '<synthetic>') continue;
    const tokens = usageTokens(obj(message, 'usage'));
    if (tokens === null) continue;
    contextTokens = tokens;
    model = str(message, 'model');
    hardLimit = null;
  }
  return { contextTokens, contextPct: contextPercent(contextTokens, window), model, hardLimit };
}

/** The text blocks of a message's content. */
function contentText(message: Json | null): string {
  const content = message?.['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block: unknown) => (typeof block === 'object' && block !== null ? str(block as Json, 'text') ?? '' : '')).join('\n');
}
