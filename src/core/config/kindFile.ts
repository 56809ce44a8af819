/**
 * A kind file, `panes/<kind>.yaml` (SPEC 4.3): how to launch one kind of agent and how to read its
 * pane, as data. Pure: the file's text in; a typed KindSpec with compiled linear-time RegExps that
 * match lowered text (core/config/linearRegExp.ts: case-insensitive, never backtracking),
 * or every problem (line, column, and the field's path in the message) out.
 *
 * Decisions where SPEC 4.3 is silent:
 * - `launch: null` (or no `launch`) means a lane's `command:` must supply the launch (the `command`
 *   kind). Without `launch.prompt` there is no default: the file must say how the prompt arrives.
 * - `prompt: argument` needs a `{prompt}`, `{brief}` or `{prompt_file}` in the argv template.
 * - A pattern that matches empty text is refused: it would match every screen and block the lane.
 *   `context_left` / `context_used` patterns need a capture group (the percentage).
 * - `idle: null` (or none) is "no idle signal": swarm never types into such a pane.
 * - Besides the screen classes swarm acts on, `near_limit` and `offline` are recorded as data.
 */
import { isSeq } from 'yaml';
import type { ConfigProblem } from './config.js';
import { Reader, type Section, type YamlNode } from './reader.js';
import { didYouMean } from './suggest.js';
import { linearRegExp } from './linearRegExp.js';
import { parseYaml } from './yamlDocument.js';

export const PROMPT_DELIVERIES = ['argument', 'paste', 'file'] as const;
export type PromptDelivery = (typeof PROMPT_DELIVERIES)[number];

/** The placeholders an argv template may use, as `{name}` (core/launch/launch.ts says what each holds). */
export const PLACEHOLDERS = [
  'prompt_file', 'prompt', 'brief', 'swarm_bin', 'node', 'session_id', 'settings', 'system_prompt_file', 'approvals', 'notify',
] as const;
/** Placeholders that expand to zero or more whole arguments: each must be an argument of its own. */
export const LIST_PLACEHOLDERS = ['approvals'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Every list `screens:` may hold: the classes of ScreenClass, plus `near_limit` and `offline`. */
export const SCREEN_NAMES = [
  'usage_limit', 'near_limit', 'overflow', 'permission', 'bypass', 'login', 'consent', 'payment', 'offline',
] as const;
export type ScreenName = (typeof SCREEN_NAMES)[number];

export interface Launch {
  /** argv template; placeholders still in it. */
  command: string[];
  prompt: PromptDelivery;
  /**
   * The argv template that resumes an agent's own session (SPEC 10.8: `{session_id}` is the session
   * resumed, `{brief}` the pointer line, its prompt); null: the kind cannot resume.
   */
  resume: string[] | null;
}

export interface IdleRule {
  /** Busy texts: the turn has ended when none of them shows. */
  notShowing: RegExp[];
  /** Idle texts: when given, one of them must show. */
  showing: RegExp[];
}

export interface KindSpec {
  kind: string;
  seenIn: string | null;
  launch: Launch | null;
  /** The variable an account's profile reaches the agent through (e.g. CLAUDE_CONFIG_DIR), for doctor. */
  accountEnv: string | null;
  idle: IdleRule | null;
  /** First group: % of the context window left. */
  contextLeft: RegExp[];
  /** First group: % of the context window used. */
  contextUsed: RegExp[];
  screens: Record<ScreenName, RegExp[]>;
  /** Structured sources, as plain data (the probes read them). */
  signals: Record<string, unknown>;
}

export type KindResult = { ok: true; kind: KindSpec } | { ok: false; problems: ConfigProblem[] };

const KNOWN = {
  top: ['kind', 'seen_in', 'launch', 'account_env', 'idle', 'context_left', 'context_used', 'screens', 'signals'],
  launch: ['command', 'prompt', 'resume'],
  idle: ['not_showing', 'showing'],
} as const;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * Parse and validate a kind file. `expected` is the kind's name as looked up (the file's base name);
 * when given, `kind:` must equal it. Problems are sorted by position.
 */
