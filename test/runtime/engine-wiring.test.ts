// Run Hook and Simulate Turn follow the installed rasa-pro on which points the engine invokes, as
// the not-wired rule does (runtime/catalogue/wiring.ts), with real python3: a rasa-pro 3.22 distribution on
// PYTHONPATH (its metadata only, so the shim still serves rasa.mantle.hooks) wires incoming_message;
// the hooksmith.mantle.wiredPoints setting overrides it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { getPayloadType } from '../../runtime/catalogue';
import { createHookRunner } from '../../runtime/engine/runner';

const HOOKS = `from rasa.mantle.hooks import IncomingMessagePayload, modify_incoming_message


@modify_incoming_message()
async def shout_in(message: IncomingMessagePayload) -> IncomingMessagePayload:
    return message.model_copy(update={"text": message.text.upper()})
`;

let dir: string;
let saved: string | undefined;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-wiring-'));
  const site = join(dir, 'site');
  mkdirSync(join(site, 'rasa'), { recursive: true });
  writeFileSync(join(site, 'rasa', '__init__.py'), '');
  mkdirSync(join(site, 'rasa_pro-3.22.0.dist-info'));
  writeFileSync(
    join(site, 'rasa_pro-3.22.0.dist-info', 'METADATA'),
    'Metadata-Version: 2.1\nName: rasa-pro\nVersion: 3.22.0\n',
  );
  mkdirSync(join(dir, 'agent'));
  writeFileSync(join(dir, 'agent', 'hooks.py'), HOOKS);
  writeFileSync(join(dir, 'agent', 'in.scenario.yaml'), 'user: "hello"\ncompletions:\n  - text: "ok"\n');
  saved = process.env.PYTHONPATH;
  process.env.PYTHONPATH = site;
});
after(() => {
  if (saved === undefined) delete process.env.PYTHONPATH;
  else process.env.PYTHONPATH = saved;
  rmSync(dir, { recursive: true, force: true });
});

const run = (wiredPoints?: string[]) => {
  const runner = createHookRunner(wiredPoints ? { wiredPoints: () => wiredPoints } : {});
  return {
    runner,
    hook: () =>
      runner.run({
        file: join(dir, 'agent', 'hooks.py'),
        handler: 'shout_in',
        payload: structuredClone(getPayloadType('IncomingMessagePayload').sample),
      }),
    sim: () => runner.simulate(join(dir, 'agent', 'in.scenario.yaml')),
  };
};

test('rasa-pro 3.22 installed: no not-wired note on a run; the turn fires incoming_message', async () => {
  const r = run();
  try {
    const result = await r.hook();
    assert.equal(result.outcome, 'returned');
    assert.deepEqual(
      result.notes.filter((n) => n.startsWith('not invoked')),
      [],
    );
    const sim = await r.sim();
    const ev = sim.events.find((e) => e.point === 'incoming_message');
    assert.ok(ev, sim.events.map((e) => e.point).join(','));
    assert.equal(ev.wired, true);
    assert.equal(ev.wiredBy, 'rasa-pro 3.22.0');
    assert.ok(sim.events.some((e) => e.point === 'outgoing_text'));
  } finally {
    await r.runner.dispose();
  }
});

test('the wiredPoints setting overrides the installed version, in the same words as the rule', async () => {
  const r = run(['tool_call']);
  try {
    const result = await r.hook();
    assert.ok(
      result.notes.includes(
        'not invoked by the hooksmith.mantle.wiredPoints setting: this is what the engine would do once the point is wired',
      ),
      result.notes.join('; '),
    );
    const sim = await r.sim();
    assert.ok(!sim.events.some((e) => e.point === 'incoming_message'));
  } finally {
    await r.runner.dispose();
  }
});
