// The hook-module model: what the rules, hovers and the runtime need to know about a
// Python source file, built from its tree-sitter tree by build-model.ts. Plain data:
// no tree-sitter nodes escape into it, so it can be cached, compared and serialised.
//
// Positions follow LSP: 0-based line, 0-based character in UTF-16 code units.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Replace `range` with `newText` (LSP's TextEdit): fixes and import edits are made of these. */
export interface TextEdit {
  range: Range;
  newText: string;
}

/** A reference to a name as written, resolved through the module's imports where possible. */
export interface NameRef {
  /** As written, dotted when it is an attribute chain: "mh.modify_tool_call", "time.sleep". */
  text: string;
  range: Range;
  /**
   * Fully qualified name when the first segment is bound by an import:
   * "rasa.mantle.hooks.modify_tool_call", "time.sleep". Undefined for local or unknown names
   * (builtins such as "print" stay undefined too).
   */
  qualified?: string;
}

/** A literal value where the source holds one; anything else is `other` with its text. */
export type LiteralValue =
  | { kind: 'number'; value: number; isInteger: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'list'; items: LiteralValue[] }
  | { kind: 'dict'; entries: DictEntry[] }
  | { kind: 'other'; text: string };

export interface DictEntry {
  /** String key, when the key is a string literal. */
  key?: string;
  keyRange: Range;
  value: LiteralValue;
  valueRange: Range;
}

export interface KeywordArgument {
  name: string;
  /** The `name=value` span. */
  range: Range;
  nameRange: Range;
  value: LiteralValue;
  valueRange: Range;
}

export interface CallFacts {
  callee: NameRef;
  /** The whole call expression. */
  range: Range;
  positional: { value: LiteralValue; range: Range }[];
  keywords: KeywordArgument[];
  /** `*args` / `**kwargs` present: arguments are not fully known. */
  hasStarArgs: boolean;
  /** Under an `await`. */
  awaited: boolean;
  /** Run expecting it to fail: under `with pytest.raises(…)` / `assertRaises`, or in a `try` catching the error. */
  expectedFailure?: true;
}

export interface ImportBinding {
  /** The name bound in the module: "guard", "mh", "hooks", "rasa" (for plain `import rasa.mantle.hooks`). */
  localName: string;
  /** Module imported: "rasa.mantle.hooks"; for `from rasa.mantle import hooks` this is "rasa.mantle". */
  module: string;
  /** For `from M import N [as L]`: N. Undefined for `import M [as L]`. */
  importedName?: string;
  /**
   * Qualified name the local name stands for: "rasa.mantle.hooks.modify_tool_call", "rasa.mantle.hooks"
   * (module alias), "rasa" (plain import).
   */
  qualified: string;
  /** Range of the imported name (N in `from M import N as L`; M in `import M`). */
  nameRange: Range;
  /** Range of the whole import statement. */
  statementRange: Range;
  /** Parenthesised `from M import (a, b)` form; used to keep style when adding names. */
  parenthesized: boolean;
  /** `from M import *`. */
  isWildcard: boolean;
  /** Only at module level: imports inside functions are listed too, with this set false. */
  moduleLevel: boolean;
}

export interface Annotation {
  /** Source text, without quotes for string annotations. */
  text: string;
  range: Range;
  /** The annotation was a string literal ("Foo" or 'Foo'). */
  isString: boolean;
  /** Resolved name when the annotation is a plain or dotted name (also inside a string). */
  ref?: NameRef;
  /** `X | None` / `Optional[X]` / `Union[X, None]`: the non-None member's ref, when there is exactly one. */
  optionalOf?: NameRef;
  /** The annotation is `None`. */
  isNone: boolean;
}

export type ParameterKind =
  'positional' | 'positional-only' | 'keyword-only' | 'var-positional' | 'var-keyword';

export interface Parameter {
  name: string;
  range: Range;
  nameRange: Range;
  kind: ParameterKind;
  annotation?: Annotation;
  hasDefault: boolean;
}

export interface Decorator {
  /** From `@` to the end of the decorator expression. */
  range: Range;
  /** The decorator callee (without the call's parentheses). */
  ref: NameRef;
  /** Written with parentheses: `@on_turn_started()` rather than `@on_turn_started`. */
  called: boolean;
  /** When called: its arguments. */
  call?: CallFacts;
}

export interface RaiseFacts {
  /** The `raise ...` statement. */
  range: Range;
  /** The exception raised: the callee when it is a call (`RetryModel("x")`), else the name (`raise RetryModel`). */
  exception?: NameRef;
  call?: CallFacts;
  /** Bare `raise` (re-raise). */
  isReraise: boolean;
  /** Inside an `except` clause. */
  inExceptHandler: boolean;
}

export interface ReturnFacts {
  range: Range;
  /** `return` with no value (or `return None`). */
  returnsNone: boolean;
  /** Bare `return` keyword with no expression at all. */
  bare: boolean;
  value?: {
    text: string;
    range: Range;
    ref?: NameRef;
    call?: CallFacts;
    /** The returned expression's tree-sitter type (`string`, `dictionary`, `call`, `identifier`, …). */
    nodeType?: string;
    literal?: LiteralValue;
  };
}

