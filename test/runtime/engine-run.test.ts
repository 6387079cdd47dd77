// runHook with real python3 against real (hostile) hook modules: every outcome the engine maps.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { getPayloadType, type PayloadTypeName } from '../../runtime/catalogue';
import { RunInputError } from '../../runtime/engine/run-hook';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';

const IMPORTS = `import asyncio
import time
from rasa.mantle.hooks import *
from cayu.observability import RuntimeHook, BeforeToolCallDecision, AfterToolCallDecision, ToolResult
`;

let dir: string;
let runner: HookRunner;
let n = 0;

/** A fresh agent root with one hooks.py (one modify hook per point and agent). */
function agent(code: string): string {
  const root = join(dir, `agent${++n}`);
  mkdirSync(root, { recursive: true });
  const file = join(root, 'hooks.py');
  writeFileSync(file, IMPORTS + code);
  return file;
}

const sample = (t: PayloadTypeName) => structuredClone(getPayloadType(t).sample);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-engine-'));
  runner = createHookRunner();
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test('model_request crash: fail-closed, the LLM call is skipped, the traceback points into the hook', async () => {
  const file = agent(`
@modify_model_request()
async def crash(request: ModelRequestPayload) -> ModelRequestPayload:
    raise ValueError("boom in request")
`);
  const r = await runner.run({ file, handler: 'crash', payload: sample('ModelRequestPayload') });
  assert.equal(r.outcome, 'crashed');
  assert.equal(r.policy, 'fail-closed');
  assert.equal(
    r.effect,
    'fail-closed: the LLM call is skipped and the user hears utter_model_request_hook_error',
  );
  assert.equal(r.error?.type, 'ValueError');
  assert.equal(r.error?.message, 'boom in request');
  assert.ok(r.error?.traceback.some((f) => f.file.endsWith('hooks.py') && f.function === 'crash'));
  assert.equal(r.payload, null);
});

test('payload wall through Python: identity restored, model_settings filtered, each noted', async () => {
  const file = agent(`
@modify_model_request()
async def tweak(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(update={"sender_id": "someone-else", "iteration": 7,
        "model_settings": {"temperature": 0.3, "api_key": "sk-123", "seed": "x"}})
`);
  const r = await runner.run({ file, handler: 'tweak', payload: sample('ModelRequestPayload') });
  assert.equal(r.outcome, 'returned');
  const p = r.payload as Record<string, unknown>;
  assert.equal(p.sender_id, 'demo-user');
  assert.equal(p.iteration, 0);
  assert.deepEqual(p.model_settings, { temperature: 0.3 });
  assert.ok(r.notes.some((x) => x.includes("identity field 'sender_id' restored")));
  assert.ok(r.notes.some((x) => x.includes("'api_key' dropped")));
  assert.ok(r.notes.some((x) => x.includes("'seed' dropped")));
  assert.ok(r.notes.some((x) => x.includes("read-only field 'iteration'")));
});

test('a signal the AST check cannot see (raised in a helper) is ignored at model_request', async () => {
  const file = agent(`
def steer():
    raise RetryModel("try again")

@modify_model_request()
async def sneaky(request: ModelRequestPayload) -> ModelRequestPayload:
    steer()
    return request
`);
  const input = sample('ModelRequestPayload');
  const r = await runner.run({ file, handler: 'sneaky', payload: input });
  assert.equal(r.outcome, 'ignored-signal');
  assert.equal(r.signal?.type, 'RetryModel');
  assert.equal(r.signal?.feedback, 'try again');
  assert.equal(r.signal?.honoured, false);
  assert.deepEqual(r.payload, input);
  assert.match(r.effect, /still calls the LLM/);
});

