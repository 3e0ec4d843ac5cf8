import pkg from '../package.json' with { type: 'json' }

/** The version of unplugin-tms, recorded in caches and sent as the User-Agent. */
export const VERSION: string = pkg.version
