#!/usr/bin/env node
/**
 * argv → command. With src/hot.ts (the agents' notify/capacity fast path, chosen by bin/swarm.cjs)
 * the only place that prints errors and sets the exit code. Commands are loaded lazily, so no command
 * loads YAML or React unless it needs them.
 */
import { didYouMean } from './core/config/suggest.js';
import { quietWhenReaderGoes } from './closedPipe.js';
import { describeError } from './errorReport.js';
import type { Command, CommandIO, Launcher } from './commands/io.js';
import { asksHelp, usageOf } from './usage.js';
import { VERSION } from './version.js';

type Loader = () => Promise<Command>;

const COMMANDS: Record<string, { load: Loader; summary: string }> = {
  init: { load: async () => (await import('./commands/init.js')).init, summary: 'a first swarm here: swarm.yaml, PLAN.md, a worktree per lane [--lanes N] [--yes]' },
  up: { load: async () => (await import('./commands/up.js')).up, summary: 'start or re-adopt the swarm [--headless | --detach] [--until-done]' },
  validate: { load: async () => (await import('./commands/validate.js')).validateCommand, summary: 'check swarm.yaml and the kinds it names' },
  doctor: { load: async () => (await import('./commands/doctor.js')).doctor, summary: 'can this swarm run through the night: tmux, CLIs, profiles, trust, approvals [--json]' },
  notify: { load: async () => (await import('./commands/notify.js')).notify, summary: 'send a message: swarm notify <lane|lead|all> <text>' },
  capacity: { load: async () => (await import('./commands/capacity.js')).capacity, summary: 'headroom and decision: swarm capacity --self --json' },
  statusline: { load: async () => (await import('./commands/statusline.js')).statusline, summary: "(agents) Claude Code's status line: JSON on stdin [--then '<cmd>']" },
  hook: { load: async () => (await import('./commands/hook.js')).hook, summary: "(agents) a hook: swarm hook <Event> (JSON on stdin) | codex-notify '<json>'" },
  packet: { load: async () => (await import('./commands/packetWrite.js')).packetWrite, summary: 'write a handoff packet: swarm packet write …' },
  accept: { load: async () => (await import('./commands/accept.js')).accept, summary: 'accept a handoff packet: swarm accept <packet>' },
  lead: { load: async () => (await import('./commands/lead.js')).lead, summary: 'the lead record: claim | handover | takeover | release | show' },
  journal: { load: async () => (await import('./commands/journal.js')).journal, summary: 'the record: swarm journal [file] [--follow]' },
  status: { load: async () => (await import('./commands/status.js')).status, summary: 'the lanes now: swarm status [file] [--json]' },
  report: { load: async () => (await import('./commands/report.js')).report, summary: 'the completion report: every handoff and succession' },
  down: { load: async () => (await import('./commands/down.js')).down, summary: 'stop every pane, release leases and the lead record' },
  answer: { load: async () => (await import('./commands/answer.js')).answer, summary: 'answer an escalation: swarm answer <lane> <text>' },
  logs: { load: async () => (await import('./commands/logs.js')).logs, summary: "a lane's scrollback: swarm logs <lane> [--generation N] [--follow]" },
  lane: { load: async () => (await import('./commands/laneAdd.js')).laneAdd, summary: 'the lead adds a lane: swarm lane add <name> --task T' },
  attach: { load: async () => (await import('./commands/attach.js')).attach, summary: "attach this terminal to the swarm's tmux session" },
  drill: { load: async () => (await import('./commands/drill.js')).drill, summary: 'the rehearsal: lead and lanes hand off in a temporary repo [--keep]' },
  'git-guard': { load: async () => (await import('./commands/gitGuard.js')).gitGuard, summary: "(internal) swarm's git hooks in panes: pushes, tags and base updates by the current lead only" },
  sim: { load: async () => (await import('./commands/sim.js')).sim, summary: '(internal) the simulated agent of the sim kind, run in a pane' },
  'host-relay': { load: async () => (await import('./commands/hostRelay.js')).hostRelay, summary: "(internal) a lane host's end of the plan folder's relay, run by the engine over ssh" },
};

/** Commands of the SPEC this build does not have yet: named in the help, and told apart from a typo. */
const LATER: string[] = [];

function help(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    'swarm — keep a lead and lane coding agents moving overnight',
    '',
    'usage: swarm <command> [args]',
    '',
    ...rows,
    '',
    ...(LATER.length > 0 ? [`not in this build yet: ${LATER.join(', ')}`] : []),
    'exit codes: 0 ok, 1 plan stopped short, 2 bad input, 3 packet/record mismatch, 4 missing dependency, 5 plan files not writable',
    '',
  ].join('\n');
}

/**
 * What bin/swarm.cjs's shell half passes `up` and `attach`, taken out of the environment so that nothing
 * this process starts (window 0, a tmux server, agents) inherits it.
 */
function takeLauncher(env: NodeJS.ProcessEnv): Launcher | null {
  const { SWARM_ATTACH_HANDOFF: handoff, SWARM_ATTACHED: attached } = env;
  delete env.SWARM_ATTACH_HANDOFF;
  delete env.SWARM_ATTACHED;
  if (attached !== undefined && /^\d+$/.test(attached)) return { attached: Number(attached) };
  return handoff ? { handoff } : null;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const launcher = takeLauncher(process.env);
  const io: CommandIO = {
    args,
    cwd: process.cwd(),
    env: process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: async () => (await import('./adapters/stdin.js')).readStdin(),
    ...(launcher === null ? {} : { launcher }),
  };
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(help());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`swarm ${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    const later = LATER.includes(name);
    io.stderr(
      later
        ? `swarm: "${name}" is part of the SPEC but not in this build yet\n`
        : `swarm: unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}\n  run \`swarm help\` for the list\n`,
    );
    return 2;
  }
  const usage = usageOf(name);
  if (usage !== null && asksHelp(name, args)) {
    io.stdout(usage);
    return 0;
  }
  return (await command.load())(io);
}

function report(error: unknown): number {
  const { text, code } = describeError(error, { color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR });
  process.stderr.write(text);
  return code;
}

// A closed pipe (`swarm journal | head -1`) is no error: every command that prints ends there, with 0.
quietWhenReaderGoes(() => process.exit(0));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exit(report(error));
  },
);
