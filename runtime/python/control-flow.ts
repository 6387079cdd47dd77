// Can control reach the end of a function body? A structural analysis, not a full CFG:
// a statement "terminates" when every path through it ends in return/raise (or loops forever).
import type { SyntaxNode as Node } from './syntax-node';

/** Blocks nested deeper than this are assumed to fall through (CPython rejects such code anyway). */
const MAX_DEPTH = 200;

export function canFallOffEnd(body: Node): boolean {
  return !blockTerminates(body, 0);
}

function blockTerminates(block: Node | null | undefined, depth: number): boolean {
  if (!block) return false;
  if (depth > MAX_DEPTH) return false;
  // Any terminating statement makes the rest of the block unreachable.
  for (const s of block.namedChildren) if (s && statementTerminates(s, depth + 1)) return true;
  return false;
}

function statementTerminates(s: Node, depth: number): boolean {
  switch (s.type) {
    case 'return_statement':
    case 'raise_statement':
      return true;
    case 'if_statement': {
      if (!blockTerminates(s.childForFieldName('consequence'), depth)) return false;
      let hasElse = false;
      for (const alt of s.childrenForFieldName('alternative')) {
        if (!alt) continue;
        if (alt.type === 'else_clause') hasElse = true;
        if (!blockTerminates(alt.childForFieldName('body') ?? alt.childForFieldName('consequence'), depth))
          return false;
      }
      return hasElse;
    }
    case 'try_statement': {
      let finallyTerminates = false;
      let elseTerminates = false;
      let handlersTerminate = true;
      for (const c of s.namedChildren) {
        if (!c) continue;
        if (c.type === 'finally_clause') finallyTerminates = blockTerminates(lastBlock(c), depth);
        else if (c.type === 'else_clause')
          elseTerminates = blockTerminates(c.childForFieldName('body'), depth);
        else if (c.type === 'except_clause' || c.type === 'except_group_clause') {
          if (!blockTerminates(lastBlock(c), depth)) handlersTerminate = false;
        }
      }
      if (finallyTerminates) return true;
      const bodyTerminates = blockTerminates(s.childForFieldName('body'), depth) || elseTerminates;
      return bodyTerminates && handlersTerminate;
    }
    case 'while_statement': {
      const cond = s.childForFieldName('condition');
      if (!cond || !isTruthyConstant(cond)) return false;
      return !hasBreak(s.childForFieldName('body'));
    }
    case 'with_statement':
      return blockTerminates(s.childForFieldName('body'), depth);
    case 'match_statement': {
      const block = s.childForFieldName('body');
      let wildcard = false;
      for (const c of block?.namedChildren ?? []) {
        if (!c || c.type !== 'case_clause') continue;
        if (isIrrefutable(c)) wildcard = true;
        if (!blockTerminates(c.childForFieldName('consequence'), depth)) return false;
      }
      return wildcard;
    }
    default:
      return false;
  }
}

function lastBlock(n: Node): Node | null {
  const children = n.namedChildren;
  for (let i = children.length - 1; i >= 0; i--) {
    const c = children[i];
    if (c?.type === 'block') return c;
  }
  return null;
}

function isTruthyConstant(cond: Node): boolean {
  if (cond.type === 'true') return true;
  if (cond.type === 'integer') return Number(cond.text.replace(/_/g, '')) !== 0;
  if (cond.type === 'parenthesized_expression') {
    const inner = cond.namedChild(0);
    return !!inner && isTruthyConstant(inner);
  }
  return false;
}

/** `case _:` or `case name:` without a guard. */
function isIrrefutable(clause: Node): boolean {
  if (clause.childForFieldName('guard')) return false;
  const patterns = clause.namedChildren.filter((c) => c?.type === 'case_pattern');
  if (patterns.length !== 1 || !patterns[0]) return false;
  const p = patterns[0];
  const inner = p.namedChild(0);
  if (p.text.trim() === '_') return true;
  return !!inner && inner.type === 'dotted_name' && inner.namedChildCount === 1 && p.namedChildCount === 1;
}

/** A `break` that belongs to this loop (not to a nested loop, def or class). Iterative. */
function hasBreak(body: Node | null): boolean {
  if (!body) return false;
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop() as Node;
    if (n.type === 'break_statement') return true;
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === 'for_statement' || c.type === 'while_statement') {
        const alt = c.childForFieldName('alternative');
        if (alt) stack.push(alt); // a loop's else clause breaks the outer loop
        continue;
      }
      if (
        c.type === 'function_definition' ||
        c.type === 'class_definition' ||
        c.type === 'decorated_definition' ||
        c.type === 'lambda'
      )
        continue;
      stack.push(c);
    }
  }
  return false;
}
