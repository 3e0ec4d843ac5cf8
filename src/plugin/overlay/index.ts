import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { TmsSession } from '../session'
import { ENDPOINT, overlayEndpoints } from './endpoints'
import { overlayPageCode } from './page-code'
import { OVERLAY_ID, overlayModule, withOverlayHook } from './runtime-hook'

/**
 * The in-context review overlay of `vite serve` (docs/dev-overlay.md): the dev runtime notes which
 * message made which text, the page code opens a panel on Alt+click, and the dev endpoints talk to
 * the service. Only a dev server creates it (vite's here, webpack-dev-server's in webpack.ts); a build
 * has none of it.
 *
 * The folder: `runtime-hook.ts` (the dev runtime notes which catalog id made which text and loads the
 * overlay), `page-code.ts` (the page code, `src/overlay/`, built as dist/overlay-page.mjs, served with a
 * per-server token), `endpoints.ts` (the dev endpoints, calling `src/core/review/`), `guard.ts`
 * (same-origin and token checks), `message-info.ts` (a message's data for the panel).
 */
export class DevOverlay {
  /** A new secret per server: the page gets it in the overlay's module and sends it back. */
  private readonly token = randomBytes(24).toString('base64url')
  private readonly session: TmsSession
  private readonly endpoints
  private base = '/'
  /** The open-in-editor URL up to the file: vite's under its base unless the dev server has its own. */
  private readonly editor: string | undefined

  constructor(session: TmsSession, editor?: string) {
    this.session = session
    this.endpoints = overlayEndpoints(session, this.token)
    this.editor = editor
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
      openInEditor: this.editor ?? `${this.base}__open-in-editor?file=`,
      sourceLocale: options.sourceLocale,
      pseudo: [...options.pseudo],
    })
  }

  /** The dev endpoints' middleware: answers under ENDPOINT, passes anything else on. */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    this.endpoints.handle(req, res, next)
  }

  close(): Promise<void> {
    return this.endpoints.close()
  }

  configureServer(server: ViteDevServer): void {
    this.base = server.config.base || '/'
    server.middlewares.use((req, res, next) => this.handle(req, res, next))
    server.httpServer?.once('close', () => void this.close())
  }
}

export { OVERLAY_ID }

/** `TMS_DEV_OVERLAY=0` (or `off`, `false`) leaves the overlay out of the dev server. */
export function overlayWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.TMS_DEV_OVERLAY?.trim().toLowerCase()
  return value !== '0' && value !== 'off' && value !== 'false'
}
