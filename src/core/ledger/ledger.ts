/**
 * The ledger (SPEC 10.7): what each agent generation spent — its session, start and end and how it
 * ended, turns, tokens and cost — kept in state.json (`ledger`) and journaled as `generation_spent`
 * when a generation ends. Pure: figures in, a new ledger out.
 *
 * Where the figures come from is each kind's business (kinds/<kind>): an agent's `usage` record
 * carries one process's cumulative figures as it last told them (Claude Code's status line, Codex's
 * rollout, the sim's model), and its turn-end hooks number its turns.
 *
 * Decisions:
 * - Per process (session id) the last figures count; a generation's figure is the sum over its
 *   processes: readings 0.10, 0.25, 0.40 of one process are 0.40, and a second process's 0.30 makes 0.70.
 * - A process whose figures fall (a restart reusing its session id) starts a new run of it: the figures
 *   before the fall are kept and the new ones add to them.
 * - A figure the agent does not report is null (Codex reports no cost); a sum is null only when every
 *   part is. Negative, non-finite or non-number figures are not reports (agents are not trusted).
 * - At most MAX_PROCESSES processes a generation: records naming more sessions are not counted (an
 *   agent cannot grow the state without bound).
 * - Records are cumulative and turns numbered, so reading a spool again after a crash changes nothing.
 */

export interface Tokens {
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
}

export interface Figures {
  cost_usd: number | null;
  tokens: Tokens;
}

/** One process of a generation: its last figures, and what runs of it before a fall had reached. */
export interface ProcessSpend {
  session: string;
  last: Figures;
  kept: Figures;
}

/** How a generation ended: its successor accepted, its lane was done, `swarm down`, or it was lost (its pane gone, a degraded handoff, a reviewer replaced). */
export type GenerationEnd = 'handed_off' | 'done' | 'stopped' | 'lost';

export interface GenerationSpend {
  generation: number;
  account: string | null;
  vendor: string | null;
  /** Epoch ms; null until its pane was seen. */
  started: number | null;
  ended: number | null;
  end: GenerationEnd | null;
  turns: number;
  processes: ProcessSpend[];
  context_pct_at_end: number | null;
  capacity_start: number | null;
  capacity_end: number | null;
  /** Its end was journaled (`generation_spent`), at the first look at the agents' usage after it; absent: not yet. */
  journaled?: true;
}

/** Agent name (a lane, the lead lane, `<lane>.review`) → its generations, oldest first. */
export type Ledger = Record<string, GenerationSpend[]>;

export const MAX_PROCESSES = 32;

export const NO_TOKENS: Tokens = { input: null, output: null, cache_read: null, cache_write: null };
export const NOTHING: Figures = { cost_usd: null, tokens: NO_TOKENS };

const TOKEN_KEYS = ['input', 'output', 'cache_read', 'cache_write'] as const;

/** A figure as reported: a finite number ≥ 0, else null. */
export function figure(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Figures read from a record's untrusted fields. */
export function figuresOf(cost: unknown, tokens: unknown): Figures {
  const t = typeof tokens === 'object' && tokens !== null ? (tokens as Record<string, unknown>) : {};
  return { cost_usd: figure(cost), tokens: { input: figure(t.input), output: figure(t.output), cache_read: figure(t.cache_read), cache_write: figure(t.cache_write) } };
}

/** Sums to a millionth (a dollar's float sums must not show 0.30000000000000004). */
const sum = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.round((a + b) * 1e6) / 1e6);

export function addFigures(a: Figures, b: Figures): Figures {
  const tokens = { ...NO_TOKENS };
  for (const k of TOKEN_KEYS) tokens[k] = sum(a.tokens[k], b.tokens[k]);
  return { cost_usd: sum(a.cost_usd, b.cost_usd), tokens };
}

function sameFigures(a: Figures, b: Figures): boolean {
  return a.cost_usd === b.cost_usd && TOKEN_KEYS.every((k) => a.tokens[k] === b.tokens[k]);
}

