import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hooksmith, ROOT } from './cli-check-helpers';
import { RULES } from '../../runtime/rules';
import { CAYU_PHASE_IDS, HOOK_DECORATORS } from '../../runtime/catalogue';
import { discover } from '../../runtime/workspace/discovery';
import { initParser } from '../../runtime/python';
import { mantleHooks } from '../../runtime/python/hooks';
import { parseModule, phaseMethodsOf } from './cli-check-examples';

interface JsonFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
}

const FAULTY = 'examples/faulty-agent';

describe('examples/clean-agent covers the whole API', () => {
  it('registers every decorator over hooks.py and hooks/*.py, and overrides all 5 Cayu phases', async () => {
    await initParser();
    const [agent] = discover([join(ROOT, 'examples/clean-agent')]).agents;
    assert.ok(agent);
    const rel = agent.mantleModules.map((p) => p.slice(ROOT.length + 1));
    assert.ok(rel.includes('examples/clean-agent/hooks.py') && !rel.some((p) => p.endsWith('__init__.py')));
    const decorators = agent.mantleModules.flatMap((p) =>
      mantleHooks(parseModule(p)).map((h) => h.hook.name),
    );
    assert.deepEqual([...decorators].sort(), HOOK_DECORATORS.map((d) => d.name).sort());
    const phases = agent.cayuModules.flatMap((p) => phaseMethodsOf(parseModule(p)));
    assert.deepEqual([...new Set(phases)].sort(), [...CAYU_PHASE_IDS].sort());
  });
});

/**
 * Without rasa-pro / cayu installed, each import of them gets import-error's information (the
 * shim stands in): it depends on the machine, so the example sets leave it out.
 */
function withoutShimInfos(findings: JsonFinding[]): JsonFinding[] {
  return findings.filter((f) => !(f.code === 'import-error' && f.severity === 'information'));
}

/**
 * rasa-pro 3.21 invokes every point (engine-lines/rasa-pro-3.21.json): the faulty agent shows
 * `not-wired` for an engine that leaves the incoming/outgoing text points out.
 */
const WITHOUT_TEXT_POINTS = [
  '--wired-points',
  'turn_started,turn_finished,model_request,model_response,tool_call,tool_result,knowledge_query,knowledge_results',
];

