// A generated night for `swarm report` (tests and `npm run bench`): a lead and N lanes × G generations
// over eight hours, written as a plan's files — journal.jsonl (~10,000 lines at 64 × 8), the inbox's
// capacity readings and reports, lead.json and one packet per handoff — the way the engine writes them.
// Deterministic. Besides ordinary handoffs it holds each kind the page must show: a degraded handoff,
// a rejected packet, a wait for a reset, an escalation the developer answered, a lane stopped at
// max_generations, a failed gate, a lead handover and a takeover. `hostile` puts agent-written markup
// (<script>, </svg>, quotes, terminal escapes) into a report, a packet, an escalation and an answer.
// `usage` adds what the agents spent (SPEC 10.7): each generation's cumulative `usage` records in its
// spool (the `acct-o…` accounts tell tokens only, as Codex does) and a `generation_spent` line when it
// ends; without it the night is the same, byte for byte.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const HOSTILE = `<script>document.body.dataset.pwned='script'</script></svg><img src=x onerror="document.body.dataset.pwned='img'"> "quotes" 'single' \u001b[31mred\u001b[0m \u001b]0;title\u0007`;

export function writeNight(planDir, options = {}) {
  const lanes = options.lanes ?? 64;
  const generations = options.generations ?? 8;
  const hostile = options.hostile === true;
  const usage = options.usage === true;
  const t0 = Date.parse(options.start ?? '2026-12-01T22:00:00.000Z');
  const night = 8 * 3600_000;
  const handoffDir = join(planDir, 'analysis_results', 'handoff');
  mkdirSync(handoffDir, { recursive: true });
  mkdirSync(join(planDir, '.swarm'), { recursive: true });
  const journal = [];
  const inbox = [];
  const iso = (ms) => new Date(Math.round(ms)).toISOString();
  let epoch = 1;
  const j = (ms, type, event, lane, generation, more = {}) => journal.push({ ts: iso(ms), epoch, type, event, lane, generation, ...more });
  const account = (i, g) => `acct-${(i + g) % 2 ? 'o' : 'a'}${String(((i * 3 + g) % 12) + 1).padStart(2, '0')}`;
  // Lane i's generation g after `part` of it: cumulative, as an agent reports them; no cost on an `o` account.
  const spentBy = (i, g, part) => {
    const input = Math.round(250_000 * part) + i * 10 + g;
    const cost = account(i, g).startsWith('acct-o') ? null : Math.round((0.8 + ((i * 7 + g * 3) % 10) * 0.15) * part * 1e4) / 1e4;
    return { cost_usd: cost, tokens: { input, output: Math.round(input / 12), cache_read: input * 3, cache_write: Math.round(input / 5) }, turns: Math.round(24 * part) };
  };
  const used = (ms, from, role, acct, g, f) => inbox.push({ kind: 'usage', ts: iso(ms), from, role, account: acct, generation: g, epoch, session_id: `${from}-g${g}`, ...f });
  // As the engine journals a generation's end (core/swarm/reduce.ts: the ledger's generationView).
  const spent = (ms, lane, i, g, started, end) => {
    if (!usage) return;
    const { turns, tokens, cost_usd } = spentBy(i, g, 1);
    j(ms, 'observation', 'generation_spent', lane, g, {
      session_id: `${lane}-g${g}`, account: account(i, g), vendor: null, started: iso(started), ended: iso(ms), end, turns, tokens, cost_usd,
      context_pct_at_end: 55, capacity_start: 100 - (i % 5), capacity_end: 8,
    });
  };
  const packet = (lane, g, ms, doing) => {
    const path = join(handoffDir, `${lane.replace(/[^A-Za-z0-9-]/g, "_")}-g${g}-${iso(ms).replace(/[-:]/g, '').slice(0, 15)}Z.yaml`);
    const p = { schema: 'dwp-handoff/v1', plan: 'night', reason: 'capacity_critical', doing, where: { checkout: `/work/${lane}` }, next: ['go on'], author: { lane, account: account(0, g), generation: g } };
    // As `swarm packet write` lays it out (core/packet/packet.ts serializePacket): one field a line, strings quoted.
    const yaml = [`# dwp-handoff/v1: swarm handoff packet from ${lane} g${g}`, `schema: ${p.schema}`, `plan: ${p.plan}`, `reason: ${p.reason}`,
      `doing: ${JSON.stringify(doing)}`, 'where:', `  checkout: ${JSON.stringify(p.where.checkout)}`, 'next:', '  - go on',
      'author:', `  lane: ${JSON.stringify(lane)}`, `  account: ${p.author.account}`, `  generation: ${g}`, ''].join('\n');
    writeFileSync(path, yaml, { mode: 0o600 });
    return path;
  };

  j(t0, 'observation', 'lead_claimed', 'lead', null, { account: 'acct-a01' });
  j(t0 + 200, 'delegation', 'lane_started', 'lead', 1, { account: 'acct-a01', paneId: '%1' });
  const names = Array.from({ length: lanes }, (_, i) => (hostile && i === 1 ? `lane-<b>02</b>` : `lane-${String(i + 1).padStart(2, '0')}`));
  const genMs = night / generations;
  names.forEach((lane, i) => {
    const offset = 1000 + i * 900;
    j(t0 + offset, 'delegation', 'lane_started', lane, 1, { account: account(i, 1), paneId: `%${i + 2}` });
    for (let g = 1; g <= generations; g += 1) {
      const start = t0 + offset + (g - 1) * genMs;
      for (let k = 0; k < 8; k += 1) {
        const at = start + 5000 + k * (genMs / 9);
        const remaining = Math.max(4, 100 - k * 12 - (i % 5));
        inbox.push({ kind: 'capacity', ts: iso(at), from: lane, role: 'lane', account: account(i, g), generation: g, epoch, state: remaining <= 10 ? 'critical' : remaining <= 25 ? 'low' : 'ok', remaining_pct: remaining, context_pct: k * 7, resets_at: null, decision: 'continue', source: 'probe' });
        if (k !== 0 && k !== 4) j(at + 10, 'observation', 'message', lane, g, { to: 'lead', text: `note step ${k} of g${g}` });
        if (k % 4 === 2) {
          j(at + 20, 'observation', 'ask', lane, g, { to: names[(i + 1) % lanes], text: `ask which file next (${k})?` });
          j(at + 900, 'observation', 'answer', names[(i + 1) % lanes], g, { to: lane, text: `answer file-${k}.txt` });
        }
        if (k === 3 || k === 6) j(at + 30, 'observation', 'stall_nudge', lane, g, { since: at - 1_800_000 });
        if (usage && k % 2 === 1) used(at + 40, lane, 'lane', account(i, g), g, spentBy(i, g, (k + 1) / 8));
      }
      const report = hostile && i === 0 && g === 1 ? `blocked decision ${HOSTILE}\ncapacity=low 20% @${account(i, g)} context=40%` : `plan ready\ncapacity=ok 90% @${account(i, g)} context=5%`;
      inbox.push({ kind: 'message', ts: iso(start + 4000), from: lane, role: 'lane', account: account(i, g), generation: g, epoch, to: 'lead', text: report, cwd: `/work/${lane}` });
      const end = start + genMs - 60_000;
      j(end - 30_000, 'observation', 'capacity_verdict', lane, g, { decision: 'handoff_soon', state: 'low', remainingPct: 20, contextPct: 50 });
      j(end - 5000, 'observation', 'capacity_verdict', lane, g, { decision: 'handoff_now', state: 'critical', remainingPct: 8, contextPct: 55 });
      if (g === generations) {
        if (i === 10) {
          // A handoff from the last generation is not checked: the lane stops (core/machineTypes.ts stop).
          j(end, 'observation', 'max_generations', lane, g, { packet: packet(lane, g, end, 'last generation'), reason: 'capacity_critical', max: generations });
          spent(end + 100, lane, i, g, start, 'stopped');
        } else if (i === 12) {
          j(end, 'observation', 'gate_started', lane, g, { command: 'npm test' });
          j(end + 4000, 'delegation', 'lane_result', lane, g, { result: 'gate_failed', gate: 'npm test', passed: false, output: '1 failing' });
          j(end + 20_000, 'observation', 'gate_started', lane, g, { command: 'npm test' });
          j(end + 24_000, 'delegation', 'lane_result', lane, g, { result: 'done', gate: 'npm test', passed: true });
          spent(end + 24_100, lane, i, g, start, 'done');
        } else {
          j(end, 'observation', 'gate_started', lane, g, { command: 'npm test' });
          j(end + 3000, 'delegation', 'lane_result', lane, g, { result: 'done', gate: 'npm test', passed: true });
          spent(end + 3100, lane, i, g, start, 'done');
        }
        continue;
      }
      const doing = hostile && i === 0 && g === 1 ? `doing ${HOSTILE}` : `step ${g} of ${lane}`;
      if (i === 2 && g === 3) {
        j(end, 'observation', 'degraded_handoff', lane, g, { reason: 'lane_lost', from_generation: g });
        j(end + 500, 'observation', 'handoff_reported', lane, g, { packet: packet(lane, g, end, 'degraded: inspect the checkout'), reason: 'lane_lost', degraded: true });
      } else {
        if (i === 4 && g === 2) {
          // Reported, checked, rejected; the lane writes a good one and reports again.
          j(end - 4000, 'observation', 'handoff_reported', lane, g, { packet: join(handoffDir, 'bad.yaml'), reason: 'capacity_critical' });
          j(end - 3900, 'observation', 'packet_rejected', lane, g, { packet: join(handoffDir, 'bad.yaml'), reasons: ['doing is missing: say what was in flight'] });
        }
        j(end, 'observation', 'handoff_reported', lane, g, { packet: packet(lane, g, end, doing), reason: 'capacity_critical' });
      }
      let spawn = end + 2000;
      if (i === 6 && g === 4) {
        j(end + 1000, 'observation', 'waiting_for_reset', lane, g, { resetsAt: iso(end + 600_000), why: 'no account has headroom', retryAt: iso(end + 600_000) });
        spawn = end + 601_000;
      }
      const next = account(i, g + 1);
      j(spawn - 500, 'observation', 'lease_acquired', lane, g, { account: next, why: `${next}: ok`, for_generation: g + 1 });
      j(spawn, 'observation', 'successor_spawned', lane, g, { account: next, paneId: `%${i}-${g + 1}`, for_generation: g + 1 });
      const packetPath = journal.findLast((e) => e.event === 'handoff_reported' && e.lane === lane).packet;
      j(spawn + 25_000, 'observation', 'packet_accepted', lane, g + 1, { packet: packetPath, account: next, from_generation: g });
      spent(spawn + 25_000, lane, i, g, start, i === 2 && g === 3 ? 'lost' : 'handed_off');
      j(spawn + 25_100, 'observation', 'lease_released', lane, g + 1, { account: account(i, g) });
      j(spawn + 25_200, 'observation', 'pane_closed', lane, g + 1, { paneId: `%${i}-${g}` });
      if (i === 8 && g === 2) {
        j(spawn + 60_000, 'intervention', 'escalation', lane, g + 1, { class: 'login', what: hostile ? `log in: ${HOSTILE}` : 'log in to the account in the pane', source: 'screen' });
        j(spawn + 300_000, 'intervention', 'developer_answer', lane, null, { text: hostile ? `answer ${HOSTILE}` : 'Done — logged in.\n  (second line, kept verbatim)' });
        j(spawn + 310_000, 'observation', 'unblocked', lane, g + 1, { class: 'login', source: 'screen' });
      }
    }
  });
  // The lead: a handover at a third of the night, a takeover at two thirds.
  const handover = t0 + night / 3;
  if (usage) {
    // The lead on a cost-telling account, then lead-b on a tokens-only one.
    used(t0 + 600_000, 'lead', 'lead', 'acct-a01', 1, { cost_usd: 0.5, tokens: { input: 40_000, output: 3000, cache_read: null, cache_write: null }, turns: 4 });
    used(handover - 60_000, 'lead', 'lead', 'acct-a01', 1, { cost_usd: 2.5, tokens: { input: 210_000, output: 16_000, cache_read: null, cache_write: null }, turns: 30 });
    used(handover + 600_000, 'lead-b', 'lead', 'acct-o01', 2, { cost_usd: null, tokens: { input: 90_000, output: 7000, cache_read: null, cache_write: null }, turns: 9 });
  }
  const leadPacket = packet('lead', 1, handover, 'leading the night');
  epoch = 2;
  j(handover, 'observation', 'lead_handover', 'lead-b', null, { by: 'lead', to: 'lead-b', packet: leadPacket });
  j(handover + 100, 'observation', 'handoff_reported', 'lead', 1, { packet: leadPacket, reason: 'lead_handover' });
  j(handover + 2000, 'observation', 'successor_spawned', 'lead', 1, { account: 'acct-o01', paneId: '%900', for_generation: 2 });
  j(handover + 20_000, 'observation', 'packet_accepted', 'lead', 2, { packet: leadPacket, account: 'acct-o01', from_generation: 1 });
  j(handover + 20_200, 'observation', 'pane_closed', 'lead', 2, { paneId: '%1' });
  const takeover = t0 + (2 * night) / 3;
  j(takeover, 'observation', 'lead_takeover', 'lead', 2, { reason: 'lane_lost', from_generation: 2 });
  epoch = 3;
  j(takeover + 50, 'observation', 'lead_epoch_raised', 'lead', null, { missing: 'the in-flight intent of the lost lead: rebuild it from the plan' });
  j(takeover + 2000, 'observation', 'successor_spawned', 'lead', 2, { account: 'acct-a02', paneId: '%901', for_generation: 3 });
  j(takeover + 20_000, 'observation', 'packet_accepted', 'lead', 3, { packet: join(handoffDir, 'lead-g2-degraded.yaml'), account: 'acct-a02', from_generation: 2 });
  const last = t0 + night + 120_000;
  j(last, 'observation', 'stopped_short', null, null, { why: 'lane-11 is stopped (max_generations)' });

  journal.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  inbox.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  writeFileSync(join(planDir, 'journal.jsonl'), journal.map((e) => `${JSON.stringify(e)}\n`).join(''));
  // Each agent's records in its own spool, and the engine's record of each agent (SPEC 10.3): the report attributes by spool.
  const bySpool = new Map();
  for (const e of inbox) {
    const spool = `r1/${e.from}-g${e.generation}`;
    if (!bySpool.has(spool)) bySpool.set(spool, { agent: { lane: e.from, generation: e.generation, role: e.role, account: e.account, run: 1, spool, pane: null, host: 'bench' }, lines: [], usage: [] });
    // Usage records go to the agent's usage file beside its records, as `swarm statusline` writes them.
    bySpool.get(spool)[e.kind === 'usage' ? 'usage' : 'lines'].push(`${JSON.stringify(e)}\n`);
  }
  for (const [spool, { agent, lines, usage: spent }] of bySpool) {
    mkdirSync(join(planDir, '.swarm', 'spool', spool), { recursive: true });
    writeFileSync(join(planDir, '.swarm', 'spool', spool, 'records.jsonl'), lines.join(''));
    if (spent.length > 0) {
      mkdirSync(join(planDir, '.swarm', 'spool', spool, 'usage'), { recursive: true });
      writeFileSync(join(planDir, '.swarm', 'spool', spool, 'usage', 'usage.jsonl'), spent.join(''));
    }
    const file = join(planDir, '.swarm', 'agents', 'spools', `${spool}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(agent)}\n`);
  }
  writeFileSync(join(planDir, 'lead.json'), `${JSON.stringify({ plan: 'night', lead: 'lead', epoch: 3, succession: [], lanes: names, revision: 9, updated_at: iso(last) })}\n`);
  return { lanes: names, generations, journalLines: journal.length, inboxLines: inbox.length };
}
