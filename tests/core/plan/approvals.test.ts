import { describe, expect, it } from 'vitest';
import { NO_APPROVALS, parseApprovals, type ApprovalFlags, type Approvals } from '../../../src/core/plan/approvals.js';
import { loadKinds } from '../../../src/kinds/index.js';
import type { ConfigProblem } from '../../../src/core/config/types.js';

const plan = (...front: string[]): string => ['---', 'contract: v1', ...front, '---', '# Plan', '', 'Work.'].join('\n');
const EXAMPLE = plan(
  'approvals:',
  '  claude: { permission_mode: acceptEdits, allowed_tools: ["Bash(npm test)", "Edit"], add_dirs: [] }',
  '  codex:  { approval: never, sandbox: workspace-write }',
);
const EXAMPLE_VALUE: Approvals = {
  claude: { permissionMode: 'acceptEdits', allowedTools: ['Bash(npm test)', 'Edit'], addDirs: [] },
  codex: { approval: 'never', sandbox: 'workspace-write' },
};

function approvals(text: string): Approvals {
  const result = parseApprovals(text);
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`).join('\n'));
  return result.approvals;
}

function problems(text: string): ConfigProblem[] {
  const result = parseApprovals(text);
  return result.ok ? [] : result.problems;
}

describe('parseApprovals: what is read', () => {
  it.each<[string, string, Approvals]>([
    ['the issue\'s example', EXAMPLE, EXAMPLE_VALUE],
    ['empty text', '', NO_APPROVALS],
    ['no front matter', '# Plan\n\napprovals: nothing here', NO_APPROVALS],
    ['an unclosed front matter', '---\napprovals:\n  codex: { approval: never }\n', NO_APPROVALS],
    ['front matter without approvals', plan('owner: dev'), NO_APPROVALS],
    ['front matter that is not YAML, without approvals (contract: is plan.ts\'s)', plan('contract: [v1'), NO_APPROVALS],
    ['approvals: with nothing under it', plan('approvals:'), NO_APPROVALS],
    ['one kind only', plan('approvals:', '  codex: { sandbox: read-only }'), { claude: null, codex: { approval: null, sandbox: 'read-only' } }],
    ['a kind set to null', plan('approvals:', '  claude: null', '  codex: { approval: on-request }'), { claude: null, codex: { approval: 'on-request', sandbox: null } }],
    ['CRLF line ends', EXAMPLE.replace(/\n/g, '\r\n'), EXAMPLE_VALUE],
    ['a BOM', `\uFEFF${EXAMPLE}`, EXAMPLE_VALUE],
    ['trailing spaces', EXAMPLE.replace(/\n/g, '   \n'), EXAMPLE_VALUE],
    ['block style', plan('approvals:', '  claude:', '    permission_mode: plan', '    add_dirs:', '      - ../shared', '      - /tmp/cache  '), { claude: { permissionMode: 'plan', allowedTools: [], addDirs: ['../shared', '/tmp/cache'] }, codex: null }],
    ['the widest modes, written literally', plan('approvals:', '  claude: { permission_mode: bypassPermissions }', '  codex: { approval: never, sandbox: danger-full-access }'),
      { claude: { permissionMode: 'bypassPermissions', allowedTools: [], addDirs: [] }, codex: { approval: 'never', sandbox: 'danger-full-access' } }],
    ['every Claude mode is accepted: dontAsk', plan('approvals:', '  claude: { permission_mode: dontAsk }'), { claude: { permissionMode: 'dontAsk', allowedTools: [], addDirs: [] }, codex: null }],
    ['tool rules with specifiers and MCP tools', plan('approvals:', '  claude: { allowed_tools: ["Bash(npm run test:*)", "WebFetch(domain:example.com)", "mcp__github__create_issue"] }'),
      { claude: { permissionMode: null, allowedTools: ['Bash(npm run test:*)', 'WebFetch(domain:example.com)', 'mcp__github__create_issue'], addDirs: [] }, codex: null }],
  ])('%s', (_name, text, expected) => {
    expect(approvals(text)).toEqual(expected);
  });
});

describe('parseApprovals: problems, with PLAN.md line:col', () => {
  it.each<[string, string, string[]]>([
    ['a Claude mode in the wrong case', plan('approvals:', '  claude: { permission_mode: acceptedits }'),
      ['4:30: "approvals.claude.permission_mode" must be one of default, acceptEdits, plan, auto, dontAsk, bypassPermissions, got "acceptedits"; did you mean "acceptEdits"?']],
    ['a near miss of the widest mode is not guessed', plan('approvals:', '  claude: { permission_mode: bypass }'),
      ['4:30: "approvals.claude.permission_mode" must be one of default, acceptEdits, plan, auto, dontAsk, bypassPermissions, got "bypass"']],
    ['--full-auto is gone', plan('approvals:', '  codex: { approval: full-auto }'),
      ['4:22: "approvals.codex.approval" must be one of on-request, never, got "full-auto" (--full-auto no longer exists: write approval: on-request and sandbox: workspace-write)']],
    ['untrusted is config-only', plan('approvals:', '  codex: { approval: untrusted }'),
      ['4:22: "approvals.codex.approval" must be one of on-request, never, got "untrusted" (untrusted is known to the config file only, not to -a)']],
    ['a sandbox of the wrong type', plan('approvals:', '  codex: { sandbox: 5 }'),
      ['4:21: "approvals.codex.sandbox" must be one of read-only, workspace-write, danger-full-access, got 5']],
    ['an unknown kind', plan('approvals:', '  gemini: { yolo: true }'), ['4:3: unknown key "gemini" in approvals; known keys: claude, codex']],
    ['a misspelt key', plan('approvals:', '  claude: { allowedTools: [Edit] }'), ['4:13: unknown key "allowedTools" in approvals.claude; did you mean "allowed_tools"?']],
    ['what answers a screen for the agent is refused', plan('approvals:', '  claude: { skipDangerousModePermissionPrompt: true, permission_mode: bypassPermissions }'),
      ['4:13: "approvals.claude.skipDangerousModePermissionPrompt" is refused: swarm never sets what answers a screen in the agent\'s place; answer it yourself in the pane (swarm attach)']],
    ['IS_SANDBOX too', plan('approvals:', '  claude:', '    IS_SANDBOX: 1'), ['5:5: "approvals.claude.IS_SANDBOX" is refused: swarm never sets what answers a screen in the agent\'s place; answer it yourself in the pane (swarm attach)']],
    ['the widest mode through an alias', plan('wide: &wide bypassPermissions', 'approvals:', '  claude: { permission_mode: *wide }'),
      ['5:30: "approvals.claude.permission_mode" is bypassPermissions, the widest mode, through an alias: write bypassPermissions itself if you mean it']],
    ['a tool rule starting with "-"', plan('approvals:', '  claude: { allowed_tools: ["--dangerously-skip-permissions"] }'),
      ['4:29: "approvals.claude.allowed_tools[0]" must be a tool rule such as "Edit" or "Bash(npm test)" (not starting with "-", no control characters), got "--dangerously-skip-permissions"']],
    ['an empty tool rule and a number', plan('approvals:', '  claude: { allowed_tools: ["", 5] }'),
      ['4:29: "approvals.claude.allowed_tools[0]" must be a tool rule such as "Edit" or "Bash(npm test)" (not starting with "-", no control characters), got ""',
        '4:33: "approvals.claude.allowed_tools[1]" must be a tool rule such as "Edit" or "Bash(npm test)" (not starting with "-", no control characters), got 5']],
    ['escape codes inside a string', plan('approvals:', '  claude: { add_dirs: ["/tmp/\\e[31mred"] }'),
      ['4:24: "approvals.claude.add_dirs[0]" must be a directory path (not starting with "-", no control characters), got "/tmp/\\u001b[31mred"']],
    ['add_dirs not a list', plan('approvals:', '  claude: { add_dirs: ../shared }'), ['4:23: "approvals.claude.add_dirs" must be a list, got "../shared"']],
    ['a kind that is not a mapping', plan('approvals:', '  codex: never'), ['4:10: "approvals.codex" must be a mapping of keys, got "never"']],
    ['approvals a list', plan('approvals: [claude]'), ['3:12: "approvals" must be a mapping of keys, got a list']],
    ['a YAML error in the front matter', plan('approvals:', '  codex: { approval: never'), ['4:27: YAML syntax error in the front matter: Flow map in block collection must be sufficiently indented and end with a }']],
  ])('%s', (_name, text, expected) => {
    expect(problems(text).map((p) => `${p.line}:${p.col}: ${p.message}`)).toEqual(expected);
  });
});

// Each kind turns the plan's approvals into its own flags (kinds/<kind>/launch.ts), through its Kind.
const KINDS = await loadKinds([]);
const approvalFlags = (kind: string, a: Approvals, writable: string[] = []): ApprovalFlags => KINDS(kind).launch.approvals(a, writable);

describe('approvalFlags', () => {
  const claude = (c: Partial<NonNullable<Approvals['claude']>>): Approvals => ({ claude: { permissionMode: null, allowedTools: [], addDirs: [], ...c }, codex: null });
  const codex = (c: Partial<NonNullable<Approvals['codex']>>): Approvals => ({ claude: null, codex: { approval: null, sandbox: null, ...c } });
  it.each<[string, string, Approvals, ApprovalFlags]>([
    ['the example for claude', 'claude', EXAMPLE_VALUE, { argv: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(npm test)', 'Edit'], promptAfterDashDash: true }],
    ['the example for codex', 'codex', EXAMPLE_VALUE, { argv: ['-a', 'never', '-s', 'workspace-write'], promptAfterDashDash: false }],
    ['a mode only: nothing variadic', 'claude', claude({ permissionMode: 'plan' }), { argv: ['--permission-mode', 'plan'], promptAfterDashDash: false }],
    ['add_dirs only', 'claude', claude({ addDirs: ['../a', '/b'] }), { argv: ['--add-dir', '../a', '/b'], promptAfterDashDash: true }],
    ['all three', 'claude', claude({ permissionMode: 'auto', allowedTools: ['Edit'], addDirs: ['../a'] }),
      { argv: ['--permission-mode', 'auto', '--allowedTools', 'Edit', '--add-dir', '../a'], promptAfterDashDash: true }],
    ['codex sandbox only', 'codex', codex({ sandbox: 'read-only' }), { argv: ['-s', 'read-only'], promptAfterDashDash: false }],
    ['codex approval only', 'codex', codex({ approval: 'on-request' }), { argv: ['-a', 'on-request'], promptAfterDashDash: false }],
    ['no approvals for the kind', 'claude', codex({ approval: 'never' }), { argv: [], promptAfterDashDash: false }],
    ['a kind without approvals (sim)', 'sim', EXAMPLE_VALUE, { argv: [], promptAfterDashDash: false }],
    ['none at all', 'codex', NO_APPROVALS, { argv: [], promptAfterDashDash: false }],
  ])('%s', (_name, kind, a, expected) => {
    expect(approvalFlags(kind, a)).toEqual(expected);
  });

  // A sandboxed Codex agent writes its reports to its spool and commits through git folders outside
  // its checkout: both are writable roots, and only under workspace-write (the others need none).
  const SPOOL = '/repo/plans/p/.swarm/spool/r1/lane-a-g1';
  const GIT = ['/repo/.git/worktrees/lane-a', '/repo/.git'];
  it.each<[string, string, Approvals, string[]]>([
    ['workspace-write: the spool and git folders writable', 'codex', codex({ approval: 'never', sandbox: 'workspace-write' }),
      ['-a', 'never', '-s', 'workspace-write', '-c', `sandbox_workspace_write.writable_roots=["${SPOOL}","${GIT[0]}","${GIT[1]}"]`]],
    ['read-only: nothing made writable', 'codex', codex({ sandbox: 'read-only' }), ['-s', 'read-only']],
    ['danger-full-access: no roots needed', 'codex', codex({ sandbox: 'danger-full-access' }), ['-s', 'danger-full-access']],
    ['no sandbox set (the profile may choose workspace-write): the roots given', 'codex', codex({ approval: 'never' }),
      ['-a', 'never', '-c', `sandbox_workspace_write.writable_roots=["${SPOOL}","${GIT[0]}","${GIT[1]}"]`]],
    ['no codex approvals at all: the roots given', 'codex', NO_APPROVALS, ['-c', `sandbox_workspace_write.writable_roots=["${SPOOL}","${GIT[0]}","${GIT[1]}"]`]],
    ['claude: its own flags only', 'claude', claude({ permissionMode: 'plan' }), ['--permission-mode', 'plan']],
  ])('%s', (_name, kind, a, argv) => {
    expect(approvalFlags(kind, a, [SPOOL, ...GIT]).argv).toEqual(argv);
  });

  it('a folder with a quote or a backslash stays one TOML string', () => {
    const argv = approvalFlags('codex', codex({ sandbox: 'workspace-write' }), ['/a "b"\\c']).argv;
    expect(argv.at(-1)).toBe('sandbox_workspace_write.writable_roots=["/a \\"b\\"\\\\c"]');
  });

  it('never produces the flags that answer a screen for the agent', () => {
    const all = [approvalFlags('claude', approvals(plan('approvals:', '  claude: { permission_mode: bypassPermissions }'))),
      approvalFlags('codex', approvals(plan('approvals:', '  codex: { approval: never, sandbox: danger-full-access }')))];
    expect(all.flatMap((f) => f.argv).join(' ')).not.toMatch(/dangerously|yolo|full-auto|skipDangerous|IS_SANDBOX/);
  });
});
