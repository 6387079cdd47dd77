import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { analyseFiles, analyseModule, diagnoseModule } from '../../runtime/analysis';
import { initParser } from '../../runtime/python';
import { parseModule } from '../../runtime/analysis';
import type { Rule } from '../../runtime/rules/rule';
import { RULES } from '../../runtime/rules';

const MANTLE = `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started()
def started(payload: TurnStartedPayload) -> None:
    return None
`;
const CAYU = `from cayu import RuntimeHook


class H(RuntimeHook):
    def after_session_failed(self, context):
        return None
`;

function input(text: string, isMantleModule: boolean, options = {}) {
  const module = parseModule(text, '/x/hooks.py');
  return { path: '/x/hooks.py', text, module, agentModules: [module], isMantleModule, options };
}

describe('analyseModule', () => {
  before(async () => {
    await initParser();
  });

  it('runs Mantle rules only on Mantle modules, Cayu rules everywhere', () => {
    assert.deepEqual(
      analyseModule(input(MANTLE, true)).map((d) => d.code),
      ['sync-handler'],
    );
    assert.deepEqual(
      analyseModule(input(MANTLE, false)).map((d) => d.code),
      [],
    );
    assert.deepEqual(
      analyseModule(input(CAYU, false)).map((d) => d.code),
      ['cayu-sync-method'],
    );
  });

  it('turns rules off and overrides severities by code', () => {
    assert.deepEqual(analyseModule(input(CAYU, false, { rules: { 'cayu-sync-method': false } })), []);
    const [d] = analyseModule(input(CAYU, false, { severity: { 'cayu-sync-method': 'hint' } }));
    assert.equal(d!.severity, 'hint');
  });

  it('a rule that throws is logged and the others still run', () => {
    const logs: string[] = [];
    const boom: Rule = {
      ...RULES[0]!,
      code: 'boom',
      engine: 'python',
      check: () => {
        throw new Error('kaput');
      },
    };
    const found = analyseModule(input(CAYU, false, { logger: (m: string) => logs.push(m) }), [
      boom,
      ...RULES,
    ]);
    assert.deepEqual(
      found.map((d) => d.code),
      ['cayu-sync-method'],
    );
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /rule boom failed on \/x\/hooks\.py: kaput/);
  });
});

describe('diagnoseModule', () => {
  before(async () => {
    await initParser();
  });
  const SUPPRESSED = MANTLE.replace('-> None:', '-> None:  # hooksmith: ignore[sync-handler, blocking-call]');

  it('runs the rules, then the suppression comments: found keeps what they hid', () => {
    const { found, diagnostics } = diagnoseModule(input(SUPPRESSED, true));
    assert.deepEqual(
      found.map((d) => d.code),
      ['sync-handler'],
    );
    assert.deepEqual(
      diagnostics.map((d) => `${d.code}:${d.message}`),
      ['unused-suppression:Unused suppression: no blocking-call diagnostic on this line to ignore.'],
    );
  });

  it('re-running some rules replaces only their codes among the earlier findings', () => {
    const sync = RULES.find((r) => r.code === 'sync-handler')!;
    const other = { ...analyseModule(input(MANTLE, true))[0]!, code: 'not-wired' };
    const stale = { ...other, code: 'sync-handler', message: 'stale' };
    const { found } = diagnoseModule(input(MANTLE, true), { rules: [sync], earlier: [other, stale] });
    assert.deepEqual(found.map((d) => d.code).sort(), ['not-wired', 'sync-handler']);
    assert.ok(!found.some((d) => d.message === 'stale'));
    assert.deepEqual(diagnoseModule(input(MANTLE, true), { rules: [], earlier: [other] }).found, [other]);
  });
});

describe('analyseFiles', () => {
  let root: string;
  const put = (rel: string, text: string | Buffer) => {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'hooksmith-an-'));
    put('agent/hooks.py', MANTLE);
    put('agent/hooks/bad_default.py', 'async def f(a=1, b):\n    pass\n');
    put('agent/hooks/binary.py', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    put('agent/hooks/latin1.py', Buffer.from('x = "caf\xe9"\n', 'latin1'));
    put('agent/runtime_hooks.py', CAYU);
    put('agent/mentions.py', '# RuntimeHook is mentioned but never subclassed\nx = 1\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('checks Mantle modules and confirmed Cayu files, with CPython confirming syntax', async () => {
    const { diagnostics, missing, fileCount } = await analyseFiles([join(root, 'agent')]);
    assert.deepEqual(missing, []);
    assert.equal(fileCount, 5);
    // import-error's information (the shim stands in for rasa.mantle.hooks / cayu) is not counted here.
    const codes = (f: string) =>
      (diagnostics.get(join(root, 'agent', f)) ?? []).map((d) => d.code).filter((c) => c !== 'import-error');
    assert.deepEqual(codes('hooks.py'), ['sync-handler']);
    assert.deepEqual(codes('runtime_hooks.py'), ['cayu-sync-method']);
    assert.equal(diagnostics.has(join(root, 'agent/mentions.py')), false);
    // tree-sitter accepts `def f(a=1, b)`; CPython does not.
    const bad = diagnostics.get(join(root, 'agent/hooks/bad_default.py'))!;
    assert.equal(bad[0]!.code, 'syntax-error');
    assert.match(bad[0]!.message, /default argument/);
    assert.match(diagnostics.get(join(root, 'agent/hooks/binary.py'))![0]!.message, /binary/);
    assert.match(diagnostics.get(join(root, 'agent/hooks/latin1.py'))![0]!.message, /UTF-8/);
  });

  it('with cpython: false, no verdict comes from Python', async () => {
    const { diagnostics } = await analyseFiles([join(root, 'agent/hooks/bad_default.py')], {
      cpython: false,
    });
    for (const d of diagnostics.get(join(root, 'agent/hooks/bad_default.py'))!)
      assert.doesNotMatch(d.message, /reported by Python/);
  });

  it('reports missing paths', async () => {
    const r = await analyseFiles([join(root, 'nope')]);
    assert.deepEqual(r.missing, [join(root, 'nope')]);
    assert.equal(r.fileCount, 0);
  });
});

describe('analyseFiles with a failing front end', () => {
  it('logs a file the parser throws on and still checks the others; survives a CPython failure', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hooksmith-an2-'));
    try {
      mkdirSync(join(root, 'hooks'));
      writeFileSync(join(root, 'hooks', 'a.py'), MANTLE);
      writeFileSync(join(root, 'hooks', 'b.py'), MANTLE);
      const logs: string[] = [];
      const parse = (text: string, path: string) => {
        if (path.endsWith('a.py')) throw new Error('parser bug');
        return parseModule(text, path);
      };
      // An "interpreter" that exits before answering.
      const python = '/bin/false';
      const r = await analyseFiles([root], { parse, python, options: { logger: (m) => logs.push(m) } });
      assert.deepEqual([...r.diagnostics.keys()], [join(root, 'hooks', 'b.py')]);
      assert.deepEqual(
        r.diagnostics.get(join(root, 'hooks', 'b.py'))!.map((d) => d.code),
        ['sync-handler'],
      );
      assert.equal(logs.length, 2);
      assert.equal(logs.filter((l) => /could not analyse .*a\.py: parser bug/.test(l)).length, 1);
      assert.equal(
        logs.filter((l) =>
          /syntax is checked by tree-sitter only: \/bin\/false exited before answering/.test(l),
        ).length,
        1,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
