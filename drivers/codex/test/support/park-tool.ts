/**
 * The kernel tool `park` of the Claude Code driver's tests (calls wait until the test releases them), with
 * the directives that make the fake Responses API call it: here a parked call is an unanswered `item/tool/call`.
 */
export { type ParkedCall, parkTool } from '../../../claude-code/test/support/park-tool.js'

export const parkDirective = (label: string) => `[[call:park:${JSON.stringify({ label })}]]`
export const parkBatch = (...labels: string[]) =>
  `[[calls:${JSON.stringify(labels.map((label) => ({ name: 'park', arguments: { label } })))}]]`
