/**
 * The bad inputs of issue 12 §3, one row each: what is wrong, the command a user (or an agent in a
 * pane) runs, the exit code and the first line of what they see. tests/e2e/badInputs.test.ts runs
 * each through the built bin on its own swarm (a private tmux socket) and checks that nothing was
 * started or recorded; docs/bad-inputs.md is written from this table (UPDATE_BAD_INPUTS_DOC=1).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSwarm } from '../helpers/swarmUp.js';

export interface BadInput {
  id: string;
  area: 'swarm.yaml' | 'panes/*.yaml' | 'PLAN.md' | 'packet' | 'report' | 'CLI' | 'environment';
  what: string;
  /** Change the swarm's files before the command. */
  setup?: (s: TestSwarm) => void;
  /** The arguments after `swarm`; `$FILE` is the swarm.yaml, `$PLAN` the plan folder, `$ROOT` the test's folder. */
  args: string[];
  /** Environment on top of the swarm's; `pane: true` adds a lane-a agent's SWARM_* variables. */
  env?: Record<string, string>;
  pane?: boolean;
  code: number;
  /** The first line of stderr, `$ROOT` for the test's folder. */
  first: string;
  /** Records the refusal itself writes (a fenced lead command is journaled), beside nothing else. */
  records?: string[];
}

