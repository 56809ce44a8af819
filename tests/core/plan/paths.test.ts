import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailboxPath } from '../../../src/core/plan/paths.js';

const BOX = '/r/plans/p/.swarm/mailbox';

describe('mailboxPath', () => {
  it.each([
    ['a lane', 'lane-a', `${BOX}/lane-a.md`],
    ['the lead', 'lead', `${BOX}/lead.md`],
    ['dots and underscores inside', 'lane_a.2', `${BOX}/lane_a.2.md`],
    ['a way up (issue 10, item 2)', '../../PLAN', `${BOX}/_%2E%2E%2F%2E%2E%2FPLAN.md`],
    ['a path into another lane', 'lane-a/../../x', `${BOX}/_lane-a%2F%2E%2E%2F%2E%2E%2Fx.md`],
    ['an absolute path', '/etc/passwd', `${BOX}/_%2Fetc%2Fpasswd.md`],
    ['dot-dot alone', '..', `${BOX}/_%2E%2E.md`],
    ['empty', '', `${BOX}/_.md`],
    ['trailing spaces', 'lane-a  ', `${BOX}/_lane-a%20%20.md`],
    ['CRLF', 'lane-a\r\n', `${BOX}/_lane-a%0D%0A.md`],
    ['an ANSI escape', '\u001b[31mlane', `${BOX}/_%1B%5B31mlane.md`],
  ])('%s', (_name, name, path) => {
    expect(mailboxPath('/r/plans/p', name)).toBe(path);
    expect(dirname(mailboxPath('/r/plans/p', name))).toBe(BOX);
  });
});
