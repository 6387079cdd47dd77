// Issue #30 item 5: real editors other than VS Code, headless, over the real server started as
// docs/editors.md says (`hooksmith lsp`): Neovim 0.7 (`nvim --headless`) and Emacs + eglot
// (`emacs --batch`). Each runs the setup text of docs/editors.md as written, then opens a hook
// module and reports what it got: diagnostics, a hover, a quick fix applied, completion items.
// Skipped, with a note, where the editor is not installed (.ci/run installs both).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ROOT, workspace } from './lsp-client';

/** The text of docs/editors.md between `<!-- name:start -->` and `<!-- name:end -->`, code fences removed. */
export function docsSnippet(name: string): string {
  const doc = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const m = new RegExp(
    `<!-- ${name}:start -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`,
  ).exec(doc);
  if (!m) throw new Error(`docs/editors.md has no ${name} snippet`);
  return m[1]!;
}

/** `@on_turn_started` without parentheses: missing-parentheses, whose fix adds them. */
const BARE = `from rasa.mantle.hooks import on_turn_started


@on_turn_started
async def started(payload):
    pass
`;
const FIXED = BARE.replace('@on_turn_started\n', '@on_turn_started()\n');

const has = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;

interface Report {
  codes: string[];
  hover: string;
  fixed: string;
  completion: string[];
  snippetFormat: boolean;
}

