// Hooks that try to hurt the host: blocked loops, exits, BaseExceptions, floods, forged
// protocol lines. Each must come back as a clear result, and the next call must work.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { after, describe, test } from 'node:test';
import { PythonHost, PythonHostError } from '../../runtime/host/python-host';
import { expectStatus, makeHost, mantle } from './fixtures/host/helpers';

const GRACE = 250;
// The default interpreter name on purpose: restarts then exercise PythonHost's resolved path.
const { host, logs } = makeHost({ graceMs: GRACE, python: process.env.HOOKSMITH_TEST_PYTHON ?? 'python3' });
after(async () => {
  await host.dispose();
});

const hostile = (handler: string, timeoutMs = 1000) =>
  mantle('hooks/hostile.py', handler, 'TurnStartedPayload', { sender_id: 'u' }, timeoutMs);
const ok = () => mantle('hooks/basic.py', 'observe', 'TurnStartedPayload', { sender_id: 'after' });

async function nextCallWorks(): Promise<void> {
  const r = expectStatus(await host.invoke(ok()), 'returned');
  assert.equal(r.output.text, 'observe saw TurnStartedPayload after rest\n');
}

describe('timeouts', () => {
  test('an await past the deadline is a cooperative timeout (no kill)', async () => {
    await host.invoke(ok()); // warm: the module is loaded
    const starts = host.starts;
    const r = expectStatus(await host.invoke(hostile('async_sleep', 100)), 'timed-out');
    assert.equal(r.killed, false);
    assert.ok(r.durationMs >= 95 && r.durationMs < 400, `durationMs ${r.durationMs}`);
    assert.equal(host.starts, starts);
    await nextCallWorks();
  });

  test('time.sleep(5) in an async hook: killed at timeout + grace, next call works', async () => {
    await host.invoke(hostile('async_sleep', 1)); // make sure hostile.py is already imported
    const t0 = performance.now();
    const r = expectStatus(await host.invoke(hostile('blocking_sleep', 100)), 'timed-out');
    const elapsed = performance.now() - t0;
    assert.equal(r.killed, true);
    assert.equal(r.during, 'hook');
    assert.ok(elapsed >= 100 + GRACE - 5 && elapsed < 100 + GRACE + 400, `answered after ${elapsed} ms`);
    const starts = host.starts;
    await nextCallWorks();
    assert.equal(host.starts, starts + 1);
    assert.ok(logs.some((l) => l.includes('blocking_sleep blocked the event loop past its 100 ms deadline')));
  });

  test('while True: pass is killed too; an observer in flight beside it is innocent: sent again to the fresh host', async () => {
    await host.invoke(hostile('async_sleep', 1));
    const starts = host.starts;
    const [spin, other] = await Promise.all([
      host.invoke(hostile('spin', 100)),
      host.invoke(hostile('slow_observer', 5000)),
    ]);
    assert.equal(expectStatus(spin, 'timed-out').killed, true);
    const observer = expectStatus(other, 'returned');
    assert.match(observer.output.text, /slow done/);
    assert.equal(host.starts, starts + 1);
    assert.ok(logs.some((l) => /restarting the Python host: .*spin blocked the event loop/.test(l)));
    await nextCallWorks();
  });

  test('a module whose import never ends is killed after the load budget', async () => {
    const { host: h } = makeHost({ loadBudgetMs: 500 });
    try {
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const root = mkdtempSync(join((await import('node:os')).tmpdir(), 'hooksmith-loop-'));
      writeFileSync(join(root, 'hooks.py'), 'while True:\n    pass\n');
      const r = expectStatus(
        await h.invoke(mantle('hooks.py', 'h', 'TurnStartedPayload', { sender_id: 'u' }, 100, root)),
        'timed-out',
      );
      assert.equal(r.during, 'import');
      assert.equal(r.killed, true);
    } finally {
      await h.dispose();
    }
  });
});

