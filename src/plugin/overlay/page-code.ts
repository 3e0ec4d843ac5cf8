import { shippedCode } from '../shipped-code'

/**
 * The overlay's page code (src/overlay/), served to the dev page only. The package ships it built
 * (`dist/overlay-page.mjs`, next to the plugin's chunk), or it is bundled from its sources
 * (src/plugin/shipped-code.ts).
 */

const BUILT = new URL('./overlay-page.mjs', import.meta.url)
const SOURCE = new URL('../../overlay/index.ts', import.meta.url)
/** The page code imports the app's runtime by this specifier: the same instance as the app's. */
const RUNTIME = 'unplugin-tms/runtime'

let cached: Promise<string> | undefined

export function overlayPageCode(): Promise<string> {
  cached ??= load()
  return cached
}

function load(): Promise<string> {
  return shippedCode({
    built: BUILT,
    source: SOURCE,
    what: 'the dev overlay',
    platform: 'browser',
    external: [RUNTIME],
  })
}
