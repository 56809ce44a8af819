/**
 * The developer's prior approval: `approvals:` in PLAN.md's front matter, checked against
 * what each CLI accepts and turned into its launch flags. Pure.
 *
 * ```yaml
 * approvals:
 *   claude: { permission_mode: acceptEdits, allowed_tools: ["Bash(npm test)", "Edit"], add_dirs: [] }
 *   codex:  { approval: never, sandbox: workspace-write }
 * ```
 * Decisions: values are matched exactly (a near miss is a problem with a suggestion, never a guess);
 * the widest modes (bypassPermissions, danger-full-access) count only when written literally, not
 * through a YAML alias. Keys that would answer a screen in the agent's place
 * (skipDangerousModePermissionPrompt, IS_SANDBOX, the --dangerously-… flags) are refused: swarm never
 * sets them. A value starting with `-` is refused (it would be read as a flag). No `approvals:` is no
 * approval: the CLIs' own defaults, and their prompts, stand.
 */
import { isAlias, isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { ConfigProblem } from '../config/types.js';
import { describe, Reader, type Section, type YamlNode } from '../config/reader.js';
import { frontMatter } from './frontMatter.js';
import { didYouMean } from '../config/suggest.js';

export const CLAUDE_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const;
export const CODEX_APPROVALS = ['on-request', 'never'] as const;
export const CODEX_SANDBOXES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type ClaudePermissionMode = (typeof CLAUDE_PERMISSION_MODES)[number];
export type CodexApproval = (typeof CODEX_APPROVALS)[number];
export type CodexSandbox = (typeof CODEX_SANDBOXES)[number];

export interface ClaudeApprovals { permissionMode: ClaudePermissionMode | null; allowedTools: string[]; addDirs: string[] }
export interface CodexApprovals { approval: CodexApproval | null; sandbox: CodexSandbox | null }
export interface Approvals { claude: ClaudeApprovals | null; codex: CodexApprovals | null }

export type ApprovalsResult = { ok: true; approvals: Approvals } | { ok: false; problems: ConfigProblem[] };

export const NO_APPROVALS: Approvals = { claude: null, codex: null };

const KNOWN = {
  kinds: ['claude', 'codex'],
  claude: ['permission_mode', 'allowed_tools', 'add_dirs'],
  codex: ['approval', 'sandbox'],
} as const;
const WIDEST = new Set<string>(['bypassPermissions', 'danger-full-access']);
const ANSWERS_FOR_AGENT = /skip.?dangerous|is.?sandbox|dangerously|yolo|full.?auto/i;
/** What the CLIs no longer take, or take only in their config files. */
const HINTS: Record<string, string> = {
  'full-auto': ' (--full-auto no longer exists: write approval: on-request and sandbox: workspace-write)',
  'on-failure': ' (on-failure is gone from -a: write on-request or never)',
  untrusted: ' (untrusted is known to the config file only, not to -a)',
  granular: ' (granular is known to the config file only, not to -a)',
};
const TOOL_RULE = /^[A-Za-z_][\w-]*(?:\(.+\))?$/s;

/** The approvals in a plan's text (PLAN.md); problems carry PLAN.md's line and column. */
export function parseApprovals(planText: string): ApprovalsResult {
  const front = frontMatter(planText);
  if (front === null || !/^approvals[ \t]*:/m.test(front.yaml)) return { ok: true, approvals: NO_APPROVALS };
  const lines = new LineCounter();
  const doc = parseDocument(front.yaml, { lineCounter: lines, prettyErrors: false });
  const shift = (p: { line: number; col: number }, message: string): ConfigProblem => ({ line: p.line + front.lineOffset, col: p.col, message });
  if (doc.errors.length > 0) {
    return { ok: false, problems: doc.errors.map((e) => shift(lines.linePos(e.pos[0]), `YAML syntax error in the front matter: ${e.message.split('\n')[0] ?? ''}`)) };
  }
  const r = new Reader(doc as Document, lines);
  const root = r.section(r.resolve(doc.contents), doc.contents as YamlNode, '', null);
  const field = root?.fields.get('approvals');
  const approvals = field === undefined || r.scalar(field.value) === null ? undefined : r.section(field.value, field.key, 'approvals', KNOWN.kinds);
  const value: Approvals = {
    claude: approvals === undefined ? null : readClaude(r, approvals),
    codex: approvals === undefined ? null : readCodex(r, approvals),
  };
  if (r.problems.length === 0) return { ok: true, approvals: value };
  return { ok: false, problems: r.problems.map((p) => shift(p, p.message)).sort((a, b) => a.line - b.line || a.col - b.col) };
}

function kindSection(r: Reader, s: Section, kind: 'claude' | 'codex'): Section | undefined {
  const field = s.fields.get(kind);
  if (field === undefined || r.scalar(field.value) === null) return undefined;
  const keys = isMap(field.value) ? field.value.items.map((p) => r.resolve(p.key)) : [];
  const refused: string[] = [];
  for (const key of keys) {
    const name = String(r.scalar(key));
    if (!ANSWERS_FOR_AGENT.test(name)) continue;
    refused.push(name);
    r.add(key, `"${field.path}.${name}" is refused: swarm never sets what answers a screen in the agent's place; answer it yourself in the pane (swarm attach)`);
  }
  return r.section(field.value, field.key, field.path, [...KNOWN[kind], ...refused]);
}

function readClaude(r: Reader, s: Section): ClaudeApprovals | null {
  const c = kindSection(r, s, 'claude');
  if (c === undefined) return null;
  return {
    permissionMode: mode(r, c, 'permission_mode', CLAUDE_PERMISSION_MODES),
    allowedTools: strings(r, c, 'allowed_tools', (v) => TOOL_RULE.test(v), 'a tool rule such as "Edit" or "Bash(npm test)"'),
    addDirs: strings(r, c, 'add_dirs', () => true, 'a directory path'),
  };
}

function readCodex(r: Reader, s: Section): CodexApprovals | null {
  const c = kindSection(r, s, 'codex');
  if (c === undefined) return null;
  return { approval: mode(r, c, 'approval', CODEX_APPROVALS), sandbox: mode(r, c, 'sandbox', CODEX_SANDBOXES) };
}

/** One of the CLI's values, exactly; the widest only when written literally. Null when absent or null. */
function mode<T extends string>(r: Reader, s: Section, key: string, options: readonly T[]): T | null {
  const field = s.fields.get(key);
  const value = field === undefined ? null : r.scalar(field.value);
  if (field === undefined || value === null) return null;
  const found = options.find((o) => o === value);
  if (found === undefined) {
    const text = typeof value === 'string' ? value : '';
    const hint = HINTS[text] ?? (didYouMean(text, options) || '');
    r.add(r.where(field), `"${field.path}" must be one of ${options.join(', ')}, got ${describe(field.value)}${hint}`);
    return null;
  }
  const written = isMap(s.node) ? s.node.items.find((p) => isScalar(p.key) && p.key.value === key)?.value : undefined;
  if (WIDEST.has(found) && isAlias(written)) {
    r.add(written as unknown as YamlNode, `"${field.path}" is ${found}, the widest mode, through an alias: write ${found} itself if you mean it`);
    return null;
  }
  return found;
}

/** A list of non-empty strings, none starting with "-"; absent or null is []. */
function strings(r: Reader, s: Section, key: string, valid: (v: string) => boolean, expected: string): string[] {
  const field = s.fields.get(key);
  const out: string[] = [];
  (r.list(s, key) ?? []).forEach((item, i) => {
    const value = r.scalar(item);
    const text = typeof value === 'string' ? value.trim() : '';
    if (field !== undefined && (text === '' || text.startsWith('-') || hasControl(text) || !valid(text))) {
      r.wrong({ key: field.key, value: item, path: `${field.path}[${i}]` }, `${expected} (not starting with "-", no control characters)`);
    } else out.push(text);
  });
  return out;
}

export interface ApprovalFlags {
  /** To add to the kind's launch argv, before the first prompt. */
  argv: string[];
  /**
   * Options that take several values are among them (Claude's --allowedTools, --add-dir): the first
   * prompt must come last, after `--`, or it would be read as one more value.
   */
  promptAfterDashDash: boolean;
}

function hasControl(text: string): boolean {
  return [...text].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\x7f');
}
