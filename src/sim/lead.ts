/**
 * The simulated lead: keeps a table of the lanes' reports (`.swarm/sim/lead-table.md`), answers
 * nothing it need not, spends quota per message handled, hands over with a lead packet when its
 * capacity says `handoff_now`, and releases the plan when swarm says every lane is done.
 *
 * Decisions where the brief is silent:
 * - A successor lead whose packet is refused carries on from the lead record's lanes (it already
 *   holds the epoch), and says that the in-flight intent is missing rather than invent it.
 * - The handover goes to the first succession entry that is not this lead, else the first lane.
 * - A lead notice naming another lead makes this one stand down.
 */
import { basename, join } from 'node:path';
import { excerpt } from '../errors.js';
import { parsePacket } from '../core/packet/packet.js';
import { planPaths } from '../core/plan/paths.js';
import { readTextIfExists, writeFileAtomic } from '../adapters/files.js';
import { readLeadRecord } from '../adapters/leadStore.js';
import { simStateDir } from './files.js';
import { NO_FAULTS, type Faults } from './faults.js';
import { readGuard } from '../adapters/gitHooks.js';
import { initialRows, recordReport, renderTable, rowsFromNext, tableDoing, tableNext, type LaneRow } from './leadTable.js';
import { firstLine, meaningOf, type MailMessage } from './messages.js';
import { spend } from './model.js';
import { texts } from './screen.js';
import { parseSteps } from './steps.js';
import type { World } from './world.js';

type Mode = 'leading' | 'handed_over' | 'released' | 'stood_down';

/** Run the simulated lead in this pane; never resolves (the lead idles, it does not exit). */
export function runLead(world: World, faults: Faults = NO_FAULTS): Promise<number> {
  return new Lead(world, faults).start();
}

class Lead {
  private rows: LaneRow[] = [];
  private mode: Mode = 'leading';
  private mail: Promise<void> = Promise.resolve();
  private note = '';

  constructor(private readonly world: World, private readonly faults: Faults) {}

  async start(): Promise<number> {
    const { world } = this;
    const ctx = world.ctx;
    world.screen.line(texts.banner(ctx.lane, ctx.generation, ctx.account, 'lead'));
    world.onLine((line) => {
      world.screen.line(`> ${firstLine(line, 200)}`);
      void this.checkMail().then(() => world.screen.idle());
    });
    world.watchMail(() => void this.checkMail());
    world.screen.working();
    const account = world.readAccount();
    world.saveAccount({ ...account, contexts: { ...account.contexts, [world.key]: account.contexts[world.key] ?? 0 } });
    this.rows = initialRows(this.knownLanes());
    if (ctx.packet) await this.accept(ctx.packet);
    this.saveTable();
    await this.checkMail();
    await this.boundary();
    if (this.mode === 'leading') world.screen.idle();
    return new Promise<number>(() => undefined);
  }

  private knownLanes(): string[] {
    const record = readLeadRecord(this.world.ctx.plan);
    if (record && record.lanes.length > 0) return record.lanes;
    const steps = parseSteps(readTextIfExists(planPaths(this.world.ctx.plan).planFile) ?? '');
    return steps.ok ? Object.keys(steps.lanes) : [];
  }

  private async accept(packet: string): Promise<void> {
    const { world } = this;
    const result = await world.swarm(['accept', packet]);
    if (result.code !== 0) {
      this.note = `packet not accepted (exit ${result.code}); the in-flight intent is missing, rebuilt from lead.json`;
      world.screen.line(`[sim] ${this.note}: ${excerpt(result.stderr.trim().replace(/\s+/g, ' '), 300)}`);
      return;
    }
    world.screen.line(`[sim] accepted ${packet}`);
    const parsed = parsePacket(readTextIfExists(packet) ?? '');
    const carried = parsed.ok ? rowsFromNext(parsed.packet.next) : [];
    const names = new Set(carried.map((r) => r.lane));
    this.rows = [...carried, ...this.rows.filter((r) => !names.has(r.lane))];
  }

  private saveTable(): void {
    const ctx = this.world.ctx;
    const heading = `Lead table: ${ctx.lane} g${ctx.generation} @${ctx.account}, epoch ${ctx.epoch ?? '-'}, ${this.mode}`;
    const body = renderTable(this.rows, heading);
    writeFileAtomic(join(simStateDir(ctx.plan), 'lead-table.md'), this.note === '' ? body : `${body}\n${this.note}\n`);
  }

  private checkMail(): Promise<void> {
    this.mail = this.mail.then(() => this.readMail()).catch((error: unknown) => {
      this.world.screen.line(`[sim] lead could not read its mailbox: ${(error as Error).message}`);
    });
    return this.mail;
  }

