import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';

test('return-annotation: observe must be None; modify must be the payload type; missing counts', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        KnowledgeResultsPayload,
        modify_knowledge_results,
        on_knowledge_results,
    )

    @on_knowledge_results()
    async def log(p: KnowledgeResultsPayload) -> KnowledgeResultsPayload:
        return p

    @modify_knowledge_results()
    async def drop(p: KnowledgeResultsPayload) -> None:
        return p

    @modify_knowledge_results()
    async def missing(p: KnowledgeResultsPayload):
        return p

    @on_knowledge_results()
    async def missing_observe(p: KnowledgeResultsPayload):
        return None
  `;
  const diags = await diagnose('return-annotation', src);
  expectAt(diags, ['8:46', '12:47', '16:11', '20:11']);
  assert.ok(diags.every((d) => d.severity === 'error'));
  assert.match(
    diags[0].message,
    /Observe hook `log` is annotated `-> KnowledgeResultsPayload`; observe hooks return None/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    src.replace(
      '-> KnowledgeResultsPayload:\n    return p\n\n@modify_knowledge_results()\nasync def drop',
      '-> None:\n    return p\n\n@modify_knowledge_results()\nasync def drop',
    ),
  );
  assert.match(
    diags[1].message,
    /`modify_knowledge_results` hook `drop` must return `KnowledgeResultsPayload`, not `None`/,
  );
  assert.equal(rangeText(src, diags[2]), 'missing');
  assert.equal(
    applyFix(src, diags[2]),
    src.replace(
      'missing(p: KnowledgeResultsPayload):',
      'missing(p: KnowledgeResultsPayload) -> KnowledgeResultsPayload:',
    ),
  );
  assert.equal(
    applyFix(src, diags[3]),
    src.replace(
      'missing_observe(p: KnowledgeResultsPayload):',
      'missing_observe(p: KnowledgeResultsPayload) -> None:',
    ),
  );
});

test('return-annotation: Optional return on a modify hook is wrong (None is an invalid return)', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.modify_outgoing_text()
    async def rewrite(payload: mh.OutgoingTextPayload) -> mh.OutgoingTextPayload | None:
        return payload
  `;
  const diags = await diagnose('return-annotation', src);
  expectAt(diags, ['4:55']);
  assert.match(diags[0].message, /returning None is an invalid return/);
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('mh.OutgoingTextPayload | None', 'mh.OutgoingTextPayload'),
  );
});

test('return-annotation: quiet on string and aliased forms, and on correct hooks', async () => {
  const src = py`
    from __future__ import annotations
    from rasa.mantle.hooks import IncomingMessagePayload as Msg, modify_incoming_message, on_incoming_message

    @modify_incoming_message()
    async def a(m: Msg) -> "Msg":
        return m

    @on_incoming_message()
    async def b(m: Msg) -> None: ...
  `;
  assert.deepEqual(await diagnose('return-annotation', src), []);
});
