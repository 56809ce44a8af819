/**
 * The simulated lane: reads its steps from PLAN.md, works them one by one, checks its headroom at
 * every work boundary, hands off with a packet when told to, answers asks from other lanes, and
 * never closes its pane. A successor accepts its packet first and continues from `next`.
 */
import { chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { excerpt } from '../errors.js';
import { parsePacket } from '../core/packet/packet.js';
import { planPaths } from '../core/plan/paths.js';
import { readTextIfExists } from '../adapters/files.js';
import { simStateDir } from './files.js';
import { faultBefore, type Faults, type StepFault } from './faults.js';
import { answerText, firstLine, meaningOf, type MailMessage } from './messages.js';
import { simUsage, spend } from './model.js';
import { reportUsage } from '../adapters/agentSignal.js';
import { applyReruns, emptyProgress, handoffReason, nextList, rebuildFromCheckout, resumeFromPacket, unverifiedGates, type GateRun, type Resume } from './progress.js';
import { texts } from './screen.js';
import { describeStep, parseSteps, type Step } from './steps.js';
import { laneFiles, runStep, stepSeen, type StepHost } from './stepRun.js';
import type { World } from './world.js';

type Mode = 'working' | 'idle' | 'blocked' | 'handed_off' | 'permission' | 'limited';
type Decision = 'continue' | 'handoff_soon' | 'handoff_now';

const MAX_REWRITES = 3;

/** Run a simulated lane in this pane. Resolves only when it crashes on purpose (SIM_CRASH_AT). */
export function runLane(world: World, faults: Faults): Promise<number> {
  return new Lane(world, faults).start();
}

class Lane implements StepHost {
  steps: Step[] = [];
  /** What the lane does when a review asks for changes (`<lane>.fix` in the sim block). */
  private fixes: Step[] = [];
  progress = emptyProgress();
  private mode: Mode = 'working';
  private notice: Decision = 'continue';
  private readonly startedAt = new Date().toISOString();
  private mail: Promise<void> = Promise.resolve();
  private waiting: { lane: string; done: (answer: string) => void } | null = null;
  private readonly early = new Map<string, string>();
  private readonly packets = new Set<string>();
  private packetArgs: string[] | null = null;
  private rewrites = 0;
  /** Steps this process spent: its usage for the ledger (the sim's model, SPEC 10.7). */
  private spent = 0;
  private readonly keysLog: string;
  private readonly forever = new Promise<number>(() => undefined);

  constructor(readonly world: World, private readonly faults: Faults) {
    this.keysLog = join(simStateDir(world.ctx.plan), `keys-${world.ctx.lane}-g${world.ctx.generation}.log`);
  }

  async start(): Promise<number> {
    const { world } = this;
    const ctx = world.ctx;
    world.screen.line(texts.banner(ctx.lane, ctx.generation, ctx.account, 'lane'));
    world.onLine((line) => this.onLine(line));
    world.watchMail(() => void this.checkMail());
    world.screen.working();
    const account = world.readAccount();
    world.saveAccount({ ...account, contexts: { ...account.contexts, [world.key]: account.contexts[world.key] ?? 0 } });

    const plan = parseSteps(readTextIfExists(planPaths(ctx.plan).planFile) ?? '');
    if (!plan.ok) return this.block(plan.error);
    const steps = plan.lanes[ctx.lane];
    if (!steps) return this.block(`PLAN.md's sim block has no steps for ${ctx.lane}`);
    this.steps = steps;
    this.fixes = plan.lanes[`${ctx.lane}.fix`] ?? [];
    let queue = steps.map((_, i) => i + 1);
    if (ctx.packet) {
      const resume = await this.accept(ctx.packet);
      if (resume === null) return this.forever;
      this.progress = resume.progress;
      queue = resume.queue;
    }
    await this.boundary();
    if (ctx.generation === 1 && !ctx.packet) await world.report('plan ready');
    return this.work(queue);
  }

  private async work(queue: number[]): Promise<number> {
    let soonAt: number | null = null;
    for (let i = 0; i < queue.length; i += 1) {
      const n = queue[i]!;
      const decision = i === 0 ? this.decision() : await this.boundary();
      if (!this.faults.ignoreHandoff) {
        if (decision === 'handoff_now' || (soonAt !== null && i > soonAt)) return this.handoff(queue.slice(i), decision);
        if (decision === 'handoff_soon' && soonAt === null) soonAt = i;
      }
      const fault = faultBefore(this.faults, n);
      if (fault) return this.fault(fault, n);
      const outcome = await runStep(this, n);
      this.spend();
      if (!outcome.ok) return this.block(outcome.blocked);
      if (this.steps[n - 1]?.pr) await this.world.report(`PR open http://localhost/${encodeURIComponent(this.world.ctx.lane)}/pr/${n}`);
    }
    await this.boundary();
    if (this.faults.ignoreHandoff) {
      this.world.screen.line('[sim] all steps done (SIM_IGNORE_HANDOFF: no report)');
    } else {
      await this.world.report('done');
    }
    return this.rest('idle');
  }

  /** Accept the packet, rebuild where the lane is, rerun the unverified gates. Null when refused. */
  private async accept(packet: string): Promise<Resume | null> {
    const { world } = this;
    const result = await world.swarm(['accept', packet]);
    if (result.code !== 0) {
      const reasons = result.stderr.trim().split('\n').map((l) => l.trim().replace(/^swarm(?: accept)?: /, '')).filter(Boolean);
      await this.block(`packet not accepted (exit ${result.code}): ${excerpt(reasons.join('; '), 400)}`);
      return null;
    }
    world.screen.line(`[sim] accepted ${packet}`);
    const parsed = parsePacket(readTextIfExists(resolve(world.cwd, packet)) ?? '');
    const fromPacket = parsed.ok ? resumeFromPacket(parsed.packet, this.steps) : null;
    const resume = fromPacket ?? rebuildFromCheckout(this.steps, this.steps.map((s) => stepSeen(s, world.cwd)));
    if (resume.rebuilt) world.screen.line(`[sim] the packet does not say where work stood; the checkout does: continuing with step ${resume.queue[0] ?? '-'}`);
    const runs: GateRun[] = [];
    for (const { what, gate } of resume.rerun) {
      const r = await world.sh(gate);
      runs.push({ what, gate, passed: r.code === 0, evidence: `exit 0 at ${new Date().toISOString()}: ${gate} (rerun by g${world.ctx.generation})` });
      world.screen.line(r.code === 0 ? `[sim] rerun gate passed: ${gate}` : `[sim] rerun gate not passing yet (exit ${r.code}): ${gate}`);
    }
    return applyReruns(resume, runs);
  }

  private decision(): Decision {
    const reading = this.world.last?.decision ?? 'continue';
    if (reading === 'handoff_now' || this.notice === 'handoff_now') return 'handoff_now';
    if (reading === 'handoff_soon' || this.notice === 'handoff_soon') return 'handoff_soon';
    return 'continue';
  }

  /** A work boundary: read the mailbox, check capacity, decide. */
  private async boundary(): Promise<Decision> {
    await this.checkMail();
    await this.world.capacity();
    return this.decision();
  }

  private async handoff(rest: number[], decision: Decision): Promise<number> {
    const { steps, progress, world } = this;
    const reason = handoffReason(world.last?.state ?? null, world.last?.decision ?? null, decision);
    const first = steps[rest[0]! - 1]!;
    const flag = (name: string, value: string) => `--${name}=${value}`;
    const args = ['packet', 'write', flag('reason', reason), flag('step', String(rest[0])),
      flag('doing', `stopped at a work boundary (${reason}) before ${describeStep(first, rest[0]!)}; ${progress.done.length} of ${steps.length} steps done`)];
    for (const n of progress.done) args.push(flag('done', describeStep(steps[n - 1]!, n)));
    for (const next of nextList(steps, rest)) args.push(flag('next', next));
    for (const v of progress.verified) args.push(flag('verified', `${v.what}=${v.evidence}`));
    for (const u of unverifiedGates(steps, rest)) args.push(flag('unverified', `${u.what}=${u.gate}`));
    for (const d of progress.deadends) args.push(flag('deadend', d));
    for (const d of progress.decisions) args.push(flag('decision', d));
    for (const a of progress.asks) args.push(flag('ask', a));
    this.packetArgs = args;
    if (!(await this.writePacket())) return this.forever;
    world.retire();
    world.screen.line(texts.stopped('handed off; a successor continues this lane'));
    return this.rest('handed_off');
  }

  /** Write the packet and report it; false (and blocked) when the packet cannot be written. */
  private async writePacket(): Promise<boolean> {
    const result = await this.world.swarm(this.packetArgs ?? []);
    const path = result.stdout.trim().split('\n').at(-1) ?? '';
    if (result.code !== 0 || path === '') {
      await this.block(`swarm packet write failed (exit ${result.code}): ${excerpt(result.stderr.trim(), 300)}`);
      return false;
    }
    this.packets.add(path);
    if (this.faults.badPacket && this.packets.size === 1) {
      chmodSync(path, 0o644);
      this.world.screen.line('[sim] SIM_BAD_PACKET: packet left 0644');
    }
    await this.world.report(`handoff ${path}`);
    return true;
  }

  /**
   * A review asked for changes (SPEC 10.6): work the fix steps (each time all of them: a fix is
   * written to be worked again), then report done again; the gate and a fresh review follow.
   */
  private async fix(): Promise<void> {
    const { world } = this;
    world.screen.line(`[sim] the review asks for changes: ${this.fixes.length === 0 ? 'no fix steps in the plan; reporting done again' : `${this.fixes.length} fix step(s)`}`);
    this.mode = 'working';
    world.screen.working();
    const host: StepHost = { world, steps: this.fixes, progress: { ...emptyProgress(), answers: this.progress.answers }, waitAnswer: (lane, ms) => this.waitAnswer(lane, ms) };
    for (let n = 1; n <= this.fixes.length; n += 1) {
      const outcome = await runStep(host, n);
      if (!outcome.ok) {
        await this.block(outcome.blocked);
        return;
      }
    }
    await world.capacity();
    await world.report('done');
    this.mode = 'idle';
    world.screen.idle();
  }

  private async fault(fault: StepFault, n: number): Promise<number> {
    const { world } = this;
    if (fault === 'crash') {
      world.screen.line(`[sim] SIM_CRASH_AT=${n}: crashing before step ${n}`);
      world.close();
      return 1;
    }
    world.screen.quiet();
    if (fault === 'permission') {
      world.logKey(this.keysLog, `# keys typed into ${world.ctx.lane} g${world.ctx.generation} at the permission screen (none is expected)`);
      for (const line of texts.permission(describeStep(this.steps[n - 1]!, n))) world.screen.line(line);
      this.mode = 'permission';
      return this.forever;
    }
    world.saveAccount({ ...world.readAccount(), remaining_pct: 0, updated_at: new Date().toISOString() });
    world.screen.line(texts.usageLimit);
    this.mode = 'limited';
    return this.forever;
  }

  private async block(what: string): Promise<number> {
    await this.world.capacity();
    await this.world.report(`blocked decision ${what.replace(/\s+/g, ' ').trim()}`);
    return this.rest('blocked');
  }

  private rest(mode: Mode): Promise<number> {
    this.mode = mode;
    this.world.screen.idle();
    return this.forever;
  }

  private spend(): void {
    const { world } = this;
    const next = spend(world.readAccount(), world.key, { quota: world.model.cost, context: world.model.context }, new Date().toISOString());
    world.saveAccount(next);
    this.spent += 1;
    const usage = simUsage(this.spent);
    reportUsage(world.ctx, { sessionId: `sim-${world.key}-${process.pid}`, costUsd: usage.costUsd, tokens: usage.tokens, turns: this.spent }, new Date());
    if (next.remaining_pct <= 25) world.screen.line(texts.nearLimit(100 - next.remaining_pct));
    const used = next.contexts[world.key] ?? 0;
    if (used >= 50) world.screen.line(texts.contextLow(100 - used));
  }

  waitAnswer(lane: string, ms: number): Promise<string | null> {
    const known = this.early.get(lane);
    if (known !== undefined) {
      this.early.delete(lane);
      return Promise.resolve(known);
    }
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        done(null);
      }, ms);
      this.waiting = { lane, done: (answer) => { clearTimeout(timer); this.waiting = null; done(answer); } };
      void this.checkMail();
    });
  }

  private onLine(line: string): void {
    if (this.mode === 'permission' || this.mode === 'limited') {
      this.world.logKey(this.keysLog, line);
      return;
    }
    this.world.screen.line(`> ${firstLine(line, 200)}`);
    void this.checkMail().then(() => {
      if (this.mode !== 'working') this.world.screen.idle();
    });
  }

  /** Read new messages, one reader at a time. */
  private checkMail(): Promise<void> {
    this.mail = this.mail.then(() => this.readMail()).catch((error: unknown) => {
      this.world.screen.line(`[sim] could not read the mailbox: ${(error as Error).message}`);
    });
    return this.mail;
  }

  private async readMail(): Promise<void> {
    if (this.mode === 'permission' || this.mode === 'limited') return;
    const messages = this.world.readMail();
    if (messages.length === 0) return;
    const resting = this.mode !== 'working';
    if (resting) this.world.screen.working();
    for (const message of messages) await this.handle(message);
    if (resting && this.mode !== 'working') this.world.screen.idle();
  }

  private async handle(message: MailMessage): Promise<void> {
    const { world } = this;
    const meaning = meaningOf(message);
    switch (meaning.kind) {
      case 'ask':
        if (this.mode === 'handed_off') return;
        world.screen.line(`[sim] ${message.from} asks: ${firstLine(meaning.question)}`);
        await world.notify(message.from, answerText(laneFiles(this.steps, world.cwd)));
        return;
      case 'answer':
        if (this.waiting?.lane === message.from) this.waiting.done(meaning.answer);
        else this.early.set(message.from, meaning.answer);
        return;
      case 'handoff_now':
      case 'handoff_soon': {
        const why = this.mode !== 'working' ? ' (not working now; ignored)' : message.at < this.startedAt ? ' (meant for an earlier generation; ignored)' : '';
        const mine = why === '';
        world.screen.line(`[sim] swarm says ${meaning.kind === 'handoff_now' ? 'hand off now' : 'hand off soon'}${why}${mine && this.faults.ignoreHandoff ? ' (SIM_IGNORE_HANDOFF: ignored)' : ''}`);
        if (mine && this.notice !== 'handoff_now') this.notice = meaning.kind;
        return;
      }
      case 'changes':
        if (this.mode === 'handed_off' || message.authority !== 'swarm') return;
        await this.fix();
        return;
      case 'rejected':
        if (!this.packets.has(meaning.packet)) return;
        world.screen.line(`[sim] packet rejected: ${firstLine(message.text.split('\n').slice(1).join(' '))}`);
        if (this.rewrites >= MAX_REWRITES) {
          await this.block(`packet rejected ${this.rewrites + 1} times: ${excerpt(message.text, 300)}`);
          return;
        }
        this.rewrites += 1;
        await this.writePacket();
        return;
      default:
        world.screen.line(`[sim] message from ${message.from}: ${firstLine(message.text)}`);
    }
  }
}
