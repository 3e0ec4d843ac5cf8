import { build } from 'esbuild'

const repo = new URL('../../', import.meta.url).pathname

/** What a caller may add to the bundling: modules left out, globals replaced (`process.env.NODE_ENV`). */
export interface BundleOptions {
  external?: string[]
  define?: Record<string, string>
}

/** `contents` bundled for the browser and minified, as an app's build ships it. */
export async function minifiedBundle(contents: string, options: BundleOptions = {}): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir: repo, loader: 'js' },
    external: options.external ?? [],
    define: options.define ?? {},
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.contents
}
