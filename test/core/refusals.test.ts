import { describe, expect, it } from 'vitest'
import { TmsApiError } from '../../src/client/errors'
import { missingSettings, refusalOf } from '../../src/core/sync/refusals'
import { resolveOptions } from '../../src/options'

/** Which failures of the service fail a build (a refusal, naming the fix) and which the cache covers. */

const options = { projectId: 'p1', baseUrl: 'https://api.example.com' }

function failure(status: number, code: string, message = `${status} ${code}`): TmsApiError {
  return new TmsApiError({ status, code, message, request: { method: 'GET', url: '/x', headers: {} } })
}

describe('refusalOf', () => {
  it('lets network failures, timeouts, malformed answers, 429 and 5xx pass to the cache', () => {
    for (const error of [
      failure(0, 'NETWORK_ERROR'),
      failure(0, 'TIMEOUT'),
      failure(200, 'INVALID_RESPONSE'),
      failure(502, 'INVALID_RESPONSE'),
      failure(429, 'MAX_OPERATIONS_LIMIT_EXCEEDED'),
      failure(500, 'GENERAL_ERROR'),
      failure(503, 'MAINTENANCE_MODE_ERROR'),
    ]) {
      expect(refusalOf(error, options)).toBeUndefined()
    }
  })

  it('names the option to fix for each refusal', () => {
    expect(refusalOf(failure(401, 'AUTHENTICATION_ERROR'), options)?.option).toBe('userSecret')
    expect(refusalOf(failure(401, 'AUTHORIZATION_ERROR'), options)).toEqual({
      option: 'projectId',
      message:
        'the user may not use project p1 (401 AUTHORIZATION_ERROR): check TMS_PROJECT_ID (or the projectId option), or give the user of TMS_USER_IDENTIFIER (or the userIdentifier option) access to it',
    })
    expect(refusalOf(failure(403, 'FORBIDDEN'), options)?.option).toBe('projectId')
    expect(refusalOf(failure(404, 'NOT_FOUND_ERROR'), options)?.option).toBe('projectId')
    expect(
      refusalOf(failure(431, 'INVALID_RESPONSE', '431 Request Header Fields Too Large'), options),
    ).toEqual({
      option: 'maxRequestLineBytes',
      message:
        "a request line was too long for the service or a proxy in front of it (431 Request Header Fields Too Large): lower the maxRequestLineBytes option (or TMS_MAX_REQUEST_LINE_BYTES), or raise the proxy's header limit",
    })
    expect(
      refusalOf(
        failure(400, 'VALIDATION_ERROR', 'targetLocaleId xx-XX is not a target locale'),
        options,
        'xx-XX',
      ),
    ).toEqual({
      option: 'locales',
      message:
        "the service refused the locale xx-XX (targetLocaleId xx-XX is not a target locale): check the locales option against the project's target locales",
    })
  })
})

describe('missingSettings and half credentials', () => {
  const resolve = (env: Record<string, string>) =>
    resolveOptions({ locales: ['fr-FR'], root: '/app' }, { command: 'build', env })

  it('needs nothing without credentials (an offline build) or in offline mode', () => {
    expect(missingSettings(resolve({}))).toBeUndefined()
    const offline = resolve({ TMS_USER_IDENTIFIER: 'u', TMS_USER_SECRET: 's', TMS_OFFLINE: '1' })
    expect(missingSettings(offline)).toBeUndefined()
  })

  it('names TMS_BASE_URL, then TMS_PROJECT_ID, once the credentials are set', () => {
    const creds = { TMS_USER_IDENTIFIER: 'u', TMS_USER_SECRET: 's' }
    expect(missingSettings(resolve(creds))?.option).toBe('baseUrl')
    expect(missingSettings(resolve({ ...creds, TMS_BASE_URL: 'https://api.example.com' }))?.option).toBe(
      'projectId',
    )
  })

  it('fails on half of the credentials, naming the missing variable', () => {
    expect(() => resolve({ TMS_USER_SECRET: 's' })).toThrow(
      '[unplugin-tms] TMS_USER_IDENTIFIER (or the userIdentifier option) is not set, though TMS_USER_SECRET is: set both, or neither for an offline build from the cache',
    )
  })
})
