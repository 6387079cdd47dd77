// pre-commit itself over a repository mixing an agent and other Python code (#41): the
// `hooksmith-check` hook of .pre-commit-hooks.yaml, installed by pre-commit as users get it
// (pre-commit ≥ 4: `npm install --install-links -g git+file://…`, which runs only npm's
// `prepare`), passes when the hooks are clean although scripts import packages that are not
// installed, and fails on a broken hook. Decided by trying: it runs when pre-commit answers
// (`python -m pre_commit` in the tools environment, else `pre-commit` on PATH) and git is
// there; otherwise it is skipped with the reason. The first install takes minutes (npm).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testEnv } from '../python-envs';

const root = join(__dirname, '..', '..');

/** The command that runs pre-commit, or why there is none. */
function preCommit(): { argv: string[]; skip?: undefined } | { argv?: undefined; skip: string } {
  const tools = testEnv('tools');
  const candidates = [...(tools.python ? [[tools.python, '-m', 'pre_commit']] : []), ['pre-commit']];
  for (const argv of candidates) {
    const r = spawnSync(argv[0], [...argv.slice(1), '--version'], { encoding: 'utf8', timeout: 60_000 });
    if (r.status === 0) return { argv };
  }
  if (spawnSync('git', ['--version']).status !== 0) return { skip: 'git is not installed' };
  return {
    skip: 'pre-commit is not installed (pip install pre-commit, in the tools environment or on PATH)',
  };
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** This checkout as a commit pre-commit can clone: HEAD, or a commit of the uncommitted tracked changes. */
function hooksmithRevision(): string {
  return git(root, 'stash', 'create') || git(root, 'rev-parse', 'HEAD');
}

const HOOK = `from rasa.mantle.hooks import ToolResultPayload, modify_tool_result


@modify_tool_result()
async def keep_result(payload: ToolResultPayload) -> ToolResultPayload:
    return payload
`;

/** A git repository with an agent and Python code that is no hook module (and imports what is not installed). */
function mixedRepository(rev: string): string {
  const repo = mkdtempSync(join(tmpdir(), 'hooksmith-pre-commit-'));
  const write = (rel: string, text: string) => {
    mkdirSync(join(repo, rel, '..'), { recursive: true });
    writeFileSync(join(repo, rel), text);
  };
  write('agent/hooks.py', HOOK);
  write('scripts/report.py', 'import httpx\nimport psycopg\n\nprint(httpx, psycopg)\n');
  write('tests/test_report.py', 'from examples._advanced_support import helper\n\nhelper()\n');
  write(
    '.pre-commit-config.yaml',
    `repos:\n  - repo: ${root}\n    rev: ${rev}\n    hooks:\n      - id: hooksmith-check\n`,
  );
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'mixed');
  return repo;
}

const found = preCommit();

describe('pre-commit over a mixed repository', { skip: found.skip, timeout: 900_000 }, () => {
  it('passes with clean hooks and unrelated code, fails on a broken hook', () => {
    const repo = mixedRepository(hooksmithRevision());
    const env = {
      ...process.env,
      PRE_COMMIT_HOME: mkdtempSync(join(tmpdir(), 'hooksmith-pre-commit-home-')),
    };
    const run = () =>
      spawnSync(found.argv![0], [...found.argv!.slice(1), 'run', '--all-files'], {
        cwd: repo,
        env,
        encoding: 'utf8',
        timeout: 840_000,
      });
    const clean = run();
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /hooksmith check\.+Passed/);

    writeFileSync(join(repo, 'agent', 'hooks.py'), HOOK.replace('async def', 'def'));
    git(repo, 'commit', '-qam', 'broken');
    const broken = run();
    assert.equal(broken.status, 1, broken.stdout + broken.stderr);
    assert.match(broken.stdout, /agent\/hooks\.py:5:\d+: error sync-handler/);
    assert.doesNotMatch(broken.stdout, /report\.py|test_report\.py/);
  });
});
