#!/usr/bin/env node
// Differential conformance suite: every scenario in scenarios/ runs through the real Codex CLI
// (shared/real-clients/codex/run-case.sh) and through our kernel with @harness-kernel/codex; the
// normalized hook payloads and model-visible request deltas are compared. See README.md.
//
// Usage: node conformance/codex/run.mjs [options] [scenario-filter ...]
//   --saved        do not run Codex: compare the kernel with the saved results in expected/
//   --record       write the fresh Codex results to expected/ (commit them)
//   --build        run `tsc -b` first (what `npm run conformance:codex` does); if it fails, the
//                  kernel side is reported unavailable and the Codex side still runs
//   --codex-only   run only the Codex side (and print what it did)
//   --verbose      print what real Codex did for every scenario
//   --out DIR      keep all run directories under DIR (default: a fresh temp directory)
//   --jobs N       scenarios run in parallel per side (default 3)
import { parseCli } from '../lib/cli.mjs'
import { runSuite } from '../lib/run-suite.mjs'
import { runCodexScenario } from './lib/codex-runner.mjs'
import { checkExpectations, compareResults } from './lib/compare.mjs'
import { EXPECTED_DIR, makeTempRoot, probeCodex } from './lib/env.mjs'
import { probeKernel, runKernelScenario } from './lib/kernel-runner.mjs'
import { renderReport } from './lib/report.mjs'
import { loadScenarios } from './lib/scenarios.mjs'

// The run loop, shared with the Claude Code suite: ../lib/run-suite.mjs.
await runSuite({
  client: 'Codex',
  dir: 'codex',
  side: 'codex',
  onlyFlag: '--codex-only',
  // unknown options are ignored here (the Claude Code suite rejects them)
  cli: parseCli(process.argv.slice(2), { valued: ['--out', '--jobs'] }),
  expectedDir: EXPECTED_DIR,
  makeTempRoot,
  loadScenarios,
  probeClient: probeCodex,
  runClientScenario: runCodexScenario,
  probeKernel,
  // the kernel replays the model answers of the Codex run (fresh or saved)
  runKernelScenario: (scenario, root, codexResult) =>
    runKernelScenario(scenario, root, codexResult, { timeoutMs: scenario.timeoutMs ?? 60_000 }),
  checkExpectations,
  compareResults,
  renderReport,
})
