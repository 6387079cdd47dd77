// One answer to "does the engine invoke this point, on whose word" (runtime/catalogue/wiring.ts): the
// not-wired rule, a run's notes, the simulator (which points fire, their notes) and the timeline's
// label say the same thing for the same installed rasa-pro / setting, so they cannot disagree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getPoint, type PointId } from '../../runtime/catalogue';
import type { HostCall, HostFact, HostPort } from '../../runtime/engine/host-port';
import { mantleVerdict } from '../../runtime/engine/mantle-outcome';
import { scenarioSchema } from '../../runtime/engine/scenario-schema';
import type { AgentHooks } from '../../runtime/engine/agent-hooks';
import { simulateTurn } from '../../runtime/engine/emulation/simulator';
import { renderTimelineHtml, unwiredLabel } from '../../runtime/ui/timeline-html';
import { buildTree } from '../../client/explorer/tree-model';
import { notInvokedBy, pointWired, type WiringSource } from '../../runtime/catalogue/wiring';
import { diagnose, py } from './rules/helpers';

const engine = (rasaPro: string | null) => ({ rasaPro, cayu: null, mantle: null, cayuHooks: null });
type Source = (WiringSource & { engine?: ReturnType<typeof engine> }) | undefined;
const SOURCES: [string, Source, string | undefined][] = [
  // [what, source, the word on which incoming_message is not wired (undefined: it is wired)]
  // rasa-pro 3.21 invokes incoming_message (processor.py:200; engine-lines/rasa-pro-3.21.json).
  ['nothing known (the catalogue)', undefined, undefined],
  ['rasa-pro 3.21.4 installed', { engine: engine('3.21.4') }, undefined],
  ['rasa-pro 3.22.0 installed', { engine: engine('3.22.0') }, undefined],
  [
    'the setting over rasa-pro 3.22.0',
    { engine: engine('3.22.0'), wiredPoints: new Set(['tool_call']) },
    'the hooksmith.mantle.wiredPoints setting',
  ],
];

const HOOK = py`
  from rasa.mantle.hooks import IncomingMessagePayload, modify_incoming_message

  @modify_incoming_message()
  async def keep(message: IncomingMessagePayload) -> IncomingMessagePayload:
      return message
`;

const returned = (call: HostCall): Extract<HostFact, { kind: 'returned' }> => ({
  kind: 'returned',
  value: { kind: 'payload', type: call.payloadType!, data: call.payload as Record<string, unknown> },
  durationMs: 0.1,
  output: '',
});
const host: HostPort = { invoke: async (call) => returned(call), dispose: async () => {} };

/** An agent with one modify hook at incoming_message. */
function agent(): AgentHooks {
  const id: PointId = 'incoming_message';
  return {
    root: '/agent',
    observe: new Map(),
    modify: new Map([
      [
        id,
        {
          file: '/agent/hooks.py',
          agentRoot: '/agent',
          label: 'hooks.py::keep',
          target: { engine: 'mantle', handler: 'keep', point: getPoint(id), lane: 'modify', timeoutMs: 500 },
        },
      ],
    ]),
    cayu: new Map(),
    hasCayu: false,
    diagnostics: [],
    errors: [],
  };
}

for (const [what, source, by] of SOURCES) {
  test(`${what}: the rule, a run, the simulator and the timeline agree`, async () => {
    const point = getPoint('incoming_message');
    assert.deepEqual(pointWired(point, source), by ? { wired: false, by } : pointWired(point, source));
    const words = by && notInvokedBy(by);

    // The not-wired rule.
    const diags = await diagnose('not-wired', HOOK, {
      environment: { python: 'python3', resolves: () => true, ...source },
    });
    assert.equal(diags.length, by ? 1 : 0, JSON.stringify(diags));
    if (words) assert.ok(diags[0]!.message.includes(` are ${words}: `), diags[0]!.message);

    // A run's notes (Run Hook, `hooksmith run`).
    const input = { text: 'hi', sender_id: 's', channel: { name: 'rest', metadata: {} } };
    const v = mantleVerdict(
      point,
      'modify',
      input,
      returned({ payloadType: 'IncomingMessagePayload', payload: input } as HostCall),
      pointWired(point, source),
    );
    const notes = v.notes.filter((n) => n.startsWith('not invoked by '));
    assert.deepEqual(
      notes,
      words ? [`${words}: this is what the engine would do once the point is wired`] : [],
    );

    // The simulator: without fire_unwired, the point fires exactly when it is wired.
    const sc = scenarioSchema.parse({ user: 'hi', completions: [{ text: 'ok' }] });
    const plain = await simulateTurn(host, agent(), sc, 'inline', source);
    assert.equal(
      plain.events.some((e) => e.point === 'incoming_message'),
      !by,
    );
    // With fire_unwired it fires; its event and note name the same word, and so does the timeline.
    const fired = await simulateTurn(host, agent(), { ...sc, fire_unwired: true }, 'inline', source);
    const ev = fired.events.find((e) => e.point === 'incoming_message')!;
    assert.equal(ev.wired, !by);
    assert.equal(ev.wiredBy, pointWired(point, source).by);
    const html = renderTimelineHtml(fired, { nonce: 'n', cspSource: 'c' });
    if (words) {
      assert.equal(unwiredLabel(ev), words);
      assert.ok(
        ev.notes.includes(`${words} (fired because the scenario sets fire_unwired)`),
        ev.notes.join('; '),
      );
      assert.ok(html.includes(`<span class="unwired-label">${words}</span>`));
    } else assert.ok(!html.includes('class="unwired-label"'));

    // The explorer (the server lists the hook with the same answer): its point and tooltip.
    const w = pointWired(point, source);
    const [node] = buildTree({
      agents: [
        {
          root: '/agent',
          hooks: [
            {
              file: '/agent/hooks.py',
              uri: 'file:///agent/hooks.py',
              range: { start: { line: 3, character: 10 }, end: { line: 3, character: 14 } },
              engine: 'mantle',
              point: 'incoming_message',
              lane: 'modify',
              timeoutMs: 500,
              wired: w.wired,
              wiredBy: w.by,
              duplicate: false,
              handler: 'keep',
            },
          ],
        },
      ],
    });
    const group = node!.children[0] as {
      wired: boolean;
      description: string;
      children: { tooltip: string }[];
    };
    assert.equal(group.wired, !by);
    assert.equal(group.description.includes('not wired'), !!by);
    const tip = group.children[0]!.tooltip;
    if (words) assert.ok(tip.includes(`Not wired: ${words}`), tip);
    else assert.ok(!tip.includes('Not wired'), tip);
  });
}
