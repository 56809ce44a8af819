import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingAnswers, settleAnswer } from '../../src/adapters/answers.js';

let plan: string;
beforeEach(() => {
  plan = mkdtempSync(join(tmpdir(), 'swarm-answers-'));
});
afterEach(() => {
  rmSync(plan, { recursive: true, force: true });
});

const OFFERS = 60;

describe('offerAnswer', () => {
  // The engine is woken by an answer's creation and reads it at once: the file it can see must be
  // whole from its first moment, or a developer's answer is refused as "no answer" (CI, stop 35).
  it('an answer is never seen half-written, however fast the engine looks', async () => {
    const module = pathToFileURL(resolve('dist/adapters/answers.js')).href;
    const done = join(plan, 'done');
    const script = `
      import { writeFileSync } from 'node:fs';
      const { offerAnswer } = await import(${JSON.stringify(module)});
      for (let i = 0; i < ${OFFERS}; i++) {
        const got = await offerAnswer(${JSON.stringify(plan)}, { ts: new Date().toISOString(), to: 'lane-a', text: 'answer ' + i, run: 1 }, 10_000);
        if (got.taken !== true) { console.error(JSON.stringify(got)); process.exit(1); }
      }
      writeFileSync(${JSON.stringify(done)}, '');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise<number | null>((ok) => child.on('exit', ok));
    let seen = 0;
    const incomplete: string[] = [];
    const until = Date.now() + 60_000;
    // As the engine does, but without pause: every listing read at once, every entry judged.
    while (!existsSync(done) && Date.now() < until && child.exitCode === null) {
      for (const { name, answer } of pendingAnswers(plan)) {
        if (answer === null) incomplete.push(name);
        try {
          settleAnswer(plan, name, answer === null ? 'no answer' : null);
          seen++;
        } catch {
          // its writer gave up on it
        }
      }
      await new Promise((ok) => setImmediate(ok));
    }
    expect(await exited).toBe(0);
    expect(incomplete).toEqual([]);
    expect(seen).toBe(OFFERS);
  }, 90_000);
});
