#!/usr/bin/env node
// Differential conformance suite: every scenario in scenarios/ runs through the real Claude Code
// (shared/real-clients/claude-code/run-cli.sh) and through our kernel with
// @harness-kernel/claude-code; the normalized hook calls (stdin, env, cwd), the model-visible
// request deltas and the turn outcome are compared. See README.md.
//
// Usage: node conformance/claude-code/run.mjs [options] [scenario-filter ...]
//   --saved        do not run Claude Code: compare the kernel with the saved results in expected/
//   --record       write the fresh Claude Code results to expected/ (commit them)
//   --build        run `tsc -b` first (what `npm run conformance:claude-code` does); if it fails, the
//                  kernel side is reported unavailable and the Claude Code side still runs
//   --claude-only  run only the Claude Code side (and print what it did)
//   --verbose      print what real Claude Code did for every scenario
//   --out DIR      keep all run directories under DIR (default: a fresh temp directory)
//   --jobs N       scenarios run in parallel per side (default 3)
import { parseCli } from '../lib/cli.mjs'
import { runSuite } from '../lib/run-suite.mjs'
import { runClaudeScenario } from './lib/claude-runner.mjs'
import { checkExpectations, compareResults } from './lib/compare.mjs'
import { EXPECTED_DIR, makeTempRoot, probeClaude } from './lib/env.mjs'
import { probeKernel, runKernelScenario } from './lib/kernel-runner.mjs'
import { renderReport } from './lib/report.mjs'
import { loadScenarios } from './lib/scenarios.mjs'

// The run loop, shared with the Codex suite: ../lib/run-suite.mjs.
await runSuite({
  client: 'Claude Code',
  dir: 'claude-code',
  side: 'claude',
  onlyFlag: '--claude-only',
  cli: parseCli(process.argv.slice(2), {
    valued: ['--out', '--jobs'],
    known: ['--saved', '--record', '--build', '--claude-only', '--verbose'],
    usage: 'the head of conformance/claude-code/run.mjs',
  }),
  expectedDir: EXPECTED_DIR,
  makeTempRoot,
  loadScenarios,
  probeClient: probeClaude,
  runClientScenario: runClaudeScenario,
  probeKernel,
  runKernelScenario,
  checkExpectations,
  compareResults,
  renderReport,
  recordOnlyExpected: true,
})