export function parseKind(text: string, expected?: string): KindResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (source.trim() === '') return fail([{ line: 1, col: 1, message: 'the file is empty: a kind file needs at least kind: and launch:' }]);
  const parsed = parseYaml(source, 'a kind file');
  if (!parsed.ok) return fail(parsed.problems);
  const { doc, lines } = parsed;
  const r = new Reader(doc, lines);
  const root = r.resolve(doc.contents);
  const top = r.section(root, root ?? (doc.contents as YamlNode), '', KNOWN.top);
  if (top === undefined) return fail(r.problems);
  const kind = r.name(top, 'kind', "the kind's name, the same as the file's base name");
  const kindField = top.fields.get('kind');
  if (kind !== undefined && expected !== undefined && kind !== expected && kindField !== undefined) {
    r.add(r.where(kindField), `"kind" is "${kind}" but the file is ${expected}.yaml: make them the same`);
  }
  const spec: KindSpec = {
    kind: kind ?? '',
    seenIn: r.optText(top, 'seen_in') ?? null,
    launch: readLaunch(r, top),
    accountEnv: readAccountEnv(r, top),
    idle: readIdle(r, top),
    contextLeft: patterns(r, top, 'context_left', true),
    contextUsed: patterns(r, top, 'context_used', true),
    screens: readScreens(r, top),
    signals: readSignals(r, top),
  };
  return r.problems.length === 0 ? { ok: true, kind: spec } : fail(r.problems);
}

function fail(problems: ConfigProblem[]): KindResult {
  return { ok: false, problems: [...problems].sort((a, b) => a.line - b.line || a.col - b.col) };
}

function readLaunch(r: Reader, top: Section): Launch | null {
  const field = top.fields.get('launch');
  if (field === undefined || r.scalar(field.value) === null) return null;
  const s = r.section(field.value, field.key, 'launch', KNOWN.launch);
  if (s === undefined) return null;
  const before = r.problems.length;
  const command = argvTemplate(r, s, 'command', 'the argv template, e.g. command: [claude, "{brief}"]') ?? [];
  const commandOk = r.problems.length === before && command.length > 0;
  const prompt = r.field(s, 'prompt', 'how the first prompt arrives: argument, paste or file') === undefined
    ? undefined
    : r.oneOf(s, 'prompt', PROMPT_DELIVERIES);
  const promptField = s.fields.get('prompt');
  if (prompt === 'argument' && commandOk && promptField !== undefined && !command.some(carriesPrompt)) {
    r.add(r.where(promptField), '"launch.prompt" is argument but "launch.command" has no {prompt}, {brief} or {prompt_file}: add one, or use paste or file');
  }
  return { command, prompt: prompt ?? 'file', resume: readResume(r, s) };
}

/** `launch.resume`: absent or null, the kind cannot resume; else a template naming the session and carrying the pointer line. */
function readResume(r: Reader, s: Section): string[] | null {
  const field = s.fields.get('resume');
  if (field === undefined || r.scalar(field.value) === null) return null;
  const before = r.problems.length;
  const resume = argvTemplate(r, s, 'resume', 'the argv template that resumes a session, e.g. resume: [claude, --resume, "{session_id}", "{brief}"]');
  if (resume === undefined || r.problems.length > before) return null;
  const missing = ['session_id', 'brief'].filter((name) => !resume.some((arg) => arg.includes(`{${name}}`)));
  if (missing.length > 0) {
    r.add(r.where(field), `"launch.resume" has no ${missing.map((m) => `{${m}}`).join(' and no ')}: it must name the session resumed ({session_id}) and give it the pointer line as its prompt ({brief})`);
    return null;
  }
  return resume;
}

