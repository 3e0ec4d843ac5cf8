import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '../../src/client/index'
import { messageKey } from '../../src/core/extract/types'
import { APP_PLACEHOLDER_SOURCE, parsePlaceholders } from '../../src/core/model/placeholders'
import { type SyncMessage, syncTranslations } from '../../src/core/sync'
import type { RunningEmulator } from '../../src/emulator/index'
import { type Options, type ResolvedOptions, resolveOptions } from '../../src/options'
import { syncClientOf } from '../../src/service'

/** Shared set-up of the sync-engine tests: the demo seed's project, a temp root, a real client. */

export const PROJECT = 'demo-project'
export const NAMESPACE = 'sync-test'

/** A control-API call; answers come in the envelope like every other response. */
export async function control(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  if (res.status === 204) return undefined
  return ((await res.json()) as { response: { data: unknown } }).response.data
}

/**
 * Resolves once the emulator has no background work left: an authorization of more than
 * AUTO_TRANSLATE_AT_ONCE pairs is auto-translated in slices after it returns.
 */
export async function untilIdle(emu: RunningEmulator): Promise<void> {
  for (;;) {
    const state = (await control(emu, 'GET', '/_emulator/state')) as { pendingTimers: number }
    if (state.pendingTimers === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** How many requests of one route the emulator has logged. */
export async function requestsTo(emu: RunningEmulator, route: string): Promise<number> {
  const log = (await control(emu, 'GET', '/_emulator/requests')) as { byRoute: Record<string, number> }
  return log.byRoute[route] ?? 0
}

export function message(text: string, extra: Partial<SyncMessage> = {}): SyncMessage {
  const { parsed, placeholders } = parsePlaceholders(text, { custom: APP_PLACEHOLDER_SOURCE })
  const variant = extra.variant ?? null
  return {
    key: messageKey(parsed, variant, NAMESPACE),
    text,
    parsed,
    placeholders,
    variant,
    locations: [{ file: '/app/src/App.tsx', line: 3, column: 7 }],
    ...extra,
  }
}

export async function syncOptions(emu: RunningEmulator, overrides: Options = {}): Promise<ResolvedOptions> {
  const root = overrides.root ?? (await mkdtemp(join(tmpdir(), 'tms-sync-')))
  return resolveOptions(
    {
      baseUrl: emu.url,
      projectId: PROJECT,
      userIdentifier: 'demo-user',
      userSecret: 'demo-secret',
      locales: ['fr-FR', 'de-DE', 'ja-JP'],
      namespace: NAMESPACE,
      ...overrides,
      root,
    },
    { command: 'build', env: {} },
  )
}

export function memoryLogger(): { lines: string[]; info(m: string): void; warn(m: string): void } {
  const lines: string[] = []
  return { lines, info: (m) => lines.push(`info: ${m}`), warn: (m) => lines.push(`warn: ${m}`) }
}

/** One sync run through a real client with a short retry budget. */
export async function runSync(
  options: ResolvedOptions,
  messages: SyncMessage[],
  extra: { push?: boolean } = {},
) {
  const client = createClient({
    baseUrl: options.baseUrl!,
    userIdentifier: 'demo-user',
    userSecret: 'demo-secret',
    retry: { retries: 1, minDelayMs: 10, maxDelayMs: 20, maxTotalMs: 500 },
  })
  const log = memoryLogger()
  try {
    const result = await syncTranslations({
      options,
      messages,
      client: syncClientOf(client),
      logger: log,
      ...extra,
    })
    return { result, log: log.lines, requests: client.stats.total }
  } finally {
    await client.close()
  }
}
