// `hooksmith check --python PATH`: the interpreter that confirms syntax (default python3, which
// may be a slow launcher such as a pyenv shim). Same answer with the real interpreter; without a
// usable one, tree-sitter's verdict and one line saying so.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { hooksmith } from './cli-check-helpers';
import { parseCheckArgs } from '../../runtime/cli/check';

const FAULTY = 'examples/faulty-agent';

it('--python takes a path; the real interpreter behind python3 gives the same findings', () => {
  assert.equal((parseCheckArgs(['--python', '/x/py', 'a']) as { python?: string }).python, '/x/py');
  assert.equal((parseCheckArgs(['--python=/x/py']) as { python?: string }).python, '/x/py');
  assert.match(String(parseCheckArgs(['--python'])), /option --python needs a value/);
  const real = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
  }).trim();
  const byDefault = hooksmith(['check', FAULTY, '--format', 'json']);
  const byPath = hooksmith(['check', FAULTY, '--format', 'json', '--python', real]);
  assert.equal(byDefault.code, 1);
  assert.equal(byPath.stdout, byDefault.stdout);
  assert.equal(byPath.stderr, '');
});

it('--python naming no interpreter: tree-sitter only, said once, findings still reported', () => {
  const r = hooksmith(['check', FAULTY, '--format', 'json', '--python', '/nonexistent/python3']);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.match(/syntax is checked by tree-sitter only: .*\/nonexistent\/python3/g)?.length,
    1,
    r.stderr,
  );
  const findings = JSON.parse(r.stdout) as { code: string }[];
  assert.ok(findings.some((f) => f.code === 'syntax-error'));
});