/** An argv template (`launch.command`, `launch.resume`): non-empty strings with known placeholders; undefined when absent. */
function argvTemplate(r: Reader, s: Section, key: string, what: string): string[] | undefined {
  const items = r.list(s, key, what);
  if (items === undefined) return undefined;
  const field = s.fields.get(key);
  const argv: string[] = [];
  items.forEach((item, i) => {
    const path = `launch.${key}[${i}]`;
    const value = r.scalar(item);
    if (typeof value !== 'string' || value === '') {
      r.wrong({ key: field?.key ?? item, value: item, path }, 'a non-empty string');
      return;
    }
    for (const [, name = ''] of value.matchAll(PLACEHOLDER)) {
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
        const hint = didYouMean(name, PLACEHOLDERS);
        r.add(item, `"${path}": unknown placeholder {${name}}${hint !== '' ? hint : `; known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`}`);
      } else if ((LIST_PLACEHOLDERS as readonly string[]).includes(name) && value !== `{${name}}`) {
        r.add(item, `"${path}": {${name}} expands to several arguments, so it must be an argument of its own: write "{${name}}" alone`);
      }
    }
    argv.push(value);
  });
  if (field !== undefined && isSeq(field.value) && items.length === 0) {
    r.add(r.where(field), `"launch.${key}" is empty: list the program, then its arguments`);
  }
  return argv;
}

function carriesPrompt(arg: string): boolean {
  return /\{(prompt|brief|prompt_file)\}/.test(arg);
}

function readAccountEnv(r: Reader, top: Section): string | null {
  const value = r.optText(top, 'account_env');
  const field = top.fields.get('account_env');
  if (typeof value !== 'string' || field === undefined) return null;
  if (ENV_KEY.test(value)) return value;
  r.wrong(field, 'an environment variable name (letters, digits and "_", not starting with a digit), or null');
  return null;
}

function readIdle(r: Reader, top: Section): IdleRule | null {
  const field = top.fields.get('idle');
  if (field === undefined || r.scalar(field.value) === null) return null;
  const s = r.section(field.value, field.key, 'idle', KNOWN.idle);
  if (s === undefined) return null;
  const rule = { notShowing: patterns(r, s, 'not_showing', false), showing: patterns(r, s, 'showing', false) };
  if (!s.fields.has('not_showing') && !s.fields.has('showing')) {
    r.add(r.where(field), '"idle" needs not_showing (busy texts) or showing (idle texts); write idle: null for no idle signal');
  }
  return rule;
}

function readScreens(r: Reader, top: Section): Record<ScreenName, RegExp[]> {
  const field = top.fields.get('screens');
  const s = field === undefined || r.scalar(field.value) === null
    ? undefined
    : r.section(field.value, field.key, 'screens', SCREEN_NAMES);
  const out = {} as Record<ScreenName, RegExp[]>;
  for (const name of SCREEN_NAMES) out[name] = s === undefined ? [] : patterns(r, s, name, false);
  return out;
}

function readSignals(r: Reader, top: Section): Record<string, unknown> {
  const field = top.fields.get('signals');
  if (field === undefined || r.scalar(field.value) === null) return {};
  const s = r.section(field.value, field.key, 'signals', null);
  return s === undefined ? {} : (r.scalar(s.node) as Record<string, unknown>);
}

/** A list of case-insensitive regular expressions, linear-time (core/config/linearRegExp.ts); absent or null is the empty list. */
function patterns(r: Reader, s: Section, key: string, group: boolean): RegExp[] {
  const field = s.fields.get(key);
  const items = r.list(s, key) ?? [];
  const out: RegExp[] = [];
  items.forEach((item, i) => {
    const path = `${field?.path ?? key}[${i}]`;
    const value = r.scalar(item);
    if (typeof value !== 'string' || value === '') {
      r.wrong({ key: field?.key ?? item, value: item, path }, 'a regular expression (a non-empty string)');
      return;
    }
    const re = linearRegExp(value);
    if (!(re instanceof RegExp) && re.syntax) r.add(item, `"${path}" is not a valid regular expression (${re.why}): quote it in '…' and escape ( ) [ ] ? . with \\`);
    else if (!(re instanceof RegExp)) r.add(item, `"${path}" is refused: ${re.why}`);
    else if (re.test('')) r.add(item, `"${path}" matches empty text, so it would match every screen: make it name the text it looks for`);
    else if (group && !hasGroup(re)) r.add(item, `"${path}" needs a group that captures the percentage, e.g. '(\\d+)% context left'`);
    else out.push(re);
  });
  return out;
}

function hasGroup(re: RegExp): boolean {
  return (new RegExp(`${re.source}|`, re.flags).exec('')?.length ?? 0) > 1;
}
