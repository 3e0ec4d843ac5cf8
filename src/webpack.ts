import { unplugin } from './index'

/** The webpack plugin: `import tms from 'unplugin-tms/webpack'`. */
const plugin: typeof unplugin.webpack = unplugin.webpack
export default plugin
