// The commit a benchmark run measures (bench.mjs reads it around the build; what changes while the
// figures run is not in what they measure). Marked when the work tree had changes (besides the
// bench's own results, which a run before this one leaves changed).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';

/** What the run leaves changed and is no change of what is measured. */
const RESULTS = [':!docs/benchmarks.md', ':!bench/results'];

const git = (root, args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

export function commitMeasured(root) {
  try {
    const commit = git(root, ['rev-parse', '--short', 'HEAD']).trim();
    const dirty = git(root, ['status', '--porcelain', '--untracked-files=no', '--', '.', ...RESULTS]).trim() !== '';
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown commit';
  }
}

/**
 * A digest of the tree as a build would read it: the commit, the changes to tracked files and the
 * untracked files that are not ignored, with their content. Two equal digests: nothing changed
 * between them, even in a tree already marked "with uncommitted changes".
 */
export function treeDigest(root) {
  try {
    const hash = createHash('sha256');
    hash.update(git(root, ['rev-parse', 'HEAD']));
    hash.update(git(root, ['diff', 'HEAD', '--binary', '--', '.', ...RESULTS]));
    const untracked = git(root, ['ls-files', '--others', '--exclude-standard', '-z']).split('\0').filter(Boolean);
    if (untracked.length > 0) hash.update(git(root, ['hash-object', '--', ...untracked]));
    hash.update(untracked.join('\0'));
    return hash.digest('hex');
  } catch {
    return null;
  }
}
