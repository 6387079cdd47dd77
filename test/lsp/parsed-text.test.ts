// The server's incremental re-parse (tree.edit + parse with the old tree) gives the same
// tree as a fresh parse, for random edits including non-ASCII text.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { initParser, parse } from '../../runtime/python/parser';
import { ParsedText } from '../../server/parsed-text';
import { GOOD_HOOKS } from './fixtures';

describe('ParsedText incremental parsing', () => {
  before(async () => {
    await initParser();
  });

  it('matches a fresh parse after random edits', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.nat(),
            del: fc.nat({ max: 20 }),
            text: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('é', '😀', '\n    ', 'def f(', ')')),
          }),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        (edits) => {
          const p = new ParsedText('file:///x.py', 1, GOOD_HOOKS);
          p.tree();
          let doc = TextDocument.create('file:///x.py', 'python', 1, GOOD_HOOKS);
          for (const e of edits) {
            const len = doc.getText().length;
            const start = e.at % (len + 1);
            const change = {
              range: { start: doc.positionAt(start), end: doc.positionAt(Math.min(len, start + e.del)) },
              text: e.text,
            };
            doc = TextDocument.update(doc, [change], doc.version + 1);
            p.update([change], doc.version);
            if (e.at % 3 === 0) p.tree(); // parse between some edits, not all
          }
          assert.equal(p.text, doc.getText());
          const fresh = parse(p.text);
          try {
            assert.equal(p.tree().rootNode.toString(), fresh.rootNode.toString());
          } finally {
            fresh.delete();
            p.dispose();
          }
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});
