// runtime/python/import-edits.ts: the one import merger (quick fixes, completion, scaffold).
// Each case asserts the whole file after the edits, so a change of style shows as a diff.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fromImportEdits,
  fromImportStatement,
  moduleImportEdits,
} from '../../../runtime/python/import-edits';
import { spellMantleName } from '../../../runtime/rules';
import { applyEdits } from '../../../runtime/scaffold/scaffold';
import { modelOf } from './helpers';

const M = 'rasa.mantle.hooks';

async function added(text: string, names: string[], module = M, equivalent: string[] = []): Promise<string> {
  return applyEdits(text, fromImportEdits(await modelOf(text), text, module, names, equivalent));
}

describe('fromImportEdits: names join an existing import at its end', () => {
  it('single line: rewritten whole, sorted as the scaffold writes it', async () => {
    assert.equal(
      await added(`from ${M} import on_tool_call\n`, ['modify_tool_call', 'ToolCallPayload']),
      `from ${M} import ToolCallPayload, modify_tool_call, on_tool_call\n`,
    );
  });

  it('a rewritten line past 88 columns is wrapped one name per line, as the scaffold does', async () => {
    const text = `from ${M} import on_tool_call, ModelRequestPayload\n`;
    assert.equal(
      await added(text, ['ModelResponsePayload', 'modify_model_response']),
      `from ${M} import (\n    ModelRequestPayload,\n    ModelResponsePayload,\n    modify_model_response,\n    on_tool_call,\n)\n`,
    );
  });

  it('parenthesised one per line with a trailing comma: one line per name above the `)`', async () => {
    const text = `from ${M} import (\n    on_tool_call,\n    ToolCallPayload,\n)\n\nx = 1\n`;
    assert.equal(
      await added(text, ['modify_tool_call']),
      `from ${M} import (\n    on_tool_call,\n    ToolCallPayload,\n    modify_tool_call,\n)\n\nx = 1\n`,
    );
  });

  it('parenthesised without a trailing comma: none added at the end either', async () => {
    const text = `from ${M} import (\n  on_tool_call,\n  ToolCallPayload\n)\n`;
    assert.equal(
      await added(text, ['modify_tool_call', 'RetryModel']),
      `from ${M} import (\n  on_tool_call,\n  ToolCallPayload,\n  RetryModel,\n  modify_tool_call\n)\n`,
    );
  });

  it('a comment after the last name stays on its line', async () => {
    const text = `from ${M} import (  # hooks\n    on_tool_call,  # the audit\n)\n`;
    assert.equal(
      await added(text, ['ToolCallPayload']),
      `from ${M} import (  # hooks\n    on_tool_call,  # the audit\n    ToolCallPayload,\n)\n`,
    );
    const bare = `from ${M} import (\n    on_tool_call  # the audit\n)\n`;
    assert.equal(
      await added(bare, ['ToolCallPayload']),
      `from ${M} import (\n    on_tool_call,  # the audit\n    ToolCallPayload\n)\n`,
    );
  });

  it('a comment after a single-line import stays after it', async () => {
    assert.equal(
      await added(`from ${M} import on_tool_call  # noqa: F401\n`, ['ToolCallPayload']),
      `from ${M} import on_tool_call, ToolCallPayload  # noqa: F401\n`,
    );
  });

  it('single-line parenthesised, with and without a trailing comma', async () => {
    assert.equal(
      await added(`from ${M} import (on_tool_call,)\n`, ['ToolCallPayload']),
      `from ${M} import (on_tool_call, ToolCallPayload,)\n`,
    );
    assert.equal(
      await added(`from ${M} import (on_tool_call)\n`, ['ToolCallPayload']),
      `from ${M} import (on_tool_call, ToolCallPayload)\n`,
    );
  });

  it('aliases are kept, and an aliased name counts as imported', async () => {
    const text = `from ${M} import ToolCallPayload as TCP, on_tool_call as audit\n`;
    assert.equal(
      await added(text, ['ToolCallPayload', 'RetryModel']),
      `from ${M} import RetryModel, ToolCallPayload as TCP, on_tool_call as audit\n`,
    );
    const model = await modelOf(text);
    assert.deepEqual(fromImportEdits(model, text, M, ['ToolCallPayload', 'on_tool_call']), []);
  });

  it('a line with a comment is not rewritten: the names are appended before it', async () => {
    const text = `from ${M} import on_model_request, ModelRequestPayload as Req  # x\n`;
    assert.equal(
      await added(text, ['ModelResponsePayload', 'modify_model_response']),
      `from ${M} import on_model_request, ModelRequestPayload as Req, ModelResponsePayload, modify_model_response  # x\n`,
    );
  });

  it('names never duplicate: already imported, asked twice, or under a wildcard', async () => {
    assert.equal(
      await added(`from ${M} import on_tool_call\n`, ['RetryModel', 'on_tool_call', 'RetryModel']),
      `from ${M} import RetryModel, on_tool_call\n`,
    );
    const star = `from ${M} import *\n`;
    assert.deepEqual(fromImportEdits(await modelOf(star), star, M, ['RetryModel']), []);
  });

  it('Cayu names join an import from an equivalent namespace', async () => {
    assert.equal(
      await added(
        'from cayu import RuntimeHook\n',
        ['RuntimeHook', 'ToolCallHookContext'],
        'cayu.observability',
        ['cayu.runtime.hooks', 'cayu'],
      ),
      'from cayu import RuntimeHook, ToolCallHookContext\n',
    );
  });

  it('imports nested in try/if or in functions, and lookalikes in strings, are not merged into', async () => {
    const text = `try:\n    from ${M} import on_tool_call\nexcept ImportError:\n    pass\n`;
    assert.equal(
      await added(text, ['RetryModel']),
      `from ${M} import RetryModel\n\ntry:\n    from ${M} import on_tool_call\nexcept ImportError:\n    pass\n`,
    );
    const nested = `s = """\nfrom ${M} import x\n"""\n\ndef f():\n    from ${M} import on_tool_call\n`;
    assert.ok((await added(nested, ['on_tool_call'])).startsWith(`from ${M} import on_tool_call\n\ns = """`));
  });
});

