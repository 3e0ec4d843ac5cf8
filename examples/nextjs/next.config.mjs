import { withTms } from 'unplugin-tms/next'

// The plugin in Next's webpack compilers (`next build --webpack`), or Turbopack's loader and the
// generated runtime and catalogs (`next build`, `next dev`): the options come from tms.config.mjs.
export default withTms({
  // The repository's `npm run lint` type-checks this app; a build need not do it again.
  typescript: { ignoreBuildErrors: true },
})