test('model_response: RetryModel positional and feedback= both carry feedback; None and dict are invalid (fail-open)', async () => {
  const file = agent(`
@modify_model_response()
async def steer(response: ModelResponsePayload) -> ModelResponsePayload:
    if response.text == "kw":
        raise RetryModel(feedback="by keyword")
    if response.text == "none":
        return None
    if response.text == "dict":
        return {"text": "x"}
    raise RetryModel("positional")
`);
  const run = (text: string) =>
    runner.run({ file, handler: 'steer', payload: { ...sample('ModelResponsePayload'), text } });
  const pos = await run('anything');
  assert.equal(pos.outcome, 'retry-model');
  assert.equal(pos.signal?.feedback, 'positional');
  assert.equal(pos.signal?.honoured, true);
  assert.equal((await run('kw')).signal?.feedback, 'by keyword');
  const none = await run('none');
  assert.equal(none.outcome, 'invalid-return');
  assert.equal(none.policy, 'fail-open');
  assert.equal((none.payload as Record<string, unknown>).text, 'none');
  assert.match(none.effect, /keeps the original response/);
  const dict = await run('dict');
  assert.equal(dict.outcome, 'invalid-return');
  assert.ok(dict.notes.some((x) => x.includes('a dict')));
});

test('tool_call cooperative timeout: timed-out, fail-closed with utter_tool_call_hook_error', async () => {
  const file = agent(`
@modify_tool_call(timeout_ms=100)
async def slow(call: ToolCallPayload) -> ToolCallPayload:
    await asyncio.sleep(3)
    return call
`);
  const r = await runner.run({ file, handler: 'slow', payload: sample('ToolCallPayload') });
  assert.equal(r.outcome, 'timed-out');
  assert.equal(r.timeoutMs, 100);
  assert.ok(r.durationMs >= 90 && r.durationMs < 1500, String(r.durationMs));
  assert.match(r.effect, /utter_tool_call_hook_error/);
});

test('tool_result that blocks the event loop: the host is killed, timed-out fail-open; the next run works', async () => {
  const file = agent(`
@modify_tool_result(timeout_ms=100)
async def blocker(result: ToolResultPayload) -> ToolResultPayload:
    if result.tool_name == "block":
        time.sleep(3)
    return result.model_copy(update={"value": "ok"})
`);
  const input = { ...sample('ToolResultPayload'), tool_name: 'block' };
  const r = await runner.run({ file, handler: 'blocker', payload: input });
  assert.equal(r.outcome, 'timed-out');
  assert.equal(r.policy, 'fail-open');
  assert.deepEqual(r.payload, input);
  assert.ok(r.notes.some((x) => x.includes('killed and restarted')));
  const again = await runner.run({ file, handler: 'blocker', payload: sample('ToolResultPayload') });
  assert.equal(again.outcome, 'returned');
  assert.equal((again.payload as Record<string, unknown>).value, 'ok');
});

test('knowledge_query: a HookRejection from a helper is invalid modify behaviour, logged and discarded', async () => {
  const file = agent(`
def veto():
    raise HookRejection(reason="no")

@modify_knowledge_query()
async def q(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    veto()
    return payload
`);
  const r = await runner.run({ file, handler: 'q', payload: sample('KnowledgeQueryPayload') });
  assert.equal(r.outcome, 'ignored-signal');
  assert.equal(r.signal?.reason, 'no');
  assert.match(r.effect, /original query is searched/);
});

test('incoming_message HookRejection is a rejection; observers crash with no effect', async () => {
  const file = agent(`
@modify_incoming_message()
async def spam(message: IncomingMessagePayload) -> IncomingMessagePayload:
    raise HookRejection(reason="spam")

@on_turn_started()
async def noisy(payload: TurnStartedPayload) -> None:
    print("observer ran")
    raise KeyError("x")
`);
  const r = await runner.run({ file, handler: 'spam', payload: sample('IncomingMessagePayload') });
  assert.equal(r.outcome, 'hook-rejection');
  assert.match(r.effect, /incoming-message fallback/);
  // rasa-pro 3.21 invokes incoming_message (processor.py:200): no not-wired note.
  assert.ok(!r.notes.some((x) => x.startsWith('not invoked by')), r.notes.join('; '));
  const o = await runner.run({ file, handler: 'noisy', payload: sample('TurnStartedPayload') });
  assert.equal(o.outcome, 'crashed');
  assert.equal(o.policy, 'observe');
  assert.match(o.effect, /^no effect on the turn/);
  assert.match(o.output, /observer ran/);
});

