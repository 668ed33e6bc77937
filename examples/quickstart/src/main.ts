import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { codexHooks, loadCodexHooks, trustCodexHooks } from '@harness-kernel/codex'
import { JsonFileTrustStore } from '@harness-kernel/hook-protocol'
import { createKernel, type SteerOutcome } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { noDestructiveCommands } from './no-destructive-commands.js'
import { simulatedApprover } from './simulated-approver.js'
import { simulatedUser } from './simulated-user.js'
import { stepPrinter } from './step-printer.js'

const script = fileURLToPath(new URL('../script.yaml', import.meta.url))
const codexHome = fileURLToPath(new URL('../codex-home', import.meta.url))
const claudeSettings = fileURLToPath(new URL('../claude/settings.json', import.meta.url))
const workspace = mkdtempSync(join(tmpdir(), 'harness-quickstart-'))
const print = (line: string) => process.stdout.write(`${line}\n`)

// The hooks in codex-home/hooks.json and claude/settings.json name their scripts through this variable (hooks inherit the environment).
process.env.QUICKSTART_HOOKS = fileURLToPath(new URL('../hooks', import.meta.url))
// Codex runs only hooks whose hash the user trusted. Trust the example's, as `harness hooks trust --all` would,
// in a trust store of this run's own (the real one is $HARNESS_HOME/trust/codex.json).
const trustStore = new JsonFileTrustStore(join(workspace, '.trust', 'codex.json'), 'codex')
const { handlers } = loadCodexHooks({ cwd: workspace, codexHome, trustStore })
const { trusted } = trustCodexHooks({ handlers, keys: 'all', target: 'harness', trustStore, codexHome })

let steerReceipt: Promise<SteerOutcome> | undefined
const kernel = createKernel(
  [
    scriptedModel({ script }),
    tools(),
    codexHooks({ codexHome, trustStore }),
    // Claude Code hooks need no trust step; `settings` loads a file as `claude --settings` would. Only this example's
    // hooks: no user, project or managed settings of the machine it runs on.
    claudeCodeHooks({ settings: [claudeSettings], settingSources: [], managedSettingsPath: false }),
    noDestructiveCommands(),
    simulatedUser('Also write a README.md in build/ saying what is in it.', (receipt) => {
      steerReceipt = receipt
    }),
    simulatedApprover(print),
    stepPrinter(print),
  ],
  { cwd: workspace },
)

print(
  'harness-kernel quickstart: a scripted model, the built-in tools in the sandbox, a policy plugin, an approval, Codex and Claude Code hooks, steering',
)
print(`workspace: ${workspace}`)
print(`trusted ${trusted.length} Codex hooks from ${join(codexHome, 'hooks.json')}`)
const session = await kernel.startSession()
const result = await session.run('Clean up the build output and leave a greeting in build/hello.txt.')
await session.idle()

print(`\nturn status: ${result.status}; last answer: ${result.lastAssistantMessage}`)
print(`steering receipt: ${JSON.stringify(await steerReceipt)}`)
print(`build/README.md:\n${readFileSync(join(workspace, 'build/README.md'), 'utf8')}`)
await session.end()
await kernel.dispose()

// Everything this run wrote is in one temporary folder; say where, and how to look at it or remove it.
print(`\nleft in ${workspace} (temporary: remove it with rm -r ${workspace}):`)
print(`  workspace    ${workspace} (build/hello.txt, build/README.md)`)
print(`  session log  ${session.transcriptPath}`)
print(`               read it with: npx harness sessions show ${session.id} --cwd ${workspace}`)
print(`  trust store  ${trustStore.path} (the Codex hooks trusted above)`)
if (result.status !== 'completed') process.exitCode = 1
