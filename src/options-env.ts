import { type CacheMode, type Credentials, TmsConfigError } from './core/model/options'

/**
 * What the environment says of the service, each variable below the option of the same meaning: the
 * credentials, the API root, the project, `TMS_OFFLINE`, `TMS_MAX_REQUEST_LINE_BYTES` and `CI`. An
 * empty variable counts as unset, as CI systems export secrets a fork's job does not get.
 */

export type Env = Record<string, string | undefined>

/** The options `serviceSettings` reads, as the schema gave them. */
interface ServiceOptions {
  cache?: CacheMode | undefined
  userIdentifier?: string | undefined
  userSecret?: string | undefined
  baseUrl?: string | undefined
  projectId?: string | undefined
}

export interface ServiceSettings {
  cache: CacheMode
  credentials: Credentials | undefined
  baseUrl: string | undefined
  projectId: string | undefined
  /** `CI` set to anything but empty, `0` or `false`. */
  ci: boolean
}

/** The service's settings of `o` over `env`; throws naming the option for half the credentials or a bad URL. */
export function serviceSettings(o: ServiceOptions, env: Env, defaultCache: CacheMode): ServiceSettings {
  const offlineEnv = env.TMS_OFFLINE === '1' || env.TMS_OFFLINE === 'true'
  const cache: CacheMode = o.cache ?? (offlineEnv ? 'offline' : defaultCache)
  const userIdentifier = o.userIdentifier ?? envValue(env, 'TMS_USER_IDENTIFIER')
  const userSecret = o.userSecret ?? envValue(env, 'TMS_USER_SECRET')
  if (!userIdentifier !== !userSecret) {
    // Half of the credentials is a mistake, never an offline build: say which half is missing.
    const [missing, set] = userIdentifier
      ? ['TMS_USER_SECRET (or the userSecret option)', 'TMS_USER_IDENTIFIER']
      : ['TMS_USER_IDENTIFIER (or the userIdentifier option)', 'TMS_USER_SECRET']
    throw new TmsConfigError(
      userIdentifier ? 'userSecret' : 'userIdentifier',
      `${missing} is not set, though ${set} is: set both, or neither for an offline build from the cache`,
    )
  }
  const credentials = userIdentifier && userSecret ? { userIdentifier, userSecret } : undefined
  const baseUrl = (o.baseUrl ?? envValue(env, 'TMS_BASE_URL'))?.replace(/\/+$/, '')
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    throw new TmsConfigError(
      'baseUrl',
      'TMS_BASE_URL must be an http(s) URL such as "https://api.example.com"',
    )
  }
  return {
    cache,
    credentials,
    baseUrl,
    projectId: o.projectId ?? envValue(env, 'TMS_PROJECT_ID'),
    ci: env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase()),
  }
}

/** `TMS_MAX_REQUEST_LINE_BYTES`, checked like the option it stands for. */
export function requestLineFromEnv(env: Env): number | undefined {
  const value = envValue(env, 'TMS_MAX_REQUEST_LINE_BYTES')
  if (value === undefined) return undefined
  const bytes = Number(value)
  if (!/^\d+$/.test(value.trim()) || bytes < 1024 || bytes > 1024 * 1024) {
    throw new TmsConfigError(
      'maxRequestLineBytes',
      `TMS_MAX_REQUEST_LINE_BYTES is ${JSON.stringify(value)}: set it to a whole number of bytes from 1024 to 1048576, e.g. 6144`,
    )
  }
  return bytes
}

function envValue(env: Env, name: string): string | undefined {
  const value = env[name]
  return value === undefined || value === '' ? undefined : value
}
