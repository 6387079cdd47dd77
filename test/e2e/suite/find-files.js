// Finds the suite's test files for a pass. Plain Node (no `vscode`): the launcher
// uses it too, to skip a pass that has no test file.
'use strict';
const fs = require('fs');
const path = require('path');

/** A small glob: `**` spans folders, `*` and `?` stay within one path segment. */
function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp('^' + re + '$');
}

/** Test files under `root` matching `files` (comma-separated globs; a leading `!` excludes). */
function findTestFiles(root, files) {
  const globs = files
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
        continue;
      }
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (include.some((r) => r.test(rel)) && !exclude.some((r) => r.test(rel))) found.push(full);
    }
  };
  walk(root);
  return found.sort();
}

module.exports = { findTestFiles, globToRegExp };
