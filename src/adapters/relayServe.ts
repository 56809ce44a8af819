/**
 * The host's side of the relay (`swarm host-relay <P>`, SPEC 10.9): frames of core/host/relay.ts in
 * on `input`, out on `output`, until the input ends. The engine's hello first: answered with this
 * host's facts, and whether P here is the engine's own folder (`shared`: P/.swarm/host-token holds
 * the token the engine wrote there, as when the "host" is this machine over ssh; then nothing is
 * followed or written). Then the engine's haves (what its copy holds), `go`, and from then on the
 * followed files go out (adapters/relayFollow.ts) while pushed files are written, processes and
 * checkouts' git states looked up and resends honoured as they come. A line that is no frame ends the relay: the engine connects
 * again and loses nothing, since it tells what it holds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameReader, MAX_LINE, parseToHost, RELAY_PROTOCOL, type RelayFacts, type ToEngine, type ToHost } from '../core/host/relay.js';
import { assemble, followed, pushable, type Assembly } from '../core/host/relayPaths.js';
import { shQuote } from '../core/host/ssh.js';
import { gitState } from './git.js';
import { readStat } from './procStatFile.js';
import { PlanTree } from './planTree.js';
import { followPlan, type Follower } from './relayFollow.js';
import { runTmuxHere } from './tmux/runner.js';

interface ServeOptions {
  /** P: absolute, the same path as the engine's plan folder. */
  plan: string;
  input: Readable;
  output: Writable;
  facts: Omit<RelayFacts, 'protocol' | 'shared'>;
}

/** Serve until the input ends (0), or the engine sent what is no frame (2) or another protocol's hello (1). */
export function serveRelay(options: ServeOptions): Promise<number> {
  const { plan, input, output } = options;
  mkdirSync(join(plan, '.swarm'), { recursive: true });
  const tree = new PlanTree(plan);
  const reader = new FrameReader(parseToHost);
  const sizes = new Map<string, number>();
  const digests = new Map<string, string>();
  const writes = new Map<number, Assembly>();
  let phase: 'hello' | 'have' | 'on' = 'hello';
  let host = '';
  let shared = false;
  let follower: Follower | null = null;
  let outputGone = false;

  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (code: number): void => {
      if (done) return;
      done = true;
      follower?.close();
      input.destroy();
      resolve(code);
    };
    const send = (frame: ToEngine): Promise<void> => new Promise((sent) => {
      if (outputGone || output.write(encodeFrame(frame))) return sent();
      const go = (): void => {
        output.off('drain', go);
        output.off('close', go);
        sent();
      };
      output.on('drain', go);
      output.on('close', go);
    });
    output.on('error', () => {
      outputGone = true; // the engine is gone: nobody to tell anything
      finish(0);
    });
    const refuse = (message: string): void => {
      void send({ t: 'problem', message }).then(() => finish(2));
    };

    const hello = (frame: Extract<ToHost, { t: 'hello' }>): void => {
      host = frame.host;
      const token = tree.readWhole('.swarm/host-token', 4096)?.data.toString('utf8').trim() ?? '';
      shared = token !== '' && token === frame.token;
      const facts: RelayFacts = { ...options.facts, protocol: RELAY_PROTOCOL, shared };
      if (frame.v !== RELAY_PROTOCOL) {
        void send({ t: 'hello', facts }).then(() => finish(1));
        return;
      }
      // This host's own swarm for its agents (the engine's machine has its own: runtime/agents.ts ensureSwarmBin).
      if (!shared) writeBin(tree, options.facts.node, options.facts.bin);
      phase = 'have';
      void send({ t: 'hello', facts });
    };

    const write = (frame: Extract<ToHost, { t: 'write' }>): void => {
      const step = assemble(writes.get(frame.id), frame);
      if (step.pending === null) writes.delete(frame.id);
      else writes.set(frame.id, step.pending);
      if (step.problem !== null) {
        void send({ t: 'wrote', id: frame.id, error: step.problem });
        return;
      }
      if (step.done === null) return;
      if (!pushable(frame.path)) {
        void send({ t: 'wrote', id: frame.id, error: `${JSON.stringify(frame.path)} is not a file the engine writes here` });
        return;
      }
      let error: string | null = null;
      try {
        if (!shared) tree.write(frame.path, step.done, frame.mode);
        follower?.wrote(frame.path, step.done, frame.mode);
      } catch (e) {
        error = `${frame.path}: ${e instanceof Error ? e.message : String(e)}`;
      }
      void send({ t: 'wrote', id: frame.id, error });
    };

    const handle = (frame: ToHost): void => {
      if (phase === 'hello' && frame.t !== 'hello') return refuse(`a ${frame.t} before the hello`);
      switch (frame.t) {
        case 'hello':
          return phase === 'hello' ? hello(frame) : refuse('a second hello');
        case 'have':
          if (phase !== 'have') return refuse('a have after go');
          for (const [path, size] of Object.entries(frame.sizes)) if (followed(path, host) === 'append') sizes.set(path, size);
          for (const [path, digest] of Object.entries(frame.digests)) if (followed(path, host) === 'whole') digests.set(path, digest);
          return;
        case 'go':
          if (phase !== 'have') return refuse('a second go');
          phase = 'on';
          if (!shared) follower = followPlan({ tree, host, sizes, digests, send });
          return;
        case 'write':
          return write(frame);
        case 'stat': {
          const stat = readStat(frame.pid);
          void send({ t: 'proc', id: frame.id, proc: stat === null ? null : { pid: stat.pid, startTicks: stat.startTicks } });
          return;
        }
        case 'git':
          void send(gitAnswer(frame.id, frame.checkout, plan));
          return;
        case 'tmux':
          runTmuxHere(frame.args).then((ran) => send({ t: 'ran', id: frame.id, ...ran }));
          return;
        case 'resend':
          follower?.resend(frame.path, frame.from);
          return;
      }
    };

    input.on('data', (chunk: Buffer) => {
      for (const item of reader.push(chunk)) {
        if (done) return;
        if ('bad' in item) return refuse(`the relay was sent ${item.bad}`);
        handle(item.frame);
      }
    });
    input.on('end', () => finish(0));
    input.on('error', () => finish(0));
  });
}

/** The checkout's git state read here (git runs in the relay, briefly holding its other frames), or why not. */
function gitAnswer(id: number, checkout: string, plan: string): ToEngine {
  let answer: ToEngine;
  try {
    answer = { t: 'git', id, state: gitState(checkout, plan), error: null };
  } catch (e) {
    return { t: 'git', id, state: null, error: e instanceof Error ? e.message : String(e) };
  }
  // A checkout with more uncommitted paths than a frame holds is told so, not sent in a line the engine would refuse.
  if (encodeFrame(answer).length <= MAX_LINE) return answer;
  return { t: 'git', id, state: null, error: `${checkout} has ${answer.state?.uncommitted.length} uncommitted paths, more than a relay frame holds` };
}

function writeBin(tree: PlanTree, node: string, bin: string): void {
  const script = Buffer.from(`#!/bin/sh\nexec ${shQuote(node)} ${shQuote(bin)} "$@"\n`);
  const path = '.swarm/bin/swarm';
  // Written only when it differs: a pane starting the script while it is replaced would still read a whole one (a rename).
  if (tree.readWhole(path, 4096)?.data.equals(script) !== true) tree.write(path, script, 0o755);
}
