// PythonHost + hooksmith_host.py with real python3 and real hook code: Mantle hooks for every
// payload type, control signals, lib/ imports, module reload, load errors.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PAYLOAD_TYPES, getPayloadType, payloadSchema } from '../../runtime/catalogue';
import { AGENT, expectStatus, makeHost, mantle } from './fixtures/host/helpers';

const { host } = makeHost();
before(async () => {
  await host.start();
});
after(async () => {
  await host.dispose();
});

describe('hello', () => {
  test('reports the Python version and that the shims serve both APIs here', async () => {
    const info = await host.start();
    assert.match(info.python, /^3\.\d+\.\d+$/);
    assert.equal(info.realMantle, false);
    assert.equal(info.realCayu, false);
    assert.ok(info.pid > 0);
  });
});

describe('Mantle hooks with every payload type', () => {
  for (const type of PAYLOAD_TYPES) {
    const full = payloadSchema(type).parse(type.sample) as Record<string, unknown>;
    test(`modify passthrough gets a ${type.name} and returns it`, async () => {
      const r = expectStatus(
        await host.invoke(mantle('hooks/basic.py', 'passthrough', type.name, type.sample)),
        'returned',
      );
      assert.equal(r.valueType.name, type.name);
      assert.equal(r.valueType.module, 'rasa.mantle.hooks');
      assert.deepEqual(r.value, full);
      assert.equal(r.output.text, `modify saw ${type.name}\n`);
      assert.deepEqual(r.decorator, {
        decorator: 'modify_model_request',
        point: 'model_request',
        lane: 'modify',
        timeoutMs: 2000,
      });
      assert.ok(r.durationMs >= 0 && r.durationMs < 500);
      assert.equal(r.module, 'hooks.basic');
    });
    test(`observer gets a ${type.name} and returns None`, async () => {
      const r = expectStatus(
        await host.invoke(mantle('hooks/basic.py', 'observe', type.name, type.sample)),
        'returned',
      );
      assert.equal(r.value, null);
      assert.equal(r.valueType.qualname, 'builtins.NoneType');
      assert.equal(r.output.text, `observe saw ${type.name} demo-user rest\n`);
      assert.equal(r.payloadMutated, undefined);
    });
  }

  test('model_copy(update=...) rewrites a field; defaults are filled from the catalogue', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/basic.py', 'cool_down', 'ModelRequestPayload', { messages: [], sender_id: 'u1' }),
      ),
      'returned',
    );
    assert.deepEqual(r.value, {
      messages: [],
      model_settings: { temperature: 0.2 },
      tool_names: [],
      iteration: 0,
      sender_id: 'u1',
      call: { phone_number: null, metadata: {} },
      channel: { name: 'rest', metadata: {} },
    });
  });

  test('a hook importing lib/ from the agent root works (tool result value is JSON text)', async () => {
    const sample = getPayloadType('ToolResultPayload').sample;
    const r = expectStatus(
      await host.invoke(mantle('hooks/basic.py', 'redact_pii', 'ToolResultPayload', sample)),
      'returned',
    );
    const value = r.value as { value: string; arguments: Record<string, unknown> };
    assert.deepEqual(JSON.parse(value.value), { name: 'Ada', ssn: '[redacted]' });
    assert.deepEqual(value.arguments, { customer_id: 'c-42' });
  });

  test('the shim payload behaves like a Pydantic v2 model', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/basic.py', 'api_surface', 'ToolCallPayload', getPayloadType('ToolCallPayload').sample),
      ),
      'returned',
    );
    assert.deepEqual(r.value, {
      equal_after_roundtrip: true,
      construct_equal: true,
      copy_is_new: true,
      update_not_validated: true,
      channel_name: 'rest',
      dump_keys: ['arguments', 'call', 'channel', 'headers', 'sender_id', 'tool_name'],
      repr_starts: 'ToolCallPayload',
      fields: ['arguments', 'call', 'channel', 'headers', 'sender_id', 'tool_name'],
    });
    assert.equal(r.valueType.name, 'dict');
  });

  test('an observer mutating its payload is reported with the state after the call', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/basic.py', 'mutate_observed', 'TurnStartedPayload', { sender_id: 'u1' }),
      ),
      'returned',
    );
    assert.equal(r.payloadMutated, true);
    assert.equal(
      (r.payloadAfter as { channel: { metadata: { seen_by: string } } }).channel.metadata.seen_by,
      'someone-else',
    );
  });

  test('a sync handler runs and is flagged', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/basic.py', 'sync_handler', 'OutgoingTextPayload', { text: 'hi', sender_id: 'u' }),
      ),
      'returned',
    );
    assert.equal(r.handlerWasSync, true);
  });

  test('a payload that does not build is an invalid request, not a crash', async () => {
    const r = expectStatus(
      await host.invoke(mantle('hooks/basic.py', 'observe', 'TurnFinishedPayload', { sender_id: 'u' })),
      'invalid-request',
    );
    assert.match(r.message, /TurnFinishedPayload[\s\S]*status[\s\S]*Field required/);
    const bad = expectStatus(
      await host.invoke(mantle('hooks/basic.py', 'observe', 'NoSuchPayload' as never, {})),
      'invalid-request',
    );
    assert.match(bad.message, /unknown payloadType/);
  });
});