/** Some figure of `next` is below the same figure of `last`: a new run of the process. */
function fell(last: Figures, next: Figures): boolean {
  const below = (a: number | null, b: number | null): boolean => a !== null && b !== null && b < a;
  return below(last.cost_usd, next.cost_usd) || TOKEN_KEYS.some((k) => below(last.tokens[k], next.tokens[k]));
}

/** A generation's figures: the sum over its processes of each one's kept and last. */
export function generationFigures(g: GenerationSpend): Figures {
  return g.processes.reduce<Figures>((acc, p) => addFigures(acc, addFigures(p.kept, p.last)), NOTHING);
}

/** The session the generation runs now (its newest process), or null. */
export function sessionOf(g: GenerationSpend): string | null {
  const last = g.processes[g.processes.length - 1];
  return last === undefined || last.session === '' ? null : last.session;
}

export function emptyGeneration(generation: number, account: string | null, vendor: string | null): GenerationSpend {
  return {
    generation, account, vendor, started: null, ended: null, end: null, turns: 0, processes: [],
    context_pct_at_end: null, capacity_start: null, capacity_end: null,
  };
}

/** The ledger with one generation changed (made when absent); the same ledger when `change` changed nothing. */
function withGeneration(
  ledger: Ledger, agent: string, generation: number, made: () => GenerationSpend,
  change: (g: GenerationSpend) => GenerationSpend,
): Ledger {
  const list = ledger[agent] ?? [];
  const i = list.findIndex((g) => g.generation === generation);
  const was = i < 0 ? null : list[i]!;
  const next = change(was ?? made());
  if (next === was) return ledger;
  const updated = i < 0 ? [...list, next].sort((a, b) => a.generation - b.generation) : list.map((g, k) => (k === i ? next : g));
  return { ...ledger, [agent]: updated };
}

export interface UsageFact {
  agent: string;
  generation: number;
  account: string | null;
  vendor: string | null;
  /** The process's session id ('' when the agent gave none). */
  session: string;
  figures: Figures;
  /** Turns this process has finished, when the agent counts them; null: not said. */
  turns?: number | null;
}

/** One process's cumulative figures, folded in (SPEC 10.7: per process the last counts). */
export function foldUsage(ledger: Ledger, fact: UsageFact): Ledger {
  const session = fact.session.trim().slice(0, 200);
  return withGeneration(ledger, fact.agent, fact.generation, () => emptyGeneration(fact.generation, fact.account, fact.vendor), (g) => {
    const turns = Math.max(g.turns, Math.floor(figure(fact.turns) ?? 0));
    const i = g.processes.findIndex((p) => p.session === session);
    if (i < 0) {
      if (g.processes.length >= MAX_PROCESSES) return turns === g.turns ? g : { ...g, turns };
      return { ...g, turns, processes: [...g.processes, { session, last: fact.figures, kept: NOTHING }] };
    }
    const p = g.processes[i]!;
    if (sameFigures(p.last, fact.figures)) return turns === g.turns ? g : { ...g, turns };
    const next = fell(p.last, fact.figures) ? { session, last: fact.figures, kept: addFigures(p.kept, p.last) } : { ...p, last: fact.figures };
    return { ...g, turns, processes: g.processes.map((q, k) => (k === i ? next : q)) };
  });
}

/** A turn the agent numbered (its n-th turn end): the generation's turns are the highest number heard. */
export function foldTurn(ledger: Ledger, agent: string, generation: number, turn: number, account: string | null, vendor: string | null): Ledger {
  const n = Math.floor(figure(turn) ?? 0);
  return withGeneration(ledger, agent, generation, () => emptyGeneration(generation, account, vendor), (g) => (n > g.turns ? { ...g, turns: n } : g));
}

/** A generation's pane was seen: it started now, on `account` with `capacity` % left (kept once). */
export function startGeneration(
  ledger: Ledger, agent: string, generation: number,
  at: { now: number; account: string | null; vendor: string | null; capacity: number | null },
): Ledger {
  return withGeneration(ledger, agent, generation, () => emptyGeneration(generation, at.account, at.vendor), (g) => {
    if (g.started !== null) return g;
    return { ...g, started: at.now, account: g.account ?? at.account, vendor: g.vendor ?? at.vendor, capacity_start: at.capacity };
  });
}