describe('headless editors over `hooksmith lsp`, set up as docs/editors.md says', () => {
  const ws = workspace({ 'agent/hooks.py': BARE, 'bin/hooksmith': '' });
  const env = { ...process.env, PATH: `${ws.path('bin')}:${process.env.PATH}`, HOME: ws.dir };
  before(() => {
    ensureBuilt();
    // `hooksmith` on the PATH, as `npm install -g .` puts it.
    writeFileSync(
      ws.path('bin/hooksmith'),
      `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'hooksmith.js')}" "$@"\n`,
    );
    chmodSync(ws.path('bin/hooksmith'), 0o755);
    mkdirSync(ws.path('out'), { recursive: true });
  });
  after(() => ws.cleanup());

  function check(r: Report): void {
    assert.ok(r.codes.includes('missing-parentheses'), JSON.stringify(r.codes));
    assert.match(r.hover, /docs\/rules\/missing-parentheses\.md/, 'the rule page on the web');
    assert.doesNotMatch(r.hover, /command:/);
    assert.equal(r.fixed, FIXED);
    assert.ok(r.completion.includes('on_turn_started()'), JSON.stringify(r.completion));
    assert.ok(!r.completion.some((t) => /\$\d|\$\{/.test(t)), JSON.stringify(r.completion));
    assert.equal(r.snippetFormat, false);
  }

  it('Neovim 0.7 (vim.lsp.start_client)', { skip: !has('nvim') && 'nvim is not installed' }, () => {
    const out = ws.path('out/nvim.json');
    const lua = `${docsSnippet('neovim-0.7')}
local function report()
  local buf = vim.api.nvim_get_current_buf()
  local ok = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local r = { codes = {}, hover = '', fixed = '', completion = {}, snippetFormat = false }
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(r.codes, d.code)
    -- As 0.7's own code_action does: the diagnostic back in LSP form, with byte columns.
    if d.code == 'missing-parentheses' then
      target = { code = d.code, message = d.message, source = d.source, severity = d.severity,
        range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } } }
    end
  end
  if target then
    local h = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
      { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = target.range.start }, 10000)
    for _, res in pairs(h or {}) do if res.result then r.hover = res.result.contents.value end end
    local a = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(buf) }, range = target.range,
      context = { diagnostics = { target } } }, 10000)
    for _, res in pairs(a or {}) do
      for _, action in ipairs(res.result or {}) do
        if action.isPreferred and action.edit then vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16') end
      end
    end
    r.fixed = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n') .. '\\n'
  end
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', '', '@on_tu' })
  local last = vim.api.nvim_buf_line_count(buf)
  local c = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = last - 1, character = 6 } }, 10000)
  for _, res in pairs(c or {}) do
    local items = res.result and (res.result.items or res.result) or {}
    for _, it in ipairs(items) do
      table.insert(r.completion, (it.textEdit and it.textEdit.newText) or it.insertText or it.label)
      if it.insertTextFormat == 2 then r.snippetFormat = true end
    end
  end
  local f = io.open('${out}', 'w'); f:write(vim.fn.json_encode(r)); f:close()
  vim.cmd('qa!')
end
vim.defer_fn(function()
  local ok, err = pcall(report)
  if not ok then io.stderr:write('report failed: ' .. tostring(err) .. '\\n') end
  vim.cmd('qa!')
end, 100)
`;
    writeFileSync(ws.path('init.lua'), lua);
    const p = spawnSync('nvim', ['--headless', '-u', ws.path('init.lua'), ws.path('agent/hooks.py')], {
      cwd: ws.dir,
      env,
      timeout: 60000,
      encoding: 'utf8',
    });
    const r = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Report) : null;
    assert.ok(r, `nvim wrote no report: ${p.stderr}`);
    check(r);
  });

  it('Emacs + eglot (emacs --batch)', { skip: !has('emacs') && 'emacs is not installed' }, () => {
    const out = ws.path('out/emacs.json');
    // After the docs' text: what a user does by hand, with eglot's own functions.
    const el = String.raw`${docsSnippet('emacs-eglot')}
(defun hs-diags ()
  (delq nil (mapcar (lambda (d) (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))))
                    (or (flymake-diagnostics) eglot--diagnostics))))
(defun hs-wait (pred secs)
  (let ((deadline (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))
(defun hs-report ()
  (find-file "${ws.path('agent/hooks.py')}")
  ;; Batch Emacs has no command loop: run the hook eglot-ensure connects on.
  (run-hooks 'post-command-hook)
  (let ((server (eglot-current-server))
        (r (list :codes [] :hover "" :fixed "" :completion [] :snippetFormat :json-false))
        target)
    (hs-wait #'hs-diags 20)
    (setq target (seq-find (lambda (d) (equal (plist-get d :code) "missing-parentheses")) (hs-diags)))
    (setq r (plist-put r :codes (vconcat (mapcar (lambda (d) (plist-get d :code)) (hs-diags)))))
    (when target
      (let* ((region (eglot--range-region (plist-get target :range)))
             (beg (car region)) (end (cdr region)))
        (goto-char beg)
        (let ((h (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
          (setq r (plist-put r :hover (plist-get (plist-get h :contents) :value))))
        ;; As M-x eglot-code-actions does, taking the preferred fix.
        (let ((fix (seq-find (lambda (a) (eq (plist-get a :isPreferred) t)) (eglot-code-actions beg end))))
          (when fix (eglot--read-execute-code-action (list fix) server "quickfix"))))
      (setq r (plist-put r :fixed (buffer-substring-no-properties (point-min) (point-max)))))
    (goto-char (point-max))
    (insert "\n\n@on_tu")
    ;; Eglot's own completion-at-point function, as M-x completion-at-point calls it.
    (let* ((capf (eglot-completion-at-point))
           (items (mapcar (lambda (c) (get-text-property 0 'eglot--lsp-item c))
                          (all-completions "" (nth 2 capf)))))
      (setq r (plist-put r :completion
                         (vconcat (mapcar (lambda (it)
                                            (or (plist-get (plist-get it :textEdit) :newText)
                                                (plist-get it :insertText) (plist-get it :label)))
                                          items))))
      (when (seq-some (lambda (it) (eql (plist-get it :insertTextFormat) 2)) items)
        (setq r (plist-put r :snippetFormat t))))
    r))
(condition-case err
    (write-region (json-encode (hs-report)) nil "${out}")
  (error (message "report failed: %S" err)))
`;
    writeFileSync(ws.path('init.el'), el);
    const p = spawnSync('emacs', ['--batch', '-l', ws.path('init.el')], {
      cwd: ws.dir,
      env,
      timeout: 60000,
      encoding: 'utf8',
    });
    const r = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as Report) : null;
    assert.ok(r, `emacs wrote no report: ${p.stderr}`);
    check(r);
  });
});

describe('hooksmith lsp', () => {
  const frame = (msg: object) => {
    const body = JSON.stringify(msg);
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  it('is the server over stdio: answers initialize, exits 0 after shutdown + exit', async () => {
    ensureBuilt();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'hooksmith.js'), 'lsp'], { stdio: 'pipe' });
    let out = '';
    const answered = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"id":1')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write(
      frame({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { processId: null, rootUri: null, capabilities: {} },
      }),
    );
    await answered;
    assert.match(out, /"hoverProvider":true/);
    child.stdin.write(
      frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }) + frame({ jsonrpc: '2.0', method: 'exit' }),
    );
    assert.equal(await exited, 0);
  });

  it('refuses an option it does not know (exit 2, no stack)', () => {
    const p = spawnSync(process.execPath, [join(ROOT, 'bin', 'hooksmith.js'), 'lsp', '--port', '9'], {
      encoding: 'utf8',
    });
    assert.equal(p.status, 2);
    assert.match(p.stderr, /unknown option --port/);
    assert.doesNotMatch(p.stderr, /at .*\.js:\d+/);
  });
});
