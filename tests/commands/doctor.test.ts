/**
 * `swarm doctor` against fake `claude` / `codex` executables (tests/fixtures/bin-doctor/, they only
 * print a version) and profile folders built per case. Exit codes, the --json shape, the text.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { doctor } from '../../src/commands/doctor.js';
import { ROOT } from '../helpers/swarm.js';

const FAKES = join(ROOT, 'tests', 'fixtures', 'bin-doctor');
const TMUX = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `remote`: lane b runs on host gpu1 (SPEC 10.9), reached by a fake `ssh` (FAKE_SSH) that logs its
 * argv and runs the remote command with `sh -c` on PATH remote/bin (`tools` there), or says
 * Permission denied; `checkout`: whether b's checkout exists "there"; `noSsh`: no ssh on PATH.
 */
interface Remote { denied?: boolean; tools?: string[]; checkout?: boolean; noSsh?: boolean }
interface Case { systemd?: { linger: boolean }; noPool?: boolean; commandLanes?: boolean; tools?: string[]; signedOut?: string[]; untrusted?: string[]; approvals?: string | null; bypassAccepted?: boolean; env?: Record<string, string>; remote?: Remote }

const FAKE_SSH = `#!/bin/sh
printf '%s\\0' "$@" > "$FAKE_SSH_LOG"
if [ -n "$FAKE_SSH_DENIED" ]; then echo 'me@gpu1: Permission denied (publickey).' >&2; exit 255; fi
for last; do :; done
PATH="$FAKE_REMOTE_PATH" exec /bin/sh -c "$last"
`;

/** The fake ssh, and the "remote" PATH it runs commands on. */
function remoteBins(c: Remote, bin: string): Record<string, string> {
  if (c.noSsh !== true) writeFileSync(join(bin, 'ssh'), FAKE_SSH, { mode: 0o755 });
  const remote = join(dir, 'remote', 'bin');
  mkdirSync(remote, { recursive: true });
  const which = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  for (const tool of ['sh', 'head', 'tr', 'git']) symlinkSync(which(tool), join(remote, tool));
  for (const tool of c.tools ?? ['tmux', 'node', 'swarm', 'codex', 'claude']) {
    if (tool === 'swarm') writeFileSync(join(remote, 'swarm'), '#!/bin/sh\necho "swarm 0.1.0"\n', { mode: 0o755 });
    else symlinkSync(tool === 'codex' || tool === 'claude' ? join(FAKES, tool) : which(tool), join(remote, tool));
  }
  if (c.checkout !== false) mkdirSync(join(dir, 'remote', 'wb'), { recursive: true });
  return { FAKE_SSH_LOG: join(dir, 'ssh.log'), FAKE_REMOTE_PATH: remote, ...(c.denied === true ? { FAKE_SSH_DENIED: '1' } : {}) };
}

