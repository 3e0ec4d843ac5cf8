import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { APP_PLACEHOLDER_SOURCE } from '../../src/core/model/placeholders'
import { localeState } from '../../src/core/review/states'
import { exportedFunction } from '../../src/plugin/overlay/exports'
import { forbiddenReason, TOKEN_HEADER } from '../../src/plugin/overlay/guard'
import { withOverlayHook } from '../../src/plugin/overlay/runtime-hook'

const TOKEN = 'a'.repeat(32)

function request(headers: Record<string, string>, method = 'POST'): IncomingMessage {
  return { method, headers: { host: '127.0.0.1:5173', ...headers } } as unknown as IncomingMessage
}

describe('the dev endpoints guard', () => {
  const own = { origin: 'http://127.0.0.1:5173', [TOKEN_HEADER]: TOKEN }
  it('lets the dev page through: its own origin and the token', () => {
    expect(forbiddenReason(request(own), TOKEN)).toBeUndefined()
    expect(forbiddenReason(request({ ...own, 'sec-fetch-site': 'same-origin' }), TOKEN)).toBeUndefined()
  })
  it('forbids, saying why', () => {
    expect(forbiddenReason(request(own, 'GET'), TOKEN)).toBe('only POST requests are accepted')
    expect(forbiddenReason(request({ ...own, origin: 'http://evil.example' }), TOKEN)).toBe(
      'the Origin http://evil.example is not this dev server',
    )
    expect(forbiddenReason(request({ ...own, origin: 'null' }), TOKEN)).toBe('the Origin "null" is not a URL')
    expect(forbiddenReason(request({ [TOKEN_HEADER]: TOKEN }), TOKEN)).toBe(
      'the request has no Origin header: only the dev page may call these endpoints',
    )
    expect(forbiddenReason(request({ origin: own.origin }), TOKEN)).toBe(
      'the overlay token is missing or wrong',
    )
    expect(forbiddenReason(request({ ...own, [TOKEN_HEADER]: 'b'.repeat(32) }), TOKEN)).toBe(
      'the overlay token is missing or wrong',
    )
    expect(forbiddenReason(request({ ...own, 'sec-fetch-site': 'same-site' }), TOKEN)).toBe(
      'the request is same-site, not same-origin',
    )
  })
})

describe('the runtime hook', () => {
  const runtime =
    'function _l(id, text) { return text }\nfunction getLocale() {}\nfunction onLocaleChange() {}\nexport { _l, getLocale, onLocaleChange };\n_r("en", {});\n'
  it('finds an export by its local name, renamed or not, only when it is a function declaration', () => {
    expect(exportedFunction(runtime, '_l')).toBe('_l')
    expect(exportedFunction('function a$1() {}\nexport { a$1 as _l };', '_l')).toBe('a$1')
    expect(exportedFunction('const _l = () => 1;\nexport { _l };', '_l')).toBeUndefined()
    expect(exportedFunction('function _x() {}\nexport { _x };', '_l')).toBeUndefined()
  })
  it('wraps the lookup so that it notes each text, and leaves a runtime it cannot hook as it is', async () => {
    const hooked = withOverlayHook(runtime)
    expect(hooked).toContain('_l = function')
    expect(hooked).toContain('import("\\u0000tms/overlay.js")')
    expect(withOverlayHook('const _l = () => 1;\nexport { _l };')).toBe('const _l = () => 1;\nexport { _l };')
  })
})

describe('a locale state', () => {
  const spec = { custom: APP_PLACEHOLDER_SOURCE }
  const message = { text: 'Hello {name}!', placeholders: ['{name}'] }
  it('is published, pending, missing or rejected with the reason', () => {
    expect(localeState('fr-FR', message, { published: 'Bonjour {0} !', pending: 'x' }, spec)).toEqual({
      locale: 'fr-FR',
      state: 'published',
      text: 'Bonjour {name} !',
      length: 16,
    })
    expect(localeState('fr-FR', message, { pending: 'Salut {0} !' }, spec)).toMatchObject({
      state: 'pending',
    })
    expect(localeState('fr-FR', message, {}, spec)).toEqual({ locale: 'fr-FR', state: 'missing' })
    expect(localeState('de-DE', message, { published: 'Hallo!' }, spec)).toEqual({
      locale: 'de-DE',
      state: 'rejected',
      text: 'Hallo!',
      reason: 'it drops the placeholder {name}',
      of: 'published',
      length: 6,
    })
  })
})
