import type { AnswerEvent, ClientOptions, TmsClient } from './client/index'
import type { ImportConnector } from './core/import/run'
import type { ResolvedOptions } from './core/model/options'
import { type ServiceConnector, usesService } from './core/pipeline'
import type { ReviewClient, ReviewConnector } from './core/review/service'
import type { SyncClient } from './core/sync'

/**
 * Where core meets the API client: the plugin and the CLI hand {@link connectService} to the pipeline,
 * so core talks to the small `SyncClient` it defines and never imports `src/client/`.
 */

/** Client settings for tests (short retry budgets); the credentials always come from the options. */
export type ClientSettings = Partial<Omit<ClientOptions, 'baseUrl' | 'userIdentifier' | 'userSecret'>>

/**
 * A client when the options allow network work (see `usesService`), else undefined. The client and its
 * HTTP library are imported only then: an offline build or command never pays for loading them.
 */
export async function clientFor(
  options: ResolvedOptions,
  settings: ClientSettings = {},
): Promise<TmsClient | undefined> {
  const { credentials, baseUrl } = options
  if (!usesService(options) || !credentials || !baseUrl) return undefined
  const { createClient } = await import('./client/index')
  return createClient({
    concurrency: options.concurrency,
    maxRequestLineBytes: options.maxRequestLineBytes,
    ...settings,
    baseUrl,
    userIdentifier: credentials.userIdentifier,
    userSecret: credentials.userSecret,
  })
}

/** Adapts the client's jobs area to what the sync engine calls. */
export function syncClientOf(client: TmsClient): SyncClient {
  return {
    strings: client.strings,
    jobs: {
      findByName: async (projectId, name) => (await client.jobs.findByName(projectId, name)) ?? undefined,
      create: (projectId, job) => client.jobs.create(projectId, job),
      addStrings: (projectId, uid, request) => client.jobs.addStrings(projectId, uid, request),
      get: (projectId, uid) => client.jobs.get(projectId, uid),
      authorize: (projectId, uid) => client.jobs.authorize(projectId, uid),
    },
  }
}

/**
 * An answer after which no refusal of the credentials or the project is to come: a success of a
 * request in the project (the authentication's names no project), or a failure that may pass
 * (no answer, 408, 429, 5xx), which the sync meets with the cache. A 4xx other than those is a
 * refusal, which the sync turns into the build's error.
 */
function takesTheProject(answer: AnswerEvent): boolean {
  const { status } = answer
  if (status >= 400 && status < 500) return status === 408 || status === 429
  return status === 0 || status >= 500 || !answer.route.startsWith('/auth-api/')
}

/** The pipeline's way to the service: the API client, created only when the options allow network work. */
export function connectService(settings: ClientSettings = {}): ServiceConnector {
  return async (options) => {
    let accept = (): void => undefined
    const accepted = new Promise<void>((resolve) => {
      accept = resolve
    })
    const client = await clientFor(options, {
      ...settings,
      onAnswer: (answer) => {
        if (takesTheProject(answer)) accept()
        settings.onAnswer?.(answer)
      },
    })
    if (!client) return undefined
    return {
      accepted,
      client: syncClientOf(client),
      requests: () => client.stats.total,
      unanswered: () => (client.stats.byStatus.network ?? 0) + (client.stats.byStatus.timeout ?? 0),
      close: () => client.close(),
    }
  }
}

/** The review calls (`src/core/review/service.ts`): issues, comments and translations of the client. */
export function connectReview(settings: ClientSettings = {}): ReviewConnector {
  return async (options) => (await clientFor(options, settings)) as ReviewClient | undefined
}

/** `tms import`'s calls (`src/core/import/run.ts`): the sync's, and the files API's upload and import. */
export function connectImport(settings: ClientSettings = {}): ImportConnector {
  return async (options) => {
    const client = await clientFor(options, settings)
    if (!client) return undefined
    return {
      sync: syncClientOf(client),
      files: client.files,
      requests: () => client.stats.total,
      close: () => client.close(),
    }
  }
}
