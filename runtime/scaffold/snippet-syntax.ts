// VS Code snippet syntax (`${1:name}`, `$0`, `${1|a,b|}`): escaping literal text for a snippet,
// and expanding a snippet to the text it inserts with every placeholder at its default.

/** Escapes text for the literal part of a snippet. */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => `\\${c}`);
}

/** Snippet text → the text it expands to with every placeholder at its default (`${1:x}` → x, `$0` → ''). */
export function expandSnippet(snippet: string): string {
  let out = '';
  for (let i = 0; i < snippet.length; i++) {
    const ch = snippet[i]!;
    if (ch === '\\' && i + 1 < snippet.length && '\\$}'.includes(snippet[i + 1]!)) {
      out += snippet[++i];
    } else if (ch === '$') {
      const simple = /^\$(\d+|[A-Z_]+)/.exec(snippet.slice(i));
      if (simple) {
        i += simple[0].length - 1;
        continue;
      }
      const open = /^\$\{(\d+|[A-Z_]+)(:|\|)?/.exec(snippet.slice(i));
      if (!open) {
        out += ch;
        continue;
      }
      // Placeholder: expand its default (which may nest), skipping choice lists' extra options.
      let depth = 1;
      let j = i + open[0].length;
      let inner = '';
      for (; j < snippet.length && depth > 0; j++) {
        const c = snippet[j]!;
        if (c === '\\' && j + 1 < snippet.length) {
          inner += c + snippet[++j];
          continue;
        }
        if (c === '{' && snippet[j - 1] === '$') depth++;
        if (c === '}' && --depth === 0) break;
        inner += c;
      }
      if (open[2] === '|') inner = inner.replace(/\|$/, '').split(',')[0] ?? '';
      out += open[2] ? expandSnippet(inner) : '';
      i = j;
    } else out += ch;
  }
  return out;
}
