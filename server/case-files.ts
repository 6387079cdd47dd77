// Scenario and payload-case files in the editor: each open one is checked as you type by the
// loader `hooksmith test` uses (runtime/testing/case-file-check.ts), with the agent's hooks as the
// analyser knows them (open buffers included). Their quick fixes are the did-you-mean renames.
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver';
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import { DIAGNOSTIC_SOURCE } from '../runtime/lsp/shared';
import { checkCaseFile, isCaseFile } from '../runtime/testing/case-file-check';
import { isPayloadFile } from '../runtime/testing/discover-cases';
import { hookNamesOf, type AgentHookName } from '../runtime/testing/case-names';
import type { Analyser } from './analyser';
import { uriPath } from './convert';
import type { ClientProfile } from './client-profile';
import { editOf, matching } from './features/code-actions';

interface CaseDocument {
  file: string;
  doc: TextDocument;
  diagnostics: HookDiagnostic[];
  /** The version `diagnostics` are of. */
  checkedVersion?: number;
  /** The agent the last check found the file is about. */
  agentRoot?: string;
}

/** An open case file as completion, hover and symbols read it (server/features/case-language.ts). */
export interface CaseView {
  file: string;
  doc: TextDocument;
  /** The hooks of its agent the analyser knows (none when unknown). */
  hooks: AgentHookName[];
}

export interface CaseFilesHost {
  publish(uri: string, diagnostics: HookDiagnostic[], version: number | undefined): void;
  folders(): readonly string[];
}

export class CaseFiles {
  private docs = new Map<string, CaseDocument>();

  constructor(
    private readonly analyser: Analyser,
    private readonly host: CaseFilesHost,
  ) {}

  /** Whether `uri` is a case file (these never go to the Python analyser). */
  handles(uri: string): boolean {
    const file = uriPath(uri);
    return file !== undefined && isCaseFile(file);
  }

  open(uri: string, text: string, version: number): void {
    const file = uriPath(uri);
    if (!file) return;
    this.docs.set(uri, { file, doc: TextDocument.create(uri, 'yaml', version, text), diagnostics: [] });
  }

  change(uri: string, changes: TextDocumentContentChangeEvent[], version: number): void {
    const d = this.docs.get(uri);
    if (d) d.doc = TextDocument.update(d.doc, changes, version);
  }

  close(uri: string): void {
    if (this.docs.delete(uri)) this.host.publish(uri, [], undefined);
  }

  uris(): string[] {
    return [...this.docs.keys()];
  }

  validate(uri: string): void {
    const d = this.docs.get(uri);
    if (!d) return;
    d.diagnostics = checkCaseFile(d.file, d.doc.getText(), {
      agentHooks: (root) => {
        d.agentRoot = root;
        return this.agentHooks(root);
      },
      workspaceRoots: this.host.folders(),
    });
    d.checkedVersion = d.doc.version;
    this.host.publish(uri, d.diagnostics, d.doc.version);
  }

  view(uri: string): CaseView | undefined {
    const d = this.docs.get(uri);
    if (!d) return undefined;
    // Before a first good check: the loader's default (a payload's agent holds .hooksmith/payloads/).
    const root =
      d.agentRoot ??
      (isPayloadFile(d.file) ? path.dirname(path.dirname(path.dirname(d.file))) : path.dirname(d.file));
    return { file: d.file, doc: d.doc, hooks: this.agentHooks(root) ?? [] };
  }

  /**
   * The did-you-mean fixes of the diagnostics the client asks about, from the document's current
   * version: checked again first when an edit came after the last check.
   */
  codeActions(p: CodeActionParams, client: ClientProfile): CodeAction[] {
    const d = this.docs.get(p.textDocument.uri);
    if (!d || (p.context.only && !p.context.only.includes(CodeActionKind.QuickFix))) return [];
    if (d.checkedVersion !== d.doc.version) this.validate(p.textDocument.uri);
    const snap = {
      uri: p.textDocument.uri,
      version: d.doc.version,
      text: d.doc.getText(),
      diagnostics: d.diagnostics,
    };
    return p.context.diagnostics.flatMap((lsp) => {
      if (lsp.source !== DIAGNOSTIC_SOURCE) return [];
      return (matching(d.diagnostics, lsp)?.fixes ?? []).map((f) => ({
        title: f.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        isPreferred: !!f.isPreferred,
        edit: editOf(snap, f.edits, client),
      }));
    });
  }

  /** The hooks of the agent at `root` the analyser knows; undefined when it knows none there. */
  private agentHooks(root: string): AgentHookName[] | undefined {
    const inside = (f: string) =>
      !path.relative(root, f).startsWith('..') && !path.isAbsolute(path.relative(root, f));
    const names = this.analyser
      .all()
      .filter((s) => s.path && s.engine !== 'none' && inside(s.path))
      .flatMap((s) => hookNamesOf(root, s.path!, s.model, s.engine === 'mantle' && s.root === root));
    return names.length ? names : undefined;
  }
}