describe('control signals and crashes', () => {
  test('RetryModel raised positionally carries its feedback', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/signals.py', 'retry_positional', 'ModelResponsePayload', { text: 'x', sender_id: 'u' }),
      ),
      'raised',
    );
    assert.equal(r.exception.signal, 'RetryModel');
    assert.equal(r.exception.feedback, 'Only answer from retrieved passages.');
    assert.equal(r.exception.type.qualname, 'rasa.mantle.hooks.RetryModel');
    assert.equal(r.exception.baseException, false);
  });

  test('RetryModel(feedback=...) carries its feedback', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/signals.py', 'retry_keyword', 'ToolCallPayload', { tool_name: 't', sender_id: 'u' }),
      ),
      'raised',
    );
    assert.equal(r.exception.signal, 'RetryModel');
    assert.equal(r.exception.feedback, 'Call place_order with a card_id.');
  });

  test('HookRejection carries its reason', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/signals.py', 'reject', 'OutgoingTextPayload', { text: 'x', sender_id: 'u' }),
      ),
      'raised',
    );
    assert.equal(r.exception.signal, 'HookRejection');
    assert.equal(r.exception.reason, 'spam detected');
    assert.equal(r.exception.message, 'spam detected');
  });

  test('an ordinary exception has a user-only structured traceback', async () => {
    const r = expectStatus(
      await host.invoke(
        mantle('hooks/signals.py', 'crash', 'IncomingMessagePayload', { text: 'hi', sender_id: 'u' }),
      ),
      'raised',
    );
    assert.equal(r.exception.signal, null);
    assert.equal(r.exception.type.name, 'ValueError');
    assert.equal(r.exception.message, 'boom: hi');
    assert.deepEqual(
      r.exception.traceback.map((f) => [f.function, f.line, f.text]),
      [
        ['crash', 19, 'return helper(payload)'],
        ['helper', 23, 'raise ValueError("boom: " + payload.text)'],
      ],
    );
    assert.ok(r.exception.traceback.every((f) => f.file.endsWith(join('hooks', 'signals.py'))));
    assert.match(
      r.exception.formatted,
      /^Traceback \(most recent call last\):\n {2}File ".*signals\.py", line 19, in crash/,
    );
    assert.doesNotMatch(r.exception.formatted, /hooksmith_host/);
  });
});

