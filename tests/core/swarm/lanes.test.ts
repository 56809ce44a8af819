import { describe, expect, it } from 'vitest';
import { checkLaneName, swarmLanes } from '../../../src/core/swarm/lanes.js';

const sources = { leadName: 'lead', configLanes: ['lane-a', 'lane-b'], recordLead: 'lead-b', recordLanes: ['lane-a', 'lane-z'], addedLanes: ['lane-y', 'lane-z'] };

describe('swarmLanes', () => {
  it('lists the lead, the config lanes, the record lead and lanes and the added lanes, each once', () => {
    expect(swarmLanes(sources)).toEqual(['lead', 'lane-a', 'lane-b', 'lead-b', 'lane-z', 'lane-y']);
  });
  it('with no record and no state: the lead and the config lanes', () => {
    expect(swarmLanes({ ...sources, recordLead: null, recordLanes: [], addedLanes: [] })).toEqual(['lead', 'lane-a', 'lane-b']);
  });
});

describe('checkLaneName', () => {
  const known = swarmLanes(sources);
  it.each(['lead', 'lane-a', 'lead-b', 'lane-y'])('takes %j', (name) => {
    expect(checkLaneName(name, known, 's')).toEqual({ ok: true });
  });
  it.each([
    ['empty', '', '""'],
    ['a way up', '../../PLAN', '"../../PLAN"'],
    ['trailing spaces', 'lane-a  ', '"lane-a  "'],
    ['CRLF', 'lane-a\r\n', '"lane-a\\r\\n"'],
    ['multi-line', 'lane-a\nlane-b', '"lane-a\\nlane-b"'],
    ['an ANSI escape, shown escaped', '\u001b[31mlane-a', '"\\u001b[31mlane-a"'],
    ['another case', 'Lane-A', '"Lane-A"'],
  ])('refuses %s', (_name, name, shown) => {
    expect(checkLaneName(name, known, 's')).toEqual({ ok: false, message: `${shown} is no lane of swarm s (its lanes: lead, lane-a, lane-b, lead-b, lane-z, lane-y)` });
  });
});