const edit = (s: TestSwarm, from: RegExp | string, to: string): void => writeFileSync(s.file, readFileSync(s.file, 'utf8').replace(from, to));
const kindFile = (s: TestSwarm, text: string): void => {
  mkdirSync(join(s.root, 'repo', 'panes'), { recursive: true });
  writeFileSync(join(s.root, 'repo', 'panes', 'mine.yaml'), text);
  edit(s, /kind: command, vendor: anthropic \}/, 'kind: mine, vendor: anthropic }');
};
const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]', 'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]'].join('\n');
const up = ['up', '$FILE', '--headless', '--timeout', '8s'];
const planMd = (s: TestSwarm, text: string): void => writeFileSync(join(s.plan, 'PLAN.md'), text);
const packetAt = (s: TestSwarm, rel: string, text = '{"schema":"swarm.packet/1"}'): string => {
  const path = join(s.plan, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

export const BAD_INPUTS: BadInput[] = [
  // swarm.yaml
  { id: 'yaml-missing', area: 'swarm.yaml', what: 'no swarm.yaml at the path given', setup: (s) => rmSync(s.file), args: up, code: 2, first: 'swarm.yaml not found: $ROOT/repo/swarm.yaml — pass a file, or run in a folder that has one' },
  { id: 'yaml-empty', area: 'swarm.yaml', what: 'an empty swarm.yaml', setup: (s) => writeFileSync(s.file, ''), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:1:1: the file is empty: a swarm.yaml needs version: 1, name, plan, accounts, lead and lanes' },
  { id: 'yaml-syntax', area: 'swarm.yaml', what: 'a YAML syntax error (unclosed flow sequence)', setup: (s) => edit(s, 'name: e2e', 'name: [e2e'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:3:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]' },
  { id: 'yaml-duplicate-key', area: 'swarm.yaml', what: 'a key twice in one mapping', setup: (s) => edit(s, 'name: e2e', 'name: e2e\nname: again'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:3:1: duplicate key "name": a key may appear once in a mapping; keep one' },
  { id: 'yaml-two-documents', area: 'swarm.yaml', what: 'a second YAML document after `---`', setup: (s) => writeFileSync(s.file, `${readFileSync(s.file, 'utf8')}---\nname: other\n`), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:22:1: a second YAML document starts here: a swarm.yaml is one document; remove this "---" and what follows, or merge it into the first' },
  { id: 'yaml-alias-bomb', area: 'swarm.yaml', what: 'a billion-laughs alias bomb', setup: (s) => writeFileSync(s.file, `${readFileSync(s.file, 'utf8')}x-bomb:\n${bomb.replace(/^/gm, '  ')}\n`), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:24:10: too many YAML alias expansions (over 100: aliases of aliases multiply, a "billion laughs"): write the values out, or use fewer aliases' },
  { id: 'yaml-version', area: 'swarm.yaml', what: 'version: 2', setup: (s) => edit(s, 'version: 1', 'version: 2'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:1:10: "version" must be 1 (the only version swarm reads), got 2' },
  { id: 'yaml-unknown-key', area: 'swarm.yaml', what: 'an unknown top-level key (a typo)', setup: (s) => edit(s, 'name: e2e', 'name: e2e\nlanez: []'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:3:1: unknown key "lanez"; did you mean "lanes"?' },
  { id: 'yaml-not-mapping', area: 'swarm.yaml', what: 'a list at the top instead of a mapping', setup: (s) => writeFileSync(s.file, '- a\n- b\n'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:1:1: the file must be a mapping of keys, got a list' },
  { id: 'yaml-duplicate-lane', area: 'swarm.yaml', what: 'two lanes of one name', setup: (s) => edit(s, /(lanes:\n)/, '$1  - { name: lane-a, checkout: ../wt-lane-a, task: t, command: "true" }\n'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:15:11: duplicate lane name "lane-a" (first at line 14): lane names must be unique' },
  { id: 'yaml-unknown-account', area: 'swarm.yaml', what: 'a lane on an account that is not declared', setup: (s) => edit(s, '    account: a2\n', '    account: nobody\n'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:17:14: unknown account "nobody" for lane "lane-a": the accounts are a1, a2' },
  { id: 'yaml-lead-account', area: 'swarm.yaml', what: 'the lead on an account that is not declared', setup: (s) => edit(s, '  account: a1\n', '  account: nobody\n'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:10:12: unknown account "nobody" for the lead: the accounts are a1, a2' },
  { id: 'yaml-lane-name', area: 'swarm.yaml', what: 'a lane name with shell and tmux metacharacters', setup: (s) => edit(s, 'name: lane-a', 'name: "a;$(touch x)#{pane_id}"'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:14:11: "lanes[0].name" must be a name of letters, digits, ".", "_" and "-" that starts with a letter or digit, got "a;$(touch x)#{pane_id}"' },
  { id: 'yaml-name-dot', area: 'swarm.yaml', what: 'a swarm name with a "." (tmux would name its session swarm-my_proj)', setup: (s) => edit(s, 'name: e2e', 'name: my.proj'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:2:7: "name" must be a name of letters, digits, "_" and "-" (no "." or ":": tmux changes those in session names), got "my.proj"' },
  { id: 'yaml-lane-name-long', area: 'swarm.yaml', what: 'a lane name of 240 characters (over the 64 a file name in .swarm/ can carry)', setup: (s) => edit(s, 'name: lane-a', `name: ${'l'.repeat(240)}`), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:14:11: "lanes[0].name" is 240 characters: a name may have at most 64 (it names files and tmux panes); shorten it' },
  { id: 'yaml-lead-name-long', area: 'swarm.yaml', what: "a lead name of 63 characters (its successor's `<lead>-b` would be 65)", setup: (s) => edit(s, '  name: lead', `  name: ${'d'.repeat(63)}`), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:9:9: "lead.name" is 63 characters: the lead\'s name may have at most 62 (its successor is "<name>-b"); shorten it' },
  { id: 'yaml-checkout-symlink', area: 'swarm.yaml', what: "a second lane on the first lane's checkout, through a symlink", setup: (s) => { symlinkSync(join(s.root, 'wt-lane-a'), join(s.root, 'link-a')); edit(s, /\ntimeouts:/, '\n  - { name: lane-b, checkout: ../link-a, task: t, command: "true" }\ntimeouts:'); }, args: up, code: 2, first: '$ROOT/repo/swarm.yaml:19:31: lanes "lane-a" and "lane-b" share the checkout $ROOT/wt-lane-a ($ROOT/link-a leads there): give each lane its own (use git worktrees)' },
  { id: 'yaml-no-plan', area: 'swarm.yaml', what: 'plan: names a folder that does not exist', setup: (s) => edit(s, 'plan: plans/p', 'plan: plans/nowhere'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:3:7: plan directory "plans/nowhere" not found (looked for $ROOT/repo/plans/nowhere): create it with a PLAN.md, or fix "plan"' },
  { id: 'yaml-checkout-missing', area: 'swarm.yaml', what: "a lane's checkout folder does not exist", setup: (s) => edit(s, '../wt-lane-a', '../wt-gone'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:15:15: checkout "../wt-gone" of lane "lane-a" is not a directory (looked for $ROOT/wt-gone): create it (e.g. git worktree add) or fix "checkout"' },
  { id: 'yaml-timeout-duration', area: 'swarm.yaml', what: 'a timeout that is no duration', setup: (s) => edit(s, 'accept: 20s', 'accept: soon'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:19:21: "timeouts.accept": bad duration "soon": use <n>ms, <n>s, <n>m or <n>h (a bare number is seconds)' },
  { id: 'yaml-threshold-range', area: 'swarm.yaml', what: 'a capacity threshold over 100', setup: (s) => writeFileSync(s.file, `${readFileSync(s.file, 'utf8')}thresholds: { capacity_low: 150 }\n`), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:22:29: "thresholds.capacity_low" must be a percentage from 0 to 100, got 150' },
  { id: 'yaml-backend', area: 'swarm.yaml', what: 'an unknown backend', setup: (s) => edit(s, 'backend: tmux', 'backend: screen'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:4:10: "backend" must be one of auto, tmux, pty, got "screen"' },
  { id: 'yaml-is-directory', area: 'swarm.yaml', what: 'swarm.yaml is a folder', setup: (s) => { rmSync(s.file); mkdirSync(s.file); }, args: up, code: 2, first: 'swarm: no swarm.yaml in the folder $ROOT/repo/swarm.yaml (looked for $ROOT/repo/swarm.yaml/swarm.yaml) — pass the file itself, or a folder that has one' },
  { id: 'yaml-lane-no-task', area: 'swarm.yaml', what: 'a lane without a task', setup: (s) => edit(s, /\s+task: "e2e task of lane-a"/, ''), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:14:5: missing "task" in lanes[0]: say what the lane does, e.g. task: "Steps 1-3 of PLAN.md"' },
  { id: 'yaml-pass-env-secret', area: 'swarm.yaml', what: 'an account env value that looks like a credential', setup: (s) => edit(s, 'kind: command, vendor: anthropic }', 'kind: command, vendor: anthropic, env: { ANTHROPIC_API_KEY: "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } }'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:6:56: "accounts[0].env.ANTHROPIC_API_KEY" is named like a credential (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*): an account\'s env holds only its profile location (e.g. CLAUDE_CONFIG_DIR: ~/.claude-work1); keep credentials in that profile, and remove this entry' },
  // panes/*.yaml
  { id: 'kind-bad-regex', area: 'panes/*.yaml', what: 'a screen pattern that is no regular expression', setup: (s) => kindFile(s, 'kind: mine\nscreens:\n  login: ["not (logged"]\n'), args: up, code: 2, first: 'panes/mine.yaml:3:11: "screens.login[0]" is not a valid regular expression (Unterminated group): quote it in \'…\' and escape ( ) [ ] ? . with \\' },
  { id: 'kind-backreference', area: 'panes/*.yaml', what: 'a pattern with a backreference (no linear-time match)', setup: (s) => kindFile(s, 'kind: mine\nscreens:\n  login: ["(a)\\\\1"]\n'), args: up, code: 2, first: 'panes/mine.yaml:3:11: "screens.login[0]" is refused: it uses a backreference (\\1, \\k<name>), which swarm cannot match in linear time: write the repeated text out' },
  { id: 'kind-lookahead', area: 'panes/*.yaml', what: 'a pattern with a lookahead', setup: (s) => kindFile(s, 'kind: mine\nscreens:\n  login: ["(?=sign)sign in"]\n'), args: up, code: 2, first: 'panes/mine.yaml:3:11: "screens.login[0]" is refused: it uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which swarm cannot match in linear time: list the texts it should match instead, e.g. \'limit (session|weekly)\'' },
  { id: 'kind-nested-count', area: 'panes/*.yaml', what: 'a count over 16 on a group: (ab){1,40}', setup: (s) => kindFile(s, 'kind: mine\nscreens:\n  login: ["(ab){1,40}"]\n'), args: up, code: 2, first: 'panes/mine.yaml:3:11: "screens.login[0]" is refused: it cannot be matched in linear time (a count over 16 on a group, or a count inside a counted group): put the count on one character or class, e.g. [a-z ]{0,40}' },
  { id: 'kind-alias-bomb', area: 'panes/*.yaml', what: 'a billion-laughs alias bomb in a kind file', setup: (s) => kindFile(s, `kind: mine\nx-bomb:\n${bomb.replace(/^/gm, '  ')}\n`), args: up, code: 2, first: 'panes/mine.yaml:4:10: too many YAML alias expansions (over 100: aliases of aliases multiply, a "billion laughs"): write the values out, or use fewer aliases' },
  { id: 'kind-unknown-key', area: 'panes/*.yaml', what: 'an unknown key in a kind file', setup: (s) => kindFile(s, 'kind: mine\nscreenz: {}\n'), args: up, code: 2, first: 'panes/mine.yaml:2:1: unknown key "screenz"; did you mean "screens"?' },
  { id: 'kind-name-mismatch', area: 'panes/*.yaml', what: "the kind: inside differs from the file's name", setup: (s) => kindFile(s, 'kind: yours\n'), args: up, code: 2, first: 'panes/mine.yaml:1:7: "kind" is "yours" but the file is mine.yaml: make them the same' },
  { id: 'kind-unknown', area: 'panes/*.yaml', what: 'an account of a kind with no kind file', setup: (s) => edit(s, /kind: command, vendor: anthropic \}/, 'kind: nosuch, vendor: anthropic }'), args: up, code: 2, first: '$ROOT/repo/swarm.yaml:6:21: unknown kind "nosuch": no panes/nosuch.yaml beside swarm.yaml, and the shipped kinds are claude, codex, gemini, sim, command' },
  // PLAN.md
  { id: 'plan-missing', area: 'PLAN.md', what: 'the plan folder has no PLAN.md', setup: (s) => rmSync(join(s.plan, 'PLAN.md')), args: up, code: 2, first: 'swarm: no PLAN.md in the plan folder $ROOT/repo/plans/p' },
  { id: 'plan-unterminated', area: 'PLAN.md', what: 'front matter never closed with ---', setup: (s) => planMd(s, '---\ncontract: c-1\n# Plan\n'), args: up, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md:1: the front matter opened by "---" is never closed: end it with a line "---" (or remove the first line if the plan has none)' },
  { id: 'plan-unterminated-crlf-bom', area: 'PLAN.md', what: 'the same, written with a BOM and CRLF line ends', setup: (s) => planMd(s, '\uFEFF---\r\ncontract: c-1\r\n# Plan\r\n'), args: up, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md:1: the front matter opened by "---" is never closed: end it with a line "---" (or remove the first line if the plan has none)' },
  { id: 'plan-fifo', area: 'PLAN.md', what: 'PLAN.md is a FIFO (reading it would wait forever)', setup: (s) => { rmSync(join(s.plan, 'PLAN.md')); execFileSync('mkfifo', [join(s.plan, 'PLAN.md')]); }, args: up, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md is not a regular file (a FIFO): PLAN.md must be a plain file' },
  { id: 'plan-directory', area: 'PLAN.md', what: 'PLAN.md is a folder', setup: (s) => { rmSync(join(s.plan, 'PLAN.md')); mkdirSync(join(s.plan, 'PLAN.md')); }, args: up, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md is not a regular file (a directory): PLAN.md must be a plain file' },
  { id: 'plan-huge', area: 'PLAN.md', what: 'a PLAN.md over 1 MiB', setup: (s) => planMd(s, `# Plan\n${'x'.repeat(2 * 1024 * 1024)}\n`), args: up, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md is 2097160 bytes, over the 1048576 (1 MiB) PLAN.md may have: is it the right file?' },
  { id: 'plan-fifo-accept', area: 'PLAN.md', what: 'swarm accept while PLAN.md is a FIFO', setup: (s) => { packetAt(s, 'analysis_results/handoff/p.json'); mkdirSync(join(s.plan, '.swarm')); rmSync(join(s.plan, 'PLAN.md')); execFileSync('mkfifo', [join(s.plan, 'PLAN.md')]); }, args: ['accept', '$PLAN/analysis_results/handoff/p.json'], pane: true, code: 2, first: 'swarm: $ROOT/repo/plans/p/PLAN.md is not a regular file (a FIFO): PLAN.md must be a plain file' },
  // packets (an agent in a pane runs these)
  { id: 'packet-missing', area: 'packet', what: 'swarm accept of a packet that does not exist', args: ['accept', '$PLAN/analysis_results/handoff/none.json'], pane: true, code: 3, first: 'swarm accept: no packet at $ROOT/repo/plans/p/analysis_results/handoff/none.json' },
  { id: 'packet-dotdot', area: 'packet', what: 'swarm accept of a path that climbs out of the plan (..)', setup: (s) => void writeFileSync(join(s.root, 'outside.json'), '{}', { mode: 0o600 }), args: ['accept', '$PLAN/analysis_results/handoff/../../../../../outside.json'], pane: true, code: 3, first: 'swarm accept: outside.json does not match:' },
  { id: 'packet-absolute-elsewhere', area: 'packet', what: 'swarm accept of an absolute path outside the plan', setup: (s) => void writeFileSync(join(s.root, 'outside.json'), '{}', { mode: 0o600 }), args: ['accept', '$ROOT/outside.json'], pane: true, code: 3, first: 'swarm accept: outside.json does not match:' },
  { id: 'packet-not-json', area: 'packet', what: 'a packet that is not JSON', setup: (s) => void packetAt(s, 'analysis_results/handoff/bad.json', 'not json'), args: ['accept', '$PLAN/analysis_results/handoff/bad.json'], pane: true, code: 3, first: 'swarm accept: bad.json does not match:' },
  { id: 'packet-mode', area: 'packet', what: 'a packet readable by others (0644)', setup: (s) => chmodSync(packetAt(s, 'analysis_results/handoff/open.json'), 0o644), args: ['accept', '$PLAN/analysis_results/handoff/open.json'], pane: true, code: 3, first: 'swarm accept: open.json does not match:' },
  { id: 'packet-symlinked-parent', area: 'packet', what: 'a packet under a symlinked folder that points out of the plan', setup: (s) => { mkdirSync(join(s.root, 'elsewhere')); writeFileSync(join(s.root, 'elsewhere', 'p.json'), '{}', { mode: 0o600 }); mkdirSync(join(s.plan, 'analysis_results'), { recursive: true }); symlinkSync(join(s.root, 'elsewhere'), join(s.plan, 'analysis_results', 'handoff')); }, args: ['accept', '$PLAN/analysis_results/handoff/p.json'], pane: true, code: 3, first: 'swarm accept: p.json does not match:' },
  { id: 'packet-write-no-next', area: 'packet', what: 'swarm packet write without --next', args: ['packet', 'write', '--reason', 'capacity_low', '--doing', 'x'], pane: true, code: 2, first: 'swarm packet write: at least one --next is required (the ordered next steps)' },
  { id: 'packet-write-bad-reason', area: 'packet', what: 'swarm packet write with an unknown --reason', args: ['packet', 'write', '--reason', 'bored', '--doing', 'x', '--next', 'y'], pane: true, code: 2, first: 'swarm packet write: --reason must be one of capacity_critical, capacity_low, context_pressure, usage_limit, lead_handover, lane_lost; got "bored"' },
  { id: 'packet-write-secret', area: 'packet', what: 'a packet field holding a credential', args: ['packet', 'write', '--reason', 'capacity_low', '--doing', 'key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '--next', 'y'], pane: true, code: 2, first: 'swarm packet write: refusing to write secret values into a packet:' },
  // reports (swarm notify lead … from a lane)
  { id: 'report-unknown-target', area: 'report', what: 'swarm notify to an address with a slash', args: ['notify', '../lead', 'hello'], pane: true, code: 2, first: 'swarm: not an address: "../lead" (a lane name, lead or all)' },
  { id: 'report-empty', area: 'report', what: 'swarm notify with no text', args: ['notify', 'lead'], pane: true, code: 2, first: 'swarm notify needs an address and a message' },
  { id: 'report-handoff-no-path', area: 'report', what: 'a handoff report without a packet path', args: ['notify', 'lead', 'handoff'], pane: true, code: 2, first: 'swarm notify: handoff needs the packet path: send "handoff <packet path>"' },
  { id: 'report-bad-capacity', area: 'report', what: 'a report with a capacity field that is no percentage', args: ['notify', 'lead', 'progress step 1 capacity=ok 300% @a2'], pane: true, code: 2, first: 'swarm notify: capacity 300% is out of range in "capacity=ok 300% @a2": send a percentage from 0 to 100, e.g. capacity=low 22% @work2 context=41%' },
  { id: 'report-lane-to-all', area: 'report', what: 'a lane sending to all (lead only)', args: ['notify', 'all', 'hi'], pane: true, code: 3, first: 'swarm: fenced: lane-a is a lane: only the current lead may notify all', records: ['journal.jsonl'] },
  // CLI arguments
  { id: 'cli-unknown-command', area: 'CLI', what: 'a command that does not exist', args: ['upp'], code: 2, first: 'swarm: unknown command "upp"; did you mean "up"?' },
  { id: 'cli-far-command', area: 'CLI', what: 'a command close to none', args: ['xyzzy'], code: 2, first: 'swarm: unknown command "xyzzy"' },
  { id: 'cli-option-typo', area: 'CLI', what: 'an option one letter off', args: ['status', '--jsno'], code: 2, first: 'swarm status: unknown option "--jsno"; did you mean "--json"?' },
  { id: 'cli-up-unknown-option', area: 'CLI', what: 'swarm up with an unknown option', args: ['up', '$FILE', '--fast'], code: 2, first: 'swarm up: unknown option "--fast"' },
  { id: 'cli-up-two-files', area: 'CLI', what: 'swarm up with two files', args: ['up', '$FILE', '$FILE', '--headless'], code: 2, first: 'swarm up takes one swarm file' },
  { id: 'cli-up-timeout', area: 'CLI', what: 'swarm up --timeout that is no duration', args: ['up', '$FILE', '--headless', '--timeout', 'forever'], code: 2, first: 'swarm up --timeout: bad duration "forever": use <n>ms, <n>s, <n>m or <n>h (a bare number is seconds)' },
  { id: 'cli-up-detach-headless', area: 'CLI', what: 'swarm up --detach with --headless', args: ['up', '$FILE', '--detach', '--headless'], code: 2, first: 'swarm up: --detach and --headless do not go together: --detach runs the engine in tmux window 0 and returns, --headless runs it here in the foreground' },
  { id: 'cli-up-detach-pty', area: 'CLI', what: 'swarm up --detach with backend: pty (its panes end with the process)', setup: (s) => edit(s, 'backend: tmux', 'backend: pty'), args: ['up', '$FILE', '--detach'], code: 2, first: 'swarm up --detach needs tmux: with backend: pty the panes end with the process that runs them, and --detach returns at once' },
  { id: 'cli-logs-no-lane', area: 'CLI', what: 'swarm logs without a lane', args: ['logs'], code: 2, first: 'swarm logs needs a lane' },
  { id: 'cli-lead-action', area: 'CLI', what: 'swarm lead with an unknown action', args: ['lead', 'abdicate'], pane: true, code: 2, first: 'swarm lead: unknown action "abdicate"' },
  { id: 'cli-capacity-option', area: 'CLI', what: 'swarm capacity with an unknown option', args: ['capacity', '--all'], pane: true, code: 2, first: 'swarm capacity: unknown option --all' },
  { id: 'cli-status-option', area: 'CLI', what: 'swarm status with an unknown option', args: ['status', '$FILE', '--yaml'], code: 2, first: 'swarm status: unknown option "--yaml"' },
  { id: 'cli-down-option', area: 'CLI', what: 'swarm down with an option', args: ['down', '--force'], code: 2, first: 'swarm down: unknown option "--force"' },
  // environment variables
  { id: 'env-no-pane', area: 'environment', what: 'swarm notify outside a pane (no SWARM_PLAN)', args: ['notify', 'lead', 'hi'], code: 2, first: 'swarm notify runs inside a swarm pane: SWARM_PLAN not set' },
  { id: 'env-outside-panes', area: 'environment', what: 'swarm notify with a pane\'s environment, outside every pane', args: ['notify', 'lead', 'hi'], env: { SWARM_PLAN: '$PLAN', SWARM_LANE: 'lane-a', SWARM_ROLE: 'lane', SWARM_ACCOUNT: 'a2', SWARM_GENERATION: '2' }, code: 3, first: 'swarm: fenced: swarm notify ran outside every pane swarm started for this plan (its environment says lane-a, which grants nothing)', records: ['journal.jsonl'] },
  { id: 'env-plan-missing', area: 'environment', what: 'SWARM_PLAN names a folder that does not exist', args: ['notify', 'lead', 'hi'], pane: true, env: { SWARM_PLAN: '$ROOT/nowhere' }, code: 2, first: 'swarm notify: SWARM_PLAN=$ROOT/nowhere is no plan folder (no PLAN.md, no .swarm/); nothing was written' },
  { id: 'env-epoch', area: 'environment', what: 'SWARM_EPOCH that is no whole number', args: ['notify', 'lead', 'hi'], pane: true, env: { SWARM_EPOCH: 'two' }, code: 2, first: 'swarm: SWARM_EPOCH must be a whole number ≥ 0, got "two"' },
  { id: 'env-retry', area: 'environment', what: 'SWARM_WRITE_RETRY_MS that is no number', args: ['notify', 'lead', 'hi'], pane: true, env: { SWARM_WRITE_RETRY_MS: 'soon' }, code: 2, first: 'swarm: SWARM_WRITE_RETRY_MS must be a whole number of milliseconds, got "soon"' },
  { id: 'env-socket', area: 'environment', what: 'SWARM_TMUX_SOCKET with a slash', args: up, env: { SWARM_TMUX_SOCKET: '../evil' }, code: 2, first: 'swarm: SWARM_TMUX_SOCKET must be a tmux socket name (letters, digits, ".", "_", "-"), got "../evil"' },
];
