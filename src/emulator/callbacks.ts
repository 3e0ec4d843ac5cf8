import { restorePlaceholders } from '../core/model/placeholders'
import type { Clock } from './clock'
import { isoDate } from './clock'
import type { EmulatorConfig } from './config'
import type { EmulatorStore } from './store'
import type { TimerSet } from './timers'

export interface CallbackDelivery {
  event: string
  method: 'GET' | 'POST'
  url: string
  attempts: number
  delivered: boolean
  /** HTTP status of the last attempt, or null when it got no answer. */
  lastStatus: number | null
  lastError: string | null
}

const ATTEMPT_TIMEOUT_MS = 10_000
const KEPT_DELIVERIES = 500

interface CallbackDeps {
  store: () => EmulatorStore
  clock: Clock
  config: () => EmulatorConfig
  timers: TimerSet
  log: (line: string) => void
}

/**
 * Sends callbacks and retries failed ones (network error or non-2xx) with a doubling delay, a few
 * times and no more, as the spec describes. Deliveries are kept for `GET /_emulator/callbacks`.
 */
export class CallbackSender {
  readonly #deps: CallbackDeps
  #deliveries: CallbackDelivery[] = []

  constructor(deps: CallbackDeps) {
    this.#deps = deps
  }

  /** Subscribes to the store's events; call again after the store is replaced. */
  attach(store: EmulatorStore): void {
    store.events.on('translationPublished', ({ projectId, hashcode, localeId }) => {
      const string = store.strings.get(projectId, hashcode)
      const published = string?.translations[localeId]?.published
      if (!string?.callbackUrl || !published) return
      const method = string.callbackMethod ?? 'GET'
      const fields = { projectId, hashcode, localeId, type: 'string.localeCompleted' }
      if (method === 'GET') {
        const url = new URL(string.callbackUrl)
        for (const [k, v] of Object.entries(fields)) url.searchParams.append(k, v)
        this.send('string.localeCompleted', 'GET', url.href, null)
      } else {
        const translation = restorePlaceholders(published.text, string.placeholders)
        const translations = [
          { translation, pluralForm: null, modifiedDate: isoDate(published.modifiedDate) },
        ]
        this.send('string.localeCompleted', 'POST', string.callbackUrl, { ...fields, translations })
      }
    })
  }

  /** Starts a delivery in the background. Later areas (jobs, files) send their events through it. */
  send(event: string, method: 'GET' | 'POST', url: string, body: unknown): CallbackDelivery {
    const delivery: CallbackDelivery = {
      event,
      method,
      url,
      attempts: 0,
      delivered: false,
      lastStatus: null,
      lastError: null,
    }
    this.#deliveries.push(delivery)
    if (this.#deliveries.length > KEPT_DELIVERIES) this.#deliveries.shift()
    void this.#attempt(delivery, body)
    return delivery
  }

  async #attempt(delivery: CallbackDelivery, body: unknown): Promise<void> {
    delivery.attempts++
    try {
      const response = await fetch(delivery.url, {
        method: delivery.method,
        headers: body === null ? {} : { 'content-type': 'application/json' },
        body: body === null ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      })
      await response.arrayBuffer().catch(() => {})
      delivery.lastStatus = response.status
      delivery.lastError = null
      delivery.delivered = response.ok
    } catch (error) {
      delivery.lastStatus = null
      delivery.lastError = (error as Error).message
    }
    this.#deps.log(
      `callback ${delivery.event} ${delivery.method} ${delivery.url} attempt ${delivery.attempts}: ` +
        (delivery.lastStatus ?? delivery.lastError),
    )
    if (delivery.delivered) return
    const { callbackRetries, callbackRetryBaseMs } = this.#deps.config()
    if (delivery.attempts > callbackRetries) return
    this.#deps.timers.after(callbackRetryBaseMs * 2 ** (delivery.attempts - 1), () => {
      void this.#attempt(delivery, body)
    })
  }

  get deliveries(): readonly CallbackDelivery[] {
    return this.#deliveries
  }

  clear(): void {
    this.#deliveries = []
  }
}