describe('loading', () => {
  test('a syntax error is a load-error with the position and traceback', async () => {
    const r = expectStatus(
      await host.invoke(mantle('hooks/broken.py', 'fine', 'TurnStartedPayload', { sender_id: 'u' })),
      'load-error',
    );
    assert.equal(r.stage, 'import');
    assert.equal(r.exception.type.name, 'SyntaxError');
    assert.equal(r.exception.syntax?.line, 9);
    assert.match(r.exception.formatted, /broken\.py", line 9/);
  });

  test('an import-time exception is a load-error with the module frame', async () => {
    const r = expectStatus(
      await host.invoke(mantle('hooks/import_raises.py', 'x', 'TurnStartedPayload', { sender_id: 'u' })),
      'load-error',
    );
    assert.equal(r.exception.message, 'import-time failure');
    assert.deepEqual(
      r.exception.traceback.map((f) => [f.function, f.line]),
      [['<module>', 3]],
    );
  });

  test('a missing handler or file is a load-error', async () => {
    const r = expectStatus(
      await host.invoke(mantle('hooks/basic.py', 'nope', 'TurnStartedPayload', { sender_id: 'u' })),
      'load-error',
    );
    assert.equal(r.stage, 'handler');
    assert.match(r.exception.message, /nope/);
    const f = expectStatus(
      await host.invoke(mantle('hooks/missing.py', 'x', 'TurnStartedPayload', { sender_id: 'u' })),
      'load-error',
    );
    assert.match(f.exception.message, /hook module not found/);
  });

  test('each app imports the agent afresh (a change in lib/ too); the calls of one app share its modules', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hooksmith-reload-'));
    try {
      cpSync(join(AGENT, 'lib'), join(root, 'lib'), { recursive: true });
      const write = (v: string): void =>
        writeFileSync(
          join(root, 'hooks.py'),
          `from lib.text_utils import redact\nasync def h(p):\n    return ${v}\n`,
        );
      write('"one"');
      const req = mantle('hooks.py', 'h', 'TurnStartedPayload', { sender_id: 'u' }, 1000, root);
      const a = expectStatus(await host.invoke({ ...req, app: 'A' }), 'returned');
      assert.deepEqual([a.value, a.load, a.module], ['one', 'fresh', 'hooks']);
      const b = expectStatus(await host.invoke({ ...req, app: 'A' }), 'returned');
      assert.deepEqual([b.value, b.load], ['one', 'cached']);
      write('"two"');
      const same = expectStatus(await host.invoke({ ...req, app: 'A' }), 'returned');
      assert.deepEqual([same.value, same.load], ['one', 'cached'], 'an app loads its modules once');
      const c = expectStatus(await host.invoke({ ...req, app: 'B' }), 'returned');
      assert.deepEqual([c.value, c.load], ['two', 'fresh']);
      // A change in lib/ (not the hook file) is seen by the next app too.
      writeFileSync(join(root, 'lib', 'text_utils.py'), 'def redact(t):\n    return "lib-changed"\n');
      write('redact("x")');
      const d = expectStatus(await host.invoke(req), 'returned');
      assert.deepEqual([d.value, d.load], ['lib-changed', 'fresh']);
      // No app named: every call is an app of its own.
      const e = expectStatus(await host.invoke(req), 'returned');
      assert.deepEqual([e.value, e.load], ['lib-changed', 'fresh']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a module global counts within one app and starts again in the next (#34 item 8)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hooksmith-app-'));
    try {
      writeFileSync(
        join(root, 'hooks.py'),
        'N = 0\nasync def h(p):\n    global N\n    N += 1\n    return N\n',
      );
      const req = mantle('hooks.py', 'h', 'TurnStartedPayload', { sender_id: 'u' }, 1000, root);
      const counts = [];
      for (const app of ['A', 'A', 'A', 'B', 'B', undefined, undefined])
        counts.push(expectStatus(await host.invoke(app ? { ...req, app } : req), 'returned').value);
      assert.deepEqual(counts, [1, 2, 3, 1, 2, 1, 1]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('hooks.py and hooks/ coexisting: each module loads under its engine name', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hooksmith-both-'));
    try {
      mkdirSync(join(root, 'hooks'));
      writeFileSync(join(root, 'hooks.py'), 'async def a(p):\n    return __name__\n');
      writeFileSync(join(root, 'hooks', 'x.py'), 'async def b(p):\n    return __name__\n');
      const a = expectStatus(
        await host.invoke(mantle('hooks.py', 'a', 'TurnStartedPayload', { sender_id: 'u' }, 1000, root)),
        'returned',
      );
      const b = expectStatus(
        await host.invoke(
          mantle(join(root, 'hooks', 'x.py'), 'b', 'TurnStartedPayload', { sender_id: 'u' }, 1000, root),
        ),
        'returned',
      );
      assert.deepEqual([a.value, b.value], ['hooks', 'hooks.x']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('switching agent roots does not leak modules between them', async () => {
    const roots = [0, 1].map((i) => {
      const root = mkdtempSync(join(tmpdir(), `hooksmith-root${i}-`));
      writeFileSync(join(root, 'hooks.py'), `async def h(p):\n    return "root${i}"\n`);
      return root;
    });
    try {
      for (const i of [0, 1, 0]) {
        const r = expectStatus(
          await host.invoke(
            mantle('hooks.py', 'h', 'TurnStartedPayload', { sender_id: 'u' }, 1000, roots[i]),
          ),
          'returned',
        );
        assert.equal(r.value, `root${i}`);
      }
    } finally {
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    }
  });
});
