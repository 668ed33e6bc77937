import type { Histogram, Meter } from '@opentelemetry/api'
import { GEN_AI_METRIC, HARNESS_METRIC } from './attribute-names.js'
import { Tally } from './tally.js'

/** The metrics: the GenAI conventions' two client metrics, and counters by outcome for what the conventions do not cover. */
export interface Instruments {
  tokenUsage: Histogram
  operationDuration: Histogram
  toolCalls: Tally
  hookRuns: Tally
  steeringItems: Tally
  turns: Tally
  cost: Tally
}

/** The conventions' advised bucket boundaries, so a backend's percentiles mean the same across instrumentations. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]

export function createInstruments(meter: Meter): Instruments {
  const counter = (name: string, description: string, unit: string) => {
    const tally = new Tally()
    meter.createObservableCounter(name, { description, unit }).addCallback((result) => tally.observe(result))
    return tally
  }
  return {
    tokenUsage: meter.createHistogram(GEN_AI_METRIC.tokenUsage, {
      description: 'Number of input and output tokens used',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    operationDuration: meter.createHistogram(GEN_AI_METRIC.operationDuration, {
      description: 'GenAI operation duration: model calls (chat) and agent turns (invoke_agent)',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    toolCalls: counter(HARNESS_METRIC.toolCalls, 'Tool calls, by tool and outcome', '{call}'),
    hookRuns: counter(HARNESS_METRIC.hookRuns, 'Hook handler runs, by dialect, event and status', '{run}'),
    steeringItems: counter(
      HARNESS_METRIC.steeringItems,
      'Steering input items claimed at a boundary, by outcome (accepted, dropped, returned)',
      '{item}',
    ),
    turns: counter(HARNESS_METRIC.turns, 'Turns, by how they ended', '{turn}'),
    cost: counter(HARNESS_METRIC.cost, 'Cost of model calls, where the kernel or the driver knew the price', 'USD'),
  }
}
