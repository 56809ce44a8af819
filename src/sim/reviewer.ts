/**
 * The simulated reviewer (SPEC 10.6): started by swarm as `<lane>.review` in the lane's checkout, it
 * runs the checks PLAN.md's sim block lists for that lane (`<lane>.review`: `check: command` with the
 * changes to ask for when it fails), then says its verdict once — `changes <the first failing check's
 * text>`, or `approved` when every check passes (none listed: approved) — and rests; swarm closes its
 * pane. It reads and runs checks only: it writes nothing in the checkout.
 */
import { planPaths } from '../core/plan/paths.js';
import { readTextIfExists } from '../adapters/files.js';
import { reviewedLane } from '../machine/review.js';
import { texts } from './screen.js';
import { parseSteps } from './steps.js';
import type { World } from './world.js';

export async function runReviewer(world: World): Promise<number> {
  const { ctx } = world;
  world.screen.line(texts.banner(ctx.lane, ctx.generation, ctx.account, 'reviewer'));
  world.screen.working();
  const lane = reviewedLane(ctx.lane) ?? ctx.lane;
  const plan = parseSteps(readTextIfExists(planPaths(ctx.plan).planFile) ?? '');
  const checks = (plan.ok ? plan.lanes[`${lane}.review`] ?? [] : []).filter((s) => s.kind === 'check' || s.kind === 'gate');
  let verdict = 'approved';
  for (const check of checks) {
    await world.sleep(world.model.stepMs);
    const command = 'arg' in check ? check.arg : '';
    const result = await world.sh(command);
    world.screen.line(`[sim] check ${result.code === 0 ? 'passed' : `failed (exit ${result.code})`}: ${command}`);
    if (result.code !== 0) {
      verdict = `changes ${check.kind === 'check' && check.text !== '' ? check.text : `\`${command}\` fails in ${lane}'s checkout`}`;
      break;
    }
  }
  world.screen.line(`[sim] verdict on ${lane}: ${verdict.split('\n')[0]}`);
  await world.notify('lead', verdict);
  world.screen.idle();
  return new Promise<number>(() => undefined);
}