/** A generation ended (kept once: the first end is how it ended). */
export function endGeneration(
  ledger: Ledger, agent: string, generation: number,
  at: { now: number; end: GenerationEnd; account: string | null; vendor: string | null; context: number | null; capacity: number | null },
): Ledger {
  return withGeneration(ledger, agent, generation, () => emptyGeneration(generation, at.account, at.vendor), (g) => {
    if (g.ended !== null) return g;
    return { ...g, ended: at.now, end: at.end, account: g.account ?? at.account, vendor: g.vendor ?? at.vendor, context_pct_at_end: at.context, capacity_end: at.capacity };
  });
}

/** The ledger with a generation marked journaled. */
export function markJournaled(ledger: Ledger, agent: string, generation: number): Ledger {
  return withGeneration(ledger, agent, generation, () => emptyGeneration(generation, null, null), (g) => (g.journaled ? g : { ...g, journaled: true }));
}

/** Generations that ended and were not journaled yet. */
export function unjournaled(ledger: Ledger | undefined): { agent: string; generation: number }[] {
  return Object.entries(ledger ?? {}).flatMap(([agent, list]) => list.filter((g) => g.ended !== null && g.journaled !== true).map((g) => ({ agent, generation: g.generation })));
}

/** What `status --json` lanes carry as `generations` and the journal's `generation_spent` (SPEC 10.7). */
export interface GenerationView {
  generation: number;
  session_id: string | null;
  account: string | null;
  vendor: string | null;
  started: string | null;
  ended: string | null;
  end: GenerationEnd | null;
  turns: number;
  tokens: Tokens;
  cost_usd: number | null;
  context_pct_at_end: number | null;
  capacity_start: number | null;
  capacity_end: number | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function generationView(g: GenerationSpend): GenerationView {
  const f = generationFigures(g);
  return {
    generation: g.generation, session_id: sessionOf(g), account: g.account, vendor: g.vendor,
    started: iso(g.started), ended: iso(g.ended), end: g.end, turns: g.turns, tokens: f.tokens, cost_usd: f.cost_usd,
    context_pct_at_end: g.context_pct_at_end, capacity_start: g.capacity_start, capacity_end: g.capacity_end,
  };
}

/** An agent's spend over all its generations. */
export function agentFigures(list: readonly GenerationSpend[] | undefined): Figures {
  return (list ?? []).reduce<Figures>((acc, g) => addFigures(acc, generationFigures(g)), NOTHING);
}

/** The whole run's spend. */
export function ledgerFigures(ledger: Ledger | undefined): Figures {
  return Object.values(ledger ?? {}).reduce<Figures>((acc, list) => addFigures(acc, agentFigures(list)), NOTHING);
}

/** Tokens read and written, for a line: input + output (null: neither told). */
export function tokenTotal(f: Figures): number | null {
  const { input, output } = f.tokens;
  return input === null && output === null ? null : (input ?? 0) + (output ?? 0);
}

/** Dollars to the cent, half up on the decimal figure (2.005 is $2.01, although 2.005 in binary is a hair below): every view shows the same cents. */
export function dollars(usd: number): string {
  return `$${(Math.round(Math.round(usd * 1e6) / 1e4) / 100).toFixed(2)}`;
}

/** `$1.23` where a cost is told, else `412k tok` where tokens are, else null (nothing known). */
export function spendText(f: Figures): string | null {
  if (f.cost_usd !== null) return dollars(f.cost_usd);
  const tokens = tokenTotal(f);
  if (tokens === null) return null;
  return tokens >= 1e6 ? `${(tokens / 1e6).toFixed(1)}M tok` : tokens >= 1000 ? `${Math.round(tokens / 1000)}k tok` : `${tokens} tok`;
}
