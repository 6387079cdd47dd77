// "rasa.mantle.hooks is not installed" (import-error's information where the engine package is
// absent from the interpreter) is about the interpreter, not the file: the editor shows it on one
// module per agent and package, not in every new module. The rule and the CLI (check --verbose)
// are unchanged; this is how the server presents it. The module that shows it keeps it until its
// own analysis no longer has it (edited, closed); then the next module of the agent that has it shows it.
import type { HookDiagnostic } from '../runtime/rules/diagnostics';

type Send = (uri: string, diagnostics: HookDiagnostic[], version: number | undefined) => void;

/** The package the notice is about ("rasa-pro", "cayu"), as the rule recorded it; else undefined. */
export function engineNoticePackage(d: HookDiagnostic): string | undefined {
  return d.absentEnginePackage;
}

interface Published {
  diagnostics: HookDiagnostic[];
  version: number | undefined;
  /** agent root + package, for each notice the module's analysis has. */
  keys: Set<string>;
}

export class EngineNotices {
  /** agent root + package → the module showing its notices. */
  private readonly owners = new Map<string, string>();
  /** The last analysis of each module that has a notice. */
  private readonly withNotices = new Map<string, Published>();

  constructor(
    private readonly send: Send,
    private readonly agentOf: (uri: string) => string,
  ) {}

  publish(uri: string, diagnostics: HookDiagnostic[], version: number | undefined): void {
    const agent = this.agentOf(uri);
    const keys = new Set<string>();
    for (const d of diagnostics) {
      const pkg = engineNoticePackage(d);
      if (pkg) keys.add(`${agent}\0${pkg}`);
    }
    if (keys.size) this.withNotices.set(uri, { diagnostics, version, keys });
    else this.withNotices.delete(uri);
    const handOver: string[] = [];
    for (const [key, owner] of this.owners) {
      if (owner === uri && !keys.has(key)) {
        this.owners.delete(key);
        handOver.push(key);
      }
    }
    for (const key of keys) if (!this.owners.has(key)) this.owners.set(key, uri);
    this.send(uri, this.shown(uri, agent, diagnostics), version);
    for (const key of handOver) {
      const next = [...this.withNotices.keys()]
        .filter((u) => this.withNotices.get(u)!.keys.has(key))
        .sort()[0];
      if (!next) continue;
      this.owners.set(key, next);
      const p = this.withNotices.get(next)!;
      this.send(next, this.shown(next, this.agentOf(next), p.diagnostics), p.version);
    }
  }

  /** The module's diagnostics without the notices another module of its agent shows. */
  private shown(uri: string, agent: string, diagnostics: HookDiagnostic[]): HookDiagnostic[] {
    return diagnostics.filter((d) => {
      const pkg = engineNoticePackage(d);
      return !pkg || this.owners.get(`${agent}\0${pkg}`) === uri;
    });
  }
}
