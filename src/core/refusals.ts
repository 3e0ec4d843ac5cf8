import { mayUseNetwork, type ResolvedOptions } from './model/options'

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
