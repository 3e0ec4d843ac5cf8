import { unplugin } from './index'

/** The esbuild plugin: `import tms from 'unplugin-tms/esbuild'`. */
const plugin: typeof unplugin.esbuild = unplugin.esbuild
export default plugin