test('Cayu: block decision, and a decision failing the validator is a crash naming it', async () => {
  const file = agent(`
class Guard(RuntimeHook):
    async def before_tool_call(self, context):
        if context.tool_name == "bad":
            fields = {"action": "block"}  # built dynamically: the AST check cannot see it
            return BeforeToolCallDecision(**fields)
        return BeforeToolCallDecision(action="block", block_reason="human only")
`);
  const ok = await runner.run({ file, handler: 'Guard.before_tool_call', payload: { tool_name: 'delete' } });
  assert.equal(ok.engine, 'cayu');
  assert.equal(ok.outcome, 'returned');
  assert.equal((ok.payload as Record<string, unknown>).action, 'block');
  assert.match(ok.effect, /human only/);
  const bad = await runner.run({ file, handler: 'Guard.before_tool_call', payload: { tool_name: 'bad' } });
  assert.equal(bad.outcome, 'crashed');
  assert.match(bad.error?.type ?? '', /ValidationError/);
  assert.ok(bad.notes.some((x) => x.includes("Cayu's decision validator")));
});

test('input errors: malformed payload (JSON path), unknown handler, check errors, import failure — nothing runs', async () => {
  const file = agent(`
@modify_outgoing_text()
async def tidy(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    print("SHOULD NOT RUN")
    return payload
`);
  await assert.rejects(
    runner.run({ file, handler: 'tidy', payload: { text: 1, sender_id: 'u' } }),
    (e: unknown) =>
      e instanceof RunInputError &&
      e.kind === 'payload' &&
      e.details.includes('text: expected string, received number'),
  );
  await assert.rejects(
    runner.run({ file, handler: 'nope', payload: {} }),
    (e: unknown) => e instanceof RunInputError && e.kind === 'handler' && /tidy/.test(e.message),
  );
  const sync = agent(`
@modify_outgoing_text()
def tidy(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload
`);
  await assert.rejects(
    runner.run({ file: sync, handler: 'tidy', payload: sample('OutgoingTextPayload') }),
    (e: unknown) =>
      e instanceof RunInputError && e.kind === 'check' && e.details.some((d) => d.includes('sync-handler')),
  );
  const broken = agent(`
import hooksmith_no_such_module_xyz

@modify_outgoing_text()
async def tidy(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload
`);
  await assert.rejects(
    runner.run({ file: broken, handler: 'tidy', payload: sample('OutgoingTextPayload') }),
    (e: unknown) => e instanceof RunInputError && e.kind === 'load' && /ModuleNotFoundError/.test(e.message),
  );
});

test('a hook that kills the Python process: crashed under the point policy; the host comes back', async () => {
  const file = agent(`
import os

@modify_model_response()
async def die(response: ModelResponsePayload) -> ModelResponsePayload:
    if response.text == "die":
        os._exit(3)
    return response

@on_tool_call()
async def mutate(call: ToolCallPayload) -> None:
    call.arguments["x"] = 1
`);
  const input = { ...sample('ModelResponsePayload'), text: 'die' };
  const r = await runner.run({ file, handler: 'die', payload: input });
  assert.equal(r.outcome, 'crashed');
  assert.equal(r.policy, 'fail-open');
  assert.deepEqual(r.payload, input);
  assert.match(r.effect, /keeps the original response/);
  const o = await runner.run({ file, handler: 'mutate', payload: sample('ToolCallPayload') });
  assert.equal(o.outcome, 'returned');
  assert.match(o.effect, /^no effect on the turn/);
  assert.deepEqual(
    (o.payload as Record<string, unknown>).arguments,
    sample('ToolCallPayload').arguments,
    'the engine keeps its own copy',
  );
  assert.ok(o.notes.some((x) => x.includes('mutated the payload')));
});
