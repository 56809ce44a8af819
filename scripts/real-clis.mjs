#!/usr/bin/env node
// The published agent CLIs at the versions swarm's kinds were seen in (panes/*.yaml `seen_in`), installed
// once into a cache folder outside the repository with `npm i --no-save --prefix <dir>` (never global),
// for `npm run test:real`. Prints the bin folder; exits 4 with what to do when they cannot be had.
// Folder: $SWARM_REAL_CLIS, else $XDG_CACHE_HOME/swarm/real-clis, else ~/.cache/swarm/real-clis.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The pinned versions, and what `--version` prints at each. */
export const PINNED = [
  { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude', says: '2.1.197' },
  { pkg: '@openai/codex', version: '0.171.0', bin: 'codex', says: 'codex-cli 0.171.0' },
];

const dir = process.env.SWARM_REAL_CLIS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'swarm', 'real-clis');
const bin = join(dir, 'node_modules', '.bin');
// Never let a CLI update itself or start a daemon while we ask its version.
const env = { ...process.env, DISABLE_AUTOUPDATER: '1' };

// Even `codex --version` writes helper binaries into $CODEX_HOME/tmp (by default ~/.codex): ask the
// versions on an empty scratch profile, never the developer's own.
function version(name) {
  const path = join(bin, name);
  if (!existsSync(path)) return null;
  const scratch = mkdtempSync(join(tmpdir(), 'swarm-real-clis-'));
  try {
    const quiet = { ...env, HOME: scratch, CLAUDE_CONFIG_DIR: scratch, CODEX_HOME: scratch };
    return execFileSync(path, ['--version'], { env: quiet, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim();
  } catch {
    return null;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const missing = () => PINNED.filter((p) => !(version(p.bin) ?? '').includes(p.says));

if (missing().length > 0) {
  const specs = missing().map((p) => `${p.pkg}@${p.version}`);
  process.stderr.write(`real-clis: installing ${specs.join(' ')} into ${dir} (about 660 MB, a minute or so)\n`);
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['i', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, ...specs], { env, stdio: ['ignore', 2, 'inherit'] });
  } catch (error) {
    process.stderr.write(`real-clis: npm could not install ${specs.join(' ')} into ${dir}: ${error.message}\n`);
  }
  const still = missing();
  if (still.length > 0) {
    process.stderr.write(
      `real-clis: cannot have ${still.map((p) => `${p.pkg}@${p.version}`).join(', ')} in ${bin} ` +
        `(no registry reachable, or no room?). Install them there by hand (npm i --no-save --prefix ${dir} …) ` +
        `or point SWARM_REAL_CLIS at a folder that has them.\n`,
    );
    process.exit(4);
  }
}
process.stdout.write(`${bin}\n`);
