import { describe, expect, it } from 'vitest';
import { NO_FAULTS, faultBefore, faultsFor } from '../../src/sim/faults.js';

describe('faultsFor', () => {
  const all = { SIM_CRASH_AT: '2', SIM_PERMISSION_AT: '3', SIM_USAGE_LIMIT_AT: '4', SIM_BAD_PACKET: '1', SIM_IGNORE_HANDOFF: 'true', SIM_STALE_PUSH: '1' };

  it('applies to generation 1', () => {
    expect(faultsFor(all, 1)).toEqual({ crashAt: 2, permissionAt: 3, usageLimitAt: 4, badPacket: true, ignoreHandoff: true, stalePush: true });
  });

  it('does not apply to a successor unless SIM_FAULT_ALL=1', () => {
    expect(faultsFor(all, 2)).toEqual(NO_FAULTS);
    expect(faultsFor({ ...all, SIM_FAULT_ALL: '1' }, 3)).toMatchObject({ crashAt: 2, badPacket: true });
    expect(faultsFor({ ...all, SIM_FAULT_ALL: '0' }, 2)).toEqual(NO_FAULTS);
  });

  it.each([
    ['nothing set', {}, NO_FAULTS],
    ['empty values', { SIM_CRASH_AT: '', SIM_BAD_PACKET: '' }, NO_FAULTS],
    ['whitespace values', { SIM_CRASH_AT: '  ', SIM_BAD_PACKET: ' \t' }, NO_FAULTS],
    ['trailing spaces', { SIM_CRASH_AT: ' 7 ', SIM_BAD_PACKET: '1 ' }, { ...NO_FAULTS, crashAt: 7, badPacket: true }],
    ['upper case flag', { SIM_IGNORE_HANDOFF: 'TRUE' }, { ...NO_FAULTS, ignoreHandoff: true }],
    ['flags off', { SIM_IGNORE_HANDOFF: '0', SIM_BAD_PACKET: 'false' }, NO_FAULTS],
  ])('%s', (_name, env, expected) => {
    expect(faultsFor(env, 1)).toEqual(expected);
  });

  it.each([
    [{ SIM_CRASH_AT: '0' }, 'SIM_CRASH_AT=0 is not a step number: expected 1 or more'],
    [{ SIM_PERMISSION_AT: 'two' }, 'SIM_PERMISSION_AT=two is not a step number: expected 1 or more'],
    [{ SIM_USAGE_LIMIT_AT: '1.5' }, 'SIM_USAGE_LIMIT_AT=1.5 is not a step number: expected 1 or more'],
    [{ SIM_BAD_PACKET: 'yes' }, 'SIM_BAD_PACKET=yes is not understood: expected 1 or 0'],
  ])('refuses %o', (env, message) => {
    expect(() => faultsFor(env, 1)).toThrow(message);
    // A bad knob is refused even where it would not apply.
    expect(() => faultsFor(env, 2)).toThrow(message);
  });
});

describe('faultBefore', () => {
  it.each([
    [1, null],
    [2, 'crash'],
    [3, 'permission'],
    [4, 'usage_limit'],
  ])('before step %s: %s', (n, expected) => {
    expect(faultBefore({ ...NO_FAULTS, crashAt: 2, permissionAt: 3, usageLimitAt: 4 }, n)).toBe(expected);
  });

  it('crash comes first when knobs name the same step', () => {
    expect(faultBefore({ ...NO_FAULTS, crashAt: 1, permissionAt: 1, usageLimitAt: 1 }, 1)).toBe('crash');
    expect(faultBefore({ ...NO_FAULTS, permissionAt: 1, usageLimitAt: 1 }, 1)).toBe('permission');
  });
});
