// The host options (run, simulate, test, fuzz) are read into one typed object, not written to the
// environment: a later command in the same process, or a child process, does not inherit them.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { takeHostOptions } from '../../runtime/cli/host-options';

test('takeHostOptions: both spellings, typed values, the rest in order, nothing after --', () => {
  const before = { ...process.env };
  const taken = takeHostOptions([
    'a.py::h',
    '--memory-limit',
    '0',
    '--cayu-safety-stop=7',
    '--payload',
    '-',
    '--cayu-engine',
    'emulation',
    '--',
    '--memory-limit',
  ]);
  assert.deepEqual(taken, {
    args: ['a.py::h', '--payload', '-', '--', '--memory-limit'],
    options: { memoryLimitMb: 0, cayuSafetyStopS: 7, cayuEngine: 'emulation' },
  });
  assert.deepEqual({ ...process.env }, before);
  assert.deepEqual(takeHostOptions(['x']), { args: ['x'], options: {} });
});

test('takeHostOptions: a bad or missing value is the usage error naming the option', () => {
  assert.equal(
    takeHostOptions(['--memory-limit', '1e3']),
    '--memory-limit takes whole MiB (decimal digits, 0 for no limit), got "1e3"',
  );
  assert.match(
    takeHostOptions(['--cayu-safety-stop=0']) as string,
    /^--cayu-safety-stop takes whole seconds from 1 to 86400/,
  );
  assert.equal(takeHostOptions(['--cayu-engine']), '--cayu-engine takes auto|real|emulation, got ""');
});
