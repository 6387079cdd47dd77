// Sources whose models are snapshotted (fixtures/model-snapshot.json): every example module,
// generated bench modules and a few awkward texts (non-ASCII, CRLF, lone CR, syntax errors).
// Regenerate deliberately with: node --import tsx test/unit/python/model-snapshot-sources.ts --write
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { hookModuleSource } from '../../../bench/generate';
import { buildModel, initParser, parse } from '../../../runtime/python';
import type { HookModule } from '../../../runtime/python/model';
import { analyseModule } from '../../../runtime/analysis/module';
import type { HookDiagnostic } from '../../../runtime/rules/diagnostics';

const ROOT = join(__dirname, '..', '..', '..');
export const SNAPSHOT = join(__dirname, 'fixtures', 'model-snapshot.json');

function pyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p));
    else if (e.endsWith('.py')) out.push(p);
  }
  return out;
}

const AWKWARD: Record<string, string> = {
  'unicode.py':
    'from rasa.mantle.hooks import on_tool_call, ToolCallPayload\n\n# é 😀\n@on_tool_call()\nasync def café(p: ToolCallPayload) -> None:\n    x = "😀é"; p.arguments["é"] = 1\n    raise ValueError("ü")\n',
  'crlf.py':
    'from rasa.mantle.hooks import on_tool_call\r\n\r\n@on_tool_call\r\nasync def a(p):\r\n    return None\r\n',
  'lone-cr.py': 'from rasa.mantle.hooks import on_tool_call\r@on_tool_call()\rasync def a(p):\r    pass\r',
  'broken.py':
    'from rasa.mantle.hooks import on_tool_call\n\n@on_tool_call(\nasync def a(p)\n    return p.\n\ndef b(:\n  pass\n',
  'cayu.py':
    'from cayu.observability import RuntimeHook, HookDecision\n\nclass H(RuntimeHook):\n    phases = ("before_tool",)\n    name = "h"\n    async def before_tool(self, ctx, *, arguments: dict, **kw) -> HookDecision:\n        arguments["x"] = 1\n        if ctx:\n            return HookDecision.allow()\n\n    def sync(self, a, /, b=1, *args, c: int = 2, **kwargs): ...\n',
  'empty.py': '',
};

export function snapshotSources(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of pyFiles(join(ROOT, 'examples'))) out[relative(ROOT, f)] = readFileSync(f, 'utf8');
  out['bench-160.py'] = hookModuleSource(160);
  for (const [k, v] of Object.entries(AWKWARD)) out[`awkward/${k}`] = v;
  // Every import form, parameter kind, nested scope, match, f/t-strings and write target.
  out['awkward/forms.py'] = readFileSync(join(__dirname, 'fixtures', 'snapshot-forms.py'), 'utf8');
  out['awkward/forms-crlf.py'] = out['awkward/forms.py'].replace(/\n/g, '\r\n');
  return out;
}

export async function modelsOf(sources: Record<string, string>): Promise<Record<string, HookModule>> {
  await initParser();
  const out: Record<string, HookModule> = {};
  for (const [path, text] of Object.entries(sources)) {
    const tree = parse(text);
    try {
      out[path] = buildModel(tree, text, path);
    } finally {
      tree.delete();
    }
  }
  return out;
}

/** Every rule's diagnostics for each source, as a Mantle module of a one-module agent. */
export function diagnosticsOf(
  sources: Record<string, string>,
  models: Record<string, HookModule>,
): Record<string, HookDiagnostic[]> {
  const out: Record<string, HookDiagnostic[]> = {};
  for (const [path, text] of Object.entries(sources)) {
    const module = models[path];
    out[path] = analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
  }
  return out;
}

if (require.main === module && process.argv.includes('--write')) {
  const sources = snapshotSources();
  void modelsOf(sources).then((models) => {
    writeFileSync(SNAPSHOT, JSON.stringify({ models, diagnostics: diagnosticsOf(sources, models) }) + '\n');
  });
}
