/**
 * Every command's `--help` text (SPEC 8), in one light module: src/cli.ts and the agents' fast
 * path (src/hot.ts) both answer `swarm <command> --help` or `-h` from here before they load the
 * command, so help never needs a swarm.yaml, a plan or tmux. Pure; no imports.
 *
 * `--help` / `-h` count anywhere before `--`, except in free text: `swarm notify lead -h` and
 * `swarm answer lane-a -h` send "-h"; only `swarm notify --help` asks for help there.
 */
const USAGES: Record<string, readonly string[]> = {
  init: ['usage: swarm init [--lanes N] [--yes]', 'a first swarm in this git repository: swarm.yaml (one account per signed-in profile), plans/<repo>/PLAN.md, .gitignore lines, a git worktree per lane; never overwrites', '  --lanes N      how many lanes (default 2)', '  --yes          write without asking (for scripts)'],
  up: ['usage: swarm up [file] [--headless | --detach] [--until-done] [--timeout D] [--force]', 'start or re-adopt the swarm of file (default swarm.yaml): lead and lanes in tmux, the dashboard on a terminal', '  --headless     no dashboard: one line per event here', '  --detach, -d   start the engine and the dashboard in the swarm\'s tmux session and return (watch: swarm attach)', '  --until-done   exit when every lane is done or stopped (0 done, 1 stopped short)', '  --timeout D    stop after D (e.g. 90s, 20m)', '  --force        start a new run although doctor\'s preflight finds a problem'],
  validate: ['usage: swarm validate [file]', 'check swarm.yaml (default) and the kind files it names; exit 2 with file:line:col for each problem'],
  doctor: ['usage: swarm doctor [file] [--json]', 'can this swarm run through the night: tmux, CLIs, profiles, trust, approvals'],
  notify: ['usage: swarm notify <lane|lead|all> <text> [--epoch N]', 'send a message to a lane, the lead or (the lead only) every lane'],
  capacity: ['usage: swarm capacity --self [--json]', "this agent's account headroom and the decision (continue, wrap up, hand off)"],
  statusline: ["usage: swarm statusline [--then '<cmd>']", "(agents) Claude Code's status line: its JSON on stdin; --then runs your own status line after"],
  hook: ["usage: swarm hook <Event>   (the hook's JSON on stdin)", "       swarm hook codex-notify '<json>'", "(agents) a Claude Code hook or Codex's notify program"],
  packet: ['usage: swarm packet write --reason R --doing TEXT --next STEP [--next STEP…] [--done X…] [--deadend X…] [--decision X…] [--verified WHAT=EVIDENCE…] [--unverified WHAT=GATE…] [--ask X…] [--task T] [--step S]', "(agents) write this lane's handoff packet"],
  accept: ['usage: swarm accept <packet>   (default: $SWARM_PACKET)', '(agents) the successor accepts its handoff packet'],
  lead: ['usage: swarm lead handover <successor> --packet <path>', '       swarm lead takeover [--epoch N]', '       swarm lead release', '       swarm lead show', 'the lead record: who leads, at which epoch'],
  journal: ['usage: swarm journal [file] [--follow] [--json]', "the swarm's record, one line per event"],
  status: ['usage: swarm status [file] [--json]', 'the lanes now: state, generation, account, headroom'],
  report: ['usage: swarm report [file] [--run N|all] [--json] [--html [--out FILE]]', 'the completion report of a run (the last unless --run): every handoff and succession'],
  down: ['usage: swarm down [file]', 'stop every pane, release leases and the lead record'],
  answer: ['usage: swarm answer <lane> <text> [--file swarm.yaml]', "answer a lane's escalation (from your terminal, not from a pane)"],
  logs: ['usage: swarm logs <lane> [--generation N] [--follow] [file]', "a lane's scrollback; --follow (-f): its lines as they come, every generation"],
  lane: ['usage: swarm lane add <name> --task T [--checkout D] [--kind K] [--command C] [--epoch N]', '(the lead) add a lane to the running swarm'],
  attach: ['usage: swarm attach [file]', "attach this terminal to the swarm's tmux session"],
  drill: ['usage: swarm drill [--keep]', 'the rehearsal: a lead and lanes hand off in a temporary repository; --keep leaves it'],
  'git-guard': ['usage: swarm git-guard pre-push|reference-transaction <plan> [hook args]   (the hook\'s lines on stdin)', "(internal) what swarm's git hooks in .swarm/git-hooks/ run for a push, a tag or an update of base: in a pane"],
  'host-relay': ['usage: swarm host-relay <plan>   (frames on stdin and stdout)', "(internal) a lane host's end of the relay that carries the plan folder's files to and from the engine (SPEC 10.9); the engine runs it over ssh"],
  sim: ['usage: swarm sim', '(internal) the simulated agent of the sim kind, run in a pane; SWARM_ROLE chooses lane or lead'],
};

const FREE_TEXT = new Set(['notify', 'answer']);

/** The command's usage text (ending in a newline), or null when it has none. */
export function usageOf(name: string): string | null {
  const lines = USAGES[name];
  return lines ? `${lines.join('\n')}\n` : null;
}

/** Whether `swarm <name> <args>` asks for help rather than to run. */
export function asksHelp(name: string, args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  const looked = FREE_TEXT.has(name) ? own.slice(0, 1) : own;
  return looked.some((a) => a === '--help' || a === '-h');
}
