import { unplugin } from './index'

/** The rollup plugin: `import tms from 'unplugin-tms/rollup'`. */
const plugin: typeof unplugin.rollup = unplugin.rollup
export default plugin
