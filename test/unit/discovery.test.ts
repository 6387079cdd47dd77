import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  discover,
  findAgentRoot,
  isMantleModulePath,
  MAX_ENTRIES,
  nodeFs,
} from '../../runtime/workspace/discovery';

const HOOK = 'from cayu.observability import RuntimeHook\nclass H(RuntimeHook):\n    pass\n';

let root: string;
function put(rel: string, text = '') {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}
const rel = (ps: string[]) => ps.map((p) => p.slice(root.length + 1)).sort();

describe('discovery', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'hooksmith-disc-'));
    // agent a: both layouts, nested folders, excluded files, lib and a Cayu file
    put('agents/a/hooks.py');
    put('agents/a/hooks/__init__.py');
    put('agents/a/hooks/x.py');
    put('agents/a/hooks/deep/y.py');
    put('agents/a/hooks/deep/__init__.py');
    put('agents/a/hooks/__pycache__/x.cpython-312.py');
    put('agents/a/hooks/x.pyc');
    put('agents/a/hooks/notes.txt');
    put('agents/a/lib/pii.py', 'def redact(t): return t\n');
    put('agents/a/runtime_hooks.py', HOOK);
    // agent b: folder layout only; a venv and node_modules that must not be searched
    put('agents/b/hooks/only.py');
    put('agents/b/.venv/lib/hooks.py');
    put('agents/node_modules/c/hooks.py');
    put('agents/venv2/pyvenv.cfg');
    put('agents/venv2/hooks.py');
    // loose Cayu file outside every agent
    put('agents/tools/guard.py', HOOK);
    put('agents/tools/plain.py', 'x = 1\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('the loader rule: hooks.py and hooks/**/*.py, no __init__.py or __pycache__ (pure)', () => {
    assert.ok(isMantleModulePath('/r', '/r/hooks.py'));
    assert.ok(isMantleModulePath('/r', '/r/hooks/a/b.py'));
    assert.ok(!isMantleModulePath('/r', '/r/hooks/__init__.py'));
    assert.ok(!isMantleModulePath('/r', '/r/hooks/__pycache__/b.py'));
    assert.ok(!isMantleModulePath('/r', '/r/hooks/b.pyc'));
    assert.ok(!isMantleModulePath('/r', '/r/lib/hooks.py'));
  });

  it('agents nested in an agent folder are found; the outer hooks/ folder is not searched for roots', () => {
    put('nest/hooks.py');
    put('nest/hooks/inner/hooks.py');
    put('nest/examples/inner-agent/hooks/z.py');
    put('nest/examples/inner-agent/runtime_hooks.py', HOOK);
    const { agents } = discover([join(root, 'nest')]);
    const roots = agents.map((a) => a.root.slice(root.length + 1)).sort();
    assert.deepEqual(roots, ['nest', 'nest/examples/inner-agent']);
    const outer = agents.find((a) => a.root === join(root, 'nest'))!;
    assert.deepEqual(rel(outer.mantleModules), ['nest/hooks.py', 'nest/hooks/inner/hooks.py']);
    assert.deepEqual(outer.cayuModules, []);
    const inner = agents.find((a) => a.root === join(root, 'nest/examples/inner-agent'))!;
    assert.deepEqual(rel(inner.mantleModules), ['nest/examples/inner-agent/hooks/z.py']);
    assert.deepEqual(rel(inner.cayuModules), ['nest/examples/inner-agent/runtime_hooks.py']);
  });

  it('an agent root: its Mantle modules and Cayu candidates', () => {
    const { agents, missing } = discover([join(root, 'agents/a')]);
    assert.deepEqual(missing, []);
    assert.equal(agents.length, 1);
    assert.deepEqual(rel(agents[0]!.mantleModules), [
      'agents/a/hooks.py',
      'agents/a/hooks/deep/y.py',
      'agents/a/hooks/x.py',
    ]);
    assert.deepEqual(rel(agents[0]!.cayuModules), ['agents/a/runtime_hooks.py']);
    assert.equal(agents[0]!.report, undefined);
  });

  it('a folder of agents: every root below, skipping venvs, node_modules and dot-folders, plus loose Cayu files', () => {
    const { agents } = discover([join(root, 'agents')]);
    const roots = agents.map((a) => a.root.slice(root.length + 1)).sort();
    assert.deepEqual(roots, ['agents', 'agents/a', 'agents/b']);
    const loose = agents.find((a) => a.root === join(root, 'agents'))!;
    assert.deepEqual(rel(loose.cayuModules), ['agents/tools/guard.py']);
    assert.deepEqual(loose.mantleModules, []);
    const b = agents.find((a) => a.root === join(root, 'agents/b'))!;
    assert.deepEqual(rel(b.mantleModules), ['agents/b/hooks/only.py']);
  });

  it('a single file: walks up to its agent root and reports only that file', () => {
    const file = join(root, 'agents/a/hooks/deep/y.py');
    assert.equal(findAgentRoot(file, nodeFs), join(root, 'agents/a'));
    const { agents } = discover([file]);
    assert.equal(agents[0]!.root, join(root, 'agents/a'));
    assert.deepEqual(agents[0]!.report, [file]);
    assert.equal(agents[0]!.mantleModules.length, 3);
  });

  it('the same agent asked twice is merged; missing paths are listed', () => {
    const { agents, missing } = discover([
      join(root, 'agents/a/hooks/x.py'),
      join(root, 'agents/a'),
      join(root, 'nope'),
    ]);
    assert.equal(agents.length, 1);
    assert.equal(agents[0]!.report, undefined);
    assert.deepEqual(missing, [join(root, 'nope')]);
  });

  it('does not loop on a symlinked folder', () => {
    symlinkSync(join(root, 'agents'), join(root, 'agents/b/hooks/loop'));
    const { agents } = discover([join(root, 'agents/b')]);
    assert.deepEqual(rel(agents[0]!.mantleModules), ['agents/b/hooks/only.py']);
    rmSync(join(root, 'agents/b/hooks/loop'));
  });

  it('works over an in-memory file system (the language server can bring its own)', () => {
    const files = new Map([
      ['/w/hooks/a.py', ''],
      ['/w/cayu.py', HOOK],
    ]);
    const dirs = new Set(['/w', '/w/hooks']);
    const kind = (p: string) =>
      files.has(p) ? ('file' as const) : dirs.has(p) ? ('dir' as const) : undefined;
    const mem = {
      kind,
      entries: (d: string) =>
        [...files.keys(), ...dirs]
          .filter((p) => dirname(p) === d && p !== d)
          .map((p) => ({ name: p.slice(d.length + 1), kind: kind(p), symlink: false })),
      head: (f: string) => files.get(f) ?? '',
    };
    const { agents } = discover(['/w'], mem);
    assert.deepEqual(agents, [{ root: '/w', mantleModules: ['/w/hooks/a.py'], cayuModules: ['/w/cayu.py'] }]);
  });

  it('stops after a bound of files and folders and says so (a root such as / stays bounded)', () => {
    const all = discover([join(root, 'agents')]);
    assert.equal(all.capped, undefined);
    const bounded = discover([join(root, 'agents')], nodeFs, 5);
    assert.equal(bounded.capped, 5);
    assert.ok(
      bounded.agents.flatMap((a) => a.mantleModules).length <
        all.agents.flatMap((a) => a.mantleModules).length,
    );
    assert.equal(MAX_ENTRIES, 100_000);
  });

  it('never walks the system folders (/proc, /sys, /dev, /run)', () => {
    const asked: string[] = [];
    const fs = {
      kind: (p: string) =>
        ['/', '/proc', '/sys', '/dev', '/run', '/srv'].includes(p) ? ('dir' as const) : undefined,
      entries: (d: string) => {
        asked.push(d);
        return d === '/'
          ? ['proc', 'sys', 'dev', 'run', 'srv'].map((name) => ({
              name,
              kind: 'dir' as const,
              symlink: false,
            }))
          : [];
      },
      head: () => '',
    };
    discover(['/'], fs);
    assert.deepEqual(asked.sort(), ['/', '/srv']);
  });

  it('an unreadable folder is reported with why; one removed while walking is not', () => {
    const fs = {
      ...nodeFs,
      entries: (d: string) => {
        if (d.endsWith('/a')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        if (d.endsWith('/b')) throw Object.assign(new Error('ENOENT: gone'), { code: 'ENOENT' });
        return nodeFs.entries(d);
      },
    };
    const { unreadable } = discover([join(root, 'agents')], fs);
    assert.deepEqual(unreadable, [{ path: join(root, 'agents/a'), reason: 'permission denied' }]);
  });
});