/** A swarm with a claude lead account c1, a claude lane account c2, a codex lane account x1 and (unless noPool) a claude pool account c3. */
async function run(c: Case, args: string[] = []): Promise<{ code: number; out: string }> {
  dir = mkdtempSync(join(tmpdir(), 'swarm-doctor-test-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const t of c.tools ?? ['tmux', 'claude', 'codex']) symlinkSync(t === 'tmux' ? TMUX : join(FAKES, t), join(bin, t));
  const remoteEnv = c.remote === undefined ? {} : remoteBins(c.remote, bin);
  // The systemd facts are read under root/ (empty: no systemd runs), never this machine's own.
  const root = join(dir, 'root');
  mkdirSync(join(root, 'var', 'lib', 'systemd', 'linger'), { recursive: true });
  if (c.systemd !== undefined) {
    mkdirSync(join(root, 'run', 'systemd', 'system'), { recursive: true });
    if (c.systemd.linger) writeFileSync(join(root, 'var', 'lib', 'systemd', 'linger', 'tester'), '');
    writeFileSync(join(bin, 'systemd-run'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    writeFileSync(join(bin, 'loginctl'), `#!/bin/sh\n[ "$*" = "show-user tester --property=Linger --value" ] && echo ${c.systemd.linger ? 'yes' : 'no'}\n`, { mode: 0o755 });
  }
  mkdirSync(join(dir, 'p'));
  const approvals = c.approvals === undefined ? 'approvals:\n  claude: { permission_mode: acceptEdits }\n  codex: { approval: never, sandbox: workspace-write }\n' : (c.approvals ?? '');
  writeFileSync(join(dir, 'p', 'PLAN.md'), `---\ncontract: c\n${approvals}---\n# plan\n`);
  for (const d of ['.git', 'wa', 'wb']) mkdirSync(join(dir, d));
  const ids = c.noPool === true ? ['c1', 'c2', 'x1'] : ['c1', 'c2', 'x1', 'c3'];
  for (const id of ids) {
    const profile = join(dir, 'profiles', id);
    mkdirSync(profile, { recursive: true });
    const trusted = !(c.untrusted ?? []).includes(id);
    if (id.startsWith('c')) {
      if (!(c.signedOut ?? []).includes(id)) writeFileSync(join(profile, '.credentials.json'), 'SECRET-NEVER-READ');
      writeFileSync(join(profile, '.claude.json'), JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: trusted } }, bypassPermissionsModeAccepted: c.bypassAccepted === true }));
    } else {
      if (!(c.signedOut ?? []).includes(id)) writeFileSync(join(profile, 'auth.json'), 'SECRET-NEVER-READ');
      writeFileSync(join(profile, 'config.toml'), `[projects."${dir}"]\ntrust_level = "${trusted ? 'trusted' : 'untrusted'}"\n`);
    }
  }
  const env = (id: string) => `{ ${id.startsWith('c') ? 'CLAUDE_CONFIG_DIR' : 'CODEX_HOME'}: ${JSON.stringify(join(dir, 'profiles', id))} }`;
  writeFileSync(join(dir, 'swarm.yaml'), [
    'version: 1', 'name: night', 'plan: p', 'backend: tmux', 'accounts:',
    `  - { id: c1, kind: claude, vendor: anthropic, env: ${env('c1')} }`,
    `  - { id: c2, kind: claude, vendor: anthropic, env: ${env('c2')} }`,
    `  - { id: x1, kind: codex, vendor: openai, env: ${env('x1')} }`,
    ...(c.noPool === true ? [] : [`  - { id: c3, kind: claude, vendor: anthropic, env: ${env('c3')} }`]),
    'lead: { account: c1 }',
    c.commandLanes === true
      ? 'lanes: [{ name: a, task: t, account: c2, checkout: wa, command: "sh -c true" }, { name: b, task: t, account: x1, checkout: wb, command: "sh -c true" }]'
      : c.remote !== undefined
        ? `lanes: [{ name: a, task: t, account: c2, checkout: wa }, { name: b, task: t, account: x1, host: gpu1, checkout: ${JSON.stringify(join(dir, 'remote', 'wb'))} }]`
        : 'lanes: [{ name: a, task: t, account: c2, checkout: wa }, { name: b, task: t, account: x1, checkout: wb }]',
    ...(c.remote === undefined ? [] : ['hosts: { gpu1: { ssh: me@gpu1, port: 2222, identity: ~/keys/gpu1, options: [ServerAliveInterval=15] } }']),
    '',
  ].join('\n'));
  let out = '';
  const code = await doctor({
    args, cwd: dir, stdout: (s) => void (out += s), stderr: () => undefined,
    env: { PATH: bin, HOME: dir, DISABLE_AUTOUPDATER: '1', ...remoteEnv, ...c.env },
  }, { scope: { root, user: 'tester' } });
  return { code, out };
}

const json = async (c: Case) => {
  const r = await run(c, ['--json']);
  return { code: r.code, report: JSON.parse(r.out) as { ok: boolean; problems: Record<string, string>[]; warnings: Record<string, string>[]; accounts: Record<string, unknown>[]; tools: Record<string, unknown>[] } };
};