export interface ModelCopyFacts {
  /** The `x.model_copy(...)` call. */
  range: Range;
  /** Receiver as written: "payload", "request". */
  receiver: string;
  /** `update=` keyword present and a dict literal: its entries. */
  updateEntries?: DictEntry[];
  /** `update=` present but not a literal dict (e.g. a variable): keys unknown. */
  updateIsDynamic: boolean;
}

export type WriteKind =
  'assign' | 'augmented-assign' | 'delete' | 'subscript-assign' | 'subscript-delete' | 'mutating-call';

export interface AttributeWrite {
  /** Root name of the target: "payload" in `payload.arguments["x"] = 1`. */
  root: string;
  /** Attribute path below the root: ["arguments"]. */
  path: string[];
  kind: WriteKind;
  /** For `mutating-call`: the method ("append", "update", "pop", …). */
  method?: string;
  range: Range;
}

/**
 * A name (or `self.<attr>`) bound in a function body: `args = context.arguments`,
 * `self.args = context.arguments`, `value = result.value`; also loop, `with … as` and `:=`
 * targets (with `value` absent), so a rebound name is known not to be a plain alias.
 */
export interface LocalBinding {
  /** "args", or "self.args" for an attribute of the first parameter written `self`. */
  target: string;
  /** The whole statement. */
  range: Range;
  /** For `target = value`: the value as written, its node type and its literal value. */
  value?: { text: string; nodeType: string; literal: LiteralValue; range: Range; callee?: string };
}

/** An attribute read through a chain of names: `call.argumentz` (root "call", path ["argumentz"]). */
export interface AttributeRead {
  root: string;
  path: string[];
  /** The range of each name of `path`, in order. */
  ranges: Range[];
}

/** Facts collected from a function body, nested function and class bodies excluded. */
export interface BodyFacts {
  raises: RaiseFacts[];
  returns: ReturnFacts[];
  calls: CallFacts[];
  modelCopies: ModelCopyFacts[];
  writes: AttributeWrite[];
  /** Names bound in the body (aliases and rebinding). */
  bindings: LocalBinding[];
  /** Attribute chains read on a name (`payload.text`, `context.arguments.get`). */
  attributeReads: AttributeRead[];
  /** Control can reach the end of the body without a return or raise (an implicit `return None`). */
  canFallOffEnd: boolean;
  /** The body is a single `...` or `pass` (a stub). */
  isStub: boolean;
}

export interface FunctionDef {
  name: string;
  nameRange: Range;
  /** From the first decorator (or `async`/`def`) to the end of the body. */
  range: Range;
  /** The `def` keyword (for inserting `async ` before it). */
  defKeywordRange: Range;
  isAsync: boolean;
  decorators: Decorator[];
  parameters: Parameter[];
  /** The `(...)` parameter list. */
  parametersRange: Range;
  returnAnnotation?: Annotation;
  body: BodyFacts;
  /** Enclosing class name for methods. */
  className?: string;
}

export interface ClassDef {
  name: string;
  /**
   * Where a class defined inside a function or class body sits, as Python's `__qualname__`
   * prefix: "make_hook.<locals>", "Outer". Absent for a module-level class.
   */
  enclosing?: string;
  nameRange: Range;
  range: Range;
  bases: NameRef[];
  methods: FunctionDef[];
  /** Class-level assignments by name (e.g. `name = "audit"`). */
  attributes: { name: string; value: LiteralValue; range: Range }[];
}

export interface SyntaxIssue {
  message: string;
  range: Range;
  /** Who found it: tree-sitter's error recovery, or CPython's compile(). */
  source: 'tree-sitter' | 'cpython';
}

export interface HookModule {
  /** File path as given to the parser (absolute in the server, as given on the CLI). */
  path: string;
  /** Top-level statements parse without error. When false, the first real error is in syntaxErrors. */
  syntaxErrors: SyntaxIssue[];
  /** `from __future__ import annotations` is present. */
  futureAnnotations: boolean;
  /** The module's docstring (its first statement, a string), where new imports go below. */
  docstring?: Range;
  imports: ImportBinding[];
  /** Module-level functions (methods are in classes). */
  functions: FunctionDef[];
  /** Module-level classes, then classes nested in function and class bodies (with `enclosing`). */
  classes: ClassDef[];
  /** Line count, for benchmarks and limits. */
  lineCount: number;
  /** Names evaluated at import time that nothing defines (import-time-names.ts); absent when none. */
  undefinedAtImport?: UndefinedName[];
  /** Module-level names bound once to a string literal (module-constants.ts); absent when none. */
  stringConstants?: Record<string, string>;
}

/** Where an undefined name is evaluated as the module loads. */
export type UndefinedNameContext =
  'decorator' | 'annotation' | 'default' | 'class-base' | 'class-body' | 'module-code';

export interface UndefinedName {
  name: string;
  range: Range;
  context: UndefinedNameContext;
}
