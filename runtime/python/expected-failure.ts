// Code a test runs expecting it to fail: the body of `with pytest.raises(…)` / `self.assertRaises(…)`,
// and of a `try` whose handler catches the error. A call there (a decision built wrong on purpose)
// is the test's subject, not a mistake.
import type { SyntaxNode as Node } from './syntax-node';

/** Context managers expecting an exception: pytest.raises, unittest's assertRaises(Regex), nose's assert_raises. */
const RAISES_CONTEXT = /\b(?:raises|assertRaises\w*|assert_raises\w*)\s*\(/;
/** Handlers that catch a validation failure: bare `except:` or one naming a class it is an instance of. */
const CATCHES_FAILURE =
  /^except\s*(?::|\(?\s*[\w.]*\b(?:ValidationError|ValueError|Exception|BaseException)\b)/;

/** The row span [from, to) of the block `n` runs expecting a failure, or undefined. */
export function expectedFailureSpan(n: Node): [number, number] | undefined {
  let expects = false;
  if (n.type === 'with_statement') {
    const clause = n.namedChildren.find((c) => c.type === 'with_clause');
    expects = clause !== undefined && RAISES_CONTEXT.test(clause.text);
  } else if (n.type === 'try_statement') {
    expects = n.namedChildren.some((c) => c.type === 'except_clause' && CATCHES_FAILURE.test(c.text));
  }
  const body = expects ? n.childForFieldName('body') : null;
  return body ? [body.row, body.tree.end[body.row] as number] : undefined;
}