describe('exits and BaseExceptions', () => {
  test('os._exit(3) is a crash with the exit code; the next call works', async () => {
    const r = expectStatus(await host.invoke(hostile('exit3')), 'crashed');
    assert.equal(r.exitCode, 3);
    assert.match(r.reason, /exited with code 3/);
    await nextCallWorks();
  });

  for (const [handler, type, base] of [
    ['sys_exit', 'SystemExit', true],
    ['keyboard_interrupt', 'KeyboardInterrupt', true],
    ['bare_base_exception', 'BaseException', true],
  ] as const) {
    test(`raise ${type} is reported, and the host survives`, async () => {
      const starts = host.starts;
      const r = expectStatus(await host.invoke(hostile(handler)), 'raised');
      assert.equal(r.exception.type.name, type);
      assert.equal(r.exception.baseException, base);
      assert.equal(host.starts, starts);
      await nextCallWorks();
    });
  }

  test('SystemExit raised in a task the hook spawned does not take the host down', async () => {
    const starts = host.starts;
    const r = expectStatus(await host.invoke(hostile('task_raises_system_exit')), 'returned');
    assert.equal(r.value, 'survived');
    await nextCallWorks();
    assert.equal(host.starts, starts);
  });
});

describe('output and values', () => {
  test('printing 10 MB keeps 64 KiB and counts the rest', async () => {
    const r = expectStatus(await host.invoke(hostile('print_10mb', 5000)), 'returned');
    assert.equal(r.output.text.length, 64 * 1024);
    assert.equal(r.output.text.length + r.output.droppedChars, 10 * 1024 * 1025);
  });

  test('a non-serialisable return value comes back as its repr, flagged', async () => {
    const r = expectStatus(await host.invoke(hostile('unserialisable')), 'returned');
    assert.equal(r.unserialisable, true);
    assert.match(String(r.value), /^<object object at 0x[0-9a-f]+>$/);
    assert.equal(r.valueType.qualname, 'builtins.object');
  });

  test('a 5 MiB return value comes back whole (the limit is 64 MiB)', async () => {
    const r = expectStatus(await host.invoke(hostile('giant', 5000)), 'returned');
    assert.equal(r.truncated, undefined);
    assert.equal(String(r.value).length, 5 * 1024 * 1024);
  });

  test('writes to fd 1 and sys.__stdout__ never reach the protocol', async () => {
    const r = expectStatus(await host.invoke(hostile('scribble_fd1')), 'returned');
    assert.equal(r.value, 'ok');
    assert.equal(r.output.text, 'captured\n');
    await new Promise((res) => setTimeout(res, 50));
    assert.ok(
      logs.some((l) => l.includes('"value": "forged"')),
      'the forged line went to the log',
    );
    await nextCallWorks();
  });

  test('a RecursionError comes back with a bounded traceback', async () => {
    const r = expectStatus(await host.invoke(hostile('recurse')), 'raised');
    assert.equal(r.exception.type.name, 'RecursionError');
    assert.equal(r.exception.traceback.length, 120);
    assert.equal(r.exception.traceback[0].function, 'recurse');
    assert.equal(r.exception.traceback[119].function, 'down');
    await nextCallWorks();
  });

  test('an exception with a 20 MB message is clipped, not dropped', async () => {
    const r = expectStatus(await host.invoke(hostile('huge_message', 5000)), 'raised');
    assert.equal(r.exception.type.name, 'ValueError');
    assert.match(r.exception.message, /^z{65536}\.\.\. \(20905984 more characters\)$/);
    assert.ok(r.exception.formatted.length < 300 * 1024);
  });

  test('sys.stdout.buffer writes are captured too', async () => {
    const r = expectStatus(await host.invoke(hostile('binary_stdout')), 'returned');
    assert.equal(r.output.text, 'bytes ✓\n');
  });

  test('a hook rebinding sys.stdout does not blind the capture of later calls', async () => {
    expectStatus(await host.invoke(hostile('rebind_stdout')), 'returned');
    await nextCallWorks();
  });

  test('reading stdin gets nothing (the protocol is not stdin)', async () => {
    const r = expectStatus(await host.invoke(hostile('read_stdin')), 'returned');
    assert.equal(r.value, '');
    await nextCallWorks();
  });
});

