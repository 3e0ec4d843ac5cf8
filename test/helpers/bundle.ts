import { build } from 'esbuild'

const repo = new URL('../../', import.meta.url).pathname

/** `contents` bundled for the browser and minified, as an app's build ships it. */
export async function minifiedBundle(contents: string): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir: repo, loader: 'js' },
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
