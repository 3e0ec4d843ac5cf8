import { ApiError, type ResponseCode, validationError } from './http/envelope'
import { optionalNumber } from './http/params'
import { seededRandom } from './random'
import type { FaultSettings } from './types'

type FaultStatus = '429' | '423' | '500' | '503'

const FAULT_CODES: Record<FaultStatus, ResponseCode> = {
  '429': 'MAX_OPERATIONS_LIMIT_EXCEEDED',
  '423': 'RESOURCE_LOCKED',
  '500': 'GENERAL_ERROR',
  '503': 'MAINTENANCE_MODE_ERROR',
}

const FAULT_MESSAGES: Record<FaultStatus, string> = {
  '429': 'Too many simultaneous requests; wait and retry',
  '423': 'The resource is being processed by another operation',
  '500': 'Unexpected error (injected by the emulator)',
  '503': 'The service is in maintenance mode',
}

export type FaultDecision = { kind: 'drop' } | { kind: 'error'; error: ApiError } | null

export interface ResolvedFaults {
  latencyMs: number
  rates: Record<FaultStatus, number>
  dropRate: number
  processFailRate: number
  seed: number | null
}

const NO_FAULTS: ResolvedFaults = {
  latencyMs: 0,
  rates: { '429': 0, '423': 0, '500': 0, '503': 0 },
  dropRate: 0,
  processFailRate: 0,
  seed: null,
}

/**
 * Reads a faults body (or the `faults` option). Shares are 0..1 and, with `dropRate`, may not add
 * up to more than 1: one roll of the dice per request picks at most one fault.
 */
export function parseFaults(input: unknown, where = ''): ResolvedFaults {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationError(where || 'body', 'must be a JSON object')
  }
  const body = input as Record<string, unknown>
  for (const key of Object.keys(body)) {
    if (!['latencyMs', 'rates', 'dropRate', 'processFailRate', 'seed'].includes(key)) {
      throw validationError(`${where}${key}`, 'is not a fault setting')
    }
  }
  const share = { min: 0, max: 1 }
  const rates = { ...NO_FAULTS.rates }
  if (body.rates !== undefined && body.rates !== null) {
    if (typeof body.rates !== 'object' || Array.isArray(body.rates)) {
      throw validationError(`${where}rates`, 'must be an object of status -> share')
    }
    for (const status of Object.keys(body.rates)) {
      if (!Object.hasOwn(FAULT_CODES, status)) {
        throw validationError(
          `${where}rates.${status}`,
          `is not an injectable status; use 429, 423, 500 or 503`,
        )
      }
      rates[status as FaultStatus] =
        optionalNumber(body.rates as Record<string, unknown>, status, share, `${where}rates.${status}`) ?? 0
    }
  }
  const dropRate = optionalNumber(body, 'dropRate', share, `${where}dropRate`) ?? 0
  const total = dropRate + Object.values(rates).reduce((a, b) => a + b, 0)
  if (total > 1 + 1e-9) throw validationError(`${where}rates`, `shares add up to ${total}; at most 1`)
  return {
    latencyMs: optionalNumber(body, 'latencyMs', { min: 0, max: 600_000 }, `${where}latencyMs`) ?? 0,
    rates,
    dropRate,
    processFailRate: optionalNumber(body, 'processFailRate', share, `${where}processFailRate`) ?? 0,
    seed: optionalNumber(body, 'seed', { min: 0, max: 2 ** 32 - 1, integer: true }, `${where}seed`),
  }
}

/** Decides, per spec request, whether it is delayed, dropped or answered with an injected error. */
export class FaultInjector {
  #settings: ResolvedFaults = NO_FAULTS
  #random: () => number = Math.random

  set(settings: ResolvedFaults | FaultSettings | undefined): void {
    this.#settings = settings ? parseFaults(settings) : NO_FAULTS
    this.#random = this.#settings.seed === null ? Math.random : seededRandom(this.#settings.seed)
  }

  get settings(): ResolvedFaults {
    return this.#settings
  }

  get latencyMs(): number {
    return this.#settings.latencyMs
  }

  /** One roll: the share of each fault is the chance it is picked. */
  decide(): FaultDecision {
    const { rates, dropRate } = this.#settings
    if (dropRate === 0 && Object.values(rates).every((r) => r === 0)) return null
    const roll = this.#random()
    let edge = dropRate
    if (roll < edge) return { kind: 'drop' }
    for (const status of Object.keys(FAULT_CODES) as FaultStatus[]) {
      edge += rates[status]
      if (roll < edge) {
        const code = FAULT_CODES[status]
        const key = status === '429' ? 'too_many_requests' : code.toLowerCase()
        return { kind: 'error', error: new ApiError(code, [{ key, message: FAULT_MESSAGES[status] }]) }
      }
    }
    return null
  }

  shouldFailProcess(): boolean {
    return this.#settings.processFailRate > 0 && this.#random() < this.#settings.processFailRate
  }
}