describe('concurrency', () => {
  test('a slow import is not charged to a warm hook in flight beside it', async () => {
    await host.invoke(ok());
    const starts = host.starts;
    const [slow, warm] = await Promise.all([
      host.invoke(mantle('hooks/slow_import.py', 'ready', 'TurnStartedPayload', { sender_id: 'u' }, 100)),
      host.invoke({ ...ok(), timeoutMs: 100 }),
    ]);
    assert.equal(expectStatus(slow, 'returned').value, 'imported');
    expectStatus(warm, 'returned');
    assert.equal(host.starts, starts);
  });

  test('two observers in flight at once both answer, in about the time of one', async () => {
    await host.invoke(hostile('async_sleep', 1));
    const t0 = performance.now();
    const [a, b] = await Promise.all([
      host.invoke(
        mantle('hooks/hostile.py', 'slow_observer', 'TurnStartedPayload', { sender_id: 'a' }, 2000),
      ),
      host.invoke(
        mantle('hooks/hostile.py', 'slow_observer', 'TurnStartedPayload', { sender_id: 'b' }, 2000),
      ),
    ]);
    const elapsed = performance.now() - t0;
    assert.equal(expectStatus(a, 'returned').output.text, 'slow done a\n');
    assert.equal(expectStatus(b, 'returned').output.text, 'slow done b\n');
    assert.ok(elapsed < 550, `both took ${elapsed} ms`);
  });
});

describe('bounds', () => {
  test('a timeoutMs that is not a finite number is refused before anything runs', async () => {
    for (const timeoutMs of [Number.NaN, -1, Infinity]) {
      const r = expectStatus(await host.invoke({ ...ok(), timeoutMs }), 'invalid-request');
      assert.match(r.message, /timeoutMs must be a finite number/);
    }
  });

  test('a protocol line over the bound is dropped and its request answered, and the host stays usable', async () => {
    const { host: h } = makeHost({ maxLineBytes: 64 * 1024 });
    try {
      const r = expectStatus(await h.invoke(hostile('giant', 5000)), 'invalid-request');
      assert.match(r.message, /over the 65536-byte bound/);
      const next = expectStatus(await h.invoke(ok()), 'returned');
      assert.equal(next.value, null);
    } finally {
      await h.dispose();
    }
  });
});

describe('starting', () => {
  const py38 = '/root/.pyenv/versions/3.8.18/bin/python3';
  test(
    'Python older than 3.9 is refused with a clear error',
    { skip: !existsSync(py38) && 'no Python 3.8 here' },
    async () => {
      const h = new PythonHost({ python: py38 });
      await assert.rejects(
        h.start(),
        (e: unknown) =>
          e instanceof PythonHostError &&
          e.code === 'too-old' &&
          /Python 3\.8\.\d+ is too old/.test(e.message),
      );
    },
  );

  test('a missing interpreter is a clear error', async () => {
    const h = new PythonHost({ python: 'python3-does-not-exist' });
    await assert.rejects(
      h.invoke(ok()),
      (e: unknown) =>
        e instanceof PythonHostError &&
        e.code === 'not-found' &&
        /python3-does-not-exist not found — set --python or hooksmith.pythonPath/.test(e.message),
    );
  });

  test('an interpreter that is not Python fails to start with a clear error', async () => {
    const h = new PythonHost({ python: 'false', startTimeoutMs: 5000 });
    await assert.rejects(
      h.start(),
      (e: unknown) => e instanceof PythonHostError && e.code === 'start-failed',
    );
  });
});
