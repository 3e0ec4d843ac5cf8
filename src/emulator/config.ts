import { validationError } from './http/envelope'
import type { EmulatorOptions } from './types'

/** The emulator's tunables; set at start, changed by `POST /_emulator/config`, restored on reset. */
export interface EmulatorConfig {
  expiresIn: number
  refreshExpiresIn: number
  syncWindowMs: number
  processingMs: number
  processTtlMs: number
  callbackRetries: number
  callbackRetryBaseMs: number
  /** Job operations on more hashcodes than this answer 202 and finish in the background. */
  jobSyncMaxHashcodes: number
  /** How long an asynchronous (202) job operation takes before it is applied. */
  jobProcessMs: number
  /** How long a file upload, import, rename or delete holds its file (RESOURCE_LOCKED) and a slot of the project's 10. */
  fileOperationMs: number
  /** How long an asynchronous file delete takes; until then the URI cannot be uploaded again. */
  fileDeleteMs: number
  /** The `Retry-After` (seconds) sent with every 429 and 503, injected or not. */
  retryAfterSeconds: number
}

export const DEFAULT_CONFIG: Readonly<EmulatorConfig> = {
  expiresIn: 480,
  refreshExpiresIn: 3660,
  syncWindowMs: 60_000,
  processingMs: 0,
  processTtlMs: 3_600_000,
  callbackRetries: 3,
  callbackRetryBaseMs: 1000,
  jobSyncMaxHashcodes: 100,
  jobProcessMs: 0,
  fileOperationMs: 0,
  fileDeleteMs: 60_000,
  retryAfterSeconds: 0,
}

const LIMITS: Record<keyof EmulatorConfig, { min: number; max: number }> = {
  expiresIn: { min: 1, max: 31_536_000 },
  refreshExpiresIn: { min: 1, max: 31_536_000 },
  syncWindowMs: { min: 0, max: 3_600_000 },
  processingMs: { min: 0, max: 3_600_000 },
  processTtlMs: { min: 0, max: 31_536_000_000 },
  callbackRetries: { min: 0, max: 20 },
  callbackRetryBaseMs: { min: 0, max: 3_600_000 },
  jobSyncMaxHashcodes: { min: 0, max: 1_000_000 },
  jobProcessMs: { min: 0, max: 3_600_000 },
  fileOperationMs: { min: 0, max: 3_600_000 },
  fileDeleteMs: { min: 0, max: 3_600_000 },
  retryAfterSeconds: { min: 0, max: 86_400 },
}

export const CONFIG_KEYS: readonly (keyof EmulatorConfig)[] = Object.keys(LIMITS) as (keyof EmulatorConfig)[]

/**
 * Applies the given fields onto `base` after checking each is an integer in range; `where` prefixes
 * the field in messages (`options.expiresIn`). Unknown fields are rejected, so a typo is not lost.
 */
export function mergeConfig(
  base: EmulatorConfig,
  input: Record<string, unknown>,
  where = '',
): EmulatorConfig {
  const next = { ...base }
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue
    if (!Object.hasOwn(LIMITS, key)) {
      throw validationError(`${where}${key}`, `is not a setting; known: ${CONFIG_KEYS.join(', ')}`)
    }
    const { min, max } = LIMITS[key as keyof EmulatorConfig]
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw validationError(`${where}${key}`, `must be an integer between ${min} and ${max}`)
    }
    next[key as keyof EmulatorConfig] = value
  }
  return next
}

export function configFromOptions(options: EmulatorOptions): EmulatorConfig {
  const picked: Record<string, unknown> = {}
  for (const key of CONFIG_KEYS) picked[key] = options[key]
  try {
    return mergeConfig(DEFAULT_CONFIG, picked, 'options.')
  } catch (error) {
    throw new Error(`[unplugin-tms] startEmulator: ${(error as Error).message}`)
  }
}
