// The shims: generated from the catalogue (and current), served only where the real module is
// missing (a real `rasa` without Mantle keeps its own package), and used by real hook code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CAYU_PHASE_IDS, MANTLE_EXPORTS, PAYLOAD_TYPES, allFields } from '../../runtime/catalogue';
import { CATALOGUE_JSON_PATH, hostCatalogueText } from '../../runtime/host/catalogue-json';
import type { InvokeRequest } from '../../runtime/host/protocol';
import type { PythonHost } from '../../runtime/host/python-host';
import { expectStatus, makeHost } from './fixtures/host/helpers';

const ROOT = join(__dirname, 'fixtures', 'host', 'agent-shims');
const hosts: PythonHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

function hostWith(pythonPath?: string): PythonHost {
  const { host } = makeHost(pythonPath ? { env: { PYTHONPATH: pythonPath } } : {});
  hosts.push(host);
  return host;
}

const req = (handler: string, file = 'hooks.py'): InvokeRequest => ({
  agentRoot: ROOT,
  file,
  handler,
  kind: 'mantle',
  payloadType: 'TurnStartedPayload',
  payload: { sender_id: 'u' },
  timeoutMs: 2000,
});

test('catalogue.json is generated from the catalogue and up to date (node --import tsx runtime/host/catalogue-json.ts)', () => {
  assert.equal(readFileSync(CATALOGUE_JSON_PATH, 'utf8'), hostCatalogueText());
});

describe('with nothing installed', () => {
  const host = hostWith();

  test('rasa.mantle.hooks exports exactly the catalogue names (and ValidationError), fields in order', async () => {
    const r = expectStatus(await host.invoke(req('exports')), 'returned');
    const v = r.value as { all: string[]; payloadFields: Record<string, string[]>; shim: boolean };
    assert.equal(v.shim, true);
    assert.deepEqual(v.all, [...new Set([...MANTLE_EXPORTS, 'ChannelInfo', 'ValidationError'])].sort());
    for (const p of PAYLOAD_TYPES)
      assert.deepEqual(
        v.payloadFields[p.name],
        allFields(p).map((f) => f.name),
        p.name,
      );
  });

  test('all three Cayu namespaces serve the same classes; rasa and cayu parents are shim packages', async () => {
    const r = expectStatus(await host.invoke(req('namespaces')), 'returned');
    assert.deepEqual(r.value, {
      rasa_real: false,
      rasa_shim: true,
      mantle_shim: true,
      cayu_real: false,
      same_class: true,
      phases: [...CAYU_PHASE_IDS],
      rasa_other: "ImportError: No module named 'rasa.other'",
      unknown: 'ImportError',
    });
  });

  test('a decorator used without parentheses fails at import, clearly', async () => {
    const r = expectStatus(await host.invoke(req('forgot', 'no_parens.py')), 'load-error');
    assert.match(r.exception.message, /@on_turn_started must be called: write @on_turn_started\(\)/);
  });
});

describe('with a real rasa that has no mantle, and a real cayu without observability', () => {
  const host = hostWith(join(__dirname, 'fixtures', 'host', 'site-partial'));

  test('hello says the real modules are missing', async () => {
    const info = await host.start();
    assert.equal(info.realMantle, false);
    assert.equal(info.realCayu, false);
  });

  test('the real packages stay; only the missing submodules are served', async () => {
    const r = expectStatus(await host.invoke(req('namespaces')), 'returned');
    const v = r.value as Record<string, unknown>;
    assert.equal(v.rasa_real, true);
    assert.equal(v.rasa_shim, false);
    assert.equal(v.mantle_shim, true);
    assert.equal(v.cayu_real, true);
    assert.equal(v.same_class, true);
    assert.equal(v.rasa_other, 'real rasa.other');
  });
});

describe('with a real rasa.mantle.hooks', () => {
  const host = hostWith(join(__dirname, 'fixtures', 'host', 'site-real'));

  test('hello says so, and the real classes build payloads and count as signals', async () => {
    const info = await host.start();
    assert.equal(info.realMantle, true);
    const typed = expectStatus(await host.invoke(req('typed')), 'returned');
    assert.deepEqual(typed.value, { sender_id: 'u', real: true });
    const retry = expectStatus(await host.invoke(req('real_retry')), 'raised');
    assert.equal(retry.exception.signal, 'RetryModel');
    assert.equal(retry.exception.feedback, 'from the real module');
  });
});
