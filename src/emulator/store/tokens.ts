import { randomBytes } from 'node:crypto'
import type { TokenPair } from '../../core/model/wire'
import type { StorePart } from './part'

export type { TokenPair }

interface Grant {
  userIdentifier: string
  expiresAt: number
}

interface TokenSnapshot {
  access: [string, Grant][]
  refresh: [string, Grant][]
}

export type TokenCheck = { ok: true; userIdentifier: string } | { ok: false; reason: 'unknown' | 'expired' }

function opaqueToken(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * Issued access and refresh tokens. Refresh tokens are not single-use: two workers of one client
 * refreshing at once both get a pair (the spec's "shared variable" pattern), and a pair stays valid
 * until it expires.
 */
export class TokenStore implements StorePart {
  readonly name = 'tokens'
  #access = new Map<string, Grant>()
  #refresh = new Map<string, Grant>()
  #onChange: () => void

  constructor(onChange: () => void) {
    this.#onChange = onChange
  }

  issue(userIdentifier: string, now: number, expiresIn: number, refreshExpiresIn: number): TokenPair {
    this.#sweep(now)
    const pair: TokenPair = {
      accessToken: opaqueToken(),
      refreshToken: opaqueToken(),
      expiresIn,
      refreshExpiresIn,
      tokenType: 'Bearer',
    }
    this.#access.set(pair.accessToken, { userIdentifier, expiresAt: now + expiresIn * 1000 })
    this.#refresh.set(pair.refreshToken, { userIdentifier, expiresAt: now + refreshExpiresIn * 1000 })
    this.#onChange()
    return pair
  }

  checkAccess(token: string, now: number): TokenCheck {
    return check(this.#access.get(token), now)
  }

  checkRefresh(token: string, now: number): TokenCheck {
    return check(this.#refresh.get(token), now)
  }

  /** Drops grants long past expiry, so a long-running emulator does not grow without bound. */
  #sweep(now: number): void {
    const hour = 3_600_000
    for (const map of [this.#access, this.#refresh]) {
      for (const [token, grant] of map) if (grant.expiresAt + hour < now) map.delete(token)
    }
  }

  get size(): number {
    return this.#access.size
  }

  snapshot(): TokenSnapshot {
    return { access: [...this.#access], refresh: [...this.#refresh] }
  }

  restore(data: unknown): void {
    const snap = data as Partial<TokenSnapshot> | null
    if (Array.isArray(snap?.access)) this.#access = new Map(snap.access)
    if (Array.isArray(snap?.refresh)) this.#refresh = new Map(snap.refresh)
  }

  reset(): void {
    this.#access.clear()
    this.#refresh.clear()
  }
}

function check(grant: Grant | undefined, now: number): TokenCheck {
  if (!grant) return { ok: false, reason: 'unknown' }
  if (grant.expiresAt <= now) return { ok: false, reason: 'expired' }
  return { ok: true, userIdentifier: grant.userIdentifier }
}