describe('swarm doctor', () => {
  it('all ready: exit 0, one line a check, never a credential', async () => {
    const { code, out } = await run({});
    expect(code).toBe(0);
    expect(out).toMatch(/^ok {3}tmux: .*tmux \(tmux \d/m);
    expect(out).toMatch(/^ok {3}claude: .*\(2\.1\.197 \(Claude Code\), seen in 2\.1\.197\)$/m);
    expect(out).toMatch(/^ok {3}codex: .*\(codex-cli 0\.171\.0, seen in 0\.171\.0\)$/m);
    expect(out).toMatch(/^ok {3}account c2 \(claude\): .*: ready; capacity: status line; auto-updater off$/m);
    expect(out).toMatch(/^ok {3}account x1 \(codex\): .*: ready; capacity: rollout$/m);
    expect(out).toMatch(/^ok {3}approvals: valid \(claude acceptEdits\)$/m);
    expect(out.trimEnd().split('\n').at(-1)).toBe('doctor: this swarm can run through the night');
    expect(out).not.toContain('SECRET');
  });

  it('--json: the shape, ok true', async () => {
    const { code, report } = await json({});
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, problems: [], warnings: [] });
    expect(report.accounts.map((a) => [a.id, a.capacitySource])).toEqual([['c1', 'status line'], ['c2', 'status line'], ['x1', 'rollout'], ['c3', 'status line']]);
    expect(report.tools.map((t) => t.tool)).toEqual(['tmux', 'claude', 'codex']);
    expect(JSON.stringify(report)).not.toContain('SECRET');
  });

  it('signed out and untrusted: exit 1, each problem with its account and fix', async () => {
    const { code, report } = await json({ signedOut: ['c2'], untrusted: ['x1'] });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({ account: 'c2', what: expect.stringContaining('signed out (no .credentials.json'), fix: expect.stringContaining('/login') }),
      expect.objectContaining({ account: 'x1', what: expect.stringContaining('is not trusted'), fix: expect.stringContaining('accept its trust screen') }),
    ]);
    const { out } = await run({ signedOut: ['c2'] });
    expect(out).toMatch(/^FAIL account c2 \(claude\): .*not ready \(signed out/m);
    expect(out).toMatch(/^problem: c2 \(claude\): signed out .*\n {2}fix: sign in to Claude Code on that profile: CLAUDE_CONFIG_DIR=.* claude, then \/login$/m);
  });

  it('a CLI not on PATH: exit 4 (missing dependency), with how to install it', async () => {
    const { code, report } = await json({ tools: ['tmux', 'codex'] });
    expect(code).toBe(4);
    expect(report.problems).toEqual([{ tool: 'claude', what: 'claude is not on PATH', fix: 'npm install -g @anthropic-ai/claude-code' }]);
  });

  it("a version other than the kind's seen_in: a warning, still ok", async () => {
    const { code, report } = await json({ env: { FAKE_CODEX_VERSION: '0.180.0' } });
    expect(code).toBe(0);
    expect(report.warnings).toEqual([expect.objectContaining({ tool: 'codex', what: 'codex codex-cli 0.180.0 is not 0.171.0, the version its screens were seen in' })]);
  });

  it('a lane that could never hand off (no other ready account on its checkout): a warning each, still ok', async () => {
    const { code, report } = await json({ noPool: true });
    expect(code).toBe(0);
    expect(report.warnings).toEqual([
      expect.objectContaining({ lane: 'a', what: `a could never hand off: no other account is ready on ${dir}/wa` }),
      expect.objectContaining({ lane: 'b', what: `b could never hand off: no other account is ready on ${dir}/wb` }),
    ]);
    // The pool account signed out: the same.
    const out = await json({ signedOut: ['c3'] });
    expect(out.report.warnings.map((w) => w.lane)).toEqual(['a', 'b']);
  });

  it('lanes with command: are checked for neither their kind\'s CLI nor its trust', async () => {
    const { code, report } = await json({ tools: ['tmux', 'claude'], noPool: true, untrusted: ['c2', 'x1'], commandLanes: true });
    expect(report.problems).toEqual([]);
    expect(report.tools.map((t) => t.tool)).toEqual(['tmux', 'claude']); // the lead is still an agent of its kind: no codex asked for
    expect(report.warnings).toEqual([]);
    expect(code).toBe(0);
    // The same lanes without command: codex missing (exit 4), both untrusted, neither could hand off.
    const agents = await json({ tools: ['tmux', 'claude'], noPool: true, untrusted: ['c2', 'x1'] });
    expect(agents.code).toBe(4);
    expect(agents.report.problems.map((p) => p.tool ?? p.account)).toEqual(['codex', 'c2', 'x1']);
  });

  it('no approvals: warns that lanes will stop on permission dialogs', async () => {
    const { report } = await json({ approvals: null });
    expect(report.warnings.map((w) => w.what)).toContain('PLAN.md has no approvals: lanes will stop on permission dialogs, which swarm never answers');
  });

  it('bad approvals: a problem with PLAN.md:LINE:COL', async () => {
    const { code, report } = await json({ approvals: 'approvals:\n  codex: { approval: always }\n' });
    expect(code).toBe(1);
    expect(report.problems[0]?.what).toMatch(/^approvals: PLAN\.md:4:\d+: /);
  });

  it('bypassPermissions: a problem for each claude profile that has not accepted its warning, none once accepted', async () => {
    const mode = 'approvals:\n  claude: { permission_mode: bypassPermissions }\n';
    const refused = await json({ approvals: mode });
    expect(refused.report.problems.filter((p) => String(p.what).includes('bypassPermissions shows a warning')).map((p) => p.account)).toEqual(['c1', 'c2', 'c3']);
    const accepted = await json({ approvals: mode, bypassAccepted: true });
    expect(accepted.report.problems.filter((p) => String(p.what).includes('bypassPermissions shows a warning'))).toEqual([]);
  });

  it('a logout: systemd without lingering is a warning with the fix (still exit 0); lingering, or no systemd, an ok line', async () => {
    const warned = await json({ systemd: { linger: false } });
    expect(warned.code).toBe(0);
    expect(warned.report.warnings).toEqual([{
      what: "a logout would end the swarm's tmux server (systemd ends a login session's processes; user tester does not linger)",
      fix: 'loginctl enable-linger tester (swarm never turns it on)',
    }]);
    const text = await run({ systemd: { linger: false } });
    expect(text.out).toContain("warning: a logout would end the swarm's tmux server (systemd ends a login session's processes; user tester does not linger)\n  fix: loginctl enable-linger tester (swarm never turns it on)\n");
    expect((await run({ systemd: { linger: true } })).out).toMatch(/^ok {3}a logout leaves the swarm running \(systemd user scope; user tester lingers\)$/m);
    expect((await run({})).out).toMatch(/^ok {3}no systemd runs here \(no \/run\/systemd\/system\), so no logout ends the tmux server by itself; the machine's reboot does/m);
  });

  describe('a lane on another host (SPEC 10.9)', () => {
    it('all there: one ssh round trip, batch mode, options before the destination; its lines ok; nothing of it asked of this machine', async () => {
      const { code, out } = await run({ remote: {}, tools: ['tmux', 'claude'] });
      expect(out).toMatch(/^ok {3}ssh: .*\/bin\/ssh/m);
      expect(out).toContain('ok   host gpu1: ssh me@gpu1 -p 2222: logged in without a prompt\n');
      expect(out).toMatch(/^ok {3}host gpu1: tmux: .*\/remote\/bin\/tmux \(tmux \d/m);
      expect(out).toContain(`ok   host gpu1: node: ${dir}/remote/bin/node (${process.version})\n`);
      expect(out).toContain(`ok   host gpu1: swarm: ${dir}/remote/bin/swarm (swarm 0.1.0)\n`);
      // x1 (codex) is b's own account, c3 (claude) the pool's: b may run on either.
      expect(out).toContain(`ok   host gpu1: codex: ${dir}/remote/bin/codex\n`);
      expect(out).toContain(`ok   host gpu1: claude: ${dir}/remote/bin/claude\n`);
      expect(out).toContain(`ok   host gpu1: checkout ${dir}/remote/wb of b: a folder, not a git worktree\n`);
      // codex runs only on gpu1: not wanted on this machine's PATH, nor its profile checked here.
      expect(out).not.toMatch(/^\S+ +codex:/m);
      expect(out).not.toMatch(/account x1 \(codex\): .*not ready/);
      expect(code).toBe(0);
      const argv = readFileSync(join(dir, 'ssh.log'), 'utf8').split('\0').slice(0, -1);
      expect(argv.slice(0, -1)).toEqual(['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-p', '2222', '-i', join(dir, 'keys', 'gpu1'), '-o', 'ServerAliveInterval=15', '--', 'me@gpu1']);
      expect(argv.at(-1)).toMatch(/^sh -c '.*' swarm-probe codex claude -- \/\S+\/remote\/wb$/s);
    });

    it('--json: each host problem names its host; a missing checkout exit 1, a missing tool there exit 4', async () => {
      const gone = await json({ remote: { checkout: false } });
      expect(gone.report.problems).toEqual([{ host: 'gpu1', lane: 'b', what: `host gpu1: checkout ${dir}/remote/wb of b is not a folder`, fix: expect.stringContaining('create it there') }]);
      expect(gone.code).toBe(1);
      const bare = await json({ remote: { tools: ['tmux', 'node', 'codex', 'claude'] } });
      expect(bare.report.problems).toEqual([{ host: 'gpu1', tool: 'swarm', what: 'host gpu1: swarm not found', fix: expect.stringContaining('install swarm there') }]);
      expect(bare.code).toBe(4);
    });

    it('ssh asks for a password: one problem with ssh\'s own line and the fix', async () => {
      const { code, report } = await json({ remote: { denied: true } });
      expect(report.problems).toEqual([{ host: 'gpu1', what: 'host gpu1: ssh asked for a password or a passphrase (BatchMode): me@gpu1: Permission denied (publickey).', fix: expect.stringContaining('add a key the agent can use without a prompt (ssh-agent, or identity:)') }]);
      expect(code).toBe(1);
    });

    it('no ssh on PATH: a missing dependency (exit 4), with how to install it', async () => {
      const { code, report } = await json({ remote: { noSsh: true } });
      expect(report.problems).toEqual([{ tool: 'ssh', what: 'ssh is not on PATH', fix: expect.stringContaining('install the OpenSSH client') }]);
      expect(code).toBe(4);
    });
  });

  it('a usage error for an unknown flag', async () => {
    await expect(run({}, ['--fix'])).rejects.toThrow('unknown flag "--fix" for doctor');
  });
});
