// The Cayu lines and hook-API facts of the catalogue against what scripts/gen-cayu-line.py read from
// the installed packages (runtime/catalogue/cayu-lines/cayu-<version>.json): the engine is the judge.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CAYU_CONTEXT_METHODS,
  CAYU_CONTEXTS,
  CAYU_DECISIONS,
  CAYU_HOOK_PROPERTIES,
  CAYU_PHASES,
  CAYU_TOOL_RESULT_FIELDS,
  cayuLineFor,
  findCayuLine,
  modulesOf,
  type CayuNameKind,
} from '../../runtime/catalogue';

const DIR = join(__dirname, '..', '..', 'runtime', 'catalogue', 'cayu-lines');

interface Exported {
  defined?: string;
  at?: string;
  removed?: string;
}
interface LineData {
  cayu: string;
  modules: Record<string, Record<string, Exported> | null>;
  hookApi: {
    hooksModule: string;
    phases: { id: string; context: string }[];
    hookProperties: Record<string, { type: string }>;
    decisions: Record<string, { actions: string[]; fields: Record<string, string>; extra: string }>;
    contexts: Record<
      string,
      { properties: Record<string, { type: string }>; methods: Record<string, unknown> }
    >;
    toolResult: { fields: Record<string, unknown> };
    hookEvents: string[];
  };
}

const recorded: LineData[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as LineData);

const NAMES: Record<CayuNameKind, string[]> = {
  hooks: [
    'RuntimeHook',
    'RuntimeHookPhase',
    'RuntimeHookContext',
    'ToolCallHookContext',
    'BeforeToolCallHookContext',
    'BeforeToolCallDecision',
    'AfterToolCallDecision',
  ],
  toolResult: ['ToolResult'],
  events: ['Event', 'EventType'],
};

test('a recorded file per line: 0.3.0 and 0.15.0', () => {
  assert.deepEqual(recorded.map((d) => d.cayu).sort(), ['0.15.0', '0.3.0']);
});

for (const data of recorded) {
  const found = Object.fromEntries(
    ['cayu.runtime.hooks', 'cayu.observability.hooks'].map((m) => [m, !!data.modules[m]]),
  );
  const id = cayuLineFor({ version: data.cayu, modules: found });
  const line = findCayuLine(id);

  test(`cayu ${data.cayu}: its line's modules export every name they are said to, and no removed path is offered`, () => {
    assert.ok(line, `a line for cayu ${data.cayu}`);
    assert.equal(line.hooksModule, data.hookApi.hooksModule);
    const wrong: string[] = [];
    for (const kind of Object.keys(NAMES) as CayuNameKind[])
      for (const module of modulesOf(line, kind))
        for (const name of NAMES[kind]) {
          const got = data.modules[module]?.[name];
          if (!got?.defined) wrong.push(`${module}.${name}: ${got?.removed ?? 'absent'}`);
        }
    for (const [module, names] of Object.entries(line.partialHookModules ?? {}))
      for (const name of names)
        if (!data.modules[module]?.[name]?.defined) wrong.push(`${module}.${name} (partial)`);
    assert.deepEqual(wrong, []);
  });

  test(`cayu ${data.cayu}: a module that has every hook name publicly is one of the line's`, () => {
    const missing = Object.entries(data.modules)
      .filter(([, names]) => names && NAMES.hooks.every((n) => (names[n] as { public?: boolean })?.public))
      .map(([m]) => m)
      .filter((m) => !line!.hookModules.includes(m));
    assert.deepEqual(missing, []);
  });

  test(`cayu ${data.cayu}: phases, contexts, decisions, hook properties and ToolResult are the catalogue's`, () => {
    const api = data.hookApi;
    assert.deepEqual(
      api.phases.map((p) => [p.id, p.context]).sort(),
      CAYU_PHASES.map((p) => [p.id, p.context]).sort(),
    );
    for (const d of CAYU_DECISIONS) {
      const real = api.decisions[d.name]!;
      assert.deepEqual(
        d.actions.map((a) => a.action),
        real.actions,
        d.name,
      );
      assert.deepEqual(Object.keys(d.fields).sort(), Object.keys(real.fields).sort(), d.name);
      assert.equal(real.extra, 'forbid');
    }
    for (const c of CAYU_CONTEXTS) {
      const real = api.contexts[c.name]!;
      assert.deepEqual(Object.keys(c.properties).sort(), Object.keys(real.properties).sort(), c.name);
      for (const [p, type] of Object.entries(c.properties))
        assert.equal(type, real.properties[p]!.type, `${c.name}.${p}`);
      assert.deepEqual([...CAYU_CONTEXT_METHODS].sort(), Object.keys(real.methods).sort(), c.name);
    }
    assert.deepEqual(
      CAYU_HOOK_PROPERTIES.map((p) => [p.name, p.type]).sort(),
      Object.entries(api.hookProperties)
        .map(([n, p]) => [n, p.type])
        .sort(),
    );
    assert.deepEqual(Object.keys(CAYU_TOOL_RESULT_FIELDS).sort(), Object.keys(api.toolResult.fields).sort());
    assert.deepEqual(api.hookEvents, ['hook.completed', 'hook.failed', 'hook.started']);
  });
}

// What 0.15 does with `from cayu import RuntimeHook` (ImportError, cayu/_api.py:46-56), check says.
test('on the newer line, hook names from `cayu` are an import error naming cayu.observability; ToolResult from cayu is fine', async () => {
  const { initParser } = await import('../../runtime/python');
  const { parseModule, analyseModule } = await import('../../runtime/analysis');
  const { useCayuLine } = await import('../../runtime/catalogue');
  await initParser();
  const check = (text: string) => {
    const module = parseModule(text, '/x/runtime_hooks.py');
    return analyseModule({
      path: '/x/runtime_hooks.py',
      text,
      module,
      agentModules: [module],
      isMantleModule: false,
      options: {},
    }).filter((d) => d.code === 'import-error');
  };
  const HOOK = 'from cayu import RuntimeHook, ToolResult\n\n\nclass H(RuntimeHook):\n    pass\n';
  try {
    useCayuLine('cayu-newer');
    const found = check(HOOK);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.match(
      found[0]!.message,
      /`RuntimeHook` is not in `cayu` on cayu 0\.9 and newer.*`cayu\.observability`/,
    );
    assert.deepEqual(check('from cayu.observability import RuntimeHook\nfrom cayu import ToolResult\n'), []);
    // Guarded for both lines (the corpus and the example do this): left alone on either.
    const GUARDED =
      'try:\n    from cayu.observability import RuntimeHook\nexcept ImportError:\n    from cayu import RuntimeHook\n';
    assert.deepEqual(check(GUARDED), []);
    useCayuLine('cayu-0.3');
    assert.deepEqual(check(HOOK), []);
    assert.deepEqual(check(GUARDED), []);
  } finally {
    useCayuLine(undefined);
  }
});
