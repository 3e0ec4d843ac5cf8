import { mayUseNetwork, type ResolvedOptions, TmsConfigError } from '../model/options'

/**
 * Telling a configuration error from a bad network day. A network failure, a timeout, 429 or 5xx
 * (after the client's retries) may pass: the cache stands in and the build warns. Anything else the
 * service answered is a refusal that the next run would get again (a wrong secret, an unknown project,
 * a locale the project lacks): the build cannot be right, so it fails and names the option or the
 * variable to fix.
 */

/** What the engine reads of a client error (`TmsApiError` has all of it). */
interface ServiceError {
  code?: unknown
  status?: unknown
  message?: unknown
  /** The request, as the client copies it (credentials blanked). */
  request?: { url?: unknown }
  errors?: { key?: unknown }[]
}

/**
 * A 404 that says the API root is wrong rather than the project: the authentication endpoint (which
 * names no project) is missing, the service knows no such endpoint, or the answer is no envelope at
 * all (a web server's or a proxy's page).
 */
function wrongApiRoot(e: ServiceError): boolean {
  const url = typeof e.request?.url === 'string' ? e.request.url : ''
  if (/\/auth-api\//.test(url)) return true
  if (e.errors?.some((item) => item.key === 'endpoint_not_found')) return true
  return e.code !== 'NOT_FOUND_ERROR'
}

/** Codes of failures that say nothing about the configuration: the same request may pass later. */
const TRANSIENT_CODES = new Set([
  'NETWORK_ERROR',
  'TIMEOUT',
  'INVALID_RESPONSE',
  'CLIENT_CLOSED',
  'PROCESS_TIMEOUT',
  'PROCESS_EXPIRED',
])

function isTransient(error: ServiceError): boolean {
  const status = typeof error.status === 'number' ? error.status : 0
  // A 4xx is the service's (or a proxy's) answer to this request, whatever its body looked like.
  if (status >= 400 && status < 500) return status === 408 || status === 429
  if (typeof error.code === 'string' && TRANSIENT_CODES.has(error.code)) return true
  // Status 0 is no answer at all, except for a request the client refused to send.
  return (status === 0 && error.code !== 'INVALID_REQUEST') || status >= 500
}

/** Where a variable or an option is set, as a fix names it. */
const VARIABLES = {
  projectId: 'TMS_PROJECT_ID (or the projectId option)',
  baseUrl: 'TMS_BASE_URL (or the baseUrl option)',
  userIdentifier: 'TMS_USER_IDENTIFIER (or the userIdentifier option)',
  userSecret: 'TMS_USER_SECRET (or the userSecret option)',
} as const

/** A refusal of the service: the option at fault and the message that names the fix. */
export interface Refusal {
  option: string
  message: string
}

/**
 * The refusal an error of the service is, or undefined for a failure that may pass (network, timeout,
 * 429, 5xx). `locale` names the locale of a pull, for a refusal of the locale.
 */
export function refusalOf(
  error: unknown,
  options: Pick<ResolvedOptions, 'projectId' | 'baseUrl'>,
  locale?: string,
): Refusal | undefined {
  if (!error || typeof error !== 'object') return undefined
  const e = error as ServiceError
  if (isTransient(e)) return undefined
  const said = typeof e.message === 'string' ? e.message : String(e.code)
  const status = e.status as number
  if (e.code === 'AUTHENTICATION_ERROR' || (status === 401 && e.code !== 'AUTHORIZATION_ERROR')) {
    return {
      option: 'userSecret',
      message: `the service refused the credentials (${said}): check ${VARIABLES.userIdentifier} and ${VARIABLES.userSecret}`,
    }
  }
  if (e.code === 'AUTHORIZATION_ERROR' || status === 403) {
    return {
      option: 'projectId',
      message: `the user may not use project ${options.projectId} (${said}): check ${VARIABLES.projectId}, or give the user of ${VARIABLES.userIdentifier} access to it`,
    }
  }
  if (status === 404 && wrongApiRoot(e)) {
    return {
      option: 'baseUrl',
      message: `${options.baseUrl} is not the API root of the service (${said}): check the path of ${VARIABLES.baseUrl}; the API root is the URL under which /auth-api/v2/authenticate and /strings-api/v2 live`,
    }
  }
  if (e.code === 'NOT_FOUND_ERROR' || status === 404) {
    return {
      option: 'projectId',
      message: `project ${options.projectId} is unknown to ${options.baseUrl} (${said}): check ${VARIABLES.projectId} and ${VARIABLES.baseUrl}`,
    }
  }
  if (status === 414 || status === 431) {
    return {
      option: 'maxRequestLineBytes',
      message: `a request line was too long for the service or a proxy in front of it (${said}): lower the maxRequestLineBytes option (or TMS_MAX_REQUEST_LINE_BYTES), or raise the proxy's header limit`,
    }
  }
  if (locale !== undefined && e.code === 'VALIDATION_ERROR' && /targetLocaleId/.test(said)) {
    return {
      option: 'locales',
      message: `the service refused the locale ${locale} (${said}): check the locales option against the project's target locales`,
    }
  }
  return {
    option: 'baseUrl',
    message: `the service refused the request (${said}): check ${VARIABLES.baseUrl}; this is no network failure, so the cache does not stand in`,
  }
}

/**
 * The API root and the project are set but neither credential is (a secret not handed to a forked
 * pull request's job, a renamed secret): nothing is sent, and a build from the cache would look like a
 * good one. A warning that names the variables; under `CI` a failure (`fails`), since a CI build that
 * silently skips the service ships old translations, unless `cache: 'offline'`/`'frozen'` says the
 * cache is meant.
 */
export function missingCredentials(
  options: Pick<ResolvedOptions, 'projectId' | 'baseUrl' | 'credentials' | 'cache' | 'cacheDir' | 'ci'>,
): { fails: boolean; message: string } | undefined {
  if (!mayUseNetwork(options) || options.credentials) return undefined
  if (!options.baseUrl || !options.projectId) return undefined
  const set = `${VARIABLES.baseUrl} and ${VARIABLES.projectId} are set, but ${VARIABLES.userIdentifier} and ${VARIABLES.userSecret} are not`
  if (options.ci) {
    return {
      fails: true,
      message: `${set}, and CI is set: a CI build that skips the service would pass with old translations. Give this job the secrets, or set cache: 'frozen' (or 'offline', TMS_OFFLINE=1) to build from the committed cache on purpose`,
    }
  }
  return {
    fails: false,
    message: `${set}: nothing is pushed or pulled and the build uses the cache (${options.cacheDir}) as it is. Set both, or set cache: 'offline' (TMS_OFFLINE=1) to build from the cache on purpose`,
  }
}

/**
 * What stops network work before it starts: credentials without the API root or the project. With no
 * credentials at all a build is an offline build from the cache (a fork's pull request has no
 * secrets), so that is no problem here; half of the credentials fails in resolveOptions.
 */
export function missingSettings(
  options: Pick<ResolvedOptions, 'projectId' | 'baseUrl' | 'credentials' | 'cache'>,
): Refusal | undefined {
  if (!mayUseNetwork(options) || !options.credentials) return undefined
  if (!options.baseUrl) {
    return {
      option: 'baseUrl',
      message: `${VARIABLES.baseUrl} is not set: the credentials are, but no request can be sent without the API root`,
    }
  }
  if (!options.projectId) {
    return {
      option: 'projectId',
      message: `${VARIABLES.projectId} is not set: the credentials are, but there is no project to push to or pull from`,
    }
  }
  return undefined
}

/** Why a run sent no request, for the warning that says what it used instead. */
export function offlineReason(
  options: Pick<ResolvedOptions, 'cache' | 'credentials' | 'baseUrl' | 'projectId'>,
  client: unknown,
): string {
  if (options.cache === 'offline') return "cache is 'offline' (TMS_OFFLINE=1 or the cache option)"
  if (!options.credentials) return 'no credentials (set TMS_USER_IDENTIFIER and TMS_USER_SECRET)'
  if (!options.baseUrl) return 'TMS_BASE_URL is not set (or the baseUrl option)'
  if (!options.projectId) return 'TMS_PROJECT_ID is not set (or the projectId option)'
  if (!client) return 'no client'
  return 'no network'
}

/** Network work that did not happen, and what the run used instead. */
export interface ServiceFailure {
  what: string
  error: string
  /** The service refused it (a configuration error) rather than failing to answer. */
  refused?: boolean
}

/** One warning for a bad day, however many requests failed: what failed and what the build used instead. */
export function describeFailures(failures: ServiceFailure[]): string {
  const unreached = [...new Set(failures.filter((f) => !f.refused).map((f) => f.error))]
  const refused = [...new Set(failures.filter((f) => f.refused).map((f) => f.error))]
  const causes = [
    ...refused,
    ...(unreached.length > 0 ? [`the service could not be reached (${unreached.join('; ')})`] : []),
  ]
  return `${causes.join('; ')}; the build goes on with ${failures.map((f) => f.what).join(', ')}`
}

/**
 * A failure the build must stop on (frozen cache, a refusal, a missing setting); the message names the
 * option and the location. A configuration error (`instanceof TmsConfigError`) under its own name.
 */
export class TmsSyncError extends TmsConfigError {
  override readonly name = 'TmsSyncError'
}

/** An error's message for a warning. */
export function describeError(error: unknown): string {
  // The client's errors name the endpoint, the code and the status, and never a secret.
  return error instanceof Error ? error.message : String(error)
}
