// The host's bytecode goes under Hooksmith's cache (kept between starts), never beside sources.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { bytecodeEnv } from '../../runtime/host/host-spawn';

test('bytecode under the cache dir; none written without one or with HOOKSMITH_NO_CACHE', () => {
  assert.deepEqual(bytecodeEnv({ HOOKSMITH_CACHE_DIR: '/c' }), {
    PYTHONPYCACHEPREFIX: join('/c', 'pycache'),
  });
  assert.deepEqual(bytecodeEnv({ HOOKSMITH_CACHE_DIR: '/c', HOOKSMITH_NO_CACHE: '1' }), {
    PYTHONDONTWRITEBYTECODE: '1',
  });
});
