// Issue #30 item 1 in a real VS Code: a line above a diagnostic is deleted (or put back) and the
// quick fix is asked for at once, before any new diagnostics arrive — with the diagnostic's range
// as the editor showed it before the edit and as it is after. Whatever fix comes back is applied
// through workspace.applyEdit, as the light bulb does: the file is then either untouched by the
// fix (none offered, or an edit of an older version refused) or exactly the renamed text, never
// anything else. EDIT_FIX_ROUNDS sets the rounds (the soak: 500).
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const h = require('./helpers');

const ROUNDS = Number(process.env.EDIT_FIX_ROUNDS || 40);
const PAD = '# a line above the hook\n';
const WRONG = 'after_session_interupted';
const RIGHT = 'after_session_interrupted';
const SOURCE = `from cayu.observability import RuntimeHook

${PAD}class Guard(RuntimeHook):
    async def ${WRONG}(self, context):
        return None
`;
const CODE = 'cayu-unknown-phase';

describe('edit then fix at once (a real VS Code)', function () {
  this.timeout(60000 + ROUNDS * 15000);
  let file;
  before(async () => {
    await h.activate();
    file = path.join(h.scratch('edit-then-fix'), 'app', 'guard.py');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, SOURCE);
  });
  after(() => h.closeAll());

  it(`${ROUNDS} rounds: the file is always right`, async () => {
    const doc = await h.open(file);
    const typo = (d) => d.find((x) => h.codeOf(x) === CODE);
    /** The diagnostic where the text now has the typo (a settled publish). */
    const settled = async () => {
      const line = doc
        .getText()
        .split('\n')
        .findIndex((l) => l.includes(WRONG));
      const d = await h.waitForOurs(doc.uri, (all) => {
        const t = typo(all);
        return !!t && t.range.start.line === line;
      });
      return typo(d);
    };
    const ask = async (range) => {
      const actions = await vscode.commands.executeCommand(
        'vscode.executeCodeActionProvider',
        doc.uri,
        range,
        vscode.CodeActionKind.QuickFix.value,
      );
      return (actions || []).find((a) => a.title.startsWith('Rename to') && a.edit);
    };
    const tally = { applied: 0, refused: 0, none: 0 };
    let shown = await settled();
    for (let round = 0; round < ROUNDS; round++) {
      const removing = doc.getText().includes(PAD);
      const edit = new vscode.WorkspaceEdit();
      if (removing) edit.delete(doc.uri, new vscode.Range(2, 0, 3, 0));
      else edit.insert(doc.uri, new vscode.Position(2, 0), PAD);
      assert.ok(await vscode.workspace.applyEdit(edit), `round ${round}: the line edit applies`);
      const before = doc.getText();
      const moved = shown.range.with(
        shown.range.start.translate(removing ? -1 : 1),
        shown.range.end.translate(removing ? -1 : 1),
      );
      // Both asked at once, before any answer and before the new diagnostics.
      const fixes = await Promise.all([ask(shown.range), ask(moved)]);
      for (const fix of fixes) {
        if (!fix) {
          tally.none++;
          continue;
        }
        const applied = await vscode.workspace.applyEdit(fix.edit);
        const now = doc.getText();
        if (now === before) {
          tally.refused += applied ? 0 : 1;
          continue;
        }
        assert.equal(now, before.replace(WRONG, RIGHT), `round ${round}: "${fix.title}" left the file wrong`);
        tally.applied++;
        // Back to the typo for the next round (an ordinary edit).
        const back = new vscode.WorkspaceEdit();
        const line = now.split('\n').findIndex((l) => l.includes(RIGHT));
        const col = doc.lineAt(line).text.indexOf(RIGHT);
        back.replace(doc.uri, new vscode.Range(line, col, line, col + RIGHT.length), WRONG);
        assert.ok(await vscode.workspace.applyEdit(back));
        break;
      }
      shown = await settled();
    }
    console.log(`edit-then-fix: ${JSON.stringify(tally)} over ${ROUNDS} rounds`);
    assert.ok(tally.applied > 0, `no fix was ever applied: ${JSON.stringify(tally)}`);
  });
});
