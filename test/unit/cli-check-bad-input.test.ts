// Hostile input through `hooksmith check`: each file gives a diagnostic and exit 1 — never a
// crash (exit 2 / internal error) or a hang.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hooksmith } from './cli-check-helpers';

interface JsonFinding {
  file: string;
  line: number;
  severity: string;
  code: string;
  message: string;
}

const HEADER = 'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n';

const CASES: Record<string, { bytes: Buffer; code: string; message?: RegExp }> = {
  'binary.py': {
    bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0xff, 0xfe]),
    code: 'syntax-error',
    message: /null bytes|binary/,
  },
  'one_mb_line.py': {
    bytes: Buffer.from(
      `${HEADER}@on_turn_started()\ndef big(payload: TurnStartedPayload) -> None:\n    blob = "${'x'.repeat(1024 * 1024)}"\n`,
    ),
    code: 'sync-handler',
  },
  'deep_nesting.py': {
    bytes: Buffer.from(`x = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`),
    code: 'syntax-error',
    message: /nest|parenthes|recursion/i,
  },
  'unterminated.py': {
    bytes: Buffer.from(
      `${HEADER}@on_turn_started()\nasync def s(payload: TurnStartedPayload) -> None:\n    x = "never closed\n`,
    ),
    code: 'syntax-error',
    message: /unterminated|string/i,
  },
  'latin1.py': {
    bytes: Buffer.concat([Buffer.from('x = "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]),
    code: 'syntax-error',
    message: /utf-8|decode/i,
  },
};

describe('hooksmith check on bad input', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'hooksmith-bad-'));
    mkdirSync(join(root, 'agent', 'hooks'), { recursive: true });
    for (const [name, c] of Object.entries(CASES)) writeFileSync(join(root, 'agent', 'hooks', name), c.bytes);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: ${c.code}, exit 1`, () => {
      const r = hooksmith(['check', join('agent', 'hooks', name), '--format', 'json'], root);
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /internal error/);
      const findings = JSON.parse(r.stdout) as JsonFinding[];
      const hit = findings.find((f) => f.code === c.code);
      assert.ok(hit, JSON.stringify(findings).slice(0, 500));
      assert.equal(hit.file, `agent/hooks/${name}`);
      assert.ok(hit.line >= 1);
      if (c.message) assert.match(hit.message, c.message);
    });
  }

  it('the whole agent at once: one finding per bad file, exit 1', () => {
    const r = hooksmith(['check', 'agent'], root);
    assert.equal(r.code, 1, r.stderr);
    for (const name of Object.keys(CASES))
      assert.match(r.stdout, new RegExp(`agent/hooks/${name.replace('.', '\\.')}:\\d+:\\d+: error`));
    assert.match(r.stdout, /5 errors, 0 warnings, 0 infos in 5 files checked/);
  });
});
