export default {
  description: 'UserPromptSubmit exits 2 on the prompt: no model request, no Stop; the turn ends blocked with the exact warning.',
  renderings: ['system', 'classic'],
  mode: 'r09-ups-exit2',
  expect: { hooks: ['SessionStart/main', 'UserPromptSubmit/main', 'SessionEnd/main'], detached: [], requests: 0, outcome: 'blocked' },
}