describe('fromImportEdits: a new statement below the head', () => {
  it('after the last import of the head, no blank lines added', async () => {
    const text = 'import os\nimport structlog\n\nlog = structlog.get_logger()\n';
    assert.equal(
      await added(text, ['on_tool_call', 'ToolCallPayload']),
      `import os\nimport structlog\nfrom ${M} import ToolCallPayload, on_tool_call\n\nlog = structlog.get_logger()\n`,
    );
  });

  it('a module import (`import rasa.mantle.hooks as h`) is left alone; quick fixes spell h.Name instead', async () => {
    const text = `import ${M} as h\n\n\n@h.on_tool_call()\nasync def f(p): ...\n`;
    assert.equal(
      await added(text, ['ToolCallPayload']),
      `import ${M} as h\nfrom ${M} import ToolCallPayload\n\n\n@h.on_tool_call()\nasync def f(p): ...\n`,
    );
    assert.deepEqual(spellMantleName(await modelOf(text), text, 'ToolCallPayload'), {
      text: 'h.ToolCallPayload',
      importEdits: [],
    });
  });

  it('after the docstring, set apart by blank lines', async () => {
    assert.equal(
      await added('"""Hooks\nof the agent."""\nx = 1\n', ['on_tool_call']),
      `"""Hooks\nof the agent."""\n\nfrom ${M} import on_tool_call\n\nx = 1\n`,
    );
  });

  it('after the docstring and `from __future__` imports', async () => {
    const text = '"""Hooks."""\nfrom __future__ import annotations\n\n@on_tool_call()\nasync def f(p): ...\n';
    assert.equal(
      await added(text, ['on_tool_call']),
      `"""Hooks."""\nfrom __future__ import annotations\n\nfrom ${M} import on_tool_call\n\n@on_tool_call()\nasync def f(p): ...\n`,
    );
  });

  it('above the first definition: a late import below it is not the head', async () => {
    const text = `@on_tool_call()\nasync def f(p): ...\n\nfrom ${M} import RetryModel\n`;
    assert.equal(
      await added(text, ['on_tool_call']),
      `from ${M} import on_tool_call\n\n@on_tool_call()\nasync def f(p): ...\n\nfrom ${M} import RetryModel\n`,
    );
  });

  it('an empty file, and a last import with no line break after it', async () => {
    assert.equal(
      await added('', ['on_tool_call', 'ToolCallPayload']),
      `from ${M} import ToolCallPayload, on_tool_call\n`,
    );
    assert.equal(await added('import os', ['on_tool_call']), `import os\nfrom ${M} import on_tool_call\n`);
  });

  it('a half-typed file with a syntax error still gets the edit', async () => {
    const text = `from ${M} import on_tool_call\n\n@on_tool_call(\nasync def f(p: ToolCallPay\n`;
    assert.equal(
      await added(text, ['ToolCallPayload']),
      `from ${M} import ToolCallPayload, on_tool_call\n\n@on_tool_call(\nasync def f(p: ToolCallPay\n`,
    );
    const bare = `"""Doc."""\n@modify_tool_call(\nasync def f(p: ToolCallPayload) -> \n`;
    assert.equal(
      await added(bare, ['modify_tool_call']),
      `"""Doc."""\n\nfrom ${M} import modify_tool_call\n\n@modify_tool_call(\nasync def f(p: ToolCallPayload) -> \n`,
    );
  });

  it('a new statement is sorted and wrapped past 88 columns', () => {
    assert.equal(
      fromImportStatement(M, ['on_tool_call', 'ToolCallPayload']),
      `from ${M} import ToolCallPayload, on_tool_call`,
    );
    assert.equal(
      fromImportStatement('cayu.runtime.hooks', [
        'RuntimeHook',
        'ToolCallHookContext',
        'ToolDecision',
        'ModelCallHookContext',
      ]),
      'from cayu.runtime.hooks import (\n    ModelCallHookContext,\n    RuntimeHook,\n    ToolCallHookContext,\n    ToolDecision,\n)',
    );
  });
});

describe('moduleImportEdits: `import json`', () => {
  async function withJson(text: string): Promise<string> {
    return applyEdits(text, moduleImportEdits(await modelOf(text), text, 'json'));
  }

  it('among the plain imports in name order, above the from-imports when there are none', async () => {
    assert.equal(await withJson('import asyncio\nimport os\n'), 'import asyncio\nimport json\nimport os\n');
    assert.equal(await withJson('import asyncio\n\nx = 1\n'), 'import asyncio\nimport json\n\nx = 1\n');
    assert.equal(
      await withJson(`from ${M} import on_tool_call\n`),
      `import json\nfrom ${M} import on_tool_call\n`,
    );
  });

  it('after a docstring and __future__, and not twice', async () => {
    assert.equal(
      await withJson('"""Doc."""\nfrom __future__ import annotations\nx = 1\n'),
      '"""Doc."""\nfrom __future__ import annotations\n\nimport json\n\nx = 1\n',
    );
    assert.equal(await withJson('import json\n'), 'import json\n');
  });
});
