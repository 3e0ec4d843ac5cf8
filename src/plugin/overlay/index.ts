import { randomBytes } from 'node:crypto'
import type { ViteDevServer } from 'vite'
import type { TmsSession } from '../session'
import { ENDPOINT, overlayEndpoints } from './endpoints'
import { overlayPageCode } from './page-code'
import { OVERLAY_ID, overlayModule, withOverlayHook } from './runtime-hook'

/**
 * The in-context review overlay of `vite serve` (docs/dev-overlay.md): the dev runtime notes which
 * message made which text, the page code opens a panel on Alt+click, and the dev endpoints talk to
 * the service. Only a vite dev server creates it; a build has none of it.
 */
export class DevOverlay {
  /** A new secret per server: the page gets it in the overlay's module and sends it back. */
  private readonly token = randomBytes(24).toString('base64url')
  private readonly session: TmsSession
  private readonly endpoints
  private base = '/'

  constructor(session: TmsSession) {
    this.session = session
    this.endpoints = overlayEndpoints(session, this.token)
  }

  /** The browser's dev runtime module, noting every lookup and loading the overlay. */
  runtime(code: string): string {
    return withOverlayHook(code)
  }

  /** The overlay's module for its id; undefined for any other id. */
  async load(id: string): Promise<string | undefined> {
    if (id !== OVERLAY_ID) return undefined
    await this.session.ready()
    const { options } = this.session
    return overlayModule(await overlayPageCode(), {
      token: this.token,
      endpoint: ENDPOINT,
      openInEditor: `${this.base}__open-in-editor`,
      sourceLocale: options.sourceLocale,
      pseudo: [...options.pseudo],
    })
  }

  configureServer(server: ViteDevServer): void {
    this.base = server.config.base || '/'
    server.middlewares.use((req, res, next) => this.endpoints.handle(req, res, next))
    server.httpServer?.once('close', () => void this.endpoints.close())
  }
}

export { OVERLAY_ID }

/** `TMS_DEV_OVERLAY=0` (or `off`, `false`) leaves the overlay out of the dev server. */
export function overlayWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.TMS_DEV_OVERLAY?.trim().toLowerCase()
  return value !== '0' && value !== 'off' && value !== 'false'
}
