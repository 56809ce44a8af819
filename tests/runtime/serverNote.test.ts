/** A tmux server that could not be put in a user scope of its own (SPEC 10.8): the run says so once, in the journal. */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/adapters/configFile.js';
import { startSwarm } from '../../src/runtime/swarm.js';
import { FakeHost } from '../helpers/fakeHost.js';
import { waitFor } from '../helpers/waitFor.js';
import { makeSwarm, type TestSwarm } from '../helpers/swarmUp.js';

let t: TestSwarm | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

class UnscopedHost extends FakeHost {
  readonly serverStart = { scoped: false, note: 'systemd-run failed: the tmux server was started plainly, so a logout may end it' };
}

describe('the server start note', () => {
  it('is journaled once as server_unscoped, after run_started', async () => {
    const s = (t = makeSwarm({ lanes: [{ name: 'lane-a', account: 'a2' }] }));
    const config = loadConfig(s.file, { env: s.env, cwd: dirname(s.file) });
    const host = new UnscopedHost({});
    const run = await startSwarm(config, { env: s.env, untilDone: true, timeoutMs: null, host });
    await waitFor(() => s.events('server_unscoped').length > 0 || null, { what: 'the note journaled' });
    expect(s.events('server_unscoped')).toMatchObject([{ what: host.serverStart.note }]);
    const names = s.journal().map((e) => e.event);
    expect(names.indexOf('run_started')).toBeLessThan(names.indexOf('server_unscoped'));
    await run.detach();
    await Promise.all([...host.running]);
  });
});
