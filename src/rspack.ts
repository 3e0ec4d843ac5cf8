import { unplugin } from './index'

/** The rspack plugin: `import tms from 'unplugin-tms/rspack'`. */
const plugin: typeof unplugin.rspack = unplugin.rspack
export default plugin