  private async readMail(): Promise<void> {
    const messages = this.world.readMail();
    if (messages.length === 0 || this.mode !== 'leading') return;
    this.world.screen.working();
    for (const message of messages) await this.handle(message);
    const { world } = this;
    const next = spend(world.readAccount(), world.key, { quota: world.model.cost * messages.length, context: world.model.context * messages.length }, new Date().toISOString());
    world.saveAccount(next);
    this.saveTable();
    if (this.mode === 'leading') await this.boundary();
    world.screen.idle();
  }

  private async handle(message: MailMessage): Promise<void> {
    const { world } = this;
    const meaning = meaningOf(message);
    if (meaning.kind === 'release') {
      const result = await world.swarm(['lead', 'release']);
      world.screen.line(result.code === 0 ? '[sim] released the plan' : `[sim] lead release failed (exit ${result.code}): ${excerpt(result.stderr.trim(), 200)}`);
      if (result.code === 0) this.mode = 'released';
      return;
    }
    if (meaning.kind === 'lead_notice' && meaning.lead !== world.ctx.lane) {
      world.screen.line(`[sim] ${meaning.lead} leads at epoch ${meaning.epoch}; standing down`);
      this.mode = 'stood_down';
      return;
    }
    if (message.from === 'swarm' || message.from === 'the developer' || meaning.kind === 'ask' || meaning.kind === 'answer') {
      world.screen.line(`[sim] from ${message.from}: ${firstLine(message.text)}`);
      return;
    }
    this.rows = recordReport(this.rows, message.from, message.text, message.at);
    world.screen.line(`[sim] ${message.from}: ${firstLine(message.text)}`);
  }

  /** The lead's work boundary: its own capacity; at `handoff_now`, hand over. */
  private async boundary(): Promise<void> {
    const reading = await this.world.capacity();
    if (reading?.decision === 'handoff_now') await this.handover();
  }

  private async handover(): Promise<void> {
    const { world } = this;
    const ctx = world.ctx;
    const record = readLeadRecord(ctx.plan);
    const to = record?.succession.find((name) => name !== ctx.lane) ?? record?.lanes.find((name) => name !== ctx.lane);
    if (!to) {
      world.screen.line('[sim] capacity says hand over, but the lead record names no successor; leading on');
      return;
    }
    const flag = (name: string, value: string) => `--${name}=${value}`;
    // A lead packet (SPEC 10.5): swarm fills its lanes; the sim's table rides in `next` as before.
    const args = ['packet', 'write', '--lead', flag('reason', 'lead_handover'), flag('doing', tableDoing(basename(ctx.plan), this.rows))];
    for (const next of tableNext(this.rows)) args.push(flag('next', next));
    for (const row of this.rows) args.push(flag('release-order', row.lane));
    const written = await world.swarm(args);
    const path = written.stdout.trim().split('\n').at(-1) ?? '';
    if (written.code !== 0 || path === '') {
      world.screen.line(`[sim] lead packet not written (exit ${written.code}): ${excerpt(written.stderr.trim(), 200)}`);
      return;
    }
    const result = await world.swarm(['lead', 'handover', to, '--packet', path]);
    if (result.code !== 0) {
      world.screen.line(`[sim] lead handover to ${to} refused (exit ${result.code}): ${excerpt(result.stderr.trim(), 200)}`);
      return;
    }
    this.mode = 'handed_over';
    this.saveTable();
    world.retire();
    world.screen.line(`[sim] handed the lead to ${to} (${path})`);
    if (this.faults.stalePush) await this.stalePush();
    world.screen.line(texts.stopped(`handed over to ${to}`));
  }

  /**
   * SIM_STALE_PUSH: no longer the lead, push one new commit to the base branch anyway (a commit
   * object made with `git commit-tree`, so no local ref moves) and show what git said.
   */
  private async stalePush(): Promise<void> {
    const { world } = this;
    const base = readGuard(world.ctx.plan)?.base ?? null;
    if (base === null) return world.screen.line('[sim] SIM_STALE_PUSH: no base branch known; nothing pushed');
    const made = await world.run('git', ['commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'stale lead']);
    const sha = made.stdout.trim();
    if (made.code !== 0 || sha === '') return world.screen.line(`[sim] SIM_STALE_PUSH: no commit made (exit ${made.code}): ${excerpt(made.stderr.trim(), 200)}`);
    const pushed = await world.run('git', ['push', 'origin', `${sha}:refs/heads/${base}`]);
    const said = pushed.stderr.split('\n').find((l) => l.startsWith('swarm: refused')) ?? pushed.stderr.trim().split('\n').at(-1) ?? '';
    world.screen.line(`[sim] SIM_STALE_PUSH: as a stale lead, pushed ${sha.slice(0, 12)} to origin ${base}: ${pushed.code === 0 ? 'accepted' : `refused (exit ${pushed.code})`}: ${excerpt(said, 300)}`);
  }
}
