// The commit a benchmark run measures (bench.mjs reads it before and after the build; what changes
// while the figures run is not in what they measure). Marked when the work tree had changes (besides
// the bench's own results, which a run before this one leaves changed).
import { execSync } from 'node:child_process';

export function commitMeasured(root) {
  try {
    const commit = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const dirty =
      execSync("git status --porcelain --untracked-files=no -- . ':!docs/benchmarks.md' ':!bench/results'", { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown commit';
  }
}