describe('hooksmith check', () => {
  it('clean-agent: exit 0, no finding (rasa-pro 3.21 invokes its incoming/outgoing text hooks too)', () => {
    const r = hooksmith(['check', 'examples/clean-agent', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const findings = withoutShimInfos(JSON.parse(r.stdout) as JsonFinding[]);
    assert.deepEqual(findings, []);
    const unwired = hooksmith(['check', 'examples/clean-agent', '--format', 'json', ...WITHOUT_TEXT_POINTS]);
    const infos = withoutShimInfos(JSON.parse(unwired.stdout) as JsonFinding[]);
    assert.ok(infos.length > 0);
    for (const f of infos) {
      assert.equal(f.code, 'not-wired', `${f.file}:${f.line} ${f.code} ${f.message}`);
      assert.equal(f.severity, 'information');
      assert.match(f.message, /incoming|outgoing/);
    }
  });

  it('faulty-agent: exit 1 and exactly the expected (file, line, code) set, every code at least once', () => {
    const r = hooksmith(['check', FAULTY, '--format', 'json', ...WITHOUT_TEXT_POINTS]);
    assert.equal(r.code, 1, r.stderr);
    const findings = withoutShimInfos(JSON.parse(r.stdout) as JsonFinding[]);
    const got = findings.map((f) => `${f.file}:${f.line}:${f.code}`).sort();
    const expected = (
      JSON.parse(readFileSync(join(ROOT, FAULTY, 'expected.json'), 'utf8')) as {
        file: string;
        line: number;
        code: string;
      }[]
    )
      .map((e) => `${FAULTY}/${e.file}:${e.line}:${e.code}`)
      .sort();
    assert.deepEqual(got, expected);
    const codes = new Set(findings.map((f) => f.code));
    for (const rule of RULES) assert.ok(codes.has(rule.code), `no fault for ${rule.code}`);
    // Every finding sits on a line whose comment names its code.
    for (const f of findings) {
      const line = readFileSync(join(ROOT, f.file), 'utf8').split('\n')[f.line - 1]!;
      assert.ok(line.includes(`# ${f.code}`), `${f.file}:${f.line} lacks '# ${f.code}': ${line}`);
      assert.ok(f.column >= 1 && f.endLine >= f.line);
    }
  });

  it('text format: compiler-style lines, 1-based, and a summary', () => {
    const r = hooksmith(['check', `${FAULTY}/runtime_hooks.py`]);
    assert.equal(r.code, 1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter((l) => !/ info import-error /.test(l));
    assert.ok(
      lines.includes(
        `${FAULTY}/runtime_hooks.py:22:9: error cayu-sync-method FaultyGuard.after_session_completed must be 'async def': the runtime awaits it, and awaiting its result raises TypeError on every call; the runtime logs the failure and the session keeps its status`,
      ),
      r.stdout,
    );
    assert.match(lines[lines.length - 1]!, /^\d+ errors, 2 warnings, [01] infos? in 1 file checked$/);
    assert.ok(
      lines.every(
        (l, i) =>
          i === lines.length - 1 ||
          /^examples\/faulty-agent\/runtime_hooks\.py:\d+:\d+: (error|warning) cayu-/.test(l),
      ),
    );
  });

  it('a single file keeps its agent siblings (duplicate-modify-hook across files) but reports only that file', () => {
    const r = hooksmith(['check', `${FAULTY}/hooks/dup_a.py`, '--format', 'json']);
    assert.equal(r.code, 1);
    const findings = withoutShimInfos(JSON.parse(r.stdout) as JsonFinding[]);
    assert.deepEqual(
      findings.map((f) => `${f.file}:${f.line}:${f.code}`),
      [`${FAULTY}/hooks/dup_a.py:5:duplicate-modify-hook`],
    );
  });

  it('default PATH is the current directory; files are relative to it', () => {
    const r = hooksmith(['check', '--format=json'], join(ROOT, FAULTY));
    assert.equal(r.code, 1, r.stderr);
    const files = new Set((JSON.parse(r.stdout) as JsonFinding[]).map((f) => f.file));
    assert.ok(files.has('runtime_hooks.py') && files.has('hooks/dup_b.py'), [...files].join(','));
  });

  it('sarif: 2.1.0 with driver, rules, relative locations and related locations', () => {
    const r = hooksmith(['check', FAULTY, '--format', 'sarif', ...WITHOUT_TEXT_POINTS]);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'hooksmith');
    assert.match(run.tool.driver.version, /^\d+\.\d+\.\d+/);
    assert.match(run.tool.driver.informationUri, /^https:\/\//);
    const ids = run.tool.driver.rules.map((x: { id: string }) => x.id);
    assert.deepEqual(
      ids,
      RULES.map((x) => x.code),
    );
    for (const rule of run.tool.driver.rules) {
      assert.ok(rule.shortDescription.text.length > 0 && rule.helpUri.startsWith('https://'));
      assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level));
    }
    const shimNote = (x: { ruleId: string; level: string }) =>
      x.ruleId === 'import-error' && x.level === 'note';
    const expected = JSON.parse(readFileSync(join(ROOT, FAULTY, 'expected.json'), 'utf8')) as unknown[];
    assert.equal(
      run.results.filter((x: { ruleId: string; level: string }) => !shimNote(x)).length,
      expected.length,
    );
    const dup = run.results.find((x: { ruleId: string }) => x.ruleId === 'duplicate-modify-hook');
    const loc = dup.locations[0].physicalLocation;
    assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%');
    assert.match(loc.artifactLocation.uri, /^examples\/faulty-agent\/hooks\/dup_[ab]\.py$/);
    assert.equal(loc.region.startLine, 5);
    assert.equal(loc.region.startColumn, 1);
    assert.equal(dup.relatedLocations.length, 1);
    assert.ok(run.results.every((x: { level: string }) => ['error', 'warning', 'note'].includes(x.level)));
    const info = run.results.find((x: { ruleId: string }) => x.ruleId === 'not-wired');
    assert.equal(info.level, 'note');
  });

  it('usage errors exit 2 with a clear message: unknown flag, bad format, missing path', () => {
    const flag = hooksmith(['check', '--strict']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /unknown option '--strict'/);
    const fmt = hooksmith(['check', '--format', 'xml']);
    assert.equal(fmt.code, 2);
    assert.match(fmt.stderr, /unknown format 'xml'/);
    const missing = hooksmith(['check', 'no/such/agent']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or directory: no\/such\/agent/);
    assert.equal(missing.stdout, '');
    const notPy = hooksmith(['check', `${FAULTY}/expected.json`]);
    assert.equal(notPy.code, 2);
    assert.match(notPy.stderr, /not a Python file: examples\/faulty-agent\/expected\.json/);
  });
});
