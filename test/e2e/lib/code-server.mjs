// Launcher (a): the VS Code server shipped in the code-server npm package, opened
// in Debian's headless Chromium through playwright-core. Needs no VS Code download.
//
// The server is started from lib/vscode/out/server-main.js, not the `code-server`
// command: only that entry accepts --enable-smoke-test-driver, which makes the
// workbench honour the extensionDevelopmentPath/extensionTestsPath payload of the
// URL and call window.codeAutomationExit(code) when the tests end.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import util from 'node:util';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { runtime } from './setup.mjs';
import { whenOutOfTime } from './budget.mjs';

const require = createRequire(import.meta.url);
const READY = /Extension host agent listening|HTTP server listening/;

export const name = 'code-server';

let liveServer; // for abort()

/** Kills the running server's process group at once (the launcher got SIGINT/SIGTERM). */
export function abort() {
  if (liveServer)
    try {
      process.kill(-liveServer.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address();
        srv.close(() => resolve(port));
      });
  });
}

/** Installs a .vsix into the pass's extensions folder with the server's own CLI. */
function installVsix(run, vsix, log) {
  const r = spawnSync(
    runtime.node24,
    [
      runtime.serverMain,
      '--install-extension',
      vsix,
      '--extensions-dir',
      run.dirs.extensions,
      '--server-data-dir',
      run.dirs.serverData,
      '--user-data-dir',
      run.dirs.userData,
      '--accept-server-license-terms',
    ],
    { env: run.env, encoding: 'utf8', timeout: 120000 },
  );
  log(`install ${path.basename(vsix)}: ${(r.stdout + r.stderr).trim().split('\n').pop()}`);
  if (r.status !== 0)
    throw new Error(`--install-extension failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

/** Starts the server in its own process group; resolves once it listens. */
async function startServer(run, port, trusted, opts, log) {
  const args = [
    runtime.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--server-data-dir',
    run.dirs.serverData,
    '--user-data-dir',
    run.dirs.userData,
    '--extensions-dir',
    run.dirs.extensions,
  ];
  if (trusted) args.push('--disable-workspace-trust');
  // The server's IPC sockets and the extension host's temp files go in the run folder (removed after).
  const tmp = path.join(run.runDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  // Node 22+ keeps compiled code of the server and extension host between runs.
  const env = { ...run.env, TMPDIR: tmp, NODE_COMPILE_CACHE: runtime.compileCache };
  const server = spawn(runtime.node24, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  liveServer = server;
  server.logText = '';
  const onData = (d) => {
    server.logText = (server.logText + d).slice(-100000);
    if (opts.verbose) log('[server] ' + String(d).trimEnd());
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('VS Code server not ready in 60 s:\n' + server.logText)),
      60000,
    );
    const check = () => {
      if (READY.test(server.logText)) {
        clearTimeout(timer);
        resolve();
      }
    };
    server.stdout.on('data', check);
    server.stderr.on('data', check);
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`VS Code server exited (${code}):\n${server.logText}`));
    });
  });
  log('server listening on port ' + port);
  return server;
}

/** Ends the server and every child it left (file watchers, extension host, agent host). */
async function killServer(server) {
  if (!server || server.exitCode !== null) return;
  const group = -server.pid;
  try {
    process.kill(group, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(group, 0);
    } catch {
      return;
    } // the group is gone
  }
  try {
    process.kill(group, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/**
 * Text of a console message from the extension host, or null. Extension-host
 * console output reaches the page console as ('%c <LEVEL>', '<css>', format, ...args),
 * like the workbench's own log; suite/index.js starts each of its lines with
 * MARK to tell them apart.
 */
const MARK = '\u2063';
async function extensionHostText(msg) {
  let args;
  try {
    args = await Promise.all(msg.args().map((h) => h.jsonValue()));
  } catch {
    return null;
  }
  if (typeof args[0] !== 'string' || !args[0].startsWith('%c')) return null;
  const text = util.format(...args.slice(2));
  return text.startsWith(MARK) ? text.slice(MARK.length) : null;
}

/**
 * The frame to act in: the page, or the webview whose document title contains `webview` (and,
 * when given, holds `selector`). A webview's content is a nested iframe of the workbench page.
 */
async function frameFor(page, { webview, selector }) {
  if (!webview) return page.mainFrame();
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    try {
      const ok = await frame.evaluate(
        ([title, sel]) =>
          globalThis.document.title.includes(title) && (!sel || !!globalThis.document.querySelector(sel)),
        [webview, selector || ''],
      );
      if (ok) return frame;
    } catch {
      /* a frame going away */
    }
  }
  throw new Error(`no webview titled "…${webview}…"${selector ? ` holding ${selector}` : ''}`);
}

/** One harness.ui() request: a real click, key or read in the page or a webview. */
async function uiOp(page, req) {
  const timeout = req.timeout || 15000;
  const frame = await frameFor(page, req);
  switch (req.op) {
    case 'click':
      return void (await frame.click(req.selector, { timeout }));
    case 'check':
      return void (await frame.check(req.selector, { timeout }));
    case 'uncheck':
      return void (await frame.uncheck(req.selector, { timeout }));
    case 'select':
      return void (await frame.selectOption(req.selector, req.value, { timeout }));
    case 'press':
      return void (await page.keyboard.press(req.key));
    case 'type':
      return void (await page.keyboard.type(req.text, { delay: 20 }));
    case 'eval':
      // `fn` is a function's source, run in the frame with `arg`; its JSON result comes back.
      return frame.evaluate(`(${req.fn})(${JSON.stringify(req.arg ?? null)})`);
    default:
      throw new Error(`unknown ui op ${req.op}`);
  }
}

/** Writes the answer whole before it is seen: the suite reads a .done as soon as it exists. */
function done(base, text) {
  fs.writeFileSync(base + '.done.tmp', text);
  fs.renameSync(base + '.done.tmp', base + '.done');
}

/**
 * Serves harness.screenshot() and harness.ui(): each request file gets its screenshot or UI
 * action and a .done (holding the JSON answer) or .error file.
 */
function serveRequests(run, page, log) {
  const dir = path.join(run.runDir, 'screenshot-requests');
  fs.mkdirSync(dir, { recursive: true });
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
        const base = path.join(dir, f.slice(0, -'.json'.length));
        if (fs.existsSync(base + '.done') || fs.existsSync(base + '.error')) continue;
        try {
          const req = JSON.parse(fs.readFileSync(base + '.json', 'utf8'));
          if (req.ui) {
            const value = await uiOp(page, req.ui);
            done(base, JSON.stringify({ value: value ?? null }));
            continue;
          }
          fs.mkdirSync(path.dirname(req.path), { recursive: true });
          await page.screenshot({ path: req.path });
          log('screenshot ' + req.path);
          done(base, req.path);
        } catch (e) {
          fs.writeFileSync(base + '.error', String((e && e.message) || e));
        }
      }
    } finally {
      busy = false;
    }
  }, 200);
  return () => clearInterval(timer);
}

/**
 * Runs one pass. Resolves { exitCode, timedOut }; exitCode is what the workbench
 * reported through codeAutomationExit (0 = every test passed).
 */
export async function run({ run, pass, opts, clock, extensionDevelopmentPath, extensionTestsPath, log }) {
  const { chromium } = require(runtime.playwright);
  let server,
    browser,
    stopShots = () => {},
    consoleQueue = Promise.resolve();
  try {
    const left = clock.left; // the pass's budget, start-up included (lib/budget.mjs)
    const port = await freePort();
    if (opts.vsix) installVsix(run, opts.vsix, log);
    server = await startServer(run, port, pass.trusted, opts, log);

    browser = await chromium.launch({
      executablePath: runtime.chromium,
      headless: true,
      env: run.env,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // One at a time, so the lines keep their order.
    page.on('console', (msg) => {
      if (opts.verbose) return log('[browser] ' + msg.text());
      consoleQueue = consoleQueue
        .then(() => extensionHostText(msg))
        .then((text) => {
          if (text !== null) console.log(text);
        });
    });
    page.on('pageerror', (e) => opts.verbose && console.log('[page error]', e.message));

    let finish;
    const finished = new Promise((resolve) => {
      finish = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish({ exitCode: code, timedOut: false }));
    stopShots = serveRequests(run, page, log);

    // Paths in the payload are URIs on the server: vscode-remote://<authority>/<path>.
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
      ['extensionTestsPath', remote(extensionTestsPath)],
    ];
    const url =
      `http://127.0.0.1:${port}/?` +
      (run.workspaceFile
        ? `workspace=${encodeURIComponent(run.workspaceFile)}`
        : `folder=${encodeURIComponent(run.workspaceDir)}`) +
      `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    try {
      await page.goto(url, { timeout: left() });
    } catch (e) {
      if (e.name === 'TimeoutError') return { exitCode: 1, timedOut: true };
      throw e;
    }
    log('workbench loaded');

    const outOfTime = whenOutOfTime(clock);
    const outcome = await Promise.race([finished, outOfTime.promise]);
    outOfTime.cancel();
    await consoleQueue;
    if (outcome.timedOut && !opts.verbose)
      console.error('[e2e] server log (tail):\n' + server.logText.slice(-2000));
    if (pass.screenshot) {
      fs.mkdirSync(path.dirname(pass.screenshot), { recursive: true });
      await page.screenshot({ path: pass.screenshot });
      log('screenshot ' + pass.screenshot);
    }
    return outcome;
  } catch (e) {
    if (server && !opts.verbose) console.error(server.logText.slice(-4000));
    throw e;
  } finally {
    stopShots();
    if (browser) await browser.close().catch(() => {});
    await killServer(server);
    liveServer = undefined;
  }
}
