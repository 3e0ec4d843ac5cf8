import type { TokenPair } from '../core/model/wire'
import { TmsApiError } from './errors'
import type { HttpTransport, TokenSource } from './http'

export type { TokenPair }

export interface AuthApi {
  /** `POST /auth-api/v2/authenticate`; the pair is kept and used by every later request. */
  authenticate(): Promise<TokenPair>
  /** `POST /auth-api/v2/authenticate/refresh` with the held refresh token (authenticates when none is held). */
  refresh(): Promise<TokenPair>
  /** A valid access token: authenticates lazily, refreshes shortly before expiry. */
  accessToken(): Promise<string>
  /** Forgets the held tokens; the next request authenticates again. */
  clear(): void
}

interface Held {
  accessToken: string
  refreshToken: string
  /** When the access token should be replaced (a margin before its expiry). */
  renewAt: number
  /** When the refresh token stops being worth trying. */
  refreshUntil: number
}

/**
 * Renew this long before the service's expiry: a tenth of the lifetime, at most a minute. A request
 * that starts just before expiry would otherwise meet a 401 in flight.
 */
function margin(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 10)
}

/**
 * Holds the token pair. Concurrent callers share one authenticate or refresh: the pending renewal
 * promise is handed to everyone who asks while it runs.
 */
export class TokenManager implements TokenSource, AuthApi {
  private current: Held | null = null
  private pending: Promise<string> | null = null

  constructor(
    private readonly http: HttpTransport,
    private readonly credentials: { userIdentifier: string; userSecret: string },
    private readonly now: () => number,
  ) {}

  token(): Promise<string> {
    return this.accessToken()
  }

  accessToken(): Promise<string> {
    const current = this.current
    if (current && this.now() < current.renewAt) return Promise.resolve(current.accessToken)
    if (!this.pending) {
      this.pending = this.renew().finally(() => {
        this.pending = null
      })
    }
    return this.pending
  }

  invalidate(token: string): void {
    if (this.current && this.current.accessToken === token) this.current.renewAt = 0
  }

  *held(): Iterable<string> {
    if (this.current) {
      yield this.current.accessToken
      yield this.current.refreshToken
    }
  }

  async authenticate(): Promise<TokenPair> {
    const sentAt = this.now()
    const { data } = await this.http.json<TokenPair>({
      method: 'POST',
      path: '/auth-api/v2/authenticate',
      route: '/auth-api/v2/authenticate',
      body: { userIdentifier: this.credentials.userIdentifier, userSecret: this.credentials.userSecret },
      auth: false,
      idempotent: true,
    })
    this.keep(data, sentAt)
    return data
  }

  async refresh(): Promise<TokenPair> {
    if (!this.current) return this.authenticate()
    const sentAt = this.now()
    const { data } = await this.http.json<TokenPair>({
      method: 'POST',
      path: '/auth-api/v2/authenticate/refresh',
      route: '/auth-api/v2/authenticate/refresh',
      body: { refreshToken: this.current.refreshToken },
      auth: false,
      idempotent: true,
    })
    this.keep(data, sentAt)
    return data
  }

  clear(): void {
    this.current = null
  }

  private async renew(): Promise<string> {
    if (this.current && this.now() < this.current.refreshUntil) {
      try {
        await this.refresh()
        return this.current!.accessToken
      } catch (error) {
        // A refused refresh token (expired, revoked, unknown after a restart) falls back to the secret.
        if (!(error instanceof TmsApiError) || (error.status !== 401 && error.status !== 400)) throw error
      }
    }
    await this.authenticate()
    return this.current!.accessToken
  }

  private keep(pair: TokenPair, sentAt: number): void {
    if (!pair || typeof pair.accessToken !== 'string' || typeof pair.refreshToken !== 'string') {
      throw new TmsApiError({
        code: 'INVALID_RESPONSE',
        status: 200,
        message: 'POST /auth-api/v2/authenticate failed: the answer has no token pair',
        request: { method: 'POST', url: '/auth-api/v2/authenticate', headers: {} },
      })
    }
    const accessMs = Number(pair.expiresIn) * 1000
    const refreshMs = Number(pair.refreshExpiresIn) * 1000
    this.current = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      renewAt: sentAt + accessMs - margin(accessMs),
      refreshUntil: sentAt + refreshMs - margin(refreshMs),
    }
  }
}
