import { loadConfig } from '@ecomm-sync/runtime';

/** What tools/scripts/bench.mjs hands the benchmark (read in one place, as the apps do). */
export const benchConfig = loadConfig({
  BENCH_COMMIT: {
    doc: 'set by `npm run bench`: the commit measured, read around the build (tools/scripts/commit-measured.mjs)',
    format: 'string',
    optional: true,
  },
  BENCH_PROFILE_DIR: { doc: 'set by `npm run bench -- --profile`: where the end-to-end run writes CPU profiles', format: 'string', optional: true },
  MONGO_SERVER_PID: { doc: "the MongoDB-wire server's pid, for its CPU seconds in the report", format: 'int', optional: true },
} as const);
