import { jsString } from '../../core/js-string'
import { exportedFunction } from './exports'

/**
 * What the dev page's runtime module gets appended (vite serve, browser only): every lookup notes
 * which catalog id produced which text, so the overlay can find the message behind a text of the page
 * (a map, not markers: the texts the app sees stay exactly what a build would give it). Then it
 * loads the overlay. A production build never calls this.
 */

export const OVERLAY_ID = '\0tms/overlay.js'
/** Texts noted at most: an app that formats ever new values (a clock) must not grow the map forever. */
const KEPT = 20_000

/** The runtime module with the note-taking lookup and the overlay's import; unchanged without a lookup to wrap. */
export function withOverlayHook(runtimeModule: string): string {
  const lookup = exportedFunction(runtimeModule, '_l')
  const getLocale = exportedFunction(runtimeModule, 'getLocale')
  const onLocaleChange = exportedFunction(runtimeModule, 'onLocaleChange')
  if (!lookup || !getLocale || !onLocaleChange) return runtimeModule
  return `${runtimeModule}
const __tms_seen = new Map();
function __tms_note(id, out) {
  const texts = typeof out === 'string' ? [out] : Array.isArray(out) ? out.filter((p) => typeof p === 'string') : [];
  for (const raw of texts) {
    const text = raw.trim();
    if (!text) continue;
    const ids = __tms_seen.get(text);
    if (ids && ids[0] === id) continue;
    __tms_seen.delete(text);
    __tms_seen.set(text, ids ? [id, ...ids.filter((i) => i !== id)] : [id]);
    if (__tms_seen.size > ${KEPT}) __tms_seen.delete(__tms_seen.keys().next().value);
  }
}
{
  const lookup = ${lookup};
  ${lookup} = function () {
    const out = lookup.apply(this, arguments);
    __tms_note(arguments[0], out);
    return out;
  };
}
import(${jsString(OVERLAY_ID)}).then((m) => m.${ATTACH}({ seen: __tms_seen, getLocale: ${getLocale}, onLocaleChange: ${onLocaleChange} }));
`
}

/** The export of the overlay's module the runtime calls with its view of the lookups. */
const ATTACH = '__tms_attach'

/**
 * The overlay's module: its page code, and the function the runtime starts it with, holding this
 * server's settings (the token among them). The page code imports nothing: the runtime hands it what
 * it needs, so there is no import cycle between the two modules.
 */
export function overlayModule(pageCode: string, settings: OverlaySettings): string {
  const start = exportedFunction(pageCode, 'start')
  if (!start)
    throw new Error('[unplugin-tms] the dev overlay has no start function; the package is damaged, reinstall')
  return `${pageCode}\nexport function ${ATTACH}(runtime) { ${start}(${JSON.stringify(settings)}, runtime); }\n`
}

/** What the page needs from the dev server. */
export interface OverlaySettings {
  /** The per-server secret the endpoints require (see guard.ts). */
  token: string
  /** Where the endpoints are. */
  endpoint: string
  /** The dev server's open-in-editor URL up to the file's value (`/__open-in-editor?file=`). */
  openInEditor: string
  sourceLocale: string
  pseudo: string[]
}
