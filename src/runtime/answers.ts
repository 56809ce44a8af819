/**
 * The developer's answers as the engine takes them (SPEC 10.3; adapters/answers.ts writes them): one
 * counts only while its writer — the `swarm answer` process — is alive, holds that very file open,
 * and runs outside every pane of this swarm (core/process/paneCaller.ts, on the writer's ancestry and
 * terminals). Anything else in the folder is refused: `fenced` journaled, the writer (if any) told.
 * A taken answer is moved aside before it is delivered: a kill between the two loses that one answer
 * rather than delivering it twice (its writer was already told it was taken).
 */
import { realpathSync } from 'node:fs';
import { paneCaller } from '../core/process/paneCaller.js';
import { recordedAgents } from '../adapters/agentRegistry.js';
import { holdsOpen, pendingAnswers, settleAnswer, type Answer } from '../adapters/answers.js';
import { callerFacts, tmuxServer } from '../adapters/callerProcess.js';
import type { Engine } from './engine.js';
import { tmuxSocket } from './hostFor.js';

export async function takeAnswers(engine: Engine, deliver: (answer: Answer) => void): Promise<void> {
  const pending = pendingAnswers(engine.config.plan);
  if (pending.length === 0) return;
  const server = engine.host.kind === 'tmux' ? await tmuxServer(tmuxSocket(engine.env), null) : null;
  const panes = [
    ...(server?.panes ?? []),
    ...recordedAgents(engine.config.plan).flatMap((agent) => (agent.pane ? [{ pid: agent.pane.pid, tty: null, ttyPath: `${agent.lane} g${agent.generation}` }] : [])),
  ];
  for (const { name, path, answer } of pending) {
    const refusal = answerRefusal(answer, path, { servers: server?.servers ?? [], engine: process.pid, panes });
    try {
      settleAnswer(engine.config.plan, name, refusal);
    } catch {
      continue; // its writer gave up and removed it that moment
    }
    if (refusal !== null) {
      engine.journal({ type: 'intervention', event: 'fenced', lane: answer?.to ?? null, command: 'answer', reason: refusal });
      continue;
    }
    deliver(answer!);
  }
}

function answerRefusal(answer: Answer | null, path: string, swarm: Parameters<typeof paneCaller>[1]): string | null {
  if (answer === null) return 'a file in the answers folder that is no answer swarm answer writes';
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    return 'the answer was gone before it was read';
  }
  if (!holdsOpen(answer.writer, real)) return `no live swarm answer process (pid ${answer.writer.pid}) holds this answer: it was not written by swarm answer, and counts for nobody`;
  const verdict = paneCaller(callerFacts(answer.writer.pid), swarm);
  return verdict.inside ? `the answer's writer runs in a pane of the swarm: ${verdict.why}` : null;
}
